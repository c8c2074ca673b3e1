"""What a router shows of a static session's cookie, against the cookie the model gives it.

Classic IOS's ``show l2tun session all`` prints, per session, ``Session cookie information:``
then ``local cookie, size 4 bytes, value CF DC 5B F3`` and the remote one, the value as bytes
(Cisco, "Layer 2 Tunnel Protocol Version 3", IOS 12.0(29)S and 12.2(25)S, p. 136, captured in
``tests/realworld/show/cisco-ios-12-0-29s-guide-show-l2tun-session-all-fragment.txt``).

Issue 25, item 8: l2tpgen renders an 8-byte cookie ``l2tp cookie local 8 LOW HIGH`` against
Linux's ``cookie`` hex with LOW's four bytes first on the wire. Which word IOS sends first is
**[U]**: no source found settles it (Cisco's command reference names "low" and "high" values of
one cookie; Wireshark's dissector shows the cookie as bytes, ``l2tp.cookie`` FT_BYTES; RFC 3931
section 4.1 gives no word order). If IOS prints the value in the order it sends it (the 4-byte
example cannot tell), the printed bytes settle it on the first router ``verify`` reads: LOW first
is what l2tpgen assumes; HIGH first means every frame between a Linux end and this router is
dropped. No published IOS output with a cookie-mismatch counter was found: the session's
``Receive packets dropped`` is the nearest (the guide's field table), not read here.

No cookie value ever leaves this module: only which of the cases holds.
"""

from __future__ import annotations

import re

_COOKIE = re.compile(
    r"^\s*(?P<which>local|remote) cookie, size (?P<size>\d+) bytes, "
    r"value (?P<value>(?:[0-9A-Fa-f]{2}[ \t]*)+)$",
    re.MULTILINE,
)
_BLOCK = re.compile(r"^\s*Session id \d+ is ", re.MULTILINE)

AS_RENDERED = ""
WORDS_SWAPPED = (
    "the router shows its local cookie with the high word first [U]: if IOS sends it that way, "
    "a Linux peer's frames carry the words the other way round and are all dropped; see "
    "docs/security.md, cookie word order"
)
MISMATCH = "the router's local cookie is not the one the model gives this pseudowire"


def shown_cookies(text: str) -> dict[str, bytes]:
    """The ``local`` and ``remote`` cookies one session's block shows, as bytes (none: empty)."""
    found: dict[str, bytes] = {}
    for match in _COOKIE.finditer(text):
        value = bytes.fromhex("".join(match.group("value").split()))
        if len(value) == int(match.group("size")):
            found.setdefault(match.group("which"), value)
    return found


def session_blocks(output: str) -> list[str]:
    """``show l2tun session all`` cut into one text per session (each from its ``Session id``)."""
    starts = [m.start() for m in _BLOCK.finditer(output)]
    return [output[a:b] for a, b in zip(starts, [*starts[1:], len(output)], strict=True)]


def compare(shown: bytes, words: tuple[int, ...]) -> str:
    """How the cookie a router shows compares with the model's 32-bit words (LOW first).

    ``AS_RENDERED`` (empty) when the bytes are the words in order; ``WORDS_SWAPPED`` when they
    are the two words of an 8-byte cookie the other way round; ``MISMATCH`` otherwise.
    """
    expected = b"".join(word.to_bytes(4, "big") for word in words)
    if shown == expected:
        return AS_RENDERED
    if len(words) == 2 and shown == expected[4:] + expected[:4]:  # noqa: PLR2004 - two words
        return WORDS_SWAPPED
    return MISMATCH
