"""Cisco type 7, as the simulated router stores ``password`` and ``digest secret``: its own copy.

Type 7 is a reversible obfuscation: two decimal digits (the salt, an offset into a fixed 53-byte
key), then each byte of the secret XORed with the key, in hex. The key and the salt range 0-15
are those of netutils' ``encrypt_cisco_type7`` and of the well-known published decoders; the
tests check this copy against netutils (an outside library) and against a published pair. The
simulator keeps its own copy so that a mistake in ``l2tpgen.ios.type7`` cannot hide behind it.
"""

from __future__ import annotations

import re

_KEY = b"dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
MAX_SALT = 15
# netutils' encrypt_cisco_type7: "max length of password for encrypt t7 is 25" (kept as before).
MAX_LENGTH = 25
_TYPE7 = re.compile(r"^(0[0-9]|1[0-5])((?:[0-9A-Fa-f]{2})+)$", re.ASCII)


class Type7Error(ValueError):
    """Not type 7, or a secret type 7 cannot carry (the message never repeats the text)."""


def encode(plain: str, salt: int) -> str:
    """``plain`` as IOS stores it with ``salt`` (0-15).

    Raises:
        Type7Error: the salt is out of range, or the secret is not printable ASCII without
            spaces or is too long.
    """
    if not 0 <= salt <= MAX_SALT:
        raise Type7Error("a type 7 salt is 0-15")
    if not plain or not all(33 <= ord(c) <= 126 for c in plain):  # noqa: PLR2004 - printable
        raise Type7Error("type 7 carries printable ASCII without spaces")
    if len(plain) > MAX_LENGTH:
        raise Type7Error(f"type 7 carries at most {MAX_LENGTH} characters")
    return f"{salt:02d}" + "".join(
        f"{ord(c) ^ _KEY[(salt + i) % len(_KEY)]:02X}" for i, c in enumerate(plain)
    )


def decode(text: str) -> str:
    """The secret a type 7 string holds.

    Raises:
        Type7Error: ``text`` is not type 7.
    """
    match = _TYPE7.match(text)
    if match is None:
        raise Type7Error("not a type 7 string")
    salt, body = int(match.group(1)), bytes.fromhex(match.group(2))
    return "".join(chr(b ^ _KEY[(salt + i) % len(_KEY)]) for i, b in enumerate(body))
