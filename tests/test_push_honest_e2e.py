"""What push reports is true: refused secret lines stay masked, an unsaved change is not passed
off as saved, rollback copies are pruned, and the state directory is private. Over real SSH
against simulated routers (netmiko unmodified, no mocks).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from conftest_sim import L2TP_SECRET, Lab
from push_runs import cli, push

from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    import pytest


def _spellings(secret: str) -> list[str]:
    """Every form of ``secret`` a router or l2tpgen writes: clear, and type 7 under each salt."""
    return [secret, *(type7_encode(secret, salt) for salt in range(16))]


# -- 1: a refused secret line ---------------------------------------------------------------------


def test_a_refused_secret_line_is_masked_in_text_table_json_and_logs(
    new_lab: Callable[..., Lab], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    # The router refuses the l2tp-class secret line (as IOS refuses a line it does not take).
    lab = new_lab(faults={"site-a": Faults(refuse=r"^password ")})
    before = lab.running("site-a")
    text = cli(lab, "push", "site-a", "--yes")
    as_json = cli(lab, "push", "site-a", "--yes", "--format", "json")
    assert (text.exit_code, as_json.exit_code) == (3, 3), text.output
    (result,) = json.loads(as_json.stdout)["results"]
    assert result["status"] == "rolled-back"
    # The refusal is reported (masked), in the message and in the errors.
    assert "the router refused `password 7 <masked>`" in result["message"]
    assert result["errors"][0].startswith("password 7 <masked>: % Invalid input")
    assert "refused: password 7 <masked>" in text.output
    everything = "\n".join([text.output, as_json.output, caplog.text])
    assert [s for s in _spellings(L2TP_SECRET) if s in everything] == []
    assert lab.running("site-a") == before
