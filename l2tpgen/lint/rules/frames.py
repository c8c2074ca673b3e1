"""L2T108: the two ends of a pseudowire put different frame formats inside it.

Cisco's L2TPv3 feature guide (IOS 12.0(29)S/12.2(25)S, p.22, the brief's S1): a dot1Q subinterface
bound to an xconnect forwards the VLAN frames "in their entirety", tag included. Cisco's L2VPN
Interworking guide (https://cisco.com/c/en/us/td/docs/ios-xml/ios/mp_l2_vpns/configuration/12-2sx/
mp-l2-vpns-12-2sx-book/mp-l2vpn-intrntwkg.html, with its "Ethernet to VLAN over L2TPv3 (Bridged)"
example) gives `interworking ethernet` in the pseudowire-class for L2TPv3: the frame crosses as
plain Ethernet, the VLAN tag removed at the subinterface [U: the tag removal is our reading of the
guide, not yet seen on a router]; `interworking vlan` keeps a tag, `interworking ip` carries IP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios import keywords
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import FleetRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import At
    from l2tpgen.lint.finding import Finding
    from l2tpgen.lint.pairing import End, Pairing

_MODES = {"ethernet": "untagged Ethernet", "vlan": "802.1Q-tagged Ethernet", "ip": "IP (routed)"}


def _interworking(end: End) -> tuple[str, At] | None:
    """The class's ``interworking`` mode (``ethernet``, ``vlan`` or ``ip``) and its line."""
    pw = end.device.pw_classes.get(end.xconnect.pw_class or "")
    for text, at in pw.other if pw else ():
        words = text.lower().split()
        if len(words) > 1 and keywords.PW.get(words[0]) == "interworking":
            mode = next((m for m in _MODES if m.startswith(words[1])), None)
            if mode is not None:
                return mode, at
    return None


def frame_mode(end: End) -> str | None:
    """What the end sends inside the session: ``ethernet``, ``vlan`` or ``ip``.

    ``ethernet`` is untagged, ``vlan`` 802.1Q-tagged; ``None`` when the config cannot tell (a
    port). The lab's frames check reads it too (``l2tpgen.lab.checks.frames``).
    """
    interworking = _interworking(end)
    if interworking is not None:
        return interworking[0]
    return "vlan" if end.interface.dot1q is not None else None


def _frame(end: End) -> str | None:
    """What the end sends inside the session, in words; ``None`` when the config cannot tell."""
    mode = frame_mode(end)
    return None if mode is None else _MODES[mode]


class FrameFormatMismatch(FleetRule):
    """The two ends of a pseudowire carry different frames: tagged at one, untagged at the other.

    ## What it does
    Works out the frame each end puts inside the session: a dot1Q subinterface sends the whole
    802.1Q-tagged frame (Cisco's L2TPv3 guide: VLAN frames are forwarded in their entirety);
    `interworking ethernet` in the pseudowire-class sends plain Ethernet, the tag removed [U];
    `interworking vlan` a tagged frame, `interworking ip` IP. Flags a pair whose ends differ, at
    the `interworking` line (or the xconnect when both classes have one). A whole-port end
    without `interworking` forwards what it receives, so it is not judged.

    ## Why is this bad?
    Each end reads the other's frames in its own format: a tagged frame arrives where plain
    Ethernet is expected (or the other way round), and no traffic crosses although both sessions
    are up.

    ## Use instead
    The same `interworking` at both ends (or none at either: the tag is then carried, which is
    what l2tpgen's Linux PE sends towards a Cisco dot1Q subinterface).
    """

    code = "L2T108"
    name = "frame-format-mismatch"
    severity = Severity.ERROR

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        for link in pairing.links:
            if link.mirror is None or link.other is None:
                continue
            ours, theirs = _frame(link.end), _frame(link.mirror)
            if ours is None or theirs is None or ours == theirs:
                continue
            mine, other = _interworking(link.end), _interworking(link.mirror)
            if mine is None:
                continue  # reported from the end that has the `interworking` line
            if other is not None:  # both have one: once, from the end in the first file
                if (link.end.device.file, mine[1].line) > (link.other.file, other[1].line):
                    continue
                where = link.end.xconnect.at
            else:
                where = mine[1]
            yield self.finding(
                link.end.device.file,
                where,
                f"VC ID {link.end.xconnect.vc_id}: this end sends {ours} inside the pseudowire "
                f"but {link.other.file} sends {theirs}",
                "use the same `interworking` in both ends' pseudowire-classes (or none at either)",
            )
