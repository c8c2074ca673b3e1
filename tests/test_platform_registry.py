"""One registry of platforms (issue 19, item 5): no module outside ``l2tpgen/platforms`` names one.

A new platform is one driver module plus its templates and tests. That holds only while every
other module reads what differs from the driver (``l2tpgen.traits.Traits``) instead of comparing
a site's platform with a name: this test reads every module's source (its syntax tree, so comments
and longer strings do not count) and fails on a string constant that is a platform name or a
netmiko device type of any registered driver.
"""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from builders import HUB, hub_fleet
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import FleetValidationError
from l2tpgen.model.site import Site
from l2tpgen.platforms.render import kernel_plane, render_start
from l2tpgen.sim.flavor import FLAVORS
from l2tpgen.traits import BY_DEVICE_TYPE, DRIVERS, NAMES

if TYPE_CHECKING:
    from pathlib import Path

PACKAGE = ROOT / "l2tpgen"
# (module, string): why that string there is not a platform.
NOT_PLATFORMS = {
    ("lab/kinds.py", "linux"): "containerlab's node kind (a Linux container)",
    ("api/lab.py", "linux"): "lab build's default flavor: containerlab's node kind (lab/kinds.py)",
    ("ios/tree.py", "ios"): "ciscoconfparse's `syntax` argument",
    ("model/interface_checks.py", "linux"): "the site file's `linux:` key (the lab's port names)",
    # The simulator imports nothing of what it checks (tests/test_sim_independence.py), the
    # platforms package included: its flavors keep their own names, which must be the drivers'
    # (test_the_simulator_flavors_are_the_simulated_drivers).
    ("sim/flavor.py", "ios"): "the simulator's classic IOS flavor",
    ("sim/flavor.py", "cisco_ios"): "the simulator's classic IOS flavor",
    ("sim/flavor.py", "iosxe"): "the simulator's IOS-XE flavor",
    ("sim/flavor.py", "cisco_xe"): "the simulator's IOS-XE flavor",
}


def _platform_strings() -> set[str]:
    return set(NAMES) | set(BY_DEVICE_TYPE)


def _named(path: Path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    where = path.relative_to(PACKAGE).as_posix()
    return [
        f"l2tpgen/{where}:{node.lineno}:{node.col_offset + 1}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in names
        and (where, node.value) not in NOT_PLATFORMS
    ]


def test_no_module_outside_the_platforms_package_names_a_platform() -> None:
    names = _platform_strings()
    found = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        if "platforms" not in path.relative_to(PACKAGE).parts
        for hit in _named(path, names)
    ]
    assert found == [], "read it from the driver (l2tpgen/platforms) instead:\n" + "\n".join(found)


def test_the_check_finds_a_platform_compared_by_name(tmp_path: Path) -> None:
    module = tmp_path / "l2tpgen" / "model" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text('def f(site):\n    return site.effective_platform != "linux"\n')
    tree = ast.parse(module.read_text())
    hits = [
        (n.lineno, n.col_offset + 1)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and n.value in _platform_strings()
    ]
    assert hits == [(2, 39)]


# The platform folders: l2tpgen/platforms/<name>/ (ios, linux, vyos, ...).
FOLDERS = sorted(p.name for p in (PACKAGE / "platforms").iterdir() if (p / "traits.py").is_file())


def _platform_imports(path: Path, package: Path = PACKAGE) -> list[str]:
    """Imports of a platform's own folder (``l2tpgen.platforms.linux...``), at any depth."""
    tree = ast.parse(path.read_text(), filename=str(path))
    where = path.relative_to(package).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(n.split(".")[:3] in (["l2tpgen", "platforms", f] for f in FOLDERS) for n in names):
            found.append(f"l2tpgen/{where}:{node.lineno}: imports {names[0]}")
    return found


