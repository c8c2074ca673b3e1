"""What push leaves on the router, over real SSH against simulated routers: rollback copies, a
rollback judged as IOS prints configs, classes changed make-before-break, what push owns, the
tunnel loopback and its routes, and secrets kept out of every output.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
import shutil
import stat
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING

from conftest import SITES
from conftest_sim import L2TP_SECRET, Lab
from push_runs import (
    cli,
    config_lines,
    entered_config_mode,
    exec_lines,
    on_a_terminal,
    push,
    section,
)

from l2tpgen import load_fleet
from l2tpgen.device import rollback_copy
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.ios.volatile import config_body
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.platforms.render import render_site
from l2tpgen.render.classes import RENDER_SALT
from l2tpgen.sim import Faults
from l2tpgen.sim.config import Config
from l2tpgen.sim.flavor import IOS_XE

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    import pytest


HUB = SITES.parent / "examples" / "hub"
# site-a's xconnect of VLAN 2997 (to site-b's WAN address, VC ID 127)
REFUSE_AT_A = r"^xconnect 10\.216\.44\.47 127 "


def _routes(running: str) -> list[str]:
    return sorted(line for line in running.splitlines() if line.startswith("ip route "))


# -- 9: rollback copies -------------------------------------------------------------------------


def test_two_pushes_in_the_same_second_keep_two_rollback_copies_on_the_router_and_locally(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    frozen = time.time()  # both pushes name their copy at this very microsecond
    clock = SimpleNamespace(time=lambda: frozen, strftime=time.strftime, gmtime=time.gmtime)
    monkeypatch.setattr(rollback_copy, "time", clock)
    lab = new_lab()
    router = lab.device("site-a").router
    shown = [router.running.show()]
    code, (first,) = push(lab, "site-a")
    assert (code, first["status"]) == (0, "changed"), first
    router.load("no interface GigabitEthernet0/0.2998")  # changed by hand: the next push changes it
    shown.append(router.running.show())
    code, (second,) = push(lab, "site-a")
    assert (code, second["status"]) == (0, "changed"), second
    names = [str(first["rollback_file"]), str(second["rollback_file"])]
    assert names[0] != names[1]
    for name in names:
        assert re.fullmatch(r"flash:l2tpgen-site-a-\d{8}T\d{12}-[0-9a-f]{4}\.cfg", name), name
    assert sorted(f"flash:{file}" for file in router.files) == sorted(names)
    for name, before in zip(names, shown, strict=True):
        local = tmp_path / "state" / "rollback" / name.removeprefix("flash:")
        assert stat.S_IMODE(local.stat().st_mode) == 0o600
        assert config_body(local.read_text(encoding="utf-8")) == config_body(before)
        assert router.files[name.removeprefix("flash:")].show() == before


# -- 10: volatile lines -------------------------------------------------------------------------


def test_a_rollback_is_judged_without_the_ntp_clock_period_the_router_keeps_changing(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    periods = itertools.count(17208943)
    read: list[int] = []
    plain = Config.show

    def drifting(config: Config) -> str:  # as IOS: the clock-period moves between two reads
        read.append(next(periods))
        return plain(config).removesuffix("end\n") + f"ntp clock-period {read[-1]}\nend\n"

    monkeypatch.setattr(Config, "show", drifting)
    lab = new_lab(faults={"site-a": Faults(refuse=REFUSE_AT_A)})
    before = lab.running("site-a")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (3, "rolled-back"), result
    assert "the router is as before" in str(result["message"])
    assert lab.running("site-a") == before
    assert len(set(read)) >= 2  # the push read the config at least twice, never the same


# -- 11: make-before-break ----------------------------------------------------------------------


def test_a_live_class_without_ip_pmtu_is_rebuilt_under_a_new_name_and_the_xconnects_moved(
    new_lab: Callable[..., Lab],
) -> None:
    fleet = load_fleet(SITES)
    intended = render_site(
        fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET}
    )
    assert intended.count(" ip pmtu\n") == 1
    lab = new_lab(configs={"site-a": intended.replace(" ip pmtu\n", "")})
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert any("pseudowire-class ethernet is in use" in note for note in result["notes"])
    running = lab.running("site-a")
    (version,) = re.findall(r"^pseudowire-class (ethernet-[0-9a-f]{6})$", running, re.MULTILINE)
    assert " ip pmtu\n" in section(running, f"pseudowire-class {version}")
    assert section(running, "pseudowire-class ethernet") == ""
    xconnects = re.findall(r"^ xconnect .* pw-class (\S+)$", running, re.MULTILINE)
    assert xconnects == [version] * 4
    # make before break: the new class exists before any xconnect moves; the old goes last
    sent = config_lines(lab, "site-a")
    first_move = next(i for i, line in enumerate(sent) if line.startswith("xconnect "))
    assert sent.index(f"pseudowire-class {version}") < first_move
    assert sent[-2:] == ["no pseudowire-class ethernet", "end"]
    lab.device("site-a").router.events.clear()
    code, (again,) = push(lab, "site-a")
    assert (code, again["status"], again["lines_sent"]) == (0, "unchanged", 0), again
    assert not entered_config_mode(lab, "site-a")


# -- 12: what push owns -------------------------------------------------------------------------

MANAGEMENT = (
    "interface GigabitEthernet0/0.100\n"
    " description management\n"
    " encapsulation dot1Q 100\n"
    " ip address 192.168.100.1 255.255.255.0\n"
)
UNRELATED = (
    "interface GigabitEthernet0/2\n description uplink-2\n ip address 172.16.0.1 255.255.255.0\n"
)
STALE = (
    "interface GigabitEthernet0/0.3000\n"
    " description l2tpgen: VLAN 3000 retired to site-b\n"
    " encapsulation dot1Q 3000\n"
    " xconnect 10.216.44.47 130 encapsulation l2tpv3 pw-class ethernet\n"
)


def test_a_routed_subinterface_and_an_unrelated_interface_survive_a_push_removing_a_stale_one(
    new_lab: Callable[..., Lab],
) -> None:
    base = render_base(load_fleet(SITES), "site-a")
    lab = new_lab(configs={"site-a": base + MANAGEMENT + UNRELATED + STALE})
    before = lab.running("site-a")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert result["commands"][0] == "no interface GigabitEthernet0/0.3000"
    assert not [c for c in result["commands"] if ".100" in c or "0/2" in c]
    running = lab.running("site-a")
    assert section(running, "interface GigabitEthernet0/0.3000") == ""
    for header in ("interface GigabitEthernet0/0.100", "interface GigabitEthernet0/2"):
        assert section(running, header) == section(before, header) != ""
    assert "interface GigabitEthernet0/0.2996\n" in running


def test_a_model_vlan_over_a_routed_subinterface_is_refused_and_nothing_is_sent(
    new_lab: Callable[..., Lab],
) -> None:
    routed = (
        "interface GigabitEthernet0/0.2997\n"
        " encapsulation dot1Q 2997\n"
        " ip address 192.168.97.1 255.255.255.0\n"
    )
    lab = new_lab(configs={"site-a": render_base(load_fleet(SITES), "site-a") + routed})
    before = lab.running("site-a")
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (1, "refused"), result
    message = str(result["message"])
    assert message.startswith("not pushed: GigabitEthernet0/0.2997 exists on the router")
    assert "will not build VLAN 2997 over it" in message
    assert not entered_config_mode(lab, "site-a")
    assert not [line for line in exec_lines(lab, "site-a") if line.startswith("copy")]
    assert lab.running("site-a") == before


# -- 13: the tunnel loopback and its routes -----------------------------------------------------


def _hub_without_linux_edge(directory: Path) -> Path:
    sites = directory / "hub-without-edge"
    shutil.copytree(HUB, sites)
    (sites / "linux-edge.yaml").unlink()
    hub = sites / "hub.yaml"
    text = hub.read_text(encoding="utf-8")
    text = text.replace(
        "  - name: linux-edge\n    pseudowire: {signaling: static, cookie: 0}\n", ""
    )
    kept = [line for line in text.splitlines(keepends=True) if "peer: linux-edge" not in line]
    hub.write_text("".join(kept), encoding="utf-8")
    return sites


def test_a_loopback_site_gets_its_loopback_and_named_peer_routes_and_loses_only_a_removed_peers(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    sites = tmp_path / "hub"
    shutil.copytree(HUB, sites)
    base = render_base(load_fleet(sites), "hub")
    bare = re.sub(r"interface Loopback0\n ip address .*\n", "", base)
    bare = re.sub(r"ip route .* name l2tpgen-.*\n", "", bare)
    others = (
        "ip route 172.16.0.0 255.240.0.0 198.51.100.6\n"
        "ip route 192.168.50.0 255.255.255.0 198.51.100.6 name backup-path\n"
    )
    lab = new_lab(sites=sites, flavor=IOS_XE, configs={"hub": bare + others})
    code, (result,) = push(lab, "hub", sites=sites)
    assert (code, result["status"]) == (0, "changed"), result
    running = lab.running("hub")
    assert section(running, "interface Loopback0") == (
        "interface Loopback0\n ip address 10.255.0.1 255.255.255.255\n"
    )
    installed = _routes(running)
    assert installed == [
        "ip route 0.0.0.0 0.0.0.0 198.51.100.6",
        "ip route 10.255.0.2 255.255.255.255 198.51.100.6 name l2tpgen-branch",
        "ip route 10.255.0.3 255.255.255.255 198.51.100.6 name l2tpgen-linux-edge",
        "ip route 172.16.0.0 255.240.0.0 198.51.100.6",
        "ip route 192.168.50.0 255.255.255.0 198.51.100.6 name backup-path",
    ]
    fewer = _hub_without_linux_edge(tmp_path)
    code, (result,) = push(lab, "hub", sites=fewer)
    assert (code, result["status"]) == (0, "changed"), result
    gone = "ip route 10.255.0.3 255.255.255.255 198.51.100.6 name l2tpgen-linux-edge"
    assert [c for c in result["commands"] if "ip route" in c] == [f"no {gone}"]
    assert _routes(lab.running("hub")) == [r for r in installed if r != gone]


# -- 14: secrets --------------------------------------------------------------------------------


def test_a_changed_secret_is_in_no_output_diff_or_log_in_any_spelling(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")
    on_a_terminal(monkeypatch)
    lab = new_lab()
    router = lab.device("site-a").router
    old = "old-" + secrets.token_hex(8)
    old_class = f"l2tp-class class1\n authentication\n password 0 {old}\n"
    assert router.load(old_class) == []
    outputs = [
        cli(lab, "diff", "site-a").output,
        cli(lab, "diff", "site-a", "--format", "json").output,
    ]
    asked = cli(lab, "push", "site-a", answer="y\n")  # the diff, the question, the change
    assert "site-a: changed" in asked.output, asked.output
    assert router.load(old_class) == []  # the old secret back: the next push changes it again
    pushed = cli(lab, "push", "site-a", "--yes", "--format", "json")
    assert pushed.exit_code == 0, pushed.output
    everything = "\n".join([*outputs, asked.output, pushed.output, caplog.text])
    spellings = [
        *(old, L2TP_SECRET),
        *(type7_encode(secret, salt) for secret in (old, L2TP_SECRET) for salt in range(16)),
    ]
    assert [s for s in spellings if s in everything] == []
    assert not re.search(r"no (password|digest secret)", everything)
    assert " password 7 <masked>" in everything
    stored = re.search(r"^ password 7 (\S+)$", lab.running("site-a"), re.MULTILINE)
    assert stored is not None
    assert stored.group(1) == type7_encode(L2TP_SECRET, RENDER_SALT)


def test_a_change_of_the_secret_alone_shows_in_the_diff(new_lab: Callable[..., Lab]) -> None:
    lab = new_lab()
    assert push(lab, "site-a")[0] == 0
    assert lab.device("site-a").router.load("l2tp-class class1\n password 0 another-secret\n") == []
    shown = cli(lab, "diff", "site-a", "--format", "json")
    (result,) = json.loads(shown.stdout)["results"]
    assert (result["status"], result["commands"]) == (
        "would-change",
        ["l2tp-class class1", " password 7 <masked>"],
    )
    diff = result["diff"].splitlines()
    assert "@@ l2tp-class class1 @@" in diff
    assert "- password 7 <masked>" in diff
    assert "+ password 7 <masked: changed>" in diff
