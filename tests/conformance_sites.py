"""The driver conformance suite's generated pair of sites, rendered by a driver under test.

``conformance.py`` holds the checks, one per trait; this module builds what they read: the same
pair of sites for every platform (its own interface names, signaling and cookies from its traits),
validated as a user's files would be, and rendered by the driver's renderer in one of its formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from format_readers import READERS, Reader

from l2tpgen.errors import FleetValidationError, RenderError
from l2tpgen.model import Fleet, Site

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.platforms.traits import Traits
    from l2tpgen.render import Renderer

Failures = list[str]


@dataclass(frozen=True)
class Driver:
    """A platform under test: its traits and the renderer bound to them."""

    traits: Traits
    render: Renderer


VLANS = (100, 200)


# --- the generated sites -----------------------------------------------------------------------


def pair_dicts(t: Traits, *, ipv6: bool = False, **pw: Any) -> list[dict[str, Any]]:  # noqa: ANN401
    """Two sites of platform ``t`` (its example interface names) peering over ``VLANS``.

    Static sessions when it speaks them, no cookie, the sublayer (sequencing transmit) when its
    sessions always carry it, a trusted path; ``pw`` overrides the pseudowire-class.
    """
    wan, lan, loopback = t.interface_names.examples
    sites = []
    for index, (me, other) in enumerate((("a", "b"), ("b", "a"))):
        settings: dict[str, Any] = {
            "signaling": "static" if "static" in t.signaling else t.signaling[0],
            "cookie": 0,
        }
        if t.sublayer:
            settings["sequencing"] = "transmit"
        settings.update(pw)
        address: dict[str, Any] = (
            {"address": f"2001:db8:{index}::1/64", "gateway": f"2001:db8:{index}::6"}
            if ipv6
            else {
                "address": f"198.51.100.{8 * index + 1}/29",
                "gateway": f"198.51.100.{8 * index + 6}",
                "loopback": {"interface": loopback, "address": f"10.255.0.{index + 1}/32"},
                "underlay": "private",
            }
        )
        sites.append(
            {
                "name": me,
                "hostname": f"{me}-pe",
                "platform": t.name,
                "management": {"host": f"192.0.2.{index + 1}"},
                "wan": {"interface": wan, "trusted": True} | address,
                "lan": {"interface": lan},
                "l2tp_class": {"authentication": "none"},
                "pseudowire_class": settings,
                "peers": [other],
                "vlans": [{"id": v, "name": f"v{v}", "peer": other} for v in VLANS],
            }
        )
    return sites


def protected(t: Traits, sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pair on an untrusted path, protected by IPsec (the inbound filter as ``t`` has it)."""
    for site in sites:
        site["wan"].pop("trusted")
        site["protection"] = {"mode": "ipsec", "inbound_filter": t.inbound_filter}
    return sites


def build(sites: list[dict[str, Any]]) -> Fleet:
    return Fleet.build(Site.model_validate(s) for s in sites)


def refused(sites: list[dict[str, Any]]) -> bool:
    """Whether validation refuses the pair."""
    try:
        build(sites)
    except FleetValidationError:
        return True
    return False


def render(d: Driver, fleet: Fleet, fmt: str | None = None) -> str:
    """Site ``a`` in ``fmt`` (default: the platform's first format), its files as one text."""
    files = d.render(fleet, "a", fmt or d.traits.formats[0], reveal_secrets=False, environ=None)
    if list(files) == [""]:
        return files[""]
    return "\n".join(f"# ==> {name} <==\n{text}" for name, text in files.items()) + "\n"


def says(signs: tuple[str, ...] | None, text: str, **values: object) -> bool:
    """Whether ``text`` holds every sign (False when the format has none)."""
    if signs is None:
        return False
    return all(re.search(s.format(**values), text, re.MULTILINE) for s in signs)


def each_format(
    d: Driver, fleet: Fleet, what: str, sign: Callable[[Reader], tuple[str, ...] | None]
) -> Failures:
    """The default format must write ``what``; another format writes it or refuses the site."""
    failures = []
    for index, fmt in enumerate(d.traits.formats):
        try:
            text = render(d, fleet, fmt)
        except RenderError:
            if index == 0:
                failures.append(f"{fmt} (the default format) refuses a site with {what}")
            continue
        if not says(sign(READERS[fmt]), text):
            failures.append(f"{fmt} renders a site with {what} without writing it")
    return failures
