"""Shared test builders: site files and fleets for the tests, made one way in one place.

A test module imports what it builds from here (or from ``conftest*.py``), never from another
test module: ``tests/test_test_imports.py`` keeps it so. What is here:

- a copy of an example (``examples/hub``, ``examples/protected``) in a test's directory, with each
  edit a ``(site, old, new)`` replacement that must find ``old``;
- a small fleet written from a template (two sites on public addresses; the mixed PE of issue 25);
- the hub's rendering with its secrets revealed, and without its protection.

What builds no site (stand-ins, the Action's runner, reading imports) is in ``support.py``.
"""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING, Any

from conftest import ROOT, SITES
from strategies import site_dict

from l2tpgen import FleetValidationError, load_fleet, render_site

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from l2tpgen.model import Site

EXAMPLES = ROOT / "examples"
# The reference case's single-trunk routers (one xconnect on the LAN port carries every VLAN)
REFERENCE_BEFORE = {
    f"before-router-{end}": ROOT / "tests" / "reference" / f"before-router-{end}.conf"
    for end in "ab"
}
HUB = EXAMPLES / "hub"
PROTECTED = EXAMPLES / "protected"

Edit = tuple[str, str, str]
"""``(site, old, new)``: in ``<site>.yaml``, replace ``old`` (which must be there) by ``new``."""


# --- copies of the examples, edited ------------------------------------------------------------


def edit_file(path: Path, old: str, new: str, *, count: int = -1) -> None:
    """Replace ``old`` by ``new`` in ``path`` (every one, or the first ``count``); ``old`` must
    be there, so an edit that no longer applies fails the test instead of testing nothing."""
    text = path.read_text()
    assert old in text, (path.name, old)
    path.write_text(text.replace(old, new, count))


def both_ends(old: str, new: str) -> tuple[Edit, Edit]:
    """The same edit in site-a and site-b (the reference pair's two files)."""
    return ("site-a", old, new), ("site-b", old, new)


def copy_example(source: Path, parent: Path, *edits: Edit, name: str | None = None) -> Path:
    """``source`` copied to ``parent/<name>`` (its own name unless given) with ``edits`` made;
    the copy's path."""
    sites = parent / (name or source.name)
    shutil.copytree(source, sites)
    for site, old, new in edits:
        edit_file(sites / f"{site}.yaml", old, new)
    return sites


def without_vlan(parent: Path, vlan: int, sites: tuple[str, ...] = ("site-a", "site-b")) -> Path:
    """``sites/`` (the reference pair) copied to ``parent/sites`` with every line that names
    ``vlan`` taken out of the files of ``sites``."""
    copy = copy_example(SITES, parent)
    for name in sites:
        path = copy / f"{name}.yaml"
        lines = path.read_text().splitlines(keepends=True)
        kept = [line for line in lines if str(vlan) not in line]
        assert len(kept) < len(lines), (name, vlan)
        path.write_text("".join(kept))
    return copy


# The hub example with its Linux edge made a VyOS PE: trusted paths (l2tpgen renders no inbound
# WAN filter for VyOS), no cookies, and the sublayer on both ends (sequencing transmit).
VYOS_EDGE: tuple[Edit, ...] = (
    ("linux-edge", "platform: linux", "platform: vyos"),
    (
        "linux-edge",
        "signaling: static, cookie: 0}",
        "signaling: static, cookie: 0, sequencing: transmit}",
    ),
    ("linux-edge", "gateway: 198.51.100.22\n", "gateway: 198.51.100.22\n  trusted: true\n"),
    (
        "hub",
        "{signaling: static, cookie: 0}",
        "{signaling: static, cookie: 0, sequencing: transmit}",
    ),
    ("hub", "gateway: 198.51.100.6\n", "gateway: 198.51.100.6\n  trusted: true\n"),
)


def hub_fleet(tmp_path: Path, *edits: Edit) -> Path:
    """``examples/hub`` copied to ``tmp_path/hub`` with ``edits`` made."""
    return copy_example(HUB, tmp_path, *edits)


