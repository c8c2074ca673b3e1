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
"""

from __future__ import annotations

PAIR_OUTAGE = "until each peer has been pushed"
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


def outage_notes(send: tuple[str, ...], lan: str) -> tuple[str, ...]:
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
