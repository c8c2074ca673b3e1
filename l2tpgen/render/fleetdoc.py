"""One Markdown page for a fleet: a diagram GitHub draws (Mermaid), the sites and the pseudowires.

The page is for people who would rather look at a picture than at YAML and router configs: which
sites talk to which, what each VLAN carries, its VC ID, signaling, cookie and the largest packet
its hosts may send (the pseudowire's CE MTU, the same answer ``render`` and ``hosts`` give), and
how it is protected on the WAN (IPsec, cookies or none, as ``validate`` resolves it). It
is plain text with no date in it, so a CI job can regenerate it and commit it only on a change.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from l2tpgen import __version__

if TYPE_CHECKING:
    from l2tpgen.model import Fleet, Pseudowire
    from l2tpgen.model.port_mode import KeptPort
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.model.site import Site


def _title(site: Site) -> str:
    """The platform's name on the fleet page (``Cisco IOS-XE``, ``Linux``)."""
    return site.driver.short_title or site.driver.title


# Control characters (a line break among them) and bidirectional overrides, shown as `\uNNNN`: a
# user string must not start a line of its own (a GitHub Actions `::command::` in a CI log) nor
# act on the terminal that shows the page.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(text: object) -> str:
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", str(text))


def _cell(text: object) -> str:
    """Text for a Markdown table cell: a pipe would end the cell, a newline the row."""
    return _visible(text).replace("|", "\\|")


def _label(*lines: str) -> str:
    """Lines of a quoted Mermaid label: quotes and HTML's specials as Mermaid entities."""
    escaped = []
    for line in lines:
        for char, entity in (("#", "#35;"), ("&", "#amp;"), ('"', "#quot;"), ("<", "#lt;")):
            line = line.replace(char, entity)  # noqa: PLW2901 - one line escaped step by step
        escaped.append(line.replace(">", "#gt;"))
    return "<br/>".join(escaped)


def _pairs(fleet: Fleet) -> dict[tuple[str, str], list[Pseudowire]]:
    """Each pair of sites (names sorted) and its pseudowires, seen from the first site."""
    pairs: dict[tuple[str, str], list[Pseudowire]] = defaultdict(list)
    for name in sorted(fleet.sites):
        for pw in fleet.pseudowires(name):
            if name < pw.peer.name:
                pairs[(name, pw.peer.name)].append(pw)
    return dict(sorted(pairs.items()))


def _signaling(pw: Pseudowire) -> str:
    settings = pw.settings
    if settings.signaling == "static":
        return "static (manual)" + (", hellos" if pw.hello else "")
    return f"dynamic ({settings.dialect})"


def _cookie(pw: Pseudowire) -> str:
    size = pw.cookie_size
    return f"{size} bytes" if size else "none"


def _protection(pw: Pseudowire) -> str:
    """``IPsec transport aes-gcm-128``, ``cookies only``, ``none (trusted path)``."""
    return _guard(pw.protection)


def _guard(p: PathProtection) -> str:
    if p.mode == "ipsec":
        return f"IPsec {p.ipsec_mode} {p.transform}" + (" NAT-T" if p.nat_t else "")
    if p.mode == "cookie":
        return "cookies only"
    return "none" + ("" if p.trusted else " (untrusted path!)")


def _port_edge(port: KeptPort) -> str:
    """A kept port-mode pseudowire's label: every VLAN of the trunk, one session."""
    guard = _guard(port.site.protection_for(port.peer))
    return _label(
        f"port mode (kept): every VLAN of {port.interface}, VC {port.vc_id}",
        f"MTU {port.budget.max_inner_mtu}, {guard}",
    )


