"""Labs: topologies containerlab would accept, the commands each engine runs, and (marked ``lab``)
a real L2TPv3 data plane in QEMU that forwards frames per VLAN, isolates VLANs and keeps the MTU
``mtu.py`` predicts."""

from __future__ import annotations

import json
import os
import shutil
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
from conftest import ROOT, SITES, TESTS, Golden
from ruamel.yaml import YAML
from typer.testing import CliRunner

from l2tpgen import load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engine import LabReport, containerlab_commands, run_containerlab, run_vm, vm_script
from l2tpgen.lab.topology import build_topology
from l2tpgen.lab.vm import LabEnvironmentError, find_kernel
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.model import Fleet

if TYPE_CHECKING:
    from pathlib import Path

SCHEMA = json.loads((TESTS / "schemas" / "clab.schema.json").read_text())
# The schema's address patterns use \p{..} classes Python's re cannot compile; they only apply to
# fields l2tpgen does not write, so validate without meta-checking the schema itself.
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)
LABS = ROOT / "labs"
runner = CliRunner()


def _yaml(path: Path) -> Any:  # noqa: ANN401 - YAML documents are untyped
    return YAML(typ="safe").load(path.read_text())


@pytest.mark.parametrize(
    ("flavor", "variant"),
    [("linux", "per-vlan"), ("linux", "single-trunk"), ("cisco_iol", "per-vlan")],
)
def test_generated_topologies_validate_against_containerlabs_schema(
    flavor: str, variant: str
) -> None:
    topology = build_topology(load_fleet(SITES), flavor=flavor, variant=variant)  # type: ignore[arg-type]
    VALIDATOR.validate(topology)


