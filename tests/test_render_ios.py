"""IOS rendering of the example fleet: golden files, secrets, ordering."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from conftest import GOLDEN, SITES, Golden

from l2tpgen import SecretError, load_fleet, render_site
from l2tpgen.ios.type7 import decode as type7_decode

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

SECRET = "123456789"  # noqa: S105 - the reference case's published example, not a real secret


@pytest.fixture(scope="module")
def fleet() -> Fleet:
    return load_fleet(SITES)


@pytest.mark.parametrize("site", ["site-a", "site-b"])
def test_rendered_config_matches_golden_file(fleet: Fleet, site: str, golden: Golden) -> None:
    golden.check(GOLDEN / "render" / f"{site}.ios.conf", render_site(fleet, site))


def _xconnects(config: str) -> dict[int, tuple[str, int]]:
    """VLAN -> (peer, VC ID) from the subinterfaces of a rendered config."""
    pattern = re.compile(
        r"^interface \S+\.(\d+)\n(?: description .*\n)? encapsulation dot1Q (\d+)\n"
        r"(?: .*\n)*? xconnect (\S+) (\d+) ",
        re.MULTILINE,
    )
    found = {}
    for sub, vlan, peer, vc_id in pattern.findall(config):
        assert sub == vlan
        found[int(vlan)] = (peer, int(vc_id))
    return found


def test_site_a_has_the_reference_case_xconnects(fleet: Fleet) -> None:
    config = render_site(fleet, "site-a")
    assert _xconnects(config) == {
        2996: ("10.216.44.47", 126),
        2997: ("10.216.44.47", 127),
        2998: ("10.216.44.47", 128),
        2999: ("10.216.44.47", 125),
    }
    for line in ("ip pmtu", "ip dfbit set", "protocol l2tpv3 class1", "hold-queue 2048 in"):
        assert f" {line}\n" in config


def test_site_b_points_back_at_site_a_with_the_same_vc_ids(fleet: Fleet) -> None:
    a = _xconnects(render_site(fleet, "site-a"))
    b = _xconnects(render_site(fleet, "site-b"))
    assert b == {vlan: ("10.197.251.215", vc_id) for vlan, (_, vc_id) in a.items()}


def test_secret_is_masked_by_default_even_when_the_variable_is_set(
    fleet: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", SECRET)
    config = render_site(fleet, "site-a")
    assert " password 7 <L2TPGEN_L2TP_SECRET>\n" in config
    assert SECRET not in config


def test_revealed_secret_is_type_7_never_type_0(fleet: Fleet) -> None:
    config = render_site(
        fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": SECRET}
    )
    (encoded,) = re.findall(r"^ password 7 (\S+)$", config, re.MULTILINE)
    assert type7_decode(encoded) == SECRET
    assert SECRET not in config
    assert "password 0" not in config


def test_reveal_without_the_variable_names_it_and_fails(fleet: Fleet) -> None:
    with pytest.raises(SecretError, match="L2TPGEN_L2TP_SECRET is not set"):
        render_site(fleet, "site-a", reveal_secrets=True, environ={})


def test_digest_is_the_default_authentication_and_renders_hash_sha() -> None:
    fleet = load_fleet(SITES.parent / "tests" / "fleets" / "valid")
    config = render_site(fleet, "site-a")
    assert "l2tp-class l2tpgen\n digest secret 7 <L2TPGEN_L2TP_SECRET> hash sha\n!" in config
    assert " authentication\n" not in config


def test_sections_follow_running_config_order(fleet: Fleet) -> None:
    config = render_site(fleet, "site-a")
    heads = [line for line in config.splitlines() if line and not line.startswith((" ", "!"))]
    assert heads == [
        "l2tp-class class1",
        "pseudowire-class ethernet",
        "interface GigabitEthernet0/0",
        "interface GigabitEthernet0/0.2996",
        "interface GigabitEthernet0/0.2997",
        "interface GigabitEthernet0/0.2998",
        "interface GigabitEthernet0/0.2999",
        "interface GigabitEthernet0/1",
        "ip route 0.0.0.0 0.0.0.0 10.197.251.209",
        "no cdp run",
    ]


def test_site_a_renders_the_reference_case_line_for_line(fleet: Fleet) -> None:
    reference = (GOLDEN.parent / "reference" / "reference-case-router-a.conf").read_text()
    revealed = render_site(
        fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": SECRET}
    )
    # l2tpgen's own marks (header comment, `description l2tpgen: ...` on the subinterfaces it
    # owns) are not in the reference case; push needs them to know what it may change later.
    ours = [
        line
        for line in revealed.splitlines()
        if not line.startswith(("! l2tpgen:", " description l2tpgen:"))
    ][1:]
    theirs = reference.splitlines()
    # The one intended difference: l2tpgen writes the secret in its encrypted input form.
    (index,) = [i for i, line in enumerate(theirs) if line.startswith(" password 0 ")]
    assert type7_decode(ours[index].removeprefix(" password 7 ")) == SECRET
    assert ours[:index] + ours[index + 1 :] == theirs[:index] + theirs[index + 1 :]


def test_loopback_peers_get_a_named_host_route_via_the_wan_gateway() -> None:
    hub = load_fleet(SITES.parent / "examples" / "hub")
    config = render_site(hub, "branch")
    assert "\nip route 10.255.0.1 255.255.255.255 198.51.100.14 name l2tpgen-hub\n" in config


def test_no_peer_routes_when_an_igp_carries_the_loopbacks(tmp_path: Path) -> None:
    source = SITES.parent / "examples" / "hub"
    for file in source.glob("*.yaml"):
        text = file.read_text()
        if file.name == "branch.yaml":
            text = text.replace(
                "  gateway: 198.51.100.14\n", "  gateway: 198.51.100.14\n  peer_routes: igp\n"
            )
        (tmp_path / file.name).write_text(text)
    config = render_site(load_fleet(tmp_path), "branch")
    assert " name l2tpgen" not in config
    assert "\nip route 0.0.0.0 0.0.0.0 198.51.100.14\n" in config


def test_every_managed_subinterface_carries_the_l2tpgen_mark(fleet: Fleet) -> None:
    config = render_site(fleet, "site-a")
    subs = re.findall(r"^interface (\S+\.\d+)\n description (.*)$", config, re.MULTILINE)
    assert [name for name, _ in subs] == [f"GigabitEthernet0/0.{v}" for v in range(2996, 3000)]
    assert all(text.startswith("l2tpgen: VLAN ") for _, text in subs)
