"""Cisco type 7: the reversible obfuscation IOS uses for ``password 7`` and ``digest secret 7``.

It protects against shoulder-surfing, nothing more. The cipher is netutils'
(``encrypt_cisco_type7`` / ``decrypt_cisco_type7``); this module adds the checks netutils leaves out
(``decrypt_cisco_type7`` decodes any text, odd lengths and bad salts included) and error messages
that never repeat the text they were given.
"""

from __future__ import annotations

import re

MAX_SALT = 15
# netutils refuses longer input: IOS's own limit for type 7 passwords.
MAX_LENGTH = 25
_TYPE7 = re.compile(r"^(0[0-9]|1[0-5])(?:[0-9A-Fa-f]{2})+$")


class Type7Error(ValueError):
    """Text that is not type 7, or a secret type 7 cannot carry (never repeats the text)."""


def printable_ascii(secret: str) -> bool:
    """Whether type 7 can carry ``secret``: printable ASCII without spaces (IOS ends it at one)."""
    return bool(secret) and all(33 <= ord(char) <= 126 for char in secret)  # noqa: PLR2004


def check_carried(plaintext: str) -> None:
    """Refuse a secret type 7 cannot carry: ``encode`` takes any other, whatever the salt.

    Raises:
        Type7Error: the secret is not printable ASCII without spaces, or too long.
    """
    if not printable_ascii(plaintext):
        raise Type7Error("type 7 carries printable ASCII without spaces only")
    if len(plaintext) > MAX_LENGTH:
        raise Type7Error(f"type 7 carries at most {MAX_LENGTH} characters")


def encode(plaintext: str, salt: int) -> str:
    """``plaintext`` as type 7 with the given salt (0-15).

    Raises:
        Type7Error: the salt is out of range, or the secret is not printable ASCII or too long.
    """
    if not 0 <= salt <= MAX_SALT:
        raise Type7Error("a type 7 salt is 0-15")
    check_carried(plaintext)
    # heavy: netutils (and its crypt); validate checks a secret (check_carried), encodes none
    from netutils.password import encrypt_cisco_type7  # noqa: PLC0415

    return str(encrypt_cisco_type7(plaintext, salt))


def is_type7(text: str) -> bool:
    """Whether ``text`` is well-formed type 7 (two salt digits 00-15, then hex pairs)."""
    return _TYPE7.match(text.strip()) is not None


def decode(encoded: str) -> str:
    """The plaintext of a type 7 string.

    Raises:
        Type7Error: the text is not type 7 (the message does not repeat it).
    """
    if not is_type7(encoded):
        raise Type7Error("not a type 7 string")
    from netutils.password import decrypt_cisco_type7  # noqa: PLC0415 - heavy: netutils, decoding only

    return str(decrypt_cisco_type7(encoded.strip()))