def cookie_fleet(tmp_path: Path) -> Path:
    """The hub fleet with linux-edge's pseudowires protected by keyed 8-byte cookies only."""
    sites = hub_fleet(
        tmp_path,
        (
            "hub",
            "pseudowire: {signaling: static, cookie: 0}",
            "pseudowire: {signaling: static}\n    protection: {mode: cookie}",
        ),
        ("linux-edge", "signaling: static, cookie: 0}", "signaling: static}"),
    )
    with (sites / "linux-edge.yaml").open("a") as handle:
        handle.write("protection: {mode: cookie}\n")
    return sites


# examples/protected (IPsec IKEv2, ESP transport AES-GCM-128, on a private path) with one end a
# Linux PE and the other (site-b unless said) a VyOS PE: static sessions, no cookie, the
# sublayer at both ends.
VYOS_CLASS = (
    "{name: ethernet, signaling: dynamic, pmtu: true, df_bit: true}",
    "{name: ethernet, signaling: static, cookie: 0, sequencing: transmit}",
)


def vyos_protected_edits(vyos: str = "site-b") -> tuple[Edit, ...]:
    """The edits that make ``examples/protected`` the fleet above, ``vyos`` its VyOS PE."""
    devices = [
        (name, "device_type: cisco_ios", f"device_type: {'vyos' if name == vyos else 'linux'}")
        for name in ("site-a", "site-b")
    ]
    return (*devices, *[(name, *VYOS_CLASS) for name in ("site-a", "site-b")])


def vyos_ipsec_fleet(tmp_path: Path, *extra: Edit, vyos: str = "site-b") -> Path:
    """``examples/protected`` with ``vyos`` a VyOS PE, the other end Linux, then ``extra``."""
    return copy_example(PROTECTED, tmp_path, *vyos_protected_edits(vyos), *extra)


# --- two sites from a template -------------------------------------------------------------------

TWO_SITES = """\
name: {name}
hostname: {name}-pe
management: {{host: 192.0.2.10}}
wan:
  interface: GigabitEthernet0/1
  address: {wan}/29
  gateway: {gateway}
{wan_extra}lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: dc{l2tp}}}
pseudowire_class: {{name: ethernet{pw}}}
{protection}peers:
  - {peer_entry}
vlans:
{vlans}"""


def next_address(address: str) -> str:
    """The IPv4 address after ``address`` (a site's gateway, next to its WAN address)."""
    network, last = address.rsplit(".", 1)
    return f"{network}.{int(last) + 1}"


def write_site(
    directory: Path,
    name: str,
    peer: str,
    wan: str,
    *,
    wan_extra: str = "",
    l2tp: str = ", authentication: none",
    pw: str = ", signaling: static",
    protection: str = "",
    peer_entry: str | None = None,
    vlans: str = "100 web",
) -> Path:
    """One site file of a two-site fleet, ``name`` on ``wan`` (a /29, its gateway the next
    address) with pseudowires to ``peer`` (IPsec by default when an address is public).

    ``wan_extra`` is lines added to ``wan``; ``l2tp`` and ``pw`` are what follows the class names
    (``dc``, ``ethernet``); ``protection`` is a top-level ``protection:`` line; ``peer_entry`` the
    entry in ``peers`` (the peer's name unless given); ``vlans`` the VLANs carried, each ``ID
    NAME``, comma-separated."""
    path = directory / f"{name}.yaml"
    text = TWO_SITES.format(
        name=name,
        peer=peer,
        wan=wan,
        gateway=next_address(wan),
        wan_extra=wan_extra,
        l2tp=l2tp,
        pw=pw,
        protection=protection,
        peer_entry=peer_entry or peer,
        vlans="".join(
            f"  - {{id: {i}, name: {n}, peer: {peer}}}\n"
            for i, n in (vlan.split() for vlan in vlans.split(","))
        ),
    )
    path.write_text(text, encoding="utf-8")
    return path


def fleet_problems(directory: Path) -> list[str]:
    """Each validation problem of the fleet in ``directory`` as ``location: message | hint``."""
    try:
        load_fleet(directory)
    except FleetValidationError as exc:
        return [f"{p.location}: {p.message} | {p.hint}" for p in exc.problems]
    return []


_WAN_SITE = """\
name: {name}
hostname: {name}-pe
platform: {platform}
management: {{host: 192.0.2.10}}
wan:
  interface: GigabitEthernet0/1
  address: {wan}
  gateway: {gateway}
{wan_extra}lan: {{interface: GigabitEthernet0/0}}
{l2tp_class}pseudowire_class: {{name: ethernet, signaling: static{pw}}}
peers: [{peer}]
vlans:
  - {{id: 100, name: web, peer: {peer}}}
"""


