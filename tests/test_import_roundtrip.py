"""Import gives back the fleet l2tpgen rendered: any valid fleet, the reference pair, the hub."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from strategies import build, fleets

from l2tpgen.importer import import_configs
from l2tpgen.model import Fleet, Site
from l2tpgen.render import render_site

if TYPE_CHECKING:
    from typing import Any

PLACEHOLDER = {"host": "192.0.2.254"}


def _comparable(site: Site) -> Site:
    """What a running config carries: not the management address, not the VLAN names."""
    vlans = sorted((v.model_copy(update={"name": "v"}) for v in site.vlans), key=lambda v: v.id)
    peers = sorted(site.peers, key=lambda p: p.name)
    return site.model_copy(
        update={
            "management": site.management.model_validate(PLACEHOLDER),
            "vlans": tuple(vlans),
            "peers": tuple(peers),
        }
    )


def reimport(fleet: Fleet) -> Fleet:
    configs = [(f"{name}.cfg", render_site(fleet, name)) for name in fleet.sites]
    result = import_configs(configs)
    return Fleet.build(Site.model_validate(s.data) for s in result.sites)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fleets())
def test_importing_the_rendered_configs_of_any_valid_fleet_gives_back_an_equal_fleet(
    raw: list[dict[str, Any]],
) -> None:
    fleet = build(raw)
    back = reimport(fleet)
    assert set(back.sites) == set(fleet.sites)
    for name, site in fleet.sites.items():
        assert _comparable(back.sites[name]) == _comparable(site)
