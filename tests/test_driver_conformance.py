"""Every platform renders what its traits promise: the driver conformance suite (issue 35).

One case per platform and trait (``conformance.CHECKS``), found from the registry, so a new
platform gets every case without a line here (NAPALM's getters suite, cited in
``tests/conformance.py``). Then the checker itself is tested: fake drivers whose traits promise
what their renderer does not write (a trial platform with ``ipsec=True`` that renders no IPsec,
issue 35) fail it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from conformance import CHECKS, NOT_RENDERED, check_platform, unclassified
from conformance_sites import Driver
from format_readers import READERS

from l2tpgen.platforms.render import RENDERERS
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet
    from l2tpgen.render import Renderer

CASES = [(platform, check) for platform in DRIVERS for check in CHECKS]


def real(platform: str) -> Driver:
    return Driver(DRIVERS[platform], RENDERERS[platform])


@pytest.mark.parametrize(("platform", "check"), CASES, ids=[f"{p}-{c}" for p, c in CASES])
def test_every_platform_renders_what_each_of_its_traits_promises(platform: str, check: str) -> None:
    assert CHECKS[check](real(platform)) == []


def test_every_trait_is_checked_against_the_rendering_or_says_why_it_is_not() -> None:
    assert unclassified() == []
    assert not set(CHECKS) & set(NOT_RENDERED)


def test_every_format_a_platform_lists_has_a_reader() -> None:
    assert {f for t in DRIVERS.values() for f in t.formats} <= set(READERS)


# --- the checker catches a driver that does not do what its traits say ---------------------------


def dropping(platform: str, pattern: str) -> Renderer:
    """``platform``'s renderer with every line matching ``pattern`` taken out of its files."""
    inner = RENDERERS[platform]

    def render(
        fleet: Fleet,
        name: str,
        fmt: str,
        *,
        reveal_secrets: bool,
        environ: Mapping[str, str] | None,
    ) -> dict[str, str]:
        files = inner(fleet, name, fmt, reveal_secrets=reveal_secrets, environ=environ)
        return {
            file: "".join(
                line for line in text.splitlines(keepends=True) if not re.search(pattern, line)
            )
            for file, text in files.items()
        }

    return render


def only_script(platform: str) -> Renderer:
    """``platform``'s renderer writing its first file only (a Linux PE without swanctl.conf)."""
    inner = RENDERERS[platform]

    def render(
        fleet: Fleet,
        name: str,
        fmt: str,
        *,
        reveal_secrets: bool,
        environ: Mapping[str, str] | None,
    ) -> dict[str, str]:
        files = inner(fleet, name, fmt, reveal_secrets=reveal_secrets, environ=environ)
        return {"": next(iter(files.values()))}

    return render


def test_a_platform_promising_ipsec_that_renders_none_fails_the_suite() -> None:
    # The trial of issue 35: ipsec=True, and a renderer that writes no crypto.
    trial = Driver(replace(DRIVERS["ios"], ipsec=True), dropping("ios", r"crypto"))
    assert "ipsec" in check_platform(trial)
    linux = Driver(DRIVERS["linux"], only_script("linux"))
    assert "ipsec" in check_platform(linux)
    vyos = Driver(DRIVERS["vyos"], dropping("vyos", r"^set vpn ipsec"))
    assert "ipsec" in check_platform(vyos)


def test_a_platform_promising_static_hello_that_renders_none_fails_the_suite() -> None:
    trial = Driver(DRIVERS["ios"], dropping("ios", r"l2tp hello"))
    assert "static_hello_capable" in check_platform(trial)


def test_a_platform_whose_mtu_is_not_the_models_budget_fails_the_suite() -> None:
    inner = RENDERERS["ios"]

    def off_by_four(fleet: Fleet, name: str, fmt: str, **kwargs: object) -> dict[str, str]:
        text = inner(fleet, name, fmt, **kwargs)[""]  # type: ignore[arg-type]
        return {
            "": re.sub(r"^ mtu (\d+)$", lambda m: f" mtu {int(m[1]) + 4}", text, flags=re.MULTILINE)
        }

    failures = check_platform(Driver(DRIVERS["ios"], off_by_four))
    assert "mtu" in failures


@pytest.mark.parametrize(
    ("platform", "flip", "check"),
    [
        ("ios", {"frames_dot1q_subinterface": False}, "frames_dot1q_subinterface"),
        ("linux", {"frames_dot1q_subinterface": True}, "frames_dot1q_subinterface"),
        ("vyos", {"fail_closed": True}, "fail_closed"),
        ("linux", {"fail_closed": False}, "fail_closed"),
        ("ios", {"kernel_sessions": True}, "kernel_sessions"),
        ("vyos", {"peer_routes": True}, "peer_routes"),
        ("ios", {"peer_routes": False}, "peer_routes"),
        ("linux", {"ios_config": True}, "ios_config"),
        ("ios", {"hold_queue": (75, 40)}, "hold_queue"),
        ("linux", {"static_hello_capable": True}, "static_hello_capable"),
        ("vyos", {"formats": ("set", "networkd")}, "formats"),
    ],
)
def test_a_trait_flipped_against_its_renderer_fails_the_suite(
    platform: str, flip: dict[str, object], check: str
) -> None:
    trial = Driver(replace(DRIVERS[platform], **flip), RENDERERS[platform])  # type: ignore[arg-type]
    assert CHECKS[check](trial) != []


def test_a_new_trait_nobody_checks_fails_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(NOT_RENDERED, "lab_kind")
    assert unclassified() == ["lab_kind"]
