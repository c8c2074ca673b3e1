"""Every place that states a pseudowire's MTU states the same number (issue 19, item 2).

The reference is the model's answer (``Pseudowire.budget``: the smaller WAN MTU, the pair's cookie
and sublayer, ESP when IPsec protects it, the dot1Q tag counted as carried when either end is a
Cisco subinterface). Each place is read from its own output, as a user sees it: the rendered
configuration of every site by every registered driver that can express it (``DRIVERS``, each
format read by ``MTU_READERS``: IOS static attachment circuits' ``mtu``, iproute2, networkd
``MTUBytes``, VyOS ``set interfaces l2tpv3 ... mtu``; a new driver fails the reader test until
it is taught), ``render SITE`` on the command line,
``hosts --format json``, ``docs`` (the fleet page's table), ``lab build``'s CE labels (which the
lab's MTU check reads back through ``parse_lab``), ``mtu --format json`` given the options that
describe the pseudowire, and ``lint`` (L2T013) on the rendered Cisco config.

A pseudowire whose two ends both run Linux carries no tag (the LAN subinterface ``ethX.VLAN``
removes it before the frame is bridged into ``l2tpethX``), so the model counts none for it. The
lab runs each Linux or VyOS end as rendered and emulates a Cisco end with the tag it carries
(``lab/faithful.py``), so in every flavor its labels are the model's answer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from builders import VYOS_EDGE, hub_fleet, vyos_ipsec_fleet
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.errors import RenderError
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.model.load import load_fleet
from l2tpgen.platforms.render import render_files
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.model.fleet import Fleet
    from l2tpgen.model.pseudowire import Pseudowire

ROOT = Path(__file__).resolve().parent.parent
FLEETS = ["sites", "examples/hub", "examples/field", "examples/protected", "examples/ipv6"]
runner = CliRunner()


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _pseudowires(fleet: Fleet) -> list[Pseudowire]:
    return [pw for name in sorted(fleet.sites) for pw in fleet.pseudowires(name)]


def _model(pw: Pseudowire) -> int:
    return pw.budget.max_inner_mtu


def _vyos_fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/hub with its Linux edge a VyOS PE (test_vyos: what VyOS can express)."""
    return hub_fleet(tmp_path_factory.mktemp("vyos"), *VYOS_EDGE)