def _diagram(fleet: Fleet, pairs: dict[tuple[str, str], list[Pseudowire]]) -> list[str]:
    ids = {name: f"s{index}" for index, name in enumerate(sorted(fleet.sites))}
    lines = ["```mermaid", "flowchart LR"]
    for name, site in sorted(fleet.sites.items()):
        title = _title(site)
        text = _label(name, f"{site.hostname} ({title})", str(site.tunnel_address))
        lines.append(f'  {ids[name]}["{text}"]')
    for (left, right), pws in pairs.items():
        vlans = ", ".join(f"{pw.vlan.id} {pw.vlan.name}" for pw in pws)
        mtus = sorted({pw.budget.max_inner_mtu for pw in pws})
        mtu = "/".join(map(str, mtus))
        noun = "VLAN" if len(pws) == 1 else "VLANs"
        guards = ", ".join(sorted({_protection(pw) for pw in pws}))
        text = _label(f"{len(pws)} {noun}: {vlans}", f"MTU {mtu}, {guards}")
        lines.append(f'  {ids[left]} ---|"{text}"| {ids[right]}')
    for port in fleet.kept_ports():
        edge = _port_edge(port)
        lines.append(f'  {ids[port.site.name]} ---|"{edge}"| {ids[port.peer.name]}')
    lines.append("```")
    return lines


def _site_row(site: Site) -> str:
    wan, lan, loopback = site.interfaces  # as the PE names them: IOS's, or the system's
    cells = [
        site.name,
        site.hostname,
        _title(site),
        f"{wan} {site.wan.address}, MTU {site.wan.mtu}",
        f"{site.tunnel_address} ({loopback})" if loopback else f"{site.tunnel_address} (the WAN)",
        lan,
        ", ".join(site.peer_names) or "none",
    ]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _pseudowire_row(pw: Pseudowire) -> str:
    budget = pw.budget
    cells = [
        pw.vlan.id,
        pw.vlan.name,
        f"{pw.site.name} - {pw.peer.name}",
        pw.vc_id,
        pw.carries,
        _signaling(pw),
        _cookie(pw),
        _protection(pw),
        f"{budget.max_inner_mtu} (WAN {budget.wan_mtu})",
    ]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _port_rows(fleet: Fleet) -> list[str]:
    """The kept port-mode pseudowires: a heading and a table, or nothing when there are none."""
    ports = fleet.kept_ports()
    if not ports:
        return []
    rows = [
        "## Port-mode pseudowires (kept)",
        "",
        (
            "Each carries every VLAN of its LAN trunk, tagged, in one session "
            "(`lan.port_xconnect: {action: keep}`); its CE MTU counts the dot1Q tag."
        ),
        "",
        "| sites | LAN trunks | VC ID | signaling | cookie | protection | CE MTU |",
        "|---|---|---|---|---|---|---|",
    ]
    for port in ports:
        budget = port.budget
        cells = [
            f"{port.site.name} - {port.peer.name}",
            f"{port.interface} - {port.peer.lan.interface}",
            port.vc_id,
            f"dynamic ({port.site.pseudowire_for(port.peer.name).dialect})",
            f"{budget.cookie} bytes" if budget.cookie else "none",
            _guard(port.site.protection_for(port.peer)),
            f"{budget.max_inner_mtu} (WAN {budget.wan_mtu})",
        ]
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return [*rows, ""]


def fleet_markdown(fleet: Fleet, *, title: str = "Fleet") -> str:
    """The fleet's page: a Mermaid diagram, a table of sites and one of pseudowires."""
    pairs = _pairs(fleet)
    count = sum(len(pws) for pws in pairs.values()) + len(fleet.kept_ports())
    lines = [
        (
            f"# {_visible(title)}: {len(fleet.sites)} site{'s' * (len(fleet.sites) != 1)}, "
            f"{count} pseudowire{'s' * (count != 1)}"
        ),
        "",
        (
            f"<!-- Generated by l2tpgen {__version__} (`l2tpgen docs`) from the site files: edit "
            "those, not this page. -->"
        ),
        "",
        *_diagram(fleet, pairs),
        "",
        "## Sites",
        "",
        "| site | hostname | platform | WAN | tunnel source | LAN trunk | peers |",
        "|---|---|---|---|---|---|---|",
        *(_site_row(site) for _, site in sorted(fleet.sites.items())),
        "",
        "## Pseudowires",
        "",
        (
            "The CE MTU is the largest IP packet the hosts on the VLAN may send without the "
            "pseudowire fragmenting it (`l2tpgen hosts SITE` says how to set it)."
        ),
        "",
        "| VLAN | name | sites | VC ID | carries | signaling | cookie | protection | CE MTU |",
        "|---|---|---|---|---|---|---|---|---|",
        *(_pseudowire_row(pw) for pws in pairs.values() for pw in pws),
        "",
        *_port_rows(fleet),
    ]
    return "\n".join(lines)