def write_wan_site(
    directory: Path,
    name: str,
    peer: str,
    wan: str,
    gateway: str,
    *,
    platform: str,
    wan_extra: str = "",
    l2tp_class: str = "",
    pw: str = "",
) -> Path:
    """One site file on ``platform`` with its WAN ``wan`` (address/prefix, either family) and
    ``gateway`` as given, VLAN 100 to ``peer``, static signaling. ``wan_extra`` is lines added to
    ``wan``, ``l2tp_class`` a whole ``l2tp_class:`` line, ``pw`` what follows the signaling."""
    text = _WAN_SITE.format(
        name=name,
        peer=peer,
        wan=wan,
        gateway=gateway,
        wan_extra=wan_extra,
        platform=platform,
        l2tp_class=l2tp_class,
        pw=pw,
    )
    path = directory / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# --- pairs: site-a and site-b with VLAN 10 between them ------------------------------------------

_USERS_SITE = """\
name: {name}
hostname: rtr-{name}
management: {{host: 192.0.2.{host}}}
wan: {{interface: GigabitEthernet0/1, address: {wan}/29, gateway: {gateway}}}
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{secret_env: L2TPGEN_L2TP_SECRET}}
peers: [{peer}]
vlans:
  - {{id: 10, name: users, peer: {other}{vlan}}}
"""


def users_pair(
    directory: Path, a: str = "", b: str = "", *, link_a: str = "", link_b: str = ""
) -> Path:
    """``site-a`` and ``site-b`` on public WANs with VLAN 10 ``users`` between them (line 9, its
    ``{`` at column 5), written in ``directory``. ``a`` and ``b`` are added to each end's VLAN
    (``", carries: storage"``); ``link_a`` and ``link_b`` are each end's ``link`` to the other."""
    for name, other, host, wan, gateway, vlan, link in (
        ("site-a", "site-b", 1, "198.51.100.1", "198.51.100.6", a, link_a),
        ("site-b", "site-a", 2, "203.0.113.1", "203.0.113.6", b, link_b),
    ):
        peer = f"{{name: {other}, link: {link}}}" if link else other
        text = _USERS_SITE.format(
            name=name, host=host, wan=wan, gateway=gateway, peer=peer, other=other, vlan=vlan
        )
        (directory / f"{name}.yaml").write_text(text)
    return directory


def pair_dicts(**changes: Any) -> list[dict[str, Any]]:  # noqa: ANN401 - site-file values
    """site-0 and site-1 as site-file dicts (``strategies.site_dict``, no loopback) with VLAN 10
    ``users`` between them; ``changes`` are set on site-0."""
    a, b = site_dict(0, loopback=False), site_dict(1, loopback=False)
    a["peers"], b["peers"] = ["site-1"], ["site-0"]
    a["vlans"] = [{"id": 10, "name": "users", "peer": "site-1"}]
    b["vlans"] = [{"id": 10, "name": "users", "peer": "site-0"}]
    a.update(changes)
    return [a, b]


# --- a PE mixing clear and IPsec peers (issue 25) -------------------------------------------------

_MIXED_SITE = """\
name: {name}
hostname: {name}-1
platform: linux
management: {{host: 192.0.2.{host}}}
wan:
  interface: GigabitEthernet0/1
  address: 198.51.100.{wan}/29
  gateway: 198.51.100.{gateway}
  loopback: {{interface: Loopback0, address: 10.255.0.{loopback}/32}}
lan: {{interface: GigabitEthernet0/0}}
linux: {{wan: eth1, lan: eth2}}
pseudowire_class: {{name: ethernet, signaling: static, cookie: {cookie}}}
{extra}"""

_HUB_PEERS = """\
peers:
  - branch
  - name: edge
    pseudowire: {cookie: 8}
    protection: {mode: cookie}
vlans:
  - {id: 100, name: web, peer: branch}
  - {id: 200, name: lab, peer: edge}
"""


