"""The order a live router takes a remediation in (hier_config's, re-ordered for IOS).

1. xconnects that go or change are removed first (``no interface X.Y`` of stale subinterfaces, and
   ``no xconnect`` wherever one changes, the LAN trunk's single xconnect included), so that no new
   xconnect ever meets an old one with the same peer and VC ID, which IOS refuses;
2. the LAN, WAN and loopback interfaces' owned lines (hold-queues, the loopback's address) and the
   routes to the peers' loopbacks, so the new sessions have a source and a path;
3. l2tp-classes, then pseudowire-classes (a pseudowire-class names its l2tp-class);
4. the subinterfaces and their xconnects, and the LAN trunk's own xconnect when it is typed
   again (a kept port-mode xconnect moving to a new class version), so that no xconnect names a
   class that is not there yet;
5. protection (``docs/security.md``, "Adding protection to a running pair"): l2tpgen's access
   lists come first of all, a new one typed whole, one the router has edited by sequence number
   (``l2tpgen.device.acl_edit``: never deleted and retyped, it may be applied), and
   the WAN's ``ip access-group`` with the interface lines of step 2; after the subinterfaces, the
   IKEv2 proposal, policy, keyring and profiles, the transform sets, the crypto map entries, and
   last the WAN's ``crypto map`` line, which starts encrypting (the pair is down from then until
   the other end has been pushed too: one push window);
6. what is no longer used, protection in the reverse order (the WAN's ``crypto map`` line, the
   map entries, transform sets, profiles, keyring, policy, proposals, the WAN's access group,
   the access lists), then routes, pseudowire-classes and l2tp-classes.
"""

from __future__ import annotations

import re
from typing import Any

from l2tpgen.device.type6 import secret_places
from l2tpgen.ios.names import interface_sort_key
from l2tpgen.ios.secret_grammar import secret_free_no


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
    setting = {key for line, key in secret_places(body) if key and not _is_no(line)}
    out: list[str] = []
    for line, key in secret_places(body):
        if key is None or not _is_no(line):
            out.append(line)
        elif key not in setting:
            free = secret_free_no(line)
            if free is not None:
                out.append(free)
    return out


def _is_no(line: str) -> bool:
    return line.strip().startswith("no ")


def _retyped(body: list[str]) -> bool:
    """Whether an interface block types an xconnect (not only removes one)."""
    return any(_XCONNECT.match(line) and not line.startswith(" no ") for line in body)


def _freeing(text: str, body: list[str], taken: set[tuple[str, str, str]]) -> list[str]:
    """The ``no xconnect`` lines of interface ``text`` that free a peer and VC ID another takes."""
    gone = []
    for line in body:
        found = _XCONNECT.match(line)
        if line.startswith(" no ") and found is not None:
            clash = any((peer, vc) == found.groups() and other != text for other, peer, vc in taken)
            if clash:
                gone.append(line)
    return gone


def _blocks(
    text: str, body: list[str], lan: str, whole: dict[str, list[str]]
) -> list[tuple[int, Any, list[str]]]:
    """One remediation section as (phase, sort key, lines) blocks (``order_commands``)."""
    phase = _phase(text, lan)
    # Subinterfaces in numeric order; everything else in hier_config's (the config's) order.
    key = interface_sort_key(text.split(" ", 1)[1]) if phase == _SUBINTERFACES else ()
    if text in whole:
        return [(phase, key, whole[text])]
    if text == f"interface {lan}" and _retyped(body):
        # A kept port-mode xconnect typed again (its class moved to a new version): after the
        # classes, as a subinterface's, so it never names a class not yet there.
        wire = [line for line in body if _XCONNECT.match(line)]
        rest = [line for line in body if line not in wire]
        head = [(2, key, [text, *rest])] if rest else []
        return [*head, (_SUBINTERFACES, interface_sort_key(lan), [text, *wire])]
    if text.startswith("interface ") and phase != _SUBINTERFACES:
        return [(p, key, block) for p, block in _split_wan(text, body)]
    return [(phase, key, [text, *body])]


def _unseen(
    raw: list[tuple[str, list[str]]], whole: dict[str, list[str]], lan: str
) -> list[tuple[int, Any, list[str]]]:
    """The blocks of ``whole`` hier_config did not see (l2tpgen's access lists), by prefix."""
    seen = {text for text, _ in raw}
    return [(_phase(text, lan), (), lines) for text, lines in whole.items() if text not in seen]


def order_commands(
    remediation: Any,  # noqa: ANN401 - hier_config
    lan: str,
    whole: dict[str, list[str]] | None = None,
) -> list[str]:
    """hier_config's remediation as commands, in the order of the module docstring.

    ``whole``: access-list header (or ``no`` and the header) -> the commands that set it (or
    remove it), in place of hier_config's: a new list typed whole, a list the router has edited
    by sequence number (``l2tpgen.device.acl_edit``; IOS appends an entry typed without a number
    after the list's ``permit ip any any``, and a list deleted and retyped while applied drops
    everything until its last entry). Those hier_config did not see are placed by their prefix.

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
        if text.startswith("interface "):
            gone = _freeing(text, body, taken)
            if gone:
                first += [text, *gone]
                body = [line for line in body if line not in gone]  # noqa: PLW2901
                if not body:
                    continue
        blocks += _blocks(text, body, lan, whole)
    blocks += _unseen(raw, whole, lan)
    blocks.sort(key=lambda b: (b[0], b[1]))
    removals = [line for phase, _, block in blocks if phase == 0 for line in block]
    rest = [line for phase, _, block in blocks if phase != 0 for line in block]
    return removals + first + rest
