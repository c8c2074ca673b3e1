"""netmiko logs every byte it sends: the router's password and enable secret, and the type 7
secrets push sends (``password 7 ...``, ``digest secret 7 ...``), are masked in netmiko's and
paramiko's log records before a handler sees them (``device/credentials.py``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from l2tpgen.device.credentials import install_redaction

if TYPE_CHECKING:
    import pytest

PASSWORD = "c0rrect-h0rse"  # noqa: S105 - a test value
ENABLE = "b4ttery-st4ple"


def test_the_login_secrets_and_type_7_strings_are_masked_in_netmiko_and_paramiko_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    install_redaction(PASSWORD, ENABLE, "")
    caplog.set_level(logging.DEBUG)
    logging.getLogger("netmiko").debug("write_channel: b'%s\\n'", PASSWORD)
    logging.getLogger("paramiko").debug("enable then %s", ENABLE)
    logging.getLogger("netmiko").debug(" password 7 0822455D0A16")  # the l2tp-class secret
    assert PASSWORD not in caplog.text
    assert ENABLE not in caplog.text
    assert "0822455D0A16" not in caplog.text
    assert caplog.text.count("<masked>") == 3


def test_a_record_without_a_secret_is_kept_as_it_was(caplog: pytest.LogCaptureFixture) -> None:
    install_redaction(PASSWORD)
    caplog.set_level(logging.DEBUG)
    logging.getLogger("netmiko").debug("read_channel: %s", "lab-a-rtr1#")
    assert [r.getMessage() for r in caplog.records] == ["read_channel: lab-a-rtr1#"]