def mixed_fleet(directory: Path, *, branch_cookie: int = 8) -> Path:
    """hub (mixed: IPsec to branch, cookies to edge), branch and edge, in ``directory``."""
    sites = {
        "hub": {
            "host": 21,
            "wan": 1,
            "gateway": 6,
            "loopback": 1,
            "cookie": branch_cookie,
            "extra": _HUB_PEERS,
        },
        "branch": {
            "host": 22,
            "wan": 9,
            "gateway": 14,
            "loopback": 2,
            "cookie": branch_cookie,
            "extra": "peers: [hub]\nvlans:\n  - {id: 100, name: web, peer: hub}\n",
        },
        "edge": {
            "host": 23,
            "wan": 17,
            "gateway": 22,
            "loopback": 3,
            "cookie": 8,
            "extra": "protection: {mode: cookie}\npeers: [hub]\n"
            "vlans:\n  - {id: 200, name: lab, peer: hub}\n",
        },
    }
    for name, values in sites.items():
        (directory / f"{name}.yaml").write_text(_MIXED_SITE.format(name=name, **values))
    return directory


# --- a hub with a Cisco and a Linux spoke, one VLAN each (issue 34) -------------------------------

_HUB_PEERS_IN_ORDER = (
    "peers:\n  - branch\n  - name: linux-edge\n    pseudowire: {signaling: static, cookie: 0}\n"
)
_HUB_PEERS_SWAPPED = (
    "peers:\n  - name: linux-edge\n    pseudowire: {signaling: static, cookie: 0}\n  - branch\n"
)


_BRANCH_DROPPED = ((101, "app"), (102, "db"), (103, "backup"), (104, "vmotion"), (105, "mgmt"))


def three_sites(directory: Path, *, linux_vlan: int = 20, swap_peers: bool = False) -> Path:
    """``examples/hub`` cut to one VLAN per spoke, in ``directory/hub``: the IOS-XE hub (dc-pe1)
    with the Cisco branch on VLAN 100 and the Linux edge on ``linux_vlan``, every pseudowire
    IPsec (the WANs are public). Below 100 (the default) the hub's first tunnel is the Linux
    edge's, so the branch's pair is judged on the hub's second tunnel; ``swap_peers`` lists the
    hub's peers the other way round."""
    dropped = (
        *((vlan, name, "branch") for vlan, name in _BRANCH_DROPPED),
        *((vlan, name, "linux-edge") for vlan, name in ((201, "lab-b"), (202, "lab-c"))),
    )
    edits: list[Edit] = [
        *(
            (site, f"  - {{id: {vlan}, name: {name}, peer: {peer}}}\n", "")
            for vlan, name, spoke in dropped
            for site, peer in (("hub", spoke), (spoke, "hub"))
        ),
        ("hub", "{id: 200, name: lab-a,", f"{{id: {linux_vlan}, name: lab-a,"),
        ("linux-edge", "{id: 200, name: lab-a,", f"{{id: {linux_vlan}, name: lab-a,"),
    ]
    if swap_peers:
        edits.append(("hub", _HUB_PEERS_IN_ORDER, _HUB_PEERS_SWAPPED))
    return copy_example(HUB, directory, *edits)


# --- rendered configs --------------------------------------------------------------------------


def revealed_site(sites: Path, name: str, environ: Mapping[str, str]) -> tuple[Site, str]:
    """Site ``name`` of the fleet in ``sites`` and its IOS config with the secrets of ``environ``
    revealed (what push would send)."""
    fleet = load_fleet(sites)
    return fleet.site(name), render_site(fleet, name, reveal_secrets=True, environ=environ)


def unprotected(config: str) -> str:
    """An IOS config without its crypto sections, its l2tpgen ACLs and the WAN's two lines (the
    access group and the crypto map): a running pair from before protection."""
    config = re.sub(
        r"^(?:crypto |ip access-list ).*\n(?:[ !].*\n)*", "", config, flags=re.MULTILINE
    )
    return config.replace(" ip access-group l2tpgen-wan-in in\n", "").replace(
        " crypto map l2tpgen\n", ""
    )


def import_reference(tmp_path: Path, *options: str) -> Path:
    """``l2tpgen import`` of the reference case's single-trunk routers into ``tmp_path/sites``."""
    from typer.testing import CliRunner  # noqa: PLC0415 - only the import tests need it

    from l2tpgen.cli import app  # noqa: PLC0415

    sites = tmp_path / "sites"
    args = ["import", *map(str, REFERENCE_BEFORE.values()), *options, "-o", str(sites)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return sites
