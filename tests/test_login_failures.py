"""Login failures that 127.0.0.1 cannot stage, as netmiko raises them: one line each.

A name that does not resolve, a TCP connection that times out, an unreachable host.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from netmiko.exceptions import NetmikoTimeoutException
from paramiko.ssh_exception import NoValidConnectionsError

from l2tpgen.device.connection import explain
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target

TARGET = Target("site-a", "rtr-a.example", 22, "cisco_ios", Path("known_hosts"))
LOGIN = Credentials("admin", "pw-not-printed")


def _raised_during(inner: BaseException, outer: BaseException) -> BaseException:
    """``outer`` as netmiko raises it: inside the handler of ``inner``."""
    outer.__context__ = inner
    return outer


def test_a_tcp_connection_that_times_out_names_the_phase_and_the_timeout() -> None:
    exc = _raised_during(TimeoutError("timed out"), NetmikoTimeoutException("TCP connection"))
    assert str(explain(TARGET, LOGIN, exc, 10)) == (
        "no answer to the TCP connection on port 22 within 10 s; check that the router is up "
        "and that no firewall drops SSH on the way"
    )


def test_a_name_that_does_not_resolve_names_the_host() -> None:
    failure = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    exc = _raised_during(failure, NetmikoTimeoutException("DNS failure"))
    assert str(explain(TARGET, LOGIN, exc, 10)) == (
        "the name rtr-a.example does not resolve; check the host in the inventory or the site file"
    )


def test_an_unreachable_host_says_why_in_one_line() -> None:
    unreachable = OSError(errno.EHOSTUNREACH, "No route to host")
    gathered = NoValidConnectionsError({("192.0.2.1", 22): unreachable})
    exc = _raised_during(gathered, NetmikoTimeoutException("TCP connection to device failed.\n"))
    assert str(explain(TARGET, LOGIN, exc, 10)) == "cannot reach port 22: No route to host"


def test_an_unexpected_failure_is_named_by_its_type_only() -> None:
    exc = RuntimeError("multi\nline text that may quote pw-not-printed")
    message = str(explain(TARGET, LOGIN, exc, 10))
    assert message == (
        "the SSH login failed (RuntimeError); check the address and port, and that the router "
        "accepts SSH from this machine"
    )
