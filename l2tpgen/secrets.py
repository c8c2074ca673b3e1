"""Secrets: read from environment variables only, written as Cisco type 7, masked by default.

Type 7 is the reversible obfuscation IOS uses for ``password 7`` and ``digest secret 7`` (what a
router shows with ``service password-encryption``). It protects against shoulder-surfing, nothing
more. Nothing in this module logs or puts a secret value in an error message.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from l2tpgen.errors import SecretError

if TYPE_CHECKING:
    from collections.abc import Mapping

# The key IOS uses for type 7; public since the 1990s.
_XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
# A fixed salt keeps rendering deterministic, so golden files and diffs are stable.
DEFAULT_SALT = 2
MAX_SALT = 15


def type7_encode(plaintext: str, salt: int = DEFAULT_SALT) -> str:
    """Encode ``plaintext`` as a Cisco type 7 string."""
    if not 0 <= salt <= MAX_SALT:
        raise ValueError("type 7 salt must be 0-15")
    body = "".join(
        f"{ord(char) ^ ord(_XLAT[(salt + index) % len(_XLAT)]):02X}"
        for index, char in enumerate(plaintext)
    )
    return f"{salt:02d}{body}"


def type7_decode(encoded: str) -> str:
    """Decode a Cisco type 7 string.

    Raises:
        ValueError: the text is not type 7 (the message does not repeat it).
    """
    text = encoded.strip()
    if len(text) < 2 or len(text) % 2 or not text[:2].isdigit():  # noqa: PLR2004 - salt digits
        raise ValueError("not a type 7 string")
    salt = int(text[:2])
    try:
        pairs = [int(text[i : i + 2], 16) for i in range(2, len(text), 2)]
    except ValueError:
        raise ValueError("not a type 7 string") from None
    return "".join(chr(b ^ ord(_XLAT[(salt + i) % len(_XLAT)])) for i, b in enumerate(pairs))


def masked(variable: str) -> str:
    """The placeholder written instead of a secret: names the variable, cannot be pushed."""
    return f"<{variable}>"


def read_secret(variable: str, environ: Mapping[str, str] | None = None) -> str:
    """The value of ``variable``.

    Raises:
        SecretError: the variable is unset or empty (the message names it, never a value).
    """
    value = (os.environ if environ is None else environ).get(variable, "")
    if not value:
        raise SecretError(
            f"environment variable {variable} is not set or is empty; export it (for example "
            f"`read -rs {variable} && export {variable}`) or leave out --reveal-secrets"
        )
    return value
