"""Every place that states a pseudowire's MTU states the same number (issue 19, item 2).

The reference is the model's answer (``Pseudowire.budget``: the smaller WAN MTU, the pair's cookie
and sublayer, ESP when IPsec protects it, the dot1Q tag counted as carried when either end is a
Cisco subinterface). Each place is read from its own output, as a user sees it: the rendered
configuration's ``mtu`` lines (IOS static attachment circuits, iproute2, networkd ``MTUBytes``),
``hosts --format json``, ``docs`` (the fleet page's table), ``lab build``'s CE labels (which the
lab's MTU check reads back through ``parse_lab``), ``mtu --format json`` given the options that
describe the pseudowire, and ``lint`` (L2T013) on the rendered Cisco config.

One legitimate difference: a pseudowire whose two ends both run Linux carries no tag (the LAN
subinterface ``ethX.VLAN`` removes it before the frame is bridged into ``l2tpethX``), so its MTU is
4 bytes (``ETHERNET_DOT1Q_TAG``) higher. The linux-flavor lab runs every PE on Linux
(``Fleet.on_platform``), so its labels are the model's answer plus 4 where the model counts the tag.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.model.load import load_fleet

if TYPE_CHECKING:
    from l2tpgen.model.fleet import Fleet, Pseudowire

ROOT = Path(__file__).resolve().parent.parent
FLEETS = ["sites", "examples/hub", "examples/field", "examples/protected", "examples/ipv6"]
TAG = 4  # an 802.1Q tag: 4 bytes (IEEE 802.1Q), carried or not
runner = CliRunner()


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _pseudowires(fleet: Fleet) -> list[Pseudowire]:
    return [pw for name in sorted(fleet.sites) for pw in fleet.pseudowires(name)]


def _model(pw: Pseudowire) -> int:
    return pw.budget.max_inner_mtu


def _linux_to_linux(pw: Pseudowire) -> int:
    """Both ends on Linux: no tag travels, so 4 bytes more fit (when the model counted one)."""
    return pw.budget.max_inner_mtu + (TAG if pw.budget.dot1q else 0)


@pytest.fixture(scope="module", params=FLEETS)
def fleet_dir(request: pytest.FixtureRequest) -> Path:
    return ROOT / str(request.param)


def _ios_mtus(text: str) -> dict[int, int | None]:
    """VLAN -> the `mtu` line of its xconnect subinterface (None: no mtu line)."""
    found: dict[int, int | None] = {}
    for block in text.split("\n!"):
        head = re.search(r"^interface \S+\.(\d+)$", block, re.MULTILINE)
        if head and " xconnect " in block:
            line = re.search(r"^ mtu (\d+)$", block, re.MULTILINE)
            found[int(head.group(1))] = int(line.group(1)) if line else None
    return found


def _iproute2_mtus(text: str) -> dict[int, int]:
    return {
        int(m.group(1)): int(m.group(2))
        for m in re.finditer(r"^ip link set dev l2tp(\d+) up mtu (\d+)$", text, re.MULTILINE)
    }


def test_rendered_configs_state_the_model_mtu_on_every_platform(
    fleet_dir: Path, tmp_path: Path
) -> None:
    fleet = load_fleet(fleet_dir)
    for pw in _pseudowires(fleet):
        site, vlan = pw.site.name, pw.vlan.id
        text = _run("render", site, "--sites", str(fleet_dir))
        if pw.site.is_cisco:
            mtus = _ios_mtus(text)
            # A static session cannot use ip pmtu: its subinterface gets the budget. A dynamic
            # one discovers it (ip pmtu in the class): no mtu line.
            assert mtus[vlan] == (_model(pw) if pw.static else None), (site, vlan)
            # The same site rendered for Linux keeps the pair's answer: its peer's file (the
            # model) still says the other end is what it is, and renders to the same number.
            linux = _run("render", site, "--sites", str(fleet_dir), "--platform", "linux")
            assert _iproute2_mtus(linux)[vlan] == _model(pw), (site, vlan)
        else:
            assert _iproute2_mtus(text)[vlan] == _model(pw), (site, vlan)
        # networkd cannot express IPsec or cookies (render refuses them, saying so)
        if not pw.protection.esp and not pw.cookie_size:
            out = tmp_path / f"{site}-{vlan}"
            platform = ["--platform", "linux"] if pw.site.is_cisco else []
            _run("render", site, "--sites", str(fleet_dir), *platform, "--format", "networkd",
                 "-o", str(out))  # fmt: skip
            network = r"Name=l2tp(\d+).*?MTUBytes=(\d+)"  # the l2tpeth's [Match] and [Link]
            mtus = {
                int(m.group(1)): int(m.group(2))
                for f in out.glob("*l2tp*.network")
                for m in [re.search(network, f.read_text(), re.DOTALL)]
                if m
            }
            assert mtus[vlan] == _model(pw), (site, vlan)


def test_hosts_states_the_model_mtu(fleet_dir: Path) -> None:
    fleet = load_fleet(fleet_dir)
    for name in sorted(fleet.sites):
        data = json.loads(_run("hosts", name, "--sites", str(fleet_dir), "--format", "json"))
        stated = {v["vlan"]: v["inner_mtu"] for v in data["vlans"]}
        assert stated == {pw.vlan.id: _model(pw) for pw in fleet.pseudowires(name)}, name


def test_fleet_page_states_the_model_mtu(fleet_dir: Path) -> None:
    fleet = load_fleet(fleet_dir)
    page = _run("docs", "--sites", str(fleet_dir))
    rows = {
        (int(cells[0]), cells[2]): int(cells[-1].split()[0])
        for line in page.splitlines()
        if re.match(r"^\| \d+ \|", line)
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    for pw in _pseudowires(fleet):
        pair = " - ".join(sorted((pw.site.name, pw.peer.name)))
        assert rows[(pw.vlan.id, pair)] == _model(pw), (pw.vlan.id, pair)


def _mtu_options(pw: Pseudowire) -> list[str]:
    budget = pw.budget
    options = ["--wan-mtu", str(budget.wan_mtu), "--cookie", str(budget.cookie)]
    options.append("--sublayer" if budget.sublayer else "--no-sublayer")
    if budget.ipv6:
        options.append("--ipv6")  # the 40-byte outer IPv6 header
    if not (pw.site.is_cisco or pw.peer.is_cisco):
        options.append("--no-dot1q")  # Linux to Linux: no tag; with a Cisco end the default
    if budget.esp:
        options += ["--ipsec", budget.esp.mode, "--transform", budget.esp.transform]
        options.append("--nat-t" if budget.esp.nat_t else "--no-nat-t")
    return options


def test_mtu_command_default_is_the_rendered_design(fleet_dir: Path) -> None:
    for pw in _pseudowires(load_fleet(fleet_dir)):
        data = json.loads(_run("mtu", *_mtu_options(pw), "--format", "json"))
        assert data["max_inner_mtu"] == _model(pw), (pw.site.name, pw.vlan.id)


def test_mtu_command_keeps_untagged_behind_no_dot1q() -> None:
    # 1500 - 20 (IPv4) - 4 (session ID) - 14 (Ethernet) = 1462 untagged, 1458 with the tag.
    assert json.loads(_run("mtu", "--format", "json"))["max_inner_mtu"] == 1458
    untagged = json.loads(_run("mtu", "--no-dot1q", "--format", "json"))
    assert untagged["max_inner_mtu"] == 1462


def test_the_ipv6_fleet_budgets_the_40_byte_ipv6_header() -> None:
    # By hand: 1500 - 40 (IPv6 header, RFC 8200) - 4 (session ID) - 4 (cookie, static default)
    # - 14 (Ethernet; Linux to Linux, no tag) = 1438, 20 less than over IPv4 (1458).
    fleet = load_fleet(ROOT / "examples" / "ipv6")
    assert {_model(pw) for pw in _pseudowires(fleet)} == {1438}
    over_ipv4 = ["mtu", "--cookie", "4", "--no-dot1q", "--format", "json"]
    assert json.loads(_run(*over_ipv4))["max_inner_mtu"] == 1458
    assert json.loads(_run(*over_ipv4, "--ipv6"))["max_inner_mtu"] == 1438


def _lab(fleet_dir: Path, flavor: str) -> dict[str, Any]:
    text = _run("lab", "build", "--sites", str(fleet_dir), "--flavor", flavor)
    data: dict[str, Any] = yaml.safe_load(text)
    return data


@pytest.mark.parametrize("flavor", ["linux", "cisco_iol"])
def test_lab_labels_and_check_expect_the_model_mtu(fleet_dir: Path, flavor: str) -> None:
    fleet = load_fleet(fleet_dir)
    topology = _lab(fleet_dir, flavor)
    lab = parse_lab(topology)  # what `lab run`'s MTU check reads back
    ces = {ce.site: ce for ce in lab.ces}
    nodes = topology["topology"]["nodes"]
    for pw in _pseudowires(fleet):
        linux_pair = flavor == "linux" or not (pw.site.is_cisco or pw.peer.is_cisco)
        want = _linux_to_linux(pw) if linux_pair else _model(pw)
        assert ces[pw.site.name].mtu_for(pw.vlan.id) == want, (flavor, pw.site.name, pw.vlan.id)
        pe = nodes[f"pe-{pw.site.name}"]
        if pe["kind"] == "linux":  # the PE's own l2tpeth MTU is the same number
            assert _iproute2_mtus("\n".join(pe["exec"]))[pw.vlan.id] == want


def test_lint_budget_on_rendered_static_circuits_is_the_model_mtu(
    fleet_dir: Path, tmp_path: Path
) -> None:
    fleet = load_fleet(fleet_dir)
    for name in sorted(n for n, s in fleet.sites.items() if s.is_cisco):
        text = _run("render", name, "--sites", str(fleet_dir))
        config = tmp_path / f"{name}.cfg"
        config.write_text(text)
        lint = ["lint", "-c", str(config), "--select", "L2T013", "--format", "json"]
        clean = runner.invoke(app, lint)
        assert clean.exit_code == 0, clean.output
        assert "L2T013" not in clean.output, clean.output
        for pw in fleet.pseudowires(name):
            if not pw.static:
                continue
            # One byte above the model's answer on this AC: lint must call it too large.
            over = re.sub(
                rf"(interface \S+\.{pw.vlan.id}\n(?: .*\n)*? mtu ){_model(pw)}\n",
                rf"\g<1>{_model(pw) + 1}\n",
                text,
            )
            assert over != text
            config.write_text(over)
            flagged = runner.invoke(app, lint)
            assert flagged.exit_code == 1, flagged.output
            assert "L2T013" in flagged.output, (name, pw.vlan.id)