@pytest.mark.parametrize("path", sorted(LABS.rglob("*.clab.yml")), ids=lambda p: p.name)
def test_committed_lab_files_validate_and_match_lab_build(path: Path, tmp_path: Path) -> None:
    VALIDATOR.validate(_yaml(path))
    flags = {
        "example.clab.yml": [],
        "example-single-trunk.clab.yml": ["--variant", "single-trunk"],
        "example-iol.clab.yml": ["--flavor", "cisco_iol"],
    }[path.name]
    name = _yaml(path)["name"]
    out = tmp_path / path.name
    result = runner.invoke(
        app, ["lab", "build", "--sites", str(SITES), "--name", name, *flags, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text() == path.read_text(), (
        "regenerate labs/ with `l2tpgen lab build` (see labs/README.md)"
    )


def test_linux_render_of_site_a_matches_golden(golden: Golden) -> None:
    golden.check(
        TESTS / "golden" / "render" / "site-a.linux.sh",
        # both PEs on Linux, as the lab runs them: no tag carried, so 1462 with no cookie
        render_site(load_fleet(SITES).on_platform("linux"), "site-a"),
    )


def _static_fleet(tmp_path: Path) -> Path:
    sites = tmp_path / "static"
    sites.mkdir()
    for name in ("site-a", "site-b"):
        text = (SITES / f"{name}.yaml").read_text()
        text = text.replace("signaling: dynamic, pmtu: true", "signaling: static")
        text = text.replace(
            "{name: class1, authentication: password, secret_env: L2TPGEN_L2TP_SECRET}",
            "{authentication: none}",
        )
        (sites / f"{name}.yaml").write_text(text)
    return sites


def test_static_ios_pair_is_mirrored_and_lints_clean(tmp_path: Path, golden: Golden) -> None:
    fleet = load_fleet(_static_fleet(tmp_path))
    configs = [ConfigText(n, render_site(fleet, n)) for n in ("site-a", "site-b")]
    golden.check(TESTS / "golden" / "render" / "site-a.static.ios.conf", configs[0].text)
    assert (
        " xconnect 10.216.44.47 126 encapsulation l2tpv3 manual pw-class ethernet\n"
        "  l2tp id 126 126\n" in configs[0].text
    )
    findings = lint_configs(configs)
    assert [f for f in findings if f.severity.name != "INFO"] == []


def test_a_static_pair_with_swapped_cookies_is_caught_by_l2t105(tmp_path: Path) -> None:
    fleet = load_fleet(_static_fleet(tmp_path))
    a, b = (render_site(fleet, n) for n in ("site-a", "site-b"))
    b = (
        b.replace("l2tp cookie local", "l2tp cookie TMP")
        .replace("l2tp cookie remote", "l2tp cookie local")
        .replace("l2tp cookie TMP", "l2tp cookie remote")
    )
    findings = lint_configs([ConfigText("a", a), ConfigText("b", b)])
    assert {f.code for f in findings if f.code == "L2T105"} == {"L2T105"}


def test_vm_script_builds_namespaces_links_and_runs_exec_in_order() -> None:
    topology = build_topology(load_fleet(SITES))
    script = vm_script(topology, plan_checks(topology).probes)
    assert "/sbin/ip netns add pe-site-a" in script
    assert "/sbin/ip -n pe-site-a link set eth1 mtu 1500" in script
    first = script.index("ip netns exec pe-site-a ip link set dev eth1 up mtu 1500")
    assert first < script.index("ip netns exec pe-site-a ip l2tp add tunnel")
    assert 'echo "PROBE 2996.reach $?"' in script


def test_containerlab_engine_deploys_probes_with_docker_exec_and_destroys(tmp_path: Path) -> None:
    topology = build_topology(load_fleet(SITES), name="example")
    path = tmp_path / "example.clab.yml"
    commands = containerlab_commands(path, topology, plan_checks(topology))
    assert commands["deploy"] == ["containerlab", "deploy", "-t", str(path), "--reconfigure"]
    assert commands["destroy"] == ["containerlab", "destroy", "-t", str(path), "--cleanup"]
    probe, command = commands["probes"][3]
    assert command[:3] == ["docker", "exec", f"clab-example-{probe.node}"]
    ran: list[list[str]] = []

    def fake(command: list[str]) -> tuple[int, str]:
        ran.append(command)
        return 0, "Ip: FragCreates\nIp: 0\n"

    report = run_containerlab(path, topology, fake)
    assert ran[0][:2] == ["containerlab", "deploy"]
    assert ran[-1][:2] == ["containerlab", "destroy"]
    assert isinstance(report, LabReport)


def _have_vm() -> bool:
    try:
        find_kernel()
    except LabEnvironmentError:
        return False
    return all(shutil.which(p) for p in ("qemu-system-x86_64", "busybox", "ip", "ping"))


requires_vm = pytest.mark.skipif(
    not _have_vm() and os.environ.get("L2TPGEN_LAB_REQUIRED") != "1",
    reason="QEMU lab prerequisites missing (apt-get install -y qemu-system-x86 linux-image-amd64 "
    "busybox-static iproute2 iputils-ping); L2TPGEN_LAB_REQUIRED=1 makes this a failure",
)


def _failed(report: LabReport) -> list[tuple[str, int]]:
    return [(r.check, r.vlan) for r in report.results if not r.ok]


@pytest.mark.lab
@requires_vm
def test_example_lab_forwards_every_vlan_isolated_with_the_predicted_mtu() -> None:
    result = runner.invoke(
        app,
        ["lab", "run", str(LABS / "example.clab.yml"), "--engine", "vm", "--report", os.devnull],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.replace("\n", " ").count("predicted 1462: 1462") == 4


@pytest.mark.lab
@requires_vm
def test_single_trunk_variant_forwards_too() -> None:
    report = run_vm(_yaml(LABS / "example-single-trunk.clab.yml"))
    assert report.ok, _failed(report)
    assert {r.check for r in report.results} == {"reach", "isolation", "mtu"}


@pytest.mark.lab
@requires_vm
def test_a_fleet_with_different_vc_ids_fails_reachability_for_that_vlan_only() -> None:
    valid = load_fleet(SITES)
    site_b = valid.site("site-b")
    broken_vlans = tuple(
        v.model_copy(update={"vc_id": 998}) if v.id == 2998 else v for v in site_b.vlans
    )
    sites = dict(valid.sites) | {"site-b": site_b.model_copy(update={"vlans": broken_vlans})}
    broken = Fleet(sites, valid.files)  # built without the validator, which would refuse it
    report = run_vm(build_topology(broken, name="broken"))
    failed = _failed(report)
    assert {vlan for check, vlan in failed if check == "reach"} == {2998}, failed
    assert [f for f in failed if f[1] != 2998] == []


@pytest.mark.parametrize(
    ("what", "path", "value"),
    [
        ("unknown node key", ("topology", "nodes", "wan", "flavour"), "x"),
        ("exec not a list", ("topology", "nodes", "wan", "exec"), "ip a"),
        ("unknown kind", ("topology", "nodes", "wan", "kind"), "nosuchkind"),
    ],
)
def test_the_schema_check_rejects_broken_topologies(
    what: str, path: tuple[str, ...], value: str
) -> None:
    topology = build_topology(load_fleet(SITES))
    node: Any = topology
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    assert list(VALIDATOR.iter_errors(topology)), what
