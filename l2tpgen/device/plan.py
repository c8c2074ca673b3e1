"""The change a push makes: the part of the router l2tpgen owns, running vs intended, as commands.

What push owns is ``l2tpgen.device.scope``; nothing else is read into the comparison, so nothing
else can change. Classes in use change make-before-break (``l2tpgen.device.class_versions``). The
remediation comes from hier_config, then is put in an order a live router takes
(``l2tpgen.device.command_order``).

``no interface`` is only ever sent for a subinterface push wholly owns: of the LAN trunk, the WAN
interface and the loopback, push removes its own lines inside the section, never the interface.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.device.acl_edit import adopt_lists, edit_commands
from l2tpgen.device.claims import refuse_unowned
from l2tpgen.device.class_versions import adopt, canonical
from l2tpgen.device.command_order import order_commands
from l2tpgen.device.foreign_peers import admit_foreign_peers
from l2tpgen.device.outage import outage_notes
from l2tpgen.device.scope import Owned, own, refuse_foreign, refuse_foreign_wan
from l2tpgen.device.type6 import keep_type6, type6_note
from l2tpgen.errors import DeviceError
from l2tpgen.ios.parsed import Readings, as_parsed
from l2tpgen.ios.tree import parse_rendered
from l2tpgen.secrets import MASK, mask_secrets

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Config
    from l2tpgen.model import Site

__all__ = ["MASK", "Plan", "plan_change"]

_PW_REFERENCE = re.compile(r"^xconnect .* pw-class (\S+)$")
_L2TP_REFERENCE = re.compile(r"^(?:protocol l2tpv3|l2tp hello) (\S+)$")


@dataclass(frozen=True)
class Plan:
    """What a push would change on one router.

    Texts and ``commands`` are masked for display; the commands to send are in ``send``, which may
    hold secrets: never print it. ``migration``: the LAN trunk's single xconnect goes (the VLANs
    it carried are down until the other end has changed too). ``notes``: classes moved to a new
    version, for the user.
    """

    running: str
    intended: str
    send: tuple[str, ...]
    migration: bool = False
    notes: tuple[str, ...] = ()

    @property
    def commands(self) -> tuple[str, ...]:
        """The commands, secrets masked: for display and JSON."""
        return tuple(mask_secrets(c) for c in self.send)

    @property
    def empty(self) -> bool:
        """No change needed."""
        return not self.send

    def diff(self, name: str) -> str:
        """The owned part, running vs intended, section by section, secrets masked.

        Each section that changes is one hunk (``@@ SECTION @@``) showing the whole section, so a
        line that moves from one section to another (the single-trunk xconnect going from the
        trunk to a subinterface) shows as removed here and added there. A secret that changes is
        shown as ``<masked: changed>``, never as its value.
        """
        have, want = _sections(self.running), _sections(self.intended)
        kept = set(self.running.splitlines())
        hunks: list[str] = []
        for header in [*have, *(h for h in want if h not in have)]:
            old, new = have.get(header, []), want.get(header, [])
            if _same(header, old, new):
                continue
            hunks.append(f"@@ {mask_secrets(header)} @@\n")
            hunks += [f"-{mask_secrets(line)}\n" for line in old if line not in new]
            hunks += [
                f"{' ' if line in old else '+'}{_masked(line, changed=line not in kept)}\n"
                for line in new
            ]
        if not hunks:
            return ""
        head = f"--- {name} (running, the part l2tpgen owns)\n+++ {name} (intended)\n"
        return head + "".join(hunks)


def _sections(text: str) -> dict[str, list[str]]:
    """Top-level header -> the section's lines (header included), in order."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        if not line.startswith(" "):
            current = sections.setdefault(line, [])
        current.append(line)
    return sections


def _same(header: str, old: list[str], new: list[str]) -> bool:
    """Whether a section is unchanged, as IOS compares it (``classes.canonical``)."""
    if not old or not new:
        return old == new
    ordered = header.startswith("ip access-list ")
    return canonical(old[1:], ordered=ordered) == canonical(new[1:], ordered=ordered)


def _masked(line: str, *, changed: bool) -> str:
    """A line with its secret masked; a secret new to the router is marked as changed."""
    masked = mask_secrets(line)
    if changed and masked != line:
        return masked.replace(MASK, "<masked: changed>")
    return masked


def _foreign_references(running: Config, owned_subs: frozenset[str], lan: str) -> set[str]:
    """Class headers named from configuration l2tpgen does not own (never removed)."""
    named: set[str] = set()
    for root in running.roots:
        text = root.text
        if not text.startswith("interface "):
            continue
        name = text.removeprefix("interface ")
        if name in owned_subs or name == lan:
            continue
        for node in root.walk():
            if (found := _PW_REFERENCE.match(node.text)) is not None:
                named.add(f"pseudowire-class {found.group(1)}")
            elif (found := _L2TP_REFERENCE.match(node.text)) is not None:
                named.add(f"l2tp-class {found.group(1)}")
    return named


def _l2tp_named_by(running: Config, headers: set[str]) -> set[str]:
    named: set[str] = set()
    for root in running.roots:
        if root.text in headers:
            for node in root.walk():
                if (found := _L2TP_REFERENCE.match(node.text)) is not None:
                    named.add(f"l2tp-class {found.group(1)}")
    return named


def _owned_classes(
    running: Config, final: set[str], versions: frozenset[str], foreign: set[str]
) -> set[str]:
    """The class headers push may change or remove: the intended ones and unused versions."""
    removable_pw = {
        h for h in versions if h.startswith("pseudowire-class ") and h not in final | foreign
    }
    running_pw = {r.text for r in running.roots if r.text.startswith("pseudowire-class ")}
    staying_pw = running_pw - removable_pw - final
    still_named = foreign | _l2tp_named_by(running, staying_pw)
    removable_l2tp = {
        h for h in versions if h.startswith("l2tp-class ") and h not in final | still_named
    }
    return final | removable_pw | removable_l2tp


