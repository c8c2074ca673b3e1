"""A port-mode xconnect in the site model (`lan.port_xconnect`): kept as it stands, or migrated.

Cisco's L2TPv3 guide ("Ethernet", Cisco IOS 12.0(29)S/12.2(25)S): an xconnect on an Ethernet
interface tunnels every frame the port receives, so a kept one is the trunk's only pseudowire.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.errors import FleetValidationError, L2tpgenError
from l2tpgen.importer import ImportOptions, import_configs, parse_port_choice, parse_vlans
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.model import Fleet, Site
from l2tpgen.platforms.render import render_site

SINGLE_TRUNK = Path(__file__).parent / "importer" / "single-trunk"
CONFIGS = [(str(p), p.read_text()) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
A, B = "lab-a-rtr1", "lab-b-rtr1"


def _kept() -> dict[str, dict[str, Any]]:
    result = import_configs(CONFIGS)
    return {s.name: copy.deepcopy(dict(s.data)) for s in result.sites}


def _fleet(data: dict[str, dict[str, Any]]) -> Fleet:
    return Fleet.build([Site.model_validate(d) for d in data.values()])


def _problems(data: dict[str, dict[str, Any]]) -> list[str]:
    with pytest.raises(FleetValidationError) as caught:
        _fleet(data)
    return [p.message for p in caught.value.problems]


def test_import_keeps_a_port_mode_xconnect_unless_vlans_are_given() -> None:
    kept = _kept()
    assert kept[A]["lan"]["port_xconnect"] == {"peer": B, "vc_id": 125, "action": "keep"}
    assert kept[A]["vlans"] == []
    migrated = import_configs(CONFIGS, ImportOptions(vlans=parse_vlans(["10,20"])))
    site = next(s for s in migrated.sites if s.name == A)
    assert site.data["lan"]["port_xconnect"]["action"] == "migrate"  # type: ignore[index]
    assert [v["id"] for v in site.data["vlans"]] == [10, 20]  # type: ignore[attr-defined]


def test_an_explicit_keep_beside_this_routers_own_vlans_is_refused() -> None:
    options = ImportOptions(
        vlans=parse_vlans([f"{A}=10"]), port=parse_port_choice([f"{A}=keep", "keep"])
    )
    with pytest.raises(L2tpgenError) as caught:
        import_configs(CONFIGS, options)
    assert "is to be kept (--port-xconnect keep) but --vlans gives VLANs" in str(
        caught.value.notes  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("value", ["kept", "x=", "=keep", "a=b=migrat"])
def test_a_port_choice_that_is_not_one_is_refused_with_the_form_to_use(value: str) -> None:
    with pytest.raises(L2tpgenError, match="write keep or migrate"):
        parse_port_choice([value])


def test_a_kept_port_mode_xconnect_renders_as_the_router_has_it_and_lint_warns() -> None:
    text = render_site(_fleet(_kept()), A)
    assert (
        "interface GigabitEthernet0/0\n no ip address\n duplex full\n speed auto\n no cdp enable\n"
        " xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet\n"
    ) in text
    assert "pseudowire-class ethernet\n" in text
    assert "l2tp-class class1\n" in text
    assert "encapsulation dot1Q" not in text
    codes = [f.code for f in lint_configs([ConfigText("a.cfg", text, rendered=True)])]
    assert "L2T001" in codes


def test_a_migrated_port_mode_xconnect_is_not_rendered() -> None:
    data = _kept()
    for name, peer in ((A, B), (B, A)):
        data[name]["lan"]["port_xconnect"]["action"] = "migrate"
        data[name]["vlans"] = [{"id": 10, "name": "v10", "peer": peer}]
    text = render_site(_fleet(data), A)
    assert "xconnect 10.216.44.47 10 " in text
    assert "xconnect 10.216.44.47 125 " not in text


def test_keeping_at_one_end_only_is_an_error_naming_the_other_file() -> None:
    data = _kept()
    del data[B]["lan"]["port_xconnect"]
    (message,) = _problems(data)
    assert f"keeps a port-mode xconnect to {B}, but" in message
    assert f"does not keep one back to {A}" in message


def test_a_kept_port_with_two_vc_ids_is_an_error() -> None:
    data = _kept()
    data[B]["lan"]["port_xconnect"]["vc_id"] = 126
    assert _problems(data) == [
        f"the port-mode xconnect has VC ID 125 here but 126 in {B}",
    ]


def test_a_vlan_beside_a_kept_port_is_an_error() -> None:
    data = _kept()
    data[A]["vlans"] = [{"id": 10, "name": "v10", "peer": B}]
    data[B]["vlans"] = [{"id": 10, "name": "v10", "peer": A}]
    problems = _problems(data)
    assert len(problems) == 2
    assert all("a VLAN subinterface beside it would never see a frame" in p for p in problems)


def test_migrating_without_a_vlan_to_that_peer_is_an_error() -> None:
    data = _kept()
    data[A]["lan"]["port_xconnect"]["action"] = "migrate"
    problems = _problems(data)
    assert any("is to be migrated, but no VLAN of this site goes to" in p for p in problems)


def test_a_port_peer_not_in_peers_is_an_error() -> None:
    data = _kept()
    data[A]["lan"]["port_xconnect"]["peer"] = "elsewhere"
    problems = _problems(data)
    assert any("names peer elsewhere, which is not in this site's peers" in p for p in problems)


def test_a_kept_port_on_a_linux_site_is_an_error() -> None:
    data = _kept()
    data[A]["platform"] = "linux"
    data[A]["pseudowire_class"]["signaling"] = "static"
    problems = _problems(data)
    assert any("a kept port-mode xconnect is an IOS attachment circuit" in p for p in problems)
    assert any("with dynamic signaling only" in p for p in problems)


def test_a_stub_peer_of_a_kept_port_keeps_it_back_and_leaves_its_interface_to_fill() -> None:
    (config,) = [c for c in CONFIGS if c[0].endswith("lab-a-rtr1.cfg")]
    result = import_configs([config])
    stub = next(s for s in result.sites if s.stub)
    assert stub.data["lan"] == {  # no interface: validate points at it
        "port_xconnect": {"peer": A, "vc_id": 125, "action": "keep"}
    }


def test_validate_names_a_kept_port_mode_pseudowire(tmp_path: Path) -> None:
    runner = CliRunner()
    sites = tmp_path / "sites"
    paths = [str(p) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    assert runner.invoke(app, ["import", *paths, "-o", str(sites)]).exit_code == 0
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 0
    assert f"{A} <-> {B}: a port-mode pseudowire kept as it stands (VC ID 125, every VLAN of " in (
        result.stdout
    )


def test_a_kept_port_mode_peer_is_admitted_by_the_inbound_filter() -> None:
    # Issue 33: the filter denies L2TPv3 to the router from all but its peers; the kept
    # port-mode xconnect's peer (10.216.44.47, lab-b-rtr1's tunnel address) is one, even with no
    # VLAN pseudowire to it.
    data = _kept()
    data[A]["protection"] = {"inbound_filter": True}
    text = render_site(_fleet(data), A)
    start = text.index("ip access-list extended l2tpgen-wan-in\n")
    entries = text[start : text.index("!", start)].splitlines()[1:]
    own = _fleet(data).site(A).tunnel_address
    assert entries[0] == f" permit 115 host 10.216.44.47 host {own}"
    assert entries[-1] == " permit ip any any"
    assert f" deny 115 any host {own}" in entries


def test_validate_counts_a_kept_port_mode_pseudowire_in_its_ok_line(tmp_path: Path) -> None:
    runner = CliRunner()
    sites = tmp_path / "sites"
    paths = [str(p) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    assert runner.invoke(app, ["import", *paths, "-o", str(sites)]).exit_code == 0
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 0
    assert "ok: 2 sites, 1 pseudowire, no problems" in result.stdout


@pytest.mark.parametrize(
    ("value", "named"),
    [("nosuch=migrate", "no router given is nosuch"), ("a=b=keep", "a=b=keep: one `=` only")],
)
def test_import_refuses_a_port_xconnect_choice_that_names_no_router(
    tmp_path: Path, value: str, named: str
) -> None:
    paths = [str(p) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    args = ["import", *paths, "--port-xconnect", value, "-o", str(tmp_path / "sites")]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 2  # a usage error, nothing written
    assert named in " ".join(result.stderr.replace("│", " ").split())
    assert not (tmp_path / "sites").exists()


def test_a_port_xconnect_choice_by_hostname_or_config_file_is_still_taken() -> None:
    (file,) = [name for name, _ in CONFIGS if name.endswith(f"{A}.cfg")]
    for key in (A, file):
        options = ImportOptions(port=parse_port_choice([f"{key}=keep"]))
        site = next(s for s in import_configs(CONFIGS, options).sites if s.name == A)
        assert site.data["lan"]["port_xconnect"]["action"] == "keep"  # type: ignore[index]


def test_a_kept_port_on_a_path_protected_with_ipsec_is_an_error() -> None:
    # l2tpgen's crypto map matches per-VLAN pseudowires: the kept port would cross it in clear.
    data = _kept()
    for site in (A, B):
        data[site]["protection"] = {"mode": "ipsec"}
    problems = _problems(data)
    assert any(
        "which l2tpgen renders for per-VLAN pseudowires only: the kept port-mode xconnect "
        "would cross it in clear" in p
        for p in problems
    )
