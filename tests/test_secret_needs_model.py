"""validate names the unset secret variables from the model: the ones rendering finds (issue 35).

``l2tpgen validate`` warns about every secret variable the fleet reads that is unset or refused.
It used to render every site (Jinja and every renderer loaded: a sixth of a cold start) and read
the placeholders; it now asks ``l2tpgen.platforms.needs``, which tells from the model what each
platform's renderer writes. The rendering route (``l2tpgen.platforms.render.secret_needs``) stays
the reference: the two agree, variable, purposes, sites, state and problem, on every fleet of the
repository (examples/, sites/, tests/fleets/ that load, the builders' fleets: IPsec, keyed
cookies, a mixed PE, a kept port-mode xconnect, VyOS and Linux PEs, static hellos) and on
generated fleets (``model.generate``, the property strategies), and both refuse the same fleets
(a VyOS pseudowire in IPsec tunnel mode, which validate lets through and render refuses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import (
    HUB,
    PROTECTED,
    VYOS_EDGE,
    both_ends,
    cookie_fleet,
    copy_example,
    edit_file,
    hub_fleet,
    import_reference,
    mixed_fleet,
    three_sites,
    vyos_ipsec_fleet,
)
from conftest import ROOT, SITES
from hypothesis import HealthCheck, given, settings
from strategies import build, fleets, ios_pairs

from l2tpgen.api.sites import unset_secrets
from l2tpgen.errors import L2tpgenError, RenderError
from l2tpgen.model import load_fleet
from l2tpgen.model.generate import write_fleet
from l2tpgen.model.needs import text_needs
from l2tpgen.platforms.needs import NEEDS, model_secret_needs, site_reads
from l2tpgen.platforms.render import render_files, secret_needs
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from l2tpgen.model import Fleet
    from l2tpgen.model.needs import SecretNeed

# The environments each fleet is compared under: nothing set; every variable set to a value each
# purpose accepts; to one every purpose refuses (too short); to one type 7 cannot carry.
GOOD = "Zq7-vR2m-Lp9x-Ke4w-Hb6t"  # 23 printable characters, no space
ENVIRONS: dict[str, Callable[[str], str]] = {
    "unset": lambda _: "",
    "good": lambda _: GOOD,
    "short": lambda _: "x",
    "spaced": lambda _: "two words here and more",
}
VARIABLES = (
    "L2TPGEN_L2TP_SECRET",
    "L2TPGEN_IKE_PSK",
    "L2TPGEN_COOKIE_KEY",
    "L2TPGEN_IKE_PSK_B",
    "L2TPGEN_SECRET_DC",
)


def _environ(kind: str) -> dict[str, str]:
    return {name: ENVIRONS[kind](name) for name in VARIABLES}


def _rendered(fleet: Fleet, environ: Mapping[str, str]) -> object:
    try:
        return secret_needs(fleet, environ=environ)
    except L2tpgenError as exc:
        return type(exc)


def _modelled(fleet: Fleet, environ: Mapping[str, str]) -> object:
    try:
        return model_secret_needs(fleet, environ=environ)
    except L2tpgenError as exc:
        return type(exc)


def _assert_same(fleet: Fleet) -> None:
    for kind in ENVIRONS:
        environ = _environ(kind)
        assert _modelled(fleet, environ) == _rendered(fleet, environ), kind
    for name in fleet.sites:  # site by site too: each placeholder where the model says it is
        try:
            texts = list(render_files(fleet, name).values())
        except RenderError:
            with pytest.raises(RenderError):
                site_reads(fleet, name)
            continue
        placed: dict[str, set[str]] = {}
        for text in texts:
            for variable, purposes in text_needs(text).items():
                placed.setdefault(variable, set()).update(purposes)
        assert site_reads(fleet, name) == placed, name


def _protected_per_peer_key(tmp: Path) -> Path:
    """examples/protected, each end's key for the other named by the peer entry."""
    return copy_example(
        PROTECTED,
        tmp,
        (
            "site-a",
            "peers: [site-b]",
            "peers: [{name: site-b, protection: {psk_env: L2TPGEN_IKE_PSK_B}}]",
        ),
        (
            "site-b",
            "peers: [site-a]",
            "peers: [{name: site-a, protection: {psk_env: L2TPGEN_IKE_PSK_B}}]",
        ),
        name="per-peer-key",
    )


def _static_hello(tmp: Path) -> Path:
    """sites/ with static sessions between the two Cisco routers: `l2tp hello` needs the class."""
    return copy_example(
        SITES,
        tmp,
        *both_ends(
            "pseudowire_class: {name: ethernet, signaling: dynamic, pmtu: true, df_bit: true}",
            "pseudowire_class: {name: ethernet, signaling: static, df_bit: true}",
        ),
        *both_ends("secret_env: L2TPGEN_L2TP_SECRET", "secret_env: L2TPGEN_SECRET_DC"),
        name="static-hello",
    )


def _static_no_hello(tmp: Path) -> Path:
    """The same without `l2tp hello`: the class (and its secret) is not rendered."""
    return copy_example(
        SITES,
        tmp,
        *both_ends(
            "pseudowire_class: {name: ethernet, signaling: dynamic, pmtu: true, df_bit: true}",
            "pseudowire_class: {name: ethernet, signaling: static, static_hello: false}",
        ),
        name="static-no-hello",
    )


def _kept_port_own_class(tmp: Path) -> Path:
    """The kept port-mode pair, its peers' class their own: the port's class is rendered."""
    sites = import_reference(tmp)
    for site, peer in (
        ("before-router-a", "before-router-b"),
        ("before-router-b", "before-router-a"),
    ):
        edit_file(
            sites / f"{site}.yaml",
            f"peers: [{peer}]",
            f"peers:\n  - name: {peer}\n    l2tp_class: "
            "{name: port, authentication: digest, secret_env: L2TPGEN_SECRET_DC}",
        )
    return sites


