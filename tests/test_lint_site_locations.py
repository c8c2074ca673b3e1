"""Findings on a site's rendered config are reported in its site file, with fixes in YAML terms.

Every expected position below was counted by hand in the YAML file (1-based line and column of
the key that produced the rendered line), not copied from l2tpgen's output. The site used is
sites/site-a.yaml with three changes (``_broken``): ``pmtu: false`` in pseudowire_class (line
21: the key ``pmtu`` starts at column 56), ``hold_queue: {in: 75, out: 40}`` under lan (line 17,
the key at column 3: IOS's defaults, which l2tpgen does not render, so L2T004 fires), and no
``wan.loopback`` (``wan:`` at line 5, column 1: L2T014 fires, and the key to add is missing).
The VLANs are at lines 24-27, each entry's ``{`` at column 5.

GitHub resolves SARIF ``artifactLocation.uri`` and annotation ``file=`` against the root of the
checkout (docs.github.com/en/code-security/reference/code-scanning/sarif-files/
sarif-support-for-code-scanning), hence the repository-relative paths checked here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from builders import edit_file, hub_fleet
from conftest import ROOT, SITES
from support import run_action_lint
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.lint import Finding, Severity
from l2tpgen.lint import engine as engine_module
from l2tpgen.lint import sites as sites_module
from l2tpgen.lint.origins import place_in_site_files, rendered_name
from l2tpgen.model import load_fleet
from l2tpgen.platforms.render import render_site

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts

runner = CliRunner()
FILE = "sites/site-a.yaml"
EXAMPLE_FLEETS = ["sites", *sorted(f"examples/{p.name}" for p in (ROOT / "examples").iterdir())]

WAN = (5, 1)  # `wan:`
LAN_HOLD_QUEUE = (17, 3)  # `  hold_queue: {in: 75, out: 40}` under lan
PMTU = (21, 56)  # `pmtu` in `pseudowire_class: {name: ethernet, signaling: dynamic, pmtu: false...`
FIRST_VLAN = (24, 5)  # `  - {id: 2996, ...}`
NAME = (2, 1)  # `name: site-a` (line 1 is a comment)

LOOPBACK_FIX = f"add `loopback: {{interface: Loopback0, address: ADDRESS/32}}` to wan of {FILE}"
HOLD_QUEUE_FIX = f"set `hold_queue: {{in: 2048, out: 2048}}` in lan of {FILE}"
PMTU_FIX = f"set `pmtu: true` in pseudowire_class of {FILE}"
MTU_FIX = f"{PMTU_FIX}, or lower the CE MTU to 1458 (TCP MSS 1418)"


def _copy(root: Path) -> None:
    """A repository (``.git``) holding a copy of sites/."""
    (root / ".git").mkdir()
    shutil.copytree(SITES, root / "sites")


def _broken(root: Path) -> None:
    """A repository holding sites/ with site-a changed as the module docstring says."""
    _copy(root)
    site_a = root / FILE
    text = site_a.read_text()
    for old, new in [
        ("signaling: dynamic, pmtu: true", "signaling: dynamic, pmtu: false"),
        (
            "  speed: auto\n  hold_queue: {in: 2048, out: 2048}\n# The reference",
            "  speed: auto\n  hold_queue: {in: 75, out: 40}\n# The reference",
        ),
    ]:
        assert old in text
        text = text.replace(old, new)
    site_a.write_text(text)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _broken(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _lint(*args: str) -> str:
    result = runner.invoke(app, ["lint", "site-a", "--sites", "sites", *args])
    assert result.exit_code == 1, result.output
    return result.stdout


def test_text_puts_each_kind_of_rendered_finding_at_its_yaml_key_with_a_yaml_fix(
    repo: Path,  # noqa: ARG001 - the working directory
) -> None:
    lines = _lint().splitlines()
    expected = [
        (WAN, "L2T014 info pseudowire-class ethernet sources tunnels", LOOPBACK_FIX),
        (LAN_HOLD_QUEUE, "L2T004 info GigabitEthernet0/0 carries", HOLD_QUEUE_FIX),
        (PMTU, "L2T002 warning pseudowire-class ethernet has no ip pmtu", PMTU_FIX),
        (FIRST_VLAN, "L2T013 warning 1500-byte packets from GigabitEthernet0/0.2996", MTU_FIX),
    ]
    for (line, column), start, fix in expected:
        at = next(n for n, text in enumerate(lines) if text.startswith(f"{FILE}:{line}:{column}: "))
        assert lines[at].startswith(f"{FILE}:{line}:{column}: {start}")
        assert lines[at + 1] == f"  fix: {fix}"
    assert not [line for line in lines if "rendered:" in line]


def test_json_gives_the_yaml_positions_and_fixes(repo: Path) -> None:  # noqa: ARG001
    found = json.loads(_lint("--format", "json"))
    placed = {(f["code"], f["file"], f["line"], f["column"], f["fix"]) for f in found}
    assert {
        ("L2T014", FILE, *WAN, LOOPBACK_FIX),
        ("L2T004", FILE, *LAN_HOLD_QUEUE, HOLD_QUEUE_FIX),
        ("L2T002", FILE, *PMTU, PMTU_FIX),
        ("L2T013", FILE, 24, 5, MTU_FIX),
        ("L2T013", FILE, 25, 5, MTU_FIX),
        ("L2T013", FILE, 26, 5, MTU_FIX),
        ("L2T013", FILE, 27, 5, MTU_FIX),
    } <= placed
    assert {f["file"] for f in found} == {FILE}


def test_a_class_asymmetry_sits_at_the_differing_key_and_names_the_peers_file(
    repo: Path,  # noqa: ARG001
) -> None:
    # L2T103 (the two ends' classes differ): at the key that differs, the other end named by its
    # site file (not `rendered:site-b`).
    found = json.loads(_lint("--format", "json", "--select", "L2T103"))
    (asymmetry,) = [f for f in found if "ip pmtu" in f["message"]]
    assert (asymmetry["file"], asymmetry["line"], asymmetry["column"]) == (FILE, *PMTU)
    assert asymmetry["message"] == (
        "pseudowire-class ethernet: ip pmtu off here but on on sites/site-b.yaml "
        "(VC IDs 126, 127, 128, 125)"
    )
    assert (
        asymmetry["fix"] == f"make `pmtu` the same at both ends (here: pseudowire_class of {FILE})"
    )


def _sarif_locations(stdout: str) -> list[tuple[str, str, int, int]]:
    run = json.loads(stdout)["runs"][0]
    found = []
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        region = location["region"]
        found.append(
            (
                result["ruleId"],
                location["artifactLocation"]["uri"],
                region["startLine"],
                region["startColumn"],
            )
        )
    return found


def test_sarif_names_the_site_file_relative_to_the_repository_root_at_yaml_lines(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / "sites")  # run from below the root: the URIs stay root-relative
    result = runner.invoke(app, ["lint", "site-a", "--sites", ".", "--format", "sarif"])
    located = _sarif_locations(result.stdout)
    assert {
        ("L2T014", FILE, *WAN),
        ("L2T004", FILE, *LAN_HOLD_QUEUE),
        ("L2T002", FILE, *PMTU),
        ("L2T013", FILE, *FIRST_VLAN),
    } <= set(located)
    assert {uri for _, uri, _, _ in located} == {FILE}
    messages = [r["message"]["text"] for r in json.loads(result.stdout)["runs"][0]["results"]]
    assert any(m.endswith(f"(fix: {PMTU_FIX.replace(FILE, 'site-a.yaml')})") for m in messages)


def test_github_annotations_point_at_the_yaml_and_carry_the_yaml_fix(
    repo: Path,  # noqa: ARG001
) -> None:
    lines = _lint("--format", "github").splitlines()
    title = "title=L2T014 local-interface-not-loopback"
    assert (
        f"::notice file={FILE},line=5,col=1,{title}::pseudowire-class ethernet sources tunnels "
        f"from GigabitEthernet0/1, not a loopback%0Afix: {LOOPBACK_FIX}"
    ) in lines
    for (line, column), level, title, fix in [
        (FIRST_VLAN, "warning", "L2T013 mtu-budget", MTU_FIX),
        (PMTU, "warning", "L2T002 missing-ip-pmtu", PMTU_FIX),
        (LAN_HOLD_QUEUE, "notice", "L2T004 default-hold-queue", HOLD_QUEUE_FIX),
    ]:
        assert any(
            text.startswith(f"::{level} file={FILE},line={line},col={column},title={title}::")
            and text.endswith(f"%0Afix: {fix}")
            for text in lines
        ), title


class _FlagsLines:
    """A rule this module does not know (as another helper's new rule): flags chosen lines."""

    code = "L2T099"
    name = "test-rule"
    severity = Severity.WARNING

    def __init__(self, *starts: str) -> None:
        self.starts = starts
        self.texts: dict[str, str] = {}

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        text = self.texts[device.file.removeprefix("rendered:")]
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip().startswith(self.starts):
                yield Finding(device.file, number, 1, self.code, self.name, self.severity, "x", "y")


def _with_rule(monkeypatch: pytest.MonkeyPatch, rule: _FlagsLines, extra: str = "") -> None:
    def rendered(fleet: object, name: str) -> str:
        text = render_site(fleet, name) + extra  # type: ignore[arg-type]
        rule.texts[name] = text
        return text

    monkeypatch.setattr(sites_module, "render_site", rendered)
    monkeypatch.setattr(engine_module, "DEVICE_RULES", (rule,))


def test_an_unknown_rule_on_a_known_line_sits_at_that_key_and_names_the_rendered_line(
    repo: Path,  # noqa: ARG001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # site-b renders `ip pmtu` (line 11 of `render site-b`): site-b.yaml line 21 is
    # `pseudowire_class: {name: ethernet, signaling: dynamic, pmtu: true, df_bit: true}`.
    _with_rule(monkeypatch, _FlagsLines("ip pmtu"))
    result = runner.invoke(app, ["lint", "site-b", "--sites", "sites", "--format", "json"])
    (finding,) = [f for f in json.loads(result.stdout) if f["code"] == "L2T099"]
    assert (finding["file"], finding["line"], finding["column"]) == ("sites/site-b.yaml", 21, 56)
    assert finding["message"] == "x (rendered line 11 of site-b: `ip pmtu`)"
    assert finding["fix"] == "y"


def test_a_line_no_key_produced_goes_to_the_name_line_and_quotes_no_secret(
    repo: Path,  # noqa: ARG001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The opening comment and a section the map does not know (as a newer template may add).
    extra = "crypto isakmp key 0 NOT-TO-BE-SHOWN address 0.0.0.0\n"
    _with_rule(monkeypatch, _FlagsLines("! l2tpgen:", "crypto isakmp"), extra)
    for fmt in ("json", "sarif", "github", "text"):
        result = runner.invoke(app, ["lint", "site-a", "--sites", "sites", "--format", fmt])
        assert "NOT-TO-BE-SHOWN" not in result.output
        assert "rendered:" not in result.output
    result = runner.invoke(app, ["lint", "site-a", "--sites", "sites", "--format", "json"])
    found = [f for f in json.loads(result.stdout) if f["code"] == "L2T099"]
    last = len(render_site(load_fleet("sites"), "site-a").splitlines()) + 1
    assert [(f["file"], f["line"], f["column"], f["message"]) for f in found] == [
        (FILE, *NAME, "x (rendered line 1 of site-a: `! l2tpgen: site-a (lab-a-rtr1)`)"),
        (FILE, *NAME, f"x (rendered line {last} of site-a: `crypto isakmp key ...`)"),
    ]
    result = runner.invoke(app, ["lint", "site-a", "--sites", "sites"])
    assert f"{FILE}:2:1: L2T099 warning x (rendered line 1 of site-a: " in result.stdout
    result = runner.invoke(app, ["lint", "site-a", "--sites", "sites", "--format", "sarif"])
    assert ("L2T099", FILE, *NAME) in _sarif_locations(result.stdout)
    result = runner.invoke(app, ["lint", "site-a", "--sites", "sites", "--format", "github"])
    assert f"::warning file={FILE},line=2,col=1,title=L2T099 test-rule::x (rendered" in (
        result.stdout
    )


def test_a_left_out_hold_queue_points_at_its_parent_with_the_key_to_add(tmp_path: Path) -> None:
    # L2T004 does not fire on l2tpgen's own classic-IOS rendering of a left-out hold_queue (it
    # renders 2048/2048); placed by hand on the LAN interface's header (line 14 of `render site-a`)
    # it shows what a rule on a left-out key gets: the parent key and `add`.
    _copy(tmp_path)
    site_a = tmp_path / FILE
    text = site_a.read_text()
    lan_hold_queue = "  speed: auto\n  hold_queue: {in: 2048, out: 2048}\n# The reference"
    assert lan_hold_queue in text
    site_a.write_text(text.replace(lan_hold_queue, "  speed: auto\n# The reference"))
    fleet = load_fleet(tmp_path / "sites")
    text = render_site(fleet, "site-a")
    assert text.splitlines()[13] == "interface GigabitEthernet0/0"
    finding = Finding(
        rendered_name("site-a"), 14, 1, "L2T004", "default-hold-queue", Severity.INFO, "m"
    )
    (placed,) = place_in_site_files([finding], fleet, {"site-a": text})
    file = str(tmp_path / FILE)
    assert (placed.file, placed.line, placed.column) == (file, 13, 1)  # `lan:`
    assert placed.fix == f"add `hold_queue: {{in: 2048, out: 2048}}` to lan of {file}"


def test_a_peers_own_class_setting_is_placed_in_the_peers_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # examples/hub/hub.yaml line 20: `    pseudowire: {signaling: static, cookie: 0, df_bit: false}`
    # after the change; `df_bit` starts at column 48.
    (tmp_path / ".git").mkdir()
    hub = hub_fleet(tmp_path) / "hub.yaml"
    assert "    pseudowire: {signaling: static, cookie: 0}\n" in hub.read_text()
    edit_file(hub, "cookie: 0}\n", "cookie: 0, df_bit: false}\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lint", "hub", "--sites", "hub", "--format", "json"])
    (finding,) = [f for f in json.loads(result.stdout) if f["code"] == "L2T003"]
    assert (finding["file"], finding["line"], finding["column"]) == ("hub/hub.yaml", 20, 48)
    assert finding["fix"] == "set `df_bit: true` in peers[1].pseudowire of hub/hub.yaml"


def test_a_setting_a_peers_class_takes_from_the_sites_class_is_placed_in_the_sites_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # examples/hub/hub.yaml line 16 becomes `pseudowire_class: {name: ethernet, df_bit: false}`
    # (`df_bit` at column 36). The class towards linux-edge (its peers entry changes signaling and
    # cookie only) inherits it: both rendered classes lack `ip dfbit set`, and both findings go
    # to the site's class, where the one setting is.
    (tmp_path / ".git").mkdir()
    hub = hub_fleet(tmp_path) / "hub.yaml"
    assert "pseudowire_class: {name: ethernet}\n" in hub.read_text()
    edit_file(hub, "{name: ethernet}\n", "{name: ethernet, df_bit: false}\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lint", "hub", "--sites", "hub", "--format", "json"])
    found = [f for f in json.loads(result.stdout) if f["code"] == "L2T003"]
    fix = "set `df_bit: true` in pseudowire_class of hub/hub.yaml"
    assert [(f["file"], f["line"], f["column"], f["fix"]) for f in found] == [
        ("hub/hub.yaml", 16, 36, fix),
        ("hub/hub.yaml", 16, 36, fix),
    ]
    assert {f["message"].split()[1] for f in found} == {"ethernet", "ethernet-static-cookie0"}


def test_raw_configs_keep_their_file_and_line_and_sarif_names_them_from_the_root(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = ROOT / "tests" / "lint" / "reference" / "before.conf"
    monkeypatch.chdir(ROOT / "tests")
    result = runner.invoke(app, ["lint", "--config", str(before), "--format", "json"])
    assert ("L2T001", str(before), 17, 2) in {
        (f["code"], f["file"], f["line"], f["column"]) for f in json.loads(result.stdout)
    }
    result = runner.invoke(app, ["lint", "--config", str(before), "--format", "sarif"])
    assert ("L2T001", "tests/lint/reference/before.conf", 17, 2) in _sarif_locations(result.stdout)


@pytest.mark.parametrize("fleet", EXAMPLE_FLEETS)
def test_every_sarif_uri_of_the_example_fleets_is_a_yaml_line_in_the_repository(
    fleet: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # elsewhere, the fleet named by its absolute path
    result = runner.invoke(app, ["lint", "--sites", str(ROOT / fleet), "--format", "sarif"])
    located = _sarif_locations(result.stdout)
    for _, uri, line, column in located:
        path = ROOT / uri
        assert not Path(uri).is_absolute()
        assert path.is_file(), uri
        assert path.suffix == ".yaml", uri
        text = path.read_text().splitlines()[line - 1]
        assert column <= len(text), (uri, line, column)
        assert not text[column - 1].isspace(), (uri, line, column)
    if fleet == "sites":  # the one example fleet with findings on its rendered configs
        assert {(uri, line, column) for _, uri, line, column in located} == {
            ("sites/site-a.yaml", *WAN),
            ("sites/site-b.yaml", 7, 1),  # site-b's `wan:` (three comment lines above `name:`)
        }


def test_a_known_rule_on_a_line_its_yaml_fix_does_not_fit_keeps_its_own_fix(
    tmp_path: Path,
) -> None:
    # L2T002 (`ip pmtu`) placed by hand on a VLAN's xconnect (line 26 of `render site-a`): the YAML
    # wording is for pseudowire-class lines only, so the finding sits at vlans[0] (line 24, `{` at
    # column 5) with the rule's own fix and the rendered line it is about.
    _copy(tmp_path)
    fleet = load_fleet(tmp_path / "sites")
    text = render_site(fleet, "site-a")
    assert text.splitlines()[25].startswith(" xconnect 10.216.44.47 126 ")
    finding = Finding(
        rendered_name("site-a"), 26, 2, "L2T002", "missing-ip-pmtu", Severity.WARNING, "m", "f"
    )
    (placed,) = place_in_site_files([finding], fleet, {"site-a": text})
    assert (placed.file, placed.line, placed.column) == (str(tmp_path / FILE), *FIRST_VLAN)
    assert placed.fix == "f"
    assert placed.message.startswith("m (rendered line 26 of site-a: `xconnect 10.216.44.47 126 ")


def test_the_actions_sarif_names_site_files_that_exist_in_the_checkout(tmp_path: Path) -> None:
    # The Action's own lint step (action.yml), run in a checkout holding sites/: every URI of
    # its sites.sarif is a file of that checkout, at a YAML line (sites/ has L2T014 on both sites).
    shutil.copytree(SITES, tmp_path / "sites")
    run_action_lint(tmp_path, "sites", "")
    sarif = (tmp_path / "l2tpgen-sarif" / "sites.sarif").read_text()
    located = _sarif_locations(sarif)
    assert {(uri, line, column) for _, uri, line, column in located} == {
        ("sites/site-a.yaml", *WAN),
        ("sites/site-b.yaml", 7, 1),
    }
    assert all((tmp_path / uri).is_file() for _, uri, _, _ in located)
