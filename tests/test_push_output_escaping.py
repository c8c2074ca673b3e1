"""Router text reaches the operator's terminal escaped in diff and push output; JSON stays exact.

An owned section can hold anything a router's running config holds: a description with
``ESC[2J`` (clear the screen), an OSC title sequence, U+202E (right-to-left override, which makes
``-xconnect`` read as something else). While the operator reads the diff they approve, none of it
may act on the terminal. lint escapes the same way (``l2tpgen.cli.app.safe``).
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import SITES

from l2tpgen import load_fleet, render_site
from l2tpgen.cli.push_output import pair_dict, print_result, result_dict, summary
from l2tpgen.device import PushResult
from l2tpgen.device.fleet import FleetReport, PairState
from l2tpgen.device.plan import plan_change
from l2tpgen.device.result import Status
from l2tpgen.device.verify import PseudowireState

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;owned\x07"
RLO = "\u202e"
BELL_CR = "\r\x07"
HOSTILE = f"l2tpgen: VLAN 2997 {CLEAR}{TITLE}{RLO}{BELL_CR}x"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _plan_diff() -> tuple[str, tuple[str, ...]]:
    """A real plan's diff and commands: an owned subinterface's description holds the sequences."""
    fleet = load_fleet(SITES)
    want = render_site(fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": "x1"})
    running = want.replace(
        " description l2tpgen: VLAN 2997 cluster to site-b\n", f" description {HOSTILE}\n"
    )
    plan = plan_change(fleet.site("site-a"), running, want)
    assert CLEAR in plan.diff("site-a")  # the library keeps the router's text exact
    return plan.diff("site-a"), plan.commands


def _result() -> PushResult:
    diff, commands = _plan_diff()
    return PushResult(
        site="site-a",
        status=Status.ROLLED_BACK,
        message=f"the router refused `{HOSTILE}`",
        diff=diff,
        commands=(*commands, f" remark {HOSTILE}"),
        errors=(f"% Invalid input {HOSTILE}",),
        notices=(f"router said {HOSTILE}",),
        notes=(f"pseudowire-class {HOSTILE} is in use",),
    )


@pytest.mark.parametrize("diff_shown", [True, False], ids=["with-diff", "result-only"])
def test_router_text_in_a_push_result_never_reaches_the_terminal_raw(
    capsys: pytest.CaptureFixture[str], diff_shown: bool
) -> None:
    print_result(_result(), "site-a (192.0.2.11)", diff=diff_shown)
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert RAW.search(shown) is None, repr(RAW.search(shown))
    assert "\\x1b[2J" in shown
    if diff_shown:
        assert "\\u202e" in shown
        line = "- description l2tpgen: VLAN 2997 \\x1b[2J\\x1b]0;owned\\x07\\u202e\n"
        assert line in shown


def test_router_text_in_the_summary_table_and_pair_rows_never_reaches_the_terminal_raw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pair = PairState("site-a", "site-b", 2997, 127, f"UP{CLEAR}", f"DN{RLO}")
    summary(FleetReport((_result(),), (pair,), (f"verify: {TITLE}",)))
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert RAW.search(shown) is None, repr(RAW.search(shown))
    assert "\\x1b" in shown


def test_the_json_document_is_valid_ascii_and_gives_back_the_routers_text_exactly() -> None:
    result = _result()
    document = json.dumps({"results": [result_dict(result)]}, indent=2)
    assert RAW.search(document) is None
    back = json.loads(document)["results"][0]
    assert back["diff"] == result.diff
    assert back["message"] == result.message
    assert back["commands"] == list(result.commands)
    pair = PairState("site-a", "site-b", 2997, 127, f"UP{CLEAR}", "UP")
    assert json.loads(json.dumps(pair_dict(pair)))["here"] == f"UP{CLEAR}"


def test_router_text_in_verifys_table_never_reaches_the_terminal_raw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner  # noqa: PLC0415

    from l2tpgen.cli.app import app  # noqa: PLC0415

    # What a router's `show xconnect` / session table can carry in the peer and state columns.
    state = PseudowireState(
        "site-a", 2996, "GigabitEthernet0/0.2996", "10.216.44.47", 126, "WRONG-PEER",
        f"est{CLEAR}", detail=f"l2tp 10.0.0.1{TITLE}{RLO}:126",
    )  # fmt: skip
    monkeypatch.setattr("l2tpgen.device.fleet.verify_fleet", lambda *_args, **_kw: ([state], []))
    monkeypatch.setenv("L2TPGEN_USERNAME", "u")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "p")
    result = CliRunner().invoke(app, ["verify", "site-a", "--sites", str(SITES)])
    assert result.exit_code == 1, result.output
    shown = result.stdout + result.stderr
    assert "WRONG-PEER" in shown
    assert RAW.search(shown) is None, repr(RAW.search(shown))