def _generated(tmp: Path) -> Path:
    write_fleet(tmp / "generated", 6, 3)
    return tmp / "generated"


BUILT: dict[str, Callable[[Path], Path]] = {
    "cookies": cookie_fleet,
    "mixed": mixed_fleet,
    "three-sites": three_sites,
    "vyos-ipsec": vyos_ipsec_fleet,
    "vyos-edge": lambda tmp: hub_fleet(tmp, *VYOS_EDGE),
    "kept-port": import_reference,
    "kept-port-own-class": _kept_port_own_class,
    "per-peer-key": _protected_per_peer_key,
    "static-hello": _static_hello,
    "static-no-hello": _static_no_hello,
    "generated": _generated,
}
# Fleets whose rendering refuses a site that validate lets through: both routes refuse them.
REFUSED: dict[str, Callable[[Path], Path]] = {
    "vyos-ipsec-tunnel": lambda tmp: vyos_ipsec_fleet(
        tmp, *both_ends("ipsec_mode: transport}", "ipsec_mode: tunnel}")
    ),
}


def _repository_fleets() -> list[Path]:
    """Every directory of site files in the repository that loads as a fleet."""
    found = []
    for directory in sorted(
        {
            p.parent
            for root in ("examples", "sites", "tests/fleets")
            for p in (ROOT / root).rglob("*.yaml")
        }
    ):
        try:
            load_fleet(directory)
        except L2tpgenError:
            continue
        found.append(directory)
    return found


REPOSITORY = _repository_fleets()


def test_the_repository_has_fleets_of_every_platform_to_compare() -> None:
    names = {str(p.relative_to(ROOT)) for p in REPOSITORY}
    assert {
        "sites",
        "examples/hub",
        "examples/protected",
        "examples/vyos",
        "examples/ipv6",
    } <= names
    assert "tests/fleets/valid" in names


@pytest.mark.parametrize(
    "directory", REPOSITORY, ids=[str(p.relative_to(ROOT)) for p in REPOSITORY]
)
def test_the_model_names_the_variables_rendering_finds_in_a_repository_fleet(
    directory: Path,
) -> None:
    _assert_same(load_fleet(directory))


@pytest.mark.parametrize("build_fleet", BUILT.values(), ids=BUILT.keys())
def test_the_model_names_the_variables_rendering_finds_in_a_built_fleet(
    build_fleet: Callable[[Path], Path], tmp_path: Path
) -> None:
    fleet = load_fleet(build_fleet(tmp_path))
    assert not isinstance(_rendered(fleet, {}), type)  # rendered, not refused
    _assert_same(fleet)


@pytest.mark.parametrize("build_fleet", REFUSED.values(), ids=REFUSED.keys())
def test_the_model_refuses_the_fleets_rendering_refuses_and_validate_warns_of_none(
    build_fleet: Callable[[Path], Path], tmp_path: Path
) -> None:
    fleet = load_fleet(build_fleet(tmp_path))
    assert _rendered(fleet, {}) is RenderError
    _assert_same(fleet)
    assert unset_secrets(fleet) == []  # as before: render and push say why


def test_the_built_fleets_read_every_kind_of_secret(tmp_path: Path) -> None:
    """The comparisons above are not vacuous: each purpose, and a per-peer key, is read."""
    purposes: set[str] = set()
    variables: set[str] = set()
    for name, build_fleet in BUILT.items():
        (tmp_path / name).mkdir()
        fleet = load_fleet(build_fleet(tmp_path / name))
        for need in model_secret_needs(fleet, environ={}):
            purposes.update(need.purposes)
            variables.add(need.variable)
    assert purposes == {"ike-master-key", "cookie-key", "l2tp-secret"}
    assert {"L2TPGEN_IKE_PSK_B", "L2TPGEN_SECRET_DC", "L2TPGEN_COOKIE_KEY"} <= variables


def test_validate_warns_of_the_variables_rendering_finds_unset() -> None:
    fleet = load_fleet(ROOT / "examples" / "protected")
    rendered = [n for n in secret_needs(fleet) if n.state != "set"]
    assert unset_secrets(fleet) == rendered


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(fleets())
def test_the_model_names_the_variables_rendering_finds_in_a_generated_fleet(
    raw: list[dict[str, object]],
) -> None:
    _assert_same(build(raw))


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(ios_pairs())
def test_the_model_names_the_variables_rendering_finds_in_a_generated_cisco_pair(
    raw: list[dict[str, object]],
) -> None:
    _assert_same(build(raw))


def test_the_hub_example_is_compared_as_it_stands() -> None:
    assert HUB in REPOSITORY


def test_every_platform_says_what_its_rendering_reads() -> None:
    assert set(NEEDS) == set(DRIVERS)


@pytest.mark.parametrize("secret", ["two words", "x" * 26, "pässword"])
def test_validate_says_an_l2tp_secret_type_7_cannot_carry_is_refused_never_showing_it(
    secret: str,
) -> None:
    fleet = load_fleet(SITES)
    (need,) = unset_secrets_in(fleet, {"L2TPGEN_L2TP_SECRET": secret})
    assert (need.variable, need.state) == ("L2TPGEN_L2TP_SECRET", "refused")
    assert need.problem is not None
    assert "holds a secret type 7 cannot carry" in need.problem
    assert secret not in need.problem


def unset_secrets_in(fleet: Fleet, environ: Mapping[str, str]) -> list[SecretNeed]:
    """What validate warns of, under ``environ``."""
    return [n for n in model_secret_needs(fleet, environ=environ) if n.state != "set"]
