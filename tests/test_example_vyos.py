"""examples/vyos: a Cisco site and a VyOS site, the starting point for a fleet with VyOS.

VyOS speaks static sessions only (no control channel, no cookies: vyos/vyos-1x
``interface-definitions/interfaces_l2tpv3.xml.in``) and carries iproute2's sublayer without
sequence numbers (docs/site-files.md#vyos-pes), so the example's pair is static, cookie-less,
``sequencing: transmit``, on a trusted path (VyOS gets no inbound filter from l2tpgen). Before
issue 36 no example had a VyOS site: `examples/hub` and `sites/` refuse `--platform vyos`.
The IOS-XE end is also checked against Cisco's YANG with every example (tests/test_iosxe_yang.py).
"""

from __future__ import annotations

import json

from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen.cli import app

VYOS = ROOT / "examples" / "vyos"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout


def test_the_vyos_example_validates_with_one_vyos_and_one_cisco_site() -> None:
    code, out = _run("validate", "--sites", str(VYOS), "--format", "json")
    assert code == 0
    summary = json.loads(out)
    assert summary["ok"] is True
    assert sorted(summary["sites"]) == ["dc", "vyos-branch"]
    assert summary["pseudowires"] == 2
    assert summary["warnings"] == []


def test_the_vyos_example_renders_vyos_set_commands_for_its_vyos_site() -> None:
    code, text = _run("render", "vyos-branch", "--sites", str(VYOS))
    assert code == 0
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert all(line.startswith("set ") for line in lines)
    for vlan in (300, 301):  # one static session per VLAN, both IDs the VC ID, to the DC
        assert f"set interfaces l2tpv3 l2tpeth{vlan} remote '10.255.2.1'" in lines
        assert f"set interfaces l2tpv3 l2tpeth{vlan} session-id '{vlan}'" in lines
        assert f"set interfaces l2tpv3 l2tpeth{vlan} peer-session-id '{vlan}'" in lines


def test_the_vyos_example_renders_static_sessions_for_its_cisco_site() -> None:
    code, text = _run("render", "dc", "--sites", str(VYOS))
    assert code == 0
    assert "xconnect 10.255.2.2 300 encapsulation l2tpv3 manual pw-class ethernet" in text
    assert "  l2tp id 300 300" in text
    assert " sequencing transmit" in text  # the peer uses VyOS's sublayer too


def test_the_vyos_example_lints_clean() -> None:
    code, out = _run("lint", "--sites", str(VYOS), "--format", "json")
    assert code == 0
    assert json.loads(out) == []


def test_the_readme_lists_the_vyos_example() -> None:
    assert "examples/vyos" in (ROOT / "README.md").read_text()
