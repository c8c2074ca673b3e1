"""The notes a plan carries about the outage its protection change causes on a pair.

IPsec must match at both ends of a pseudowire: from the moment one end's protection differs from
its peer's until the peer has the same change, that pair's pseudowires are down (docs/security.md,
"Adding protection to a running pair"). Each note names where the outage starts:

- **applying** the WAN's crypto map: at that line, unless the change alters the pseudowires
  themselves before it (a static design gaining IPsec changes each subinterface's MTU and
  cookies first, in step 4 of the order): then at the first such line;
- **removing** the WAN's crypto map (``no crypto map``): at that line, as the peer still
  encrypts (and, as l2tpgen reads IOS, drops what arrives in clear for its crypto access list:
  not quoted from Cisco [U]);
- **changing** the IPsec parameters of a protected pair (a transform set, the IKEv2 proposal, the
  crypto map entry's ``set transform-set``): at that line, or at the latest when the security
  associations are next negotiated (when exactly IOS drops the old ones is not documented in the
  sources here [U]).

Every such note says "until each peer has been pushed" (``PAIR_OUTAGE``): the fleet runner reads
it to keep a pair from being left half-protected.

One more outage is not a protection change: a kept port-mode xconnect typed again
(``recreation_notes``). When the class it names changes (``ip pmtu`` or ``ip dfbit set`` turned
on, for instance), push moves it to a new class version make-before-break (``class_versions``),
which for an xconnect means ``no xconnect`` then ``xconnect`` on the LAN trunk: the session is torn
down and signaled again, and since that one session carries every VLAN of the port, the whole
trunk is down at both ends in between (the far end loses its session too). How long the new
session takes to come up (control channel and session setup) is not documented in the sources
here [U]. Each end does this once, whether or not the peer is pushed, so the note does not say
``PAIR_OUTAGE``.
"""

from __future__ import annotations

import re

PAIR_OUTAGE = "until each peer has been pushed"
_XCONNECT = re.compile(r"^ (?:no )?xconnect (\S+) (\d+)\b")
_TAIL = f"{PAIR_OUTAGE} the same change; push both ends in one run"
ENCRYPTING = (
    "this change applies the crypto map to the WAN interface: the pseudowires to the peers it "
    f"protects are down from that line {PAIR_OUTAGE} its crypto map too; push both ends in one "
    "run"
)
_PARAMETERS = (
    "crypto ipsec transform-set ",
    "no crypto ipsec transform-set ",
    " set transform-set ",
    " no set transform-set ",
    "crypto ikev2 proposal ",
    "no crypto ikev2 proposal ",
)


def pair_outage(notes: tuple[str, ...]) -> bool:
    """Whether a plan's notes say its change takes the pair down until the peer has it too."""
    return any(PAIR_OUTAGE in note for note in notes)


def _first(send: tuple[str, ...], *starts: str) -> int | None:
    return next((i for i, line in enumerate(send) if line.startswith(starts)), None)


def _disturbing(send: tuple[str, ...], lan: str) -> int | None:
    """The first line that changes a pseudowire itself (a LAN subinterface, its MTU, cookies)."""
    header = ""
    for index, line in enumerate(send):
        if not line.startswith(" "):
            header = line
            if line.startswith(f"no interface {lan}."):
                return index
        elif header.startswith(f"interface {lan}.") and not line.strip().startswith("description"):
            return index
    return None


def _where(send: tuple[str, ...], index: int) -> str:
    header = next(
        (line for line in reversed(send[: index + 1]) if not line.startswith(" ")), send[index]
    )
    shown = send[index] if header == send[index] else f"{header}` / `{send[index].strip()}"
    return f"`{shown}` (line {index + 1} of {len(send)})"


def recreation_notes(send: tuple[str, ...], lan: str) -> tuple[str, ...]:
    """The note for a kept port-mode xconnect removed and typed again (module docstring)."""
    header = ""
    removed: dict[tuple[str, str], int] = {}
    for index, line in enumerate(send):
        if not line.startswith(" "):
            header = line
            continue
        found = _XCONNECT.match(line) if header == f"interface {lan}" else None
        if found is None:
            continue
        peer, vc_id = found.group(1), found.group(2)
        if line.startswith(" no "):
            removed[peer, vc_id] = index
        elif (peer, vc_id) in removed:
            note = (
                f"this change re-creates the port-mode xconnect of {lan} (to {peer}, VC ID "
                f"{vc_id}) on a new pseudowire-class: its session, which carries every VLAN of "
                f"the trunk, is torn down at {_where(send, removed[peer, vc_id])} and set up "
                f"again at {_where(send, index)}; the whole trunk is down at both ends until the "
                "new session is up (seconds, not measured here); push in a maintenance window"
            )
            return (note,)
    return ()


def outage_notes(send: tuple[str, ...], lan: str) -> tuple[str, ...]:
    """The notes of a change that takes pseudowires down: protection, then re-creation."""
    return _protection_notes(send, lan) + recreation_notes(send, lan)


def _protection_notes(send: tuple[str, ...], lan: str) -> tuple[str, ...]:
    """The note for a change that takes the pair down until its peer has it too, if any."""
    applying = _first(send, " crypto map ")
    if applying is not None:
        earlier = _disturbing(send[:applying], lan)
        if earlier is None:
            return (ENCRYPTING,)
        note = (
            "this change applies the crypto map to the WAN interface, and changes the "
            "pseudowires themselves before it (their MTU or cookies): they are down from "
            f"{_where(send, earlier)}, not only from the crypto map line, {_TAIL}"
        )
        return (note,)
    removing = _first(send, " no crypto map ")
    if removing is not None:
        note = (
            "this change removes the crypto map from the WAN interface: the pseudowires to the "
            f"peers it protected are down from {_where(send, removing)} (each peer still "
            f"encrypts and drops what comes in clear) {_TAIL}"
        )
        return (note,)
    changing = _first(send, *_PARAMETERS)
    if changing is not None:
        note = (
            "this change alters the IPsec parameters of a protected pair: its pseudowires are "
            f"down from {_where(send, changing)} (at the latest when the security associations "
            f"are next negotiated) {_TAIL}"
        )
        return (note,)
    return ()