def _vyos_ipsec_fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/protected with a Linux and a VyOS end, IPsec (test_vyos_ipsec)."""
    return vyos_ipsec_fleet(tmp_path_factory.mktemp("vyos-ipsec"))


EXTRA = {"vyos-edge": _vyos_fleet, "vyos-ipsec": _vyos_ipsec_fleet}


def _fleet_dirs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return [ROOT / fleet for fleet in FLEETS] + [f(tmp_path_factory) for f in EXTRA.values()]


@pytest.fixture(scope="module", params=[*FLEETS, *EXTRA])
def fleet_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if request.param in EXTRA:
        return EXTRA[request.param](tmp_path_factory)
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
        for m in re.finditer(
            r"^ip link set dev l2tp(?:eth)?(\d+) (?:up )?mtu (\d+)$", text, re.MULTILINE
        )
    }


def _vyos_mtus(text: str) -> dict[int, int]:
    return {
        int(m.group(1)): int(m.group(2))
        for m in re.finditer(
            r"^set interfaces l2tpv3 l2tpeth(\d+) mtu '(\d+)'$", text, re.MULTILINE
        )
    }


def _networkd_mtus(files: Mapping[str, str]) -> dict[int, int]:
    network = r"Name=l2tp(\d+).*?MTUBytes=(\d+)"  # the l2tpeth's [Match] and [Link]
    return {
        int(m.group(1)): int(m.group(2))
        for name, text in files.items()
        if "l2tp" in name and name.endswith(".network")
        for m in [re.search(network, text, re.DOTALL)]
        if m
    }


def _text(files: Mapping[str, str]) -> str:
    return "\n".join(files.values())


# How each driver's output states a pseudowire's MTU, per format (VLAN -> MTU; None: the
# session discovers it, IOS's `ip pmtu` on a dynamic session). A new platform's driver is
# rendered here as soon as it is registered; this test fails until it is taught to read it.
MTU_READERS: dict[tuple[str, str], Callable[[Mapping[str, str]], Mapping[int, int | None]]] = {
    ("ios", "ios"): lambda files: _ios_mtus(_text(files)),
    ("iosxe", "ios"): lambda files: _ios_mtus(_text(files)),
    ("linux", "iproute2"): lambda files: _iproute2_mtus(_text(files)),
    ("linux", "networkd"): _networkd_mtus,
    ("vyos", "set"): lambda files: _vyos_mtus(_text(files)),
}
RENDERED = [(d.name, fmt) for d in DRIVERS.values() for fmt in d.formats]


def test_every_registered_driver_format_has_an_mtu_reader() -> None:
    assert sorted(RENDERED) == sorted(MTU_READERS)


@pytest.mark.parametrize(("platform", "fmt"), RENDERED, ids=[f"{p}-{f}" for p, f in RENDERED])
def test_rendered_configs_state_the_model_mtu_on_every_platform(
    platform: str, fmt: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every site of every fleet rendered by every driver that can express it (the registry's).

    A site rendered for another platform keeps the pair's answer: its peer's file (the model)
    still says the other end is what it is, and renders to the same number. A driver that cannot
    express a site refuses it (RenderError); each driver must render some pseudowire here.
    """
    read = MTU_READERS[platform, fmt]
    compared = 0
    for fleet_dir in _fleet_dirs(tmp_path_factory):
        fleet = load_fleet(fleet_dir)
        for name in sorted(fleet.sites):
            try:
                files = render_files(fleet, name, fmt, platform=platform)
            except RenderError:
                continue
            stated = read(files)
            for pw in fleet.pseudowires(name):
                where = (str(fleet_dir), name, pw.vlan.id)
                if stated[pw.vlan.id] is None:  # discovered: only a dynamic session may
                    assert not pw.static, where
                else:
                    assert stated[pw.vlan.id] == _model(pw), where
                compared += 1
    assert compared > 0, f"{platform} {fmt} rendered no pseudowire of the fleets"


def test_render_on_the_command_line_states_the_model_mtu(fleet_dir: Path) -> None:
    """What a user runs, `render SITE` (the site's own platform), says what the model says."""
    fleet = load_fleet(fleet_dir)
    for pw in _pseudowires(fleet):
        site, vlan = pw.site.name, pw.vlan.id
        text = _run("render", site, "--sites", str(fleet_dir))
        platform = pw.site.effective_platform
        fmt = DRIVERS[platform].formats[0]
        stated = MTU_READERS[platform, fmt]({"": text})
        assert stated[vlan] == (_model(pw) if pw.static else None), (site, vlan)


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
    if not pw.dot1q_carried:
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
        # Every flavor runs the rendered ends (a Cisco one emulated with the tag it carries):
        # the lab expects the model's number, the one `render`, `mtu` and `docs` state.
        want = _model(pw)
        assert ces[pw.site.name].mtu_for(pw.vlan.id) == want, (flavor, pw.site.name, pw.vlan.id)
        pe = nodes[f"pe-{pw.site.name}"]
        if pe["kind"] == "linux":  # the PE's own session MTU is the same number
            assert _iproute2_mtus("\n".join(pe["exec"]))[pw.vlan.id] == want


def test_lint_budget_on_rendered_static_circuits_is_the_model_mtu(
    fleet_dir: Path, tmp_path: Path
) -> None:
    fleet = load_fleet(fleet_dir)
    for name in sorted(n for n, s in fleet.sites.items() if s.driver.ios_config):
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
