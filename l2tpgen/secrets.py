"""Secrets: read from environment variables only, masked by default.

They are written into configs as Cisco type 7 (``l2tpgen.ios.type7``). Nothing in this module logs
or puts a secret value in an error message.
"""

from __future__ import annotations

import os
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


def mask_line(line: str) -> str:
    """One line of IOS text with its secrets masked (``secret_grammar.SECRET_COMMANDS``)."""
    from l2tpgen.ios.secret_grammar import secret_spans  # noqa: PLC0415 - import cycle

    _, spans = secret_spans(line)
    out, last = [], 0
    for begin, end in spans:
        value = line[begin:end]
        out.append(line[last:begin])
        # A placeholder l2tpgen wrote (``<VARIABLE>``, ``<masked>``) is no secret and stays.
        out.append(value if value.startswith("<") else MASK)
        last = end
    out.append(line[last:])
    return "".join(out)


def mask_secrets(text: str) -> str:
    """IOS text with every secret value replaced by ``<masked>`` (whatever its type).

    Which token of which command is a secret comes from one table,
    ``l2tpgen.ios.secret_grammar.SECRET_COMMANDS`` (docs/security.md lists it with its sources).
    A placeholder l2tpgen wrote (``<VARIABLE>``) is no secret and stays. Cookie values are
    masked too (a protected pseudowire's are keyed secrets).
    """
    return "".join(mask_line(line) for line in text.splitlines(keepends=True))
