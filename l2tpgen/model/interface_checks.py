"""Interface names as the site's platform takes them, and hints for the old Linux and VyOS style.

Errors (``check_interfaces``): a name the platform refuses (IOS's rule for Cisco sites; the
kernel's, and VyOS's for VyOS, for the others: ``l2tpgen.traits``), a LAN trunk that cannot
carry the VLANs, a WAN on the trunk, a loopback that is not one, and a ``linux:`` block that
contradicts a Linux or VyOS site's own names. Warnings (``interface_hints``): a Linux or VyOS site
that still writes IOS names, or the ``linux:`` block, gets the same rendering and what to write
instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen import traits
from l2tpgen.ios.names import InterfaceNameError
from l2tpgen.model.interfaces import is_ios_style, is_valid
from l2tpgen.model.problems import PathItem, Problem, format_path

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from l2tpgen.model.site import Site
    from l2tpgen.traits import Traits

_WAN, _LAN, _LOOPBACK = ("wan", "interface"), ("lan", "interface"), ("wan", "loopback", "interface")


def _stated(site: Site) -> list[tuple[tuple[PathItem, ...], str]]:
    found: list[tuple[tuple[PathItem, ...], str]] = [
        (_WAN, site.wan.interface),
        (_LAN, site.lan.interface),
    ]
    if site.wan.loopback is not None:
        found.append((_LOOPBACK, site.wan.loopback.interface))
    return found


def _title(site: Site) -> str:
    return site.driver.short_title or site.driver.title


def name_problem(
    site: str, driver: Traits, path: tuple[PathItem, ...], name: str
) -> Problem | None:
    """Why the platform does not take the name at ``path`` (None: it does)."""
    names = driver.interface_names
    if is_valid(names, name) or (path == _LOOPBACK and names.loopback(name)):
        return None
    try:
        names.canonical(name)
    except InterfaceNameError as exc:
        title = driver.short_title or driver.title
        if names.system:
            wan, lan, _ = names.examples
            hint = (
                f"a {title} site names its interfaces as the system does (e.g. `{wan}`, "
                f"`{lan}`); IOS names are for Cisco platforms"
            )
        else:  # a Linux name on a Cisco site (`enp3s0`): say where such names belong
            systems = [d for d in traits.DRIVERS.values() if d.interface_names.system]
            hint = (
                f"a {title} site names its interfaces as IOS does; for a "
                + " or ".join(d.short_title or d.title for d in systems)
                + " PE, set "
                + " or ".join(f"`platform: {d.name}`" for d in systems)
                + " and write the system's names"
            )
        return Problem(site, path, f"{format_path(path)}: {exc}", hint, code="V031")
    return None  # pragma: no cover - is_valid said no


def raw_name_problems(site: str, data: object) -> Iterator[Problem]:
    """The names of a site file that did not load, checked as its platform would check them.

    The model checks names once it knows the platform; when another field stops the site from
    loading, this reports them in the same run (every problem at once).
    """
    if not isinstance(data, dict):
        return
    management = data.get("management")
    device_type = management.get("device_type") if isinstance(management, dict) else None
    platform = data.get("platform")
    if platform not in traits.DRIVERS:
        platform = traits.BY_DEVICE_TYPE.get(str(device_type), traits.DEFAULT)
    driver = traits.driver(str(platform))
    for path in (_WAN, _LAN, _LOOPBACK):
        value: object = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str) and value.strip():
            found = name_problem(site, driver, path, value.strip())
            if found is not None:
                yield found


def check_interfaces(site: Site) -> Iterator[Problem]:
    """Every interface name of the site as its platform takes it, and the ports' roles."""
    found = [name_problem(site.name, site.driver, path, name) for path, name in _stated(site)]
    problems = [p for p in found if p is not None]
    if problems:
        yield from problems
        return  # the roles below mean nothing for names the platform does not take
    yield from _roles(site)
    yield from _linux_block(site)


def _roles(site: Site) -> Iterator[Problem]:
    names = site.driver.interface_names
    wan, lan, _ = site.interfaces
    stated = site.wan.loopback.interface if site.wan.loopback is not None else None
    if stated and not names.loopback(stated) and not is_ios_style(names, stated):
        yield Problem(
            site.name,
            _LOOPBACK,
            f"{stated} is not a loopback interface",
            ("name `lo`" if names.system else "name a LoopbackN interface")
            + ", or leave wan.loopback out to source tunnels from the WAN",
            code="V032",
        )
    if lan == wan:
        yield Problem(
            site.name,
            _LAN,
            f"{lan} is both the LAN trunk and the WAN interface",
            "the VLANs are stretched from a separate trunk port towards the local switch",
            code="V033",
        )
    refusal = names.trunk(lan, [vlan.id for vlan in site.vlans])
    if refusal is not None:
        yield Problem(
            site.name,
            _LAN,
            refusal,
            f"name the physical Ethernet trunk port (e.g. {names.examples[1]}); l2tpgen adds one "
            "subinterface per VLAN",
            code="V034",
        )
    if wan.startswith(f"{lan}."):
        yield Problem(
            site.name,
            _WAN,
            f"WAN interface {wan} is a subinterface of the LAN trunk {lan}",
            "the LAN trunk is for the stretched VLANs, whose subinterfaces push reconfigures "
            "or removes; keep the router's own uplink off it and put the WAN on another port",
            code="V035",
        )


def _linux_block(site: Site) -> Iterator[Problem]:
    """A Linux or VyOS site's own names and a ``linux:`` block that says otherwise."""
    names = site.driver.interface_names
    if not names.system:
        return
    for side, path in (("wan", _WAN), ("lan", _LAN)):
        stated = getattr(site, side).interface
        block = getattr(site.linux, side)
        given = side in site.linux.model_fields_set
        if given and not is_ios_style(names, stated) and block != stated:
            yield Problem(
                site.name,
                ("linux", side),
                f"linux.{side} {block} differs from {format_path(path)} {stated}",
                f"a {_title(site)} site names its interfaces in {format_path(path)}; drop "
                "the `linux:` block",
                code="V036",
            )


def interface_hints(sites: Iterable[Site]) -> Iterator[Problem]:
    """Warnings for Linux and VyOS sites written the old way, each with what to write instead."""
    for site in sites:
        names = site.driver.interface_names
        if not names.system or not all(is_valid(names, n) for _, n in _stated(site)):
            continue
        title = _title(site)
        actual = site.interfaces
        block = site.linux.model_fields_set
        for path, name in _stated(site):
            if not is_ios_style(names, name):
                continue
            now = actual.loopback if path == _LOOPBACK else getattr(actual, str(path[0]))
            source = "from its `linux:` block" if path[0] in block else "the `linux:` default"
            if path == _LOOPBACK:
                source = "where the tunnel source goes"
            yield Problem(
                site.name,
                path,
                f"{format_path(path)}: {name} is an IOS name; a {title} site names its "
                f"interfaces as the system does, and this one is read as {now} ({source})",
                f"write `interface: {now}`"
                + (" and drop the `linux:` block" if block and path != _LOOPBACK else "")
                + f" (IOS names on a {title} site are deprecated)",
                level="warning",
                code="V037",
            )
        if block and not any(is_ios_style(names, n) for p, n in _stated(site) if p != _LOOPBACK):
            yield Problem(
                site.name,
                ("linux",),
                f"linux: a {title} site names its interfaces in wan.interface and "
                "lan.interface; the `linux:` block is deprecated there",
                "drop the `linux:` block",
                point_at_key=True,
                level="warning",
                code="V038",
            )
