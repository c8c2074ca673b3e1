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
            f"`read -rs {variable} && export {variable}`) or leave out --reveal-secrets"
        )
    return value


MASK = "<masked>"
# Every form a secret takes in IOS text, `no ...` lines included: `password [0|7] X`,
# `digest secret [0|7] X hash sha`, `username U [privilege N] secret 9 X`, `enable secret 5 X`,
# `key-string X`, `pre-shared-key X`, `authentication-key X`, `message-digest-key N md5 X`,
# `snmp-server community X`, `crypto isakmp key X address ...`. The value is the word after the
# keyword and its optional type number.
_SECRET_WORDS = re.compile(
    r"(?P<head>(?<![\w-])(?:password|secret|key-string|pre-shared-key|authentication-key"
    r"|community|md5|key(?!\s+chain\b))(?:\s+(?:[0-9](?=\s)|level\s+[0-9]+)){0,2}\s+)(?P<value>\S+)",
    re.IGNORECASE,
)


# A manual session's cookie values (`l2tp cookie local|remote SIZE LOW [HIGH]`): keyed cookies
# are secrets; the words after the size are masked together.
_COOKIE = re.compile(
    r"(?P<head>(?<![\w-])l2tp\s+cookie\s+(?:local|remote)\s+\d+\s+)"
    r"(?P<value>[^<\s]\S*(?:[ \t]+[^<\s]\S*)?)",
    re.IGNORECASE,
)


def mask_secrets(text: str) -> str:
    """IOS text with every secret value replaced by ``<masked>`` (whatever its type).

    A placeholder l2tpgen wrote (``<VARIABLE>``) is no secret and stays. Cookie values are
    masked too (a protected pseudowire's are keyed secrets).
    """

    def hide(match: re.Match[str]) -> str:
        value = match.group("value")
        return match.group(0) if value.startswith("<") else match.group("head") + MASK

    # Free text (descriptions, remarks) may say "key" or "password" and holds no secret.
    return "".join(
        line if _FREE_TEXT.match(line) else _COOKIE.sub(hide, _SECRET_WORDS.sub(hide, line))
        for line in text.splitlines(keepends=True)
    )


_FREE_TEXT = re.compile(r"^\s*(?:no\s+)?(?:description|remark|alias)\s", re.IGNORECASE)
