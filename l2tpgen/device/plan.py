"""The change a push makes: the part of the router l2tpgen owns, running vs intended, as commands.

What push owns is ``l2tpgen.device.scope``; nothing else is read into the comparison, so nothing
else can change. Classes in use change make-before-break (``l2tpgen.device.class_versions``). The
remediation comes from hier_config, then is put in an order a live router takes:

1. xconnects that go or change are removed first (``no interface X.Y`` of stale subinterfaces, and
   ``no xconnect`` wherever one changes, the LAN trunk's single xconnect included), so that no new
   xconnect ever meets an old one with the same peer and VC ID, which IOS refuses;
2. the LAN, WAN and loopback interfaces' owned lines (hold-queues, the loopback's address) and the
   routes to the peers' loopbacks, so the new sessions have a source and a path;
3. l2tp-classes, then pseudowire-classes (a pseudowire-class names its l2tp-class);
4. the subinterfaces and their xconnects;
5. protection (``docs/security.md``, "Adding protection to a running pair"): l2tpgen's access
   lists come first of all, each sent whole (``no ip access-list extended X`` then the list, when
   it exists: IOS appends lines typed into an existing list after its ``permit ip any any``), and
   the WAN's ``ip access-group`` with the interface lines of step 2; after the subinterfaces, the
   IKEv2 proposal, policy, keyring and profiles, the transform sets, the crypto map entries, and
   last the WAN's ``crypto map`` line, which starts encrypting (the pair is down from then until
   the other end has been pushed too: one push window);
6. what is no longer used, protection in the reverse order (the WAN's ``crypto map`` line, the
   map entries, transform sets, profiles, keyring, policy, proposals, the WAN's access group,
   the access lists), then routes, pseudowire-classes and l2tp-classes.

``no interface`` is only ever sent for a subinterface push wholly owns: of the LAN trunk, the WAN
interface and the loopback, push removes its own lines inside the section, never the interface.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from l2tpgen.device.class_versions import adopt, canonical
from l2tpgen.device.foreign_vpn import admit_foreign_peers
from l2tpgen.device.outage import outage_notes
from l2tpgen.device.scope import Owned, own, refuse_foreign, refuse_foreign_wan
from l2tpgen.errors import DeviceError
from l2tpgen.ios.names import interface_sort_key
from l2tpgen.ios.secret_grammar import secret_command_words, secret_free_no
from l2tpgen.ios.tree import parse, parse_rendered
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


def _walk(node: Any, depth: int) -> list[str]:  # noqa: ANN401 - hier_config's tree is untyped
    out: list[str] = []
    for child in node.children:
        out.append(" " * depth + child.text)
        out += _walk(child, depth + 1)
    return out


_SUBINTERFACES = 5
_PHASES = (  # top-level remediation line prefix -> phase (module docstring); first match wins
    ("no interface ", 0),
    ("ip access-list ", 1),
    ("ip route ", 2),
    ("l2tp-class ", 3),
    ("pseudowire-class ", 4),
    ("crypto ikev2 proposal ", 6),
    ("crypto ikev2 policy ", 7),
    ("crypto ikev2 keyring ", 8),
    ("crypto ikev2 profile ", 9),
    ("crypto ipsec transform-set ", 10),
    ("crypto map ", 11),
    # 12: the WAN's `crypto map` line; 13: its `no crypto map` (``_WAN_PHASES``)
    ("no crypto map ", 14),
    ("no crypto ipsec transform-set ", 15),
    ("no crypto ikev2 profile ", 16),
    ("no crypto ikev2 keyring ", 17),
    ("no crypto ikev2 policy ", 18),
    ("no crypto ikev2 proposal ", 19),
    # 20: the WAN's `no ip access-group`
    ("no ip access-list ", 21),
    ("no ip route ", 22),
    ("no pseudowire-class ", 23),
    ("no l2tp-class ", 24),
)
# Lines inside a shared interface (the WAN) that go in a phase of their own.
_WAN_PHASES = ((" crypto map ", 12), (" no crypto map ", 13), (" no ip access-group ", 20))


def _phase(text: str, lan: str) -> int:
    """Where a top-level remediation line goes in the order of the module docstring."""
    if text.startswith(f"interface {lan}."):
        return _SUBINTERFACES
    return next((phase for prefix, phase in _PHASES if text.startswith(prefix)), 2)


def _split_wan(text: str, body: list[str]) -> list[tuple[int, list[str]]]:
    """A shared interface's block, its protection lines each in their own phase."""
    out: list[tuple[int, list[str]]] = []
    rest: list[str] = []
    for line in body:
        phase = next((p for prefix, p in _WAN_PHASES if line.startswith(prefix)), None)
        if phase is None:
            rest.append(line)
        else:
            out.append((phase, [text, line]))
    return ([(2, [text, *rest])] if rest else []) + out


_XCONNECT = re.compile(r"^ (?:no )?xconnect (\S+) (\d+)\b")


def _taken(blocks: list[tuple[str, list[str]]]) -> set[tuple[str, str, str]]:
    """(interface, peer, VC ID) of every new xconnect."""
    taken: set[tuple[str, str, str]] = set()
    for text, body in blocks:
        for line in body:
            found = _XCONNECT.match(line)
            if found is not None and not line.startswith(" no "):
                taken.add((text, found.group(1), found.group(2)))
    return taken


