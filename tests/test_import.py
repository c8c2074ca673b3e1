"""`l2tpgen import` as a user meets it: reference pair, single trunks, stubs, secrets, reports."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, SITES, TESTS
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.importer import ImportOptions, ImportRefusedError, import_configs, parse_vlans
from l2tpgen.importer.notes import redact
from l2tpgen.importer.vlans import VlanListError
from l2tpgen.importer.writer import scalar, site_yaml
from l2tpgen.model import Site, load_fleet
from l2tpgen.model.site import NAME_PATTERN
from l2tpgen.model.source import read_source
from l2tpgen.model.yamlparse import parse
from l2tpgen.platforms.render import render_site

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
SINGLE_TRUNK = TESTS / "importer" / "single-trunk"
REALWORLD = TESTS / "realworld" / "configs"
HUB = ROOT / "examples" / "hub"


def _rendered(tmp_path: Path, sites: Path, names: list[str]) -> list[Path]:
    fleet = load_fleet(sites)
    paths = []
    for name in names:
        path = tmp_path / f"{name}.cfg"
        path.write_text(render_site(fleet, name))
        paths.append(path)
    return paths


def _import(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["import", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_reference_pairs_configs_import_to_sites_that_validate_and_render_as_sites_does(
    tmp_path: Path,
) -> None:
    configs = _rendered(tmp_path, SITES, ["site-a", "site-b"])
    code, stdout, _ = _import(*map(str, configs), "-o", str(tmp_path / "out"))
    assert code == 0
    assert "wrote" in stdout
    imported, reference = load_fleet(tmp_path / "out"), load_fleet(SITES)
    assert set(imported.sites) == {"site-a", "site-b"}
    for name in ("site-a", "site-b"):
        assert render_site(imported, name) == render_site(reference, name)
    assert runner.invoke(app, ["validate", "--sites", str(tmp_path / "out")]).exit_code == 0


def test_the_hub_fleet_imports_its_cisco_routers_and_a_stub_for_the_linux_box(
    tmp_path: Path,
) -> None:
    configs = _rendered(tmp_path, HUB, ["hub", "branch"])
    result = import_configs([(str(p), p.read_text()) for p in configs])
    by_name = {s.name: s for s in result.sites}
    assert set(by_name) == {"hub", "branch", "peer-10-255-0-3"}
    stub = by_name["peer-10-255-0-3"]
    assert stub.stub
    assert "wan" not in stub.data
    assert any("peer-10-255-0-3.yaml is a stub" in n.message for n in result.warnings)
    hub = Site.model_validate(by_name["hub"].data)
    entry = hub.peer_entry("peer-10-255-0-3")
    assert entry is not None
    assert entry.pseudowire.signaling == "static"
    assert entry.pseudowire.cookie == 0
    assert [v.id for v in hub.vlans if v.peer == "peer-10-255-0-3"] == [200, 201, 202]


def test_a_stub_named_with_name_takes_that_name(tmp_path: Path) -> None:
    configs = _rendered(tmp_path, HUB, ["hub", "branch"])
    options = ImportOptions(names={"10.255.0.3": "linux-edge"})
    result = import_configs([(str(p), p.read_text()) for p in configs], options)
    assert "linux-edge" in {s.name for s in result.sites}


def test_a_single_trunk_pair_imported_with_vlans_is_the_per_vlan_fleet(tmp_path: Path) -> None:
    out = tmp_path / "out"
    configs = sorted(map(str, SINGLE_TRUNK.glob("*.cfg")))
    code, _, stderr = _import(*configs, "-o", str(out), "--vlans", "2996-2999")
    assert code == 0, stderr
    fleet = load_fleet(out)
    for site in fleet.sites.values():
        assert [(v.id, v.effective_vc_id, v.vc_id) for v in site.vlans] == [
            (2996, 2996, None),
            (2997, 2997, None),
            (2998, 2998, None),
            (2999, 2999, None),
        ]
    rendered = render_site(fleet, "lab-a-rtr1")
    assert "interface GigabitEthernet0/0.2999\n description l2tpgen: VLAN 2999 " in rendered
    assert "\n encapsulation dot1Q 2999\n" in rendered
    assert "xconnect 10.216.44.47 2999 encapsulation l2tpv3 pw-class ethernet" in rendered
    assert "becomes one subinterface and pseudowire per VLAN" in stderr


def test_a_per_site_vlan_list_applies_to_that_site_only() -> None:
    configs = [(str(p), p.read_text()) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    vlans = parse_vlans(["lab-a-rtr1=100-101", "lab-b-rtr1=100,101"])
    result = import_configs(configs, ImportOptions(vlans=vlans))
    assert all([v["id"] for v in s.data["vlans"]] == [100, 101] for s in result.sites)  # type: ignore[attr-defined]


def test_a_single_trunk_to_migrate_without_vlans_stops_and_says_to_give_them(
    tmp_path: Path,
) -> None:
    configs = map(str, SINGLE_TRUNK.glob("*.cfg"))
    code, _, stderr = _import(*configs, "--port-xconnect", "migrate", "-o", str(tmp_path / "o"))
    assert code == 1
    assert "lab-a-rtr1.cfg:19:2: refused: the xconnect on GigabitEthernet0/0 takes the whole" in (
        stderr
    )
    assert "does not say which VLANs the trunk carries: to migrate it, give them with --vlans" in (
        stderr
    )
    assert "nothing was written" in stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "value", ["2996-", "x", "0", "4095", "3000-2999", "1,,2", "9" * 30], ids=str
)
def test_a_vlan_list_that_is_not_one_is_refused_with_the_form_to_use(value: str) -> None:
    with pytest.raises(VlanListError, match=r"--vlans"):
        parse_vlans([value])
    assert _import(str(SINGLE_TRUNK / "lab-a-rtr1.cfg"), "--vlans", value)[0] == 2


CONFIGS = sorted(REALWORLD.glob("*.cfg"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_a_real_world_config_imports_or_is_refused_with_reasons_never_a_traceback(
    path: Path, tmp_path: Path
) -> None:
    for vlans in ([], ["--vlans", "10-11"]):
        code, _, stderr = _import(str(path), "-o", str(tmp_path / "o"), "--force", *vlans)
        assert code in {0, 1}, stderr
        assert "internal error" not in stderr
        if code == 1:
            assert "refused:" in stderr
            assert "nothing was written" in stderr


PAIRS = [
    ("byteworks-xconnect-over-ipsec-site1", "byteworks-xconnect-over-ipsec-site2", 0),
    ("obsidian-l2tpv3-ikev2-r2", "obsidian-l2tpv3-ikev2-r3", 0),
    ("poormansmpls-l2tpv3-ipsec-hq", "poormansmpls-l2tpv3-ipsec-remote", 1),
    ("l2vpn-notes-manual-pe1", "l2vpn-notes-manual-pe2", 1),
]


@pytest.mark.parametrize(("a", "b", "code"), PAIRS, ids=[p[0].split("-")[0] for p in PAIRS])
def test_a_published_pair_imports_together_or_is_refused(
    a: str, b: str, code: int, tmp_path: Path
) -> None:
    paths = [str(REALWORLD / f"{a}.cfg"), str(REALWORLD / f"{b}.cfg")]
    got, stdout, stderr = _import(*paths, "-o", str(tmp_path), "--vlans", "10")
    assert got == code, stderr
    if code == 0:
        assert stdout.count("wrote") >= 2
        load_fleet_or_stubs = [p.name for p in tmp_path.glob("*.yaml")]
        assert f"{a}.yaml" in load_fleet_or_stubs


def test_the_byteworks_pair_pairs_by_address_and_validates(tmp_path: Path) -> None:
    paths = [str(REALWORLD / f"byteworks-xconnect-over-ipsec-site{n}.cfg") for n in (1, 2)]
    assert _import(*paths, "-o", str(tmp_path), "--vlans", "10")[0] == 0
    fleet = load_fleet(tmp_path)
    site = fleet.site("byteworks-xconnect-over-ipsec-site1")
    assert site.peer_names == ("byteworks-xconnect-over-ipsec-site2",)
    assert str(site.tunnel_address) == "10.100.101.1"


SECRET_CONFIG = """\
hostname r1
!
l2tp-class ctl
 digest secret 0 Sup3r-Secret-Value hash sha
