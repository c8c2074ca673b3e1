"""Loading one site: only the site and its peers are read, with the same result as the fleet."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from strategies import fleets

from l2tpgen import FleetValidationError, ModelError, load_fleet, render_site
from l2tpgen.errors import SiteNotFoundError
from l2tpgen.lint import lint_sites
from l2tpgen.model import load_sites
from l2tpgen.model.generate import write_fleet


def _write(directory: Path, raw: list[dict[str, Any]]) -> None:
    for site in raw:
        text = yaml.safe_dump(site, sort_keys=False)
        (directory / f"{site['name']}.yaml").write_text(text, encoding="utf-8")


def test_one_site_loads_only_itself_and_its_peers(tmp_path: Path) -> None:
    write_fleet(tmp_path, 10, 3)
    fleet = load_sites(tmp_path, ["site-4"])
    assert sorted(fleet.sites) == ["site-4", "site-5"]
    assert not fleet.complete
    assert len(fleet.files) == 10


def test_a_broken_site_elsewhere_stops_the_fleet_but_not_one_site(tmp_path: Path) -> None:
    write_fleet(tmp_path, 10, 3)
    (tmp_path / "site-8.yaml").write_text("name: [site-8\n", encoding="utf-8")
    assert sorted(load_sites(tmp_path, ["site-0"]).sites) == ["site-0", "site-1"]
    with pytest.raises(FleetValidationError):
        load_fleet(tmp_path)


def test_a_problem_between_the_site_and_its_peer_is_still_reported(tmp_path: Path) -> None:
    write_fleet(tmp_path, 4, 2)
    peer = tmp_path / "site-1.yaml"
    peer.write_text(peer.read_text().replace("  - {id: 101, name: v101, peer: site-0}\n", ""))
    with pytest.raises(FleetValidationError) as caught:
        load_sites(tmp_path, ["site-0"])
    (problem,) = caught.value.problems
    assert problem.message.startswith("VLAN 101 is stretched to site-1")


def test_an_unknown_site_is_named_with_the_nearest_and_a_short_list(tmp_path: Path) -> None:
    write_fleet(tmp_path, 30, 1)
    with pytest.raises(SiteNotFoundError) as caught:
        load_sites(tmp_path, ["site_4"])
    assert str(caught.value).endswith(", ... (30 in all)); did you mean site-4?")


def _spoke_and_hub(directory: Path) -> None:
    """site-0 is a hub with three spokes; each spoke stretches one VLAN to it."""
    write_fleet(directory, 8, 1)
    hub = (directory / "site-0.yaml").read_text().splitlines()
    hub = [line for line in hub if not line.startswith(("peers:", "  - "))]
    hub[hub.index("vlans:")] = "peers: [site-1, site-2, site-3]\nvlans:"
    hub += [f"  - {{id: {100 + i}, name: v{i}, peer: site-{i}}}" for i in (1, 2, 3)]
    (directory / "site-0.yaml").write_text("\n".join(hub) + "\n")
    for i in (2, 3):
        spoke = (directory / f"site-{i}.yaml").read_text().splitlines()
        spoke = [line for line in spoke if not line.startswith(("peers:", "  - "))]
        spoke[spoke.index("vlans:")] = "peers: [site-0]\nvlans:"
        spoke.append(f"  - {{id: {100 + i}, name: v{i}, peer: site-0}}")
        (directory / f"site-{i}.yaml").write_text("\n".join(spoke) + "\n")
    spoke1 = directory / "site-1.yaml"
    spoke1.write_text(spoke1.read_text().replace("{id: 100, name: v100,", "{id: 101, name: v1,"))


def test_a_spoke_loads_the_hub_but_not_the_other_spokes(tmp_path: Path) -> None:
    _spoke_and_hub(tmp_path)
    load_fleet(tmp_path)  # the hand-made fleet is valid
    assert sorted(load_sites(tmp_path, ["site-2"]).sites) == ["site-0", "site-2"]
    assert sorted(load_sites(tmp_path, ["site-0"]).sites) == [f"site-{i}" for i in range(4)]


def test_a_site_loaded_only_as_a_peer_is_not_rendered_from_a_partial_fleet(
    tmp_path: Path,
) -> None:
    _spoke_and_hub(tmp_path)
    fleet = load_sites(tmp_path, ["site-2"])
    with pytest.raises(ModelError, match="site-0's peer site-1 was not loaded"):
        render_site(fleet, "site-0")
    with pytest.raises(SiteNotFoundError, match="site site-3 was not loaded"):
        fleet.site("site-3")


def test_linting_a_spoke_from_its_neighbourhood_finds_what_the_whole_fleet_finds(
    tmp_path: Path,
) -> None:
    _spoke_and_hub(tmp_path)
    whole = load_fleet(tmp_path)
    for name in ("site-0", "site-2"):
        assert lint_sites(load_sites(tmp_path, [name]), [name]) == lint_sites(whole, [name])


@given(fleets())
@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_one_site_renders_the_same_from_its_peers_as_from_the_whole_fleet(
    raw: list[dict[str, Any]],
) -> None:
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work)
        _write(directory, raw)
        whole = load_fleet(directory)
        for name in whole.sites:
            partial = load_sites(directory, [name])
            assert render_site(partial, name) == render_site(whole, name)


@given(fleets())
@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_linting_one_site_finds_the_same_from_its_peers_as_from_the_whole_fleet(
    raw: list[dict[str, Any]],
) -> None:
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work)
        _write(directory, raw)
        whole = load_fleet(directory)
        for name in whole.sites:
            assert lint_sites(load_sites(directory, [name]), [name]) == lint_sites(whole, [name])