def _in_place(body: list[str]) -> list[str]:
    """The block with no ``no`` line that would type an old secret.

    Which commands carry a secret, and their value-free ``no`` form, come from one table
    (``l2tpgen.ios.secret_grammar``). A secret-bearing command set again in the same place
    (``password``, ``digest secret``, a keyring peer's ``pre-shared-key``, an xconnect's ``l2tp
    cookie local|remote``) is single-instance: IOS replaces its value, so its ``no OLD`` line
    goes. One removed for good is sent in its value-free form (``no l2tp cookie local``,
    ``no password``); one whose ``no`` form needs the value is not sent at all.
    """
    setting = {key for line, key in _secret_keys(body) if key and not _is_no(line)}
    out: list[str] = []
    for line, key in _secret_keys(body):
        if key is None or not _is_no(line):
            out.append(line)
        elif key not in setting:
            free = secret_free_no(line)
            if free is not None:
                out.append(free)
    return out


def _is_no(line: str) -> bool:
    return line.strip().startswith("no ")


def _secret_keys(body: list[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """Each line with, for a secret-bearing command, (its parent lines..., its command words)."""
    parents: list[tuple[int, str]] = []
    out: list[tuple[str, tuple[str, ...] | None]] = []
    for line in body:
        depth = len(line) - len(line.lstrip(" "))
        while parents and parents[-1][0] >= depth:
            parents.pop()
        words = secret_command_words(line)
        out.append((line, None if words is None else (*(p for _, p in parents), words)))
        parents.append((depth, line.strip()))
    return out


def order_commands(
    remediation: Any,  # noqa: ANN401 - hier_config
    lan: str,
    whole: dict[str, list[str]] | None = None,
) -> list[str]:
    """hier_config's remediation as commands, in the order of the module docstring.

    ``whole``: access-list header -> the lines that set it: the intended list whole, after ``no``
    the list when the router has one (IOS appends lines typed into an existing list at its end).

    A ``no xconnect`` that frees a peer and VC ID another interface's new xconnect takes goes
    first of all (IOS refuses a second xconnect with the same peer and VC ID); any other stays in
    its interface (the LAN trunk's comes before every subinterface anyway), just before the new
    xconnect there, so a VLAN moving to a new class version is down only between those two lines.
    """
    raw = [(child.text, _in_place(_walk(child, 1))) for child in remediation.children]
    whole = whole or {}
    taken = _taken(raw)
    first: list[str] = []
    blocks: list[tuple[int, Any, list[str]]] = []
    for text, body in raw:
        phase = _phase(text, lan)
        if text.startswith("interface "):
            gone = []
            for line in body:
                found = _XCONNECT.match(line)
                if line.startswith(" no ") and found is not None:
                    clash = any(
                        (peer, vc) == found.groups() and other != text for other, peer, vc in taken
                    )
                    if clash:
                        gone.append(line)
            if gone:
                first += [text, *gone]
                body = [line for line in body if line not in gone]  # noqa: PLW2901
                if not body:
                    continue
        # Subinterfaces in numeric order; everything else in hier_config's (the config's) order.
        key = interface_sort_key(text.split(" ", 1)[1]) if phase == _SUBINTERFACES else ()
        if text in whole:
            blocks.append((phase, key, whole[text]))
        elif text.startswith("interface ") and phase != _SUBINTERFACES:
            blocks += [(p, key, block) for p, block in _split_wan(text, body)]
        else:
            blocks.append((phase, key, [text, *body]))
    blocks.sort(key=lambda b: (b[0], b[1]))
    removals = [line for phase, _, block in blocks if phase == 0 for line in block]
    rest = [line for phase, _, block in blocks if phase != 0 for line in block]
    return removals + first + rest


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


def plan_change(
    site: Site, running_config: str | Config, intended_config: str | Config, *, platform: str = ""
) -> Plan:
    """The change that takes the router's owned part from running to intended.

    Raises:
        OwnershipError: the model would build a VLAN over a subinterface l2tpgen does not own,
            or the inbound filter would cut a VPN whose peers it cannot name (`foreign_vpn`).
    """
    from hier_config import Platform, WorkflowRemediation, get_hconfig  # noqa: PLC0415 - heavy

    running = parse(running_config) if isinstance(running_config, str) else running_config
    rendered = (
        parse_rendered(intended_config) if isinstance(intended_config, str) else intended_config
    )
    lan = site.lan.interface
    # First pass: which subinterfaces are ours (they decide which sessions stay and which class
    # references are foreign).
    first = own(running, site, frozenset())
    adopted = adopt(rendered, running, first.subinterfaces | {lan}, lan)
    admitted, admit_notes = admit_foreign_peers(running, adopted.text, site)
    intended = parse_rendered(admitted)
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
    hc_platform = getattr(Platform, platform or "CISCO_IOS")
    intended_text = want.text + _shared_headers(have, want.text)
    workflow = WorkflowRemediation(
        get_hconfig(hc_platform, have.text), get_hconfig(hc_platform, intended_text)
    )
    have_sections, want_sections = _sections(have.text), _sections(intended_text)
    whole = {
        header: [f"no {header}", *lines] if header in have_sections else lines
        for header, lines in want_sections.items()
        if header.startswith("ip access-list ") and have_sections.get(header) != lines
    }
    send = tuple(order_commands(workflow.remediation_config, lan, whole))
    _refuse_removing_shared(send, have)
    return Plan(
        have.text,
        intended_text,
        send,
        migration=have.trunk_xconnect and not want.trunk_xconnect,
        notes=adopted.notes + admit_notes + outage_notes(send, lan),
    )