def _shared_headers(have: Owned, want: str) -> str:
    """Empty sections for the interfaces push owns only some lines of, where ``want`` has none.

    The LAN trunk, the WAN interface and the loopback are shared with the rest of the router:
    when the intended config leaves none of their owned lines (a hold-queue at IOS's default,
    the single-trunk xconnect migrated away), hier_config would remove the whole section
    (``no interface GigabitEthernet0/0``, the port carrying every VLAN, or the WAN subinterface
    carrying the router's address). With an empty section on the intended side it removes the
    owned lines inside it instead.
    """
    wanted = set(want.splitlines())
    return "".join(
        f"{header}\n"
        for header in _sections(have.text)
        if header.startswith("interface ")
        and header.removeprefix("interface ") not in have.subinterfaces
        and header not in wanted
    )


def _refuse_removing_shared(send: tuple[str, ...], have: Owned) -> None:
    """Never send ``no interface X`` for an interface push does not wholly own.

    Raises:
        DeviceError: such a line is in the plan (a bug: nothing is sent).
    """
    for line in send:
        name = line.removeprefix("no interface ")
        if name != line and name not in have.subinterfaces:
            raise DeviceError(
                f"the plan would remove interface {name}, which l2tpgen does not wholly own; "
                f"nothing was sent (this is a bug in l2tpgen: please report it with the site file)"
            )


def _without_acls(text: str) -> str:
    return "".join(
        "\n".join(lines) + "\n"
        for header, lines in _sections(text).items()
        if not header.startswith("ip access-list ")
    )


def _acl_commands(have: dict[str, list[str]], want: dict[str, list[str]]) -> dict[str, list[str]]:
    """Access list header -> the commands that change it (``order_commands``'s ``whole``).

    A list the router has is edited by sequence number, never deleted and retyped
    (``acl_edit``): it may be applied (the WAN's filter, a crypto map's ``match address``). A
    new list is typed whole; one no longer wanted is removed (after what applies it).
    """
    out: dict[str, list[str]] = {}
    for header, lines in want.items():
        if not header.startswith("ip access-list ") or have.get(header) == lines:
            continue
        edit = edit_commands(header, have[header][1:], lines[1:]) if header in have else lines
        if edit:
            out[header] = edit
    for header in have:
        if header.startswith("ip access-list ") and header not in want:
            out[f"no {header}"] = [f"no {header}"]
    return out


def plan_change(
    site: Site,
    running_config: str | Config,
    intended_config: str | Config,
    *,
    platform: str = "",
    readings: Readings | None = None,
) -> Plan:
    """The change that takes the router's owned part from running to intended.

    ``readings``: the texts read already in this push (the intended config after class
    versions is the same text at each plan of one push, and is read once).

    Raises:
        OwnershipError: the model would build a VLAN over a subinterface l2tpgen does not own,
            or the change would delete objects named like l2tpgen's that it did not write
            (``claims``).
        AclEditError: an access list on the router cannot become the intended one entry by entry
            (``acl_edit``).
    """
    from hier_config import Platform, WorkflowRemediation, get_hconfig  # noqa: PLC0415 - extra [push]: hier_config, planning only

    # One reading of the running config (tree and facts) for every check below (issue 35).
    running = as_parsed(running_config, "running")
    rendered = (
        parse_rendered(intended_config) if isinstance(intended_config, str) else intended_config
    )
    lan = site.lan.interface
    # First pass: which subinterfaces are ours (they decide which sessions stay and which class
    # references are foreign).
    first = own(running, site, frozenset())
    adopted = adopt(rendered, running, first.subinterfaces | {lan}, lan)
    admitted, admit_notes = admit_foreign_peers(running, adopted.text, first.subinterfaces | {lan})
    intended = (readings if readings is not None else Readings()).read(
        adopt_lists(running, admitted), "intended", rendered=True
    )
    final = set(adopted.names.values())
    foreign = _foreign_references(running, first.subinterfaces, lan)
    classes = frozenset(_owned_classes(running, final, adopted.versions, foreign))
    have = own(running, site, classes)
    want = own(intended, site, frozenset(final))
    wanted_subs = frozenset(
        r.text.removeprefix("interface ")
        for r in intended.roots
        if r.text.startswith(f"interface {lan}.")
    )
    refuse_foreign(running, site, have, wanted_subs)
    refuse_foreign_wan(running, intended, site)
    refuse_unowned(running, intended, site, have.subinterfaces)
    hc_platform = getattr(Platform, platform or "CISCO_IOS")
    # A key the router holds as type 6 cannot be compared: kept as the router spells it.
    intended_text, type6_kept = keep_type6(have.text, want.text + _shared_headers(have, want.text))
    # Access lists are l2tpgen's to change (``_acl_commands``); hier_config sees the rest only
    # (its IOS driver numbers every access list entry as it loads one: quadratic in the entries).
    workflow = WorkflowRemediation(
        get_hconfig(hc_platform, _without_acls(have.text)),
        get_hconfig(hc_platform, _without_acls(intended_text)),
    )
    acls = _acl_commands(_sections(have.text), _sections(intended_text))
    send = tuple(order_commands(workflow.remediation_config, lan, acls))
    _refuse_removing_shared(send, have)
    return Plan(
        have.text,
        intended_text,
        send,
        migration=have.trunk_xconnect and not want.trunk_xconnect,
        notes=adopted.notes + admit_notes + outage_notes(send, lan) + type6_note(type6_kept),
    )
