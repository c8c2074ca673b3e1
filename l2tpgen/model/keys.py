"""Per-pair IKE keys, derived from one master key, and what a master key must be.

The variable a site's ``protection.psk_env`` names (default ``L2TPGEN_IKE_PSK``) holds a *master*
key that never reaches a router. Each pair of sites gets its own IKEv2 pre-shared key, derived the
way the cookies are (``protection.keyed_cookie``): HMAC-SHA256 over
``l2tpgen-psk/v1/<site>/<site>`` (the two names sorted) with the master key, written as 64
lower-case hex digits (256 bits). Both ends compute the same key; a router's config holds only the
keys of its own pairs, so reading one router's config opens only that router's pairs, not the
fleet's. Nothing is stored.

A master key (the IKE master key and the cookie key) is checked before anything is derived from
it, and refused with an error that names the variable, never the value:

* at least ``MIN_MASTER`` (16) and at most ``MAX_MASTER`` (128) characters;
* printable ASCII without spaces (``!`` to ``~``), and none of ``?``, ``"`` and ``'``: IOS's
  parser reads ``?`` as a request for help (Cisco's `enable secret` reference: a ``?`` must be
  typed as Ctrl-V ``?``), drops leading spaces and splits a line at spaces, and treats quotes
  specially; a master key that could not be typed as a literal key would be refused by the same
  rules as any literal key source (the l2tp-class secret: ``check_literal``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import TYPE_CHECKING

from l2tpgen.errors import SecretError
from l2tpgen.secrets import read_secret

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

MIN_MASTER = 16
MAX_MASTER = 128
# Characters IOS's parser does not take literally in a key typed on its command line.
IOS_UNSAFE = frozenset("?\"'")
_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
PSK_PLACEHOLDER = re.compile(
    rf"<(?P<var>[A-Za-z_][A-Za-z0-9_]*)/psk/(?P<a>{_NAME})/(?P<b>{_NAME})>"
)
GENERATE = "`openssl rand -hex 32`"


def _ios_problem(value: str) -> str | None:
    """Why IOS could not take ``value`` as typed (None: it can). Never quotes the value."""
    if any(not (33 <= ord(c) <= 126) for c in value):  # noqa: PLR2004 - printable ASCII
        return "holds a space, a control or a non-ASCII character"
    if any(c in IOS_UNSAFE for c in value):
        return "holds `?` or a quote, which IOS's parser does not take literally"
    return None


def check_literal(variable: str, value: str) -> None:
    """A secret typed into IOS as it is (the l2tp-class secret): IOS-safe characters only.

    Raises:
        SecretError: naming the variable and the reason, never the value.
    """
    problem = _ios_problem(value)
    if problem is not None:
        raise SecretError(
            f"environment variable {variable} {problem}; set it to printable ASCII without "
            "spaces, `?` or quotes, the same at both ends"
        )


def check_master(variable: str, value: str) -> None:
    """A master key: long enough, not absurdly long, IOS-safe (module docstring).

    Raises:
        SecretError: naming the variable and the reason, never the value.
    """
    if len(value) < MIN_MASTER:
        why = f"is shorter than {MIN_MASTER} characters"
    elif len(value) > MAX_MASTER:
        why = f"is longer than {MAX_MASTER} characters"
    else:
        why = _ios_problem(value) or ""
    if why:
        raise SecretError(
            f"environment variable {variable} {why}: a master key is {MIN_MASTER} to "
            f"{MAX_MASTER} printable ASCII characters without spaces, `?` or quotes (for "
            f"example {GENERATE}); set {variable} to such a key wherever l2tpgen renders or pushes"
        )


def master_key(variable: str, environ: Mapping[str, str] | None = None) -> bytes:
    """The master key in ``variable``, checked (``SecretError`` naming it otherwise)."""
    value = read_secret(variable, environ)
    check_master(variable, value)
    return value.encode()


def pair_psk(key: bytes, pair: tuple[str, str]) -> str:
    """The IKEv2 pre-shared key of one pair of sites: 64 hex digits (module docstring)."""
    a, b = sorted(pair)
    return hmac.new(key, f"l2tpgen-psk/v1/{a}/{b}".encode(), hashlib.sha256).hexdigest()


def psk_placeholder(variable: str, pair: tuple[str, str]) -> str:
    """The masked form of a pair's key: ``<L2TPGEN_IKE_PSK/psk/a/b>`` (names no secret)."""
    a, b = sorted(pair)
    return f"<{variable}/psk/{a}/{b}>"


def pair_psk_text(
    variable: str,
    pair: tuple[str, str],
    *,
    reveal: bool,
    environ: Mapping[str, str] | None = None,
) -> str:
    """A pair's key as written: derived when revealed, else its placeholder."""
    if not reveal:
        return psk_placeholder(variable, pair)
    return pair_psk(master_key(variable, environ), pair)


def reveal_psks(
    text: str,
    environ: Mapping[str, str] | None = None,
    form: Callable[[str], str] = lambda key: key,
) -> str:
    """``text`` with every pair-key placeholder replaced by its key, written by ``form``.

    Raises:
        SecretError: a master key is unset, empty or refused (named, never a value).
    """
    keys: dict[str, bytes] = {}

    def fill(match: re.Match[str]) -> str:
        var = match.group("var")
        if var not in keys:
            keys[var] = master_key(var, environ)
        return form(pair_psk(keys[var], (match.group("a"), match.group("b"))))

    return PSK_PLACEHOLDER.sub(fill, text)