!
pseudowire-class pw
 encapsulation l2tpv3
 protocol l2tpv3 ctl
 ip local interface GigabitEthernet0/1
 ip pmtu
 ip dfbit set
 ip ttl 64
!
interface GigabitEthernet0/0
 no ip address
 no ip route-cache cef
!
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 description web servers
 ppp chap password 7 0822455D0A16
 xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
!
interface GigabitEthernet0/0.20
 encapsulation dot1Q 20
 ip address 192.168.20.1 255.255.255.0
!
interface GigabitEthernet0/1
 ip address 192.0.2.1 255.255.255.252
!
interface Port-channel1.30
 encapsulation dot1Q 30
 xconnect 192.0.2.2 30 encapsulation l2tpv3 pw-class pw
!
ip route 0.0.0.0 0.0.0.0 192.0.2.2
"""  # noqa: S105 - a test config: its secret must never come out of import


def test_secrets_become_a_variable_name_and_never_appear_anywhere(tmp_path: Path) -> None:
    config = tmp_path / "r1.cfg"
    config.write_text(SECRET_CONFIG)
    out = tmp_path / "out"
    for fmt in ("text", "json"):
        code, stdout, stderr = _import(str(config), "-o", str(out), "--force", "--format", fmt)
        assert code == 0, stderr
        for text in (stdout, stderr, *(p.read_text() for p in out.glob("*.yaml"))):
            assert "Sup3r-Secret-Value" not in text
            assert "0822455D0A16" not in text
    site = (out / "r1.yaml").read_text()
    assert "secret_env: L2TPGEN_L2TP_SECRET" in site
    assert "export L2TPGEN_L2TP_SECRET" in stderr or "export L2TPGEN_L2TP_SECRET" in stdout


def test_what_the_model_cannot_say_is_listed_located_and_commented_in_a_file_that_loads(
    tmp_path: Path,
) -> None:
    config = tmp_path / "r1.cfg"
    config.write_text(SECRET_CONFIG)
    code, stdout, _ = _import(str(config), "-o", str(tmp_path / "out"), "--format", "json")
    assert code == 0
    report = json.loads(stdout)
    unexpressed = {(n["line"], n["message"].split(":")[0]) for n in report["unexpressed"]}
    messages = " ".join(n["message"] for n in report["unexpressed"])
    assert (
        16,
        "`no ip route-cache` on GigabitEthernet0/0 process-switches its traffic (L2T017)",
    ) in (unexpressed)
    # The label says "not in the model"; the message says what push does (issue 17, item 11).
    assert "`ip ttl 64`: push would remove it" in messages
    assert "Port-channel1" in messages
    assert "GigabitEthernet0/0.20 is a subinterface of the LAN trunk" in messages
    # Render writes every pseudowire subinterface's description as l2tpgen's mark: replaced.
    assert "`description web servers` on GigabitEthernet0/0.10: push replaces it with" in messages
    assert "ppp chap password <redacted>" in messages
    assert report["ok"] is True
    assert {w["site"]: w["stub"] for w in report["written"]} == {
        "r1": False,
        "peer-192-0-2-2": True,
    }
    assert {"file", "line", "column", "site", "kind", "message"} <= set(report["unexpressed"][0])
    text = (tmp_path / "out" / "r1.yaml").read_text()
    # each note on its own comment lines, wrapped at 80 columns (yamllint's default)
    comments = " ".join(line[1:].strip() for line in text.splitlines() if line.startswith("#"))
    assert f"{config}:16:2: `no ip route-cache`" in comments
    assert "\n#   " + str(config) in text  # the note's indent kept
    shutil.copy(tmp_path / "out" / "r1.yaml", tmp_path / "r1.yaml")
    stub = tmp_path / "out" / "peer-192-0-2-2.yaml"
    assert stub.exists()
    fleet_dir = tmp_path / "fleet"
    fleet_dir.mkdir()
    shutil.copy(tmp_path / "out" / "r1.yaml", fleet_dir / "r1.yaml")

    doc = read_source(fleet_dir / "r1.yaml", "r1.yaml")
    assert not hasattr(doc, "message"), doc
    assert Site.model_validate(doc.plain()).lan.interface == "GigabitEthernet0/0"
    assert Site.model_validate(doc.plain()).vlans[0].name == "web-servers"


def test_import_refuses_to_overwrite_a_site_file_unless_forced(tmp_path: Path) -> None:
    configs = _rendered(tmp_path, SITES, ["site-a", "site-b"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "site-a.yaml").write_text("# mine\n")
    code, _, stderr = _import(*map(str, configs), "-o", str(out))
    assert code == 1
    assert "site-a.yaml exists; nothing was written (--force overwrites)" in stderr
    assert (out / "site-a.yaml").read_text() == "# mine\n"
    assert not (out / "site-b.yaml").exists()
    assert _import(*map(str, configs), "-o", str(out), "--force")[0] == 0
    assert (out / "site-a.yaml").read_text().startswith("---\n# Imported by `l2tpgen import`")


def test_a_config_without_l2tpv3_is_refused_in_json_too(tmp_path: Path) -> None:
    code, stdout, _ = _import(
        str(REALWORLD / "ciscoconfparse-sample01.cfg"), "-o", str(tmp_path), "--format", "json"
    )
    assert code == 1
    report = json.loads(stdout)
    assert report["ok"] is False
    assert report["written"] == []
    assert "nothing to import" in report["refused"][0]["message"]


def test_a_refused_import_lists_its_notes_once_in_text_and_only_in_the_report_in_json(
    tmp_path: Path,
) -> None:
    config = str(REALWORLD / "ciscoconfparse-sample01.cfg")
    code, _, stderr = _import(config, "-o", str(tmp_path))
    assert code == 1
    assert stderr.count("refused:") == 1
    code, stdout, stderr = _import(config, "-o", str(tmp_path), "--format", "json")
    assert code == 1
    assert len(json.loads(stdout)["refused"]) == 1
    assert "refused:" not in stderr


def test_import_names_the_next_step_only_when_no_stub_is_left_to_fill(tmp_path: Path) -> None:
    configs = _rendered(tmp_path, SITES, ["site-a", "site-b"])
    code, _, stderr = _import(*map(str, configs), "-o", str(tmp_path / "out"))
    assert code == 0
    assert f"next: l2tpgen validate --sites {tmp_path / 'out'}" in " ".join(stderr.split())
    config = tmp_path / "r1.cfg"
    config.write_text(SECRET_CONFIG)  # its peer 192.0.2.2 is not given: a stub
    code, stdout, stderr = _import(str(config), "-o", str(tmp_path / "stubbed"))
    assert code == 0
    assert "(stub)" in stdout
    assert "next:" not in stderr


def test_two_configs_of_one_hostname_need_a_name() -> None:
    a = (SINGLE_TRUNK / "lab-a-rtr1.cfg").read_text()
    with pytest.raises(ImportRefusedError) as caught:
        import_configs([("one.cfg", a), ("two.cfg", a)], ImportOptions(vlans=parse_vlans(["1"])))
    assert "--name two=NAME" in str(caught.value.notes[0])


def test_a_quoted_config_line_keeps_no_secret() -> None:
    assert redact("standby 1 authentication md5 key-string hunter2") == (
        "standby 1 authentication md5 <redacted>"
    )
    assert redact("description uplink") == "description uplink"


def _with_secret(path: Path, hostname: str, line: str) -> str:
    text = path.read_text().replace("hostname lab-a-rtr1", f"hostname {hostname}")
    text = text.replace("hostname lab-b-rtr1", f"hostname {hostname}")
    return text.replace(" password 0 123456789", line)


def test_routers_sharing_a_secret_share_a_variable_and_another_secret_gets_its_own() -> None:
    a, b = SINGLE_TRUNK / "lab-a-rtr1.cfg", SINGLE_TRUNK / "lab-b-rtr1.cfg"
    same = [  # one secret, two type 7 spellings (different salts)
        ("a.cfg", _with_secret(a, "ra", " password 7 021505560E4B1C244F5C0C0D")),
        ("b.cfg", _with_secret(b, "rb", " password 7 095F4F041C480417081E013E")),
    ]
    result = import_configs(same, ImportOptions(vlans=parse_vlans(["10"])))
    envs = {s.name: s.data["l2tp_class"]["secret_env"] for s in result.sites if not s.stub}  # type: ignore[index]
    assert envs == {"ra": "L2TPGEN_L2TP_SECRET", "rb": "L2TPGEN_L2TP_SECRET"}
    other = [same[0], ("b.cfg", _with_secret(b, "rb", " password 7 030B4F03031D6C5F4B0A0B0003"))]
    result = import_configs(other, ImportOptions(vlans=parse_vlans(["10"])))
    envs = {s.name: s.data["l2tp_class"]["secret_env"] for s in result.sites if not s.stub}  # type: ignore[index]
    assert sorted(envs.values()) == ["L2TPGEN_L2TP_SECRET", "L2TPGEN_L2TP_SECRET_CLASS1"]
    everything = " ".join(str(n) for n in result.notes) + "".join(s.text for s in result.sites)
    for secret in ("same-secret", "other-secret", "021505560E4B", "030B4F03031D"):
        assert secret not in everything


def test_a_config_on_standard_input_is_imported(tmp_path: Path) -> None:
    text = (SINGLE_TRUNK / "lab-a-rtr1.cfg").read_text()
    result = runner.invoke(app, ["import", "-", "-o", str(tmp_path), "--vlans", "7"], input=text)
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout
    assert "(from <stdin>)" in result.stdout


@given(st.from_regex(NAME_PATTERN, fullmatch=True))
def test_a_written_name_reads_back_as_the_same_text(name: str) -> None:
    parsed = parse(site_yaml({"name": name, "peers": [name], "vlans": [{"name": name}]}))
    assert parsed is not None
    assert parsed[0] == {"name": name, "peers": [name], "vlans": [{"name": name}]}


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("true", '"true"'),
        ("1e3", '"1e3"'),
        ("010", '"010"'),
        ("yes", "yes"),
        ("0.0.0.0/0", "0.0.0.0/0"),
    ],
)
def test_a_value_yaml_would_read_as_another_type_is_quoted(value: str, written: str) -> None:
    assert scalar(value) == written
