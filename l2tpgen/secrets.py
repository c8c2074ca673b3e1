"""Secrets: read from environment variables only, masked by default.

They are written into configs as Cisco type 7 (``l2tpgen.ios.type7``). Nothing in this module logs
or puts a secret value in an error message.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from l2tpgen.errors import SecretError

if TYPE_CHECKING:
    from collections.abc import Mapping


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
            f"`read -rs {variable} && export {variable}`); `l2tpgen secrets` lists every "
            "variable the sites need"
        )
    return value


MASK = "<masked>"

# l2tpgen's own placeholders, exactly as it writes them: ``masked`` (``<VARIABLE>``, only ever
# after a type 7: ``password 7 <L2TPGEN_L2TP_SECRET>``, which no real type 7 string can be: type 7
# is hex digits), a pair key's (``l2tpgen.model.keys``, ``<L2TPGEN_IKE_PSK/psk/a/b>``), a keyed
# cookie's (``l2tpgen.model.protection``, ``<L2TPGEN_COOKIE_KEY/cookie/a/b/100/a/8>``) and the
# mask itself. Anything else that starts with ``<`` is a secret like any other.
_VAR = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
_PLACEHOLDER = re.compile(
    rf"<(?:{_VAR}/psk/{_NAME}/{_NAME}|{_VAR}/cookie/{_NAME}/{_NAME}/[0-9]+/{_NAME}/[48]|masked)>"
)
_TYPE7_PLACEHOLDER = re.compile(rf"<{_VAR}>")
_TYPE7_BEFORE = re.compile(r"(?<![\w-])7\s+$")


def is_placeholder(value: str, before: str = "") -> bool:
    """Whether ``value`` (a secret's place, ``before`` it its line) is l2tpgen's placeholder."""
    if _PLACEHOLDER.fullmatch(value):
        return True
    return bool(_TYPE7_PLACEHOLDER.fullmatch(value) and _TYPE7_BEFORE.search(before))


def mask_line(line: str) -> str:
    """One line of IOS text with its secrets masked (``secret_commands.SECRET_COMMANDS``)."""
    from l2tpgen.ios.secret_grammar import secret_spans  # noqa: PLC0415 - startup: validate masks no line

    _, spans = secret_spans(line)
    out, last = [], 0
    for begin, end in spans:
        value = line[begin:end]
        out.append(line[last:begin])
        # A placeholder l2tpgen wrote is no secret and stays; nothing else does.
        out.append(value if is_placeholder(value, line[:begin]) else MASK)
        last = end
    out.append(line[last:])
    return "".join(out)


def mask_secrets(text: str) -> str:
    """IOS text with every secret value replaced by ``<masked>`` (whatever its type).

    Which token of which command is a secret comes from one table,
    ``l2tpgen.ios.secret_commands.SECRET_COMMANDS`` (docs/security.md lists it with its sources).
    Only l2tpgen's own placeholders stay, in their exact form (``is_placeholder``). Cookie values
    are masked too (a protected pseudowire's are keyed secrets).
    """
    return "".join(mask_line(line) for line in text.splitlines(keepends=True))