def test_no_module_outside_the_platforms_package_imports_a_platform() -> None:
    # The registry (l2tpgen.platforms.render: render_files, kernel_plane, render_start) is the
    # way in; type-only and function-level imports count too.
    assert FOLDERS  # the scan finds the folders
    found = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        if "platforms" not in path.relative_to(PACKAGE).parts
        for hit in _platform_imports(path)
    ]
    assert found == [], "reach it through l2tpgen.platforms.render instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "from l2tpgen.platforms.linux.render import base_commands\n",
        "def f():\n    from l2tpgen.platforms.ios import render\n",
        "import l2tpgen.platforms.vyos.render\n",
        "from l2tpgen.platforms import linux\n",
    ],
)
def test_the_import_check_finds_a_platform_imported_by_name(tmp_path: Path, source: str) -> None:
    module = tmp_path / "lab" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text(source)
    assert len(_platform_imports(module, tmp_path)) == 1


def test_the_lab_and_the_simulator_reach_renderers_through_the_registry() -> None:
    fleet = load_fleet(ROOT / "sites")
    kernel = kernel_plane()
    assert kernel.site(fleet, "site-a")  # the kernel commands of a Cisco site, for the lab
    assert "\nhostname lab-a-rtr1\n" in render_start(fleet, "site-a")


def _site(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "site-a",
        "hostname": "pe-a",
        "management": {"host": "192.0.2.1"},
        "wan": {
            "interface": "GigabitEthernet0/1",
            "address": "192.0.2.1/30",
            "gateway": "192.0.2.2",
        },
        "lan": {"interface": "GigabitEthernet0/0"},
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_platform_is_a_site_platform(name: str) -> None:
    site = Site.model_validate(_site(platform=name))
    assert site.effective_platform == name
    assert site.device_type == DRIVERS[name].device_type


@pytest.mark.parametrize("device_type", sorted(BY_DEVICE_TYPE))
def test_a_device_type_alone_picks_its_platform(device_type: str) -> None:
    site = Site.model_validate(_site(management={"host": "192.0.2.1", "device_type": device_type}))
    assert site.effective_platform == BY_DEVICE_TYPE[device_type]


def test_the_schema_lists_the_registered_platforms() -> None:
    schema = json.loads((ROOT / "schema" / "site.schema.json").read_text())
    text = json.dumps(schema)
    for name in NAMES:
        assert f'"{name}"' in text
    platform = schema["properties"]["platform"]
    enums = [s.get("enum") for s in platform.get("anyOf", [platform]) if "enum" in s]
    assert enums == [list(NAMES)]


def test_the_simulator_offers_the_platforms_it_simulates() -> None:
    result = CliRunner().invoke(app, ["sim", "up", "--help"], terminal_width=200)
    simulated = [d.name for d in DRIVERS.values() if d.simulated]
    assert f"<{'|'.join(simulated)}>" in result.output or f"[{'|'.join(simulated)}]" in (
        result.output
    )


def test_the_simulator_flavors_are_the_simulated_drivers() -> None:
    flavors = {(f.name, f.device_type) for f in FLAVORS.values()}
    assert flavors == {(d.name, d.device_type) for d in DRIVERS.values() if d.simulated}


def _text(error: FleetValidationError) -> str:
    return "\n".join(problem.message for problem in error.problems)


def _without(monkeypatch: pytest.MonkeyPatch, platform: str, **traits: object) -> None:
    """Run the test with ``platform``'s driver lacking ``traits`` (what a new driver may lack)."""
    monkeypatch.setitem(DRIVERS, platform, replace(DRIVERS[platform], **traits))  # type: ignore[arg-type]


def test_validate_refuses_cookies_a_platform_cannot_express(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sites = hub_fleet(
        tmp_path,
        ("hub", "{signaling: static, cookie: 0}", "{signaling: static}"),
        ("linux-edge", "signaling: static, cookie: 0", "signaling: static"),
    )
    load_fleet(sites)  # valid as the Linux driver is
    _without(monkeypatch, "linux", cookies=False, short_title="Cookieless")
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    assert "Cookieless has no L2TPv3 cookies, but the pseudowires to hub carry 4-byte" in _text(
        caught.value
    )


def test_validate_refuses_ipsec_and_a_fixed_sublayer_a_platform_cannot_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    load_fleet(HUB)
    _without(monkeypatch, "linux", ipsec=False, sublayer=True, short_title="Plain")
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(HUB)
    text = _text(caught.value)
    assert "l2tpgen renders no IPsec for Plain, but the pseudowires to hub are protected" in text
    assert "Plain's sessions always carry the 4-byte L2-specific sublayer" in text
