"""A validate hint that names a value leads, followed to the letter, to a fleet without the problem.

Issue 34: "every hint that names a value is checked against what the lab or the model computes".
The hints of problem_codes.yaml that write a value out for the user to paste (a VLAN entry with
its VC ID, a port-mode xconnect, a route, a device type, a site name; V043's per-peer entry is
tests/test_static_hint.py) are each taken from validate's own words, pasted where the hint says,
and the fleet validated again: the problem is gone, and no other takes its place.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from builders import EXAMPLES, copy_example, hub_fleet

from l2tpgen import FleetValidationError, load_fleet
from l2tpgen.importer import import_configs
from l2tpgen.model import Fleet, Site
from l2tpgen.model.underlay import check_underlay

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Problem

SINGLE_TRUNK = EXAMPLES.parent / "tests" / "importer" / "single-trunk"


def _only(sites: Path, code: str) -> Problem:
    """The one problem of the fleet in ``sites``, which has ``code``."""
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    (problem,) = caught.value.problems
    assert problem.code == code, problem
    return problem


def _snippet(hint: str) -> Any:  # noqa: ANN401 - YAML
    """The first code span of a hint, read as YAML."""
    return yaml.safe_load(re.findall(r"`([^`]+)`", hint)[0])


def _edit(path: Path, change: Any) -> None:  # noqa: ANN401 - a function of the site's data
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_v027s_vlan_entry_pasted_at_the_peer_pairs_the_vlan_with_its_vc_id(tmp_path: Path) -> None:
    # examples/broken: site-b forgot VLAN 2998, which site-a stretches with vc_id 128.
    sites = copy_example(EXAMPLES / "broken", tmp_path)
    problem = _only(sites, "V027")
    (entry,) = _snippet(problem.hint)
    assert entry == {"id": 2998, "name": "live-migration", "peer": "site-a", "vc_id": 128}
    _edit(sites / "site-b.yaml", lambda data: data["vlans"].append(entry))
    fleet = load_fleet(sites)
    ours = fleet.pseudowires("site-a")
    assert {(p.vlan.id, p.vc_id) for p in ours if p.vlan.id == 2998} == {(2998, 128)}


def test_v027s_vlan_entry_of_a_vlan_without_a_vc_id_gives_the_vlan_id(tmp_path: Path) -> None:
    # The hub's VLANs leave vc_id out (it is then the VLAN ID): the entry says so in full.
    sites = hub_fleet(tmp_path, ("branch", "  - {id: 105, name: mgmt, peer: hub}\n", ""))
    problem = _only(sites, "V027")
    (entry,) = _snippet(problem.hint)
    assert entry == {"id": 105, "name": "mgmt", "peer": "hub", "vc_id": 105}
    _edit(sites / "branch.yaml", lambda data: data["vlans"].append(entry))
    load_fleet(sites)


def test_v073s_port_xconnect_pasted_at_the_other_end_keeps_the_pair() -> None:
    configs = [(str(p), p.read_text()) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    data: dict[str, dict[str, Any]] = {
        s.name: copy.deepcopy(dict(s.data)) for s in import_configs(configs).sites
    }
    a, b = sorted(data)
    kept = data[b]["lan"].pop("port_xconnect")
    with pytest.raises(FleetValidationError) as caught:
        Fleet.build([Site.model_validate(d) for d in data.values()])
    (problem,) = caught.value.problems
    assert problem.code == "V073"
    pasted = _snippet(problem.hint)["lan.port_xconnect"]
    assert pasted == kept == {"peer": a, "vc_id": kept["vc_id"], "action": "keep"}
    data[b]["lan"]["port_xconnect"] = pasted
    Fleet.build([Site.model_validate(d) for d in data.values()])


def test_v066s_example_route_gives_the_site_its_route_to_the_peer(tmp_path: Path) -> None:
    sites = hub_fleet(
        tmp_path,
        ("linux-edge", "  underlay: private ", "  routes: [192.0.2.0/24]\n  underlay: private "),
    )
    (warning,) = [w for w in check_underlay(load_fleet(sites).sites) if w.code == "V066"]
    route = re.search(r"\(e\.g\. (\S+)\)", warning.hint)
    assert route is not None
    assert route[1] == "10.255.0.1/32"  # hub's loopback, its tunnel source
    _edit(sites / "linux-edge.yaml", lambda data: data["wan"]["routes"].append(route[1]))
    assert [w for w in check_underlay(load_fleet(sites).sites) if w.code == "V066"] == []


def test_v017s_device_type_is_the_platforms(tmp_path: Path) -> None:
    sites = hub_fleet(
        tmp_path,
        (
            "hub",
            "management: {host: 192.0.2.21}",
            "management: {host: 192.0.2.21, device_type: cisco_ios}",
        ),
    )
    problem = _only(sites, "V017")
    _edit(sites / "hub.yaml", lambda data: data["management"].update(_snippet(problem.hint)))
    assert load_fleet(sites).sites["hub"].management.device_type == "cisco_xe"


def test_v009s_name_is_the_files(tmp_path: Path) -> None:
    sites = hub_fleet(tmp_path, ("branch", "name: branch\n", "name: branch-1\n"))
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    (problem,) = [p for p in caught.value.problems if p.code == "V009"]
    _edit(sites / "branch.yaml", lambda data: data.update(_snippet(problem.hint)))  # `name: branch`
    load_fleet(sites)
