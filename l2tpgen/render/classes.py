"""The l2tp-classes and pseudowire-classes one site renders: one per distinct setting set.

A site's pseudowires to different peers may be built differently (a hub talks dynamic L2TPv3 to
its Cisco spokes and static sessions to a Linux spoke), so a site renders every distinct class its
pseudowires use, each under its predictable name (``Site.pseudowire_for``).

IOS defaults are left out, as ``show running-config`` leaves them out (else every push would see
a difference that is not one): ``hello 60``, ``digest ... hash md5``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.errors import SecretError
from l2tpgen.ios import type7
from l2tpgen.model.keys import check_literal, reveal_psks
from l2tpgen.model.needs import require_all
from l2tpgen.model.protection import reveal_cookies
from l2tpgen.model.reads import classes_used, secret_variable
from l2tpgen.secrets import masked, read_secret

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.model import Pseudowire, Site
    from l2tpgen.model.site import L2tpClass, PseudowireClass

# A fixed type 7 salt keeps rendering deterministic (push compares secrets by their plain text).
RENDER_SALT = 2
IOS_DEFAULT_HELLO = 60
IOS_DEFAULT_HASH = "md5"


@dataclass(frozen=True)
class L2tpClassView:
    """An ``l2tp-class`` section."""

    name: str
    authentication: bool
    password: str | None
    digest: str | None
    hello: int | None
    cookie_size: int | None = None


@dataclass(frozen=True)
class PseudowireClassView:
    """A ``pseudowire-class`` section."""

    name: str
    protocol: str
    local_interface: str
    pmtu: bool
    df_bit: bool
    tos_reflect: bool
    sequencing: str | None


def _encrypted(variable: str, environ: Mapping[str, str] | None) -> str:
    """The secret in ``variable`` as type 7 (errors name the variable, never the value)."""
    value = read_secret(variable, environ)
    try:
        encoded = type7.encode(value, RENDER_SALT)
    except type7.Type7Error as exc:
        raise SecretError(
            f"environment variable {variable} holds a secret type 7 cannot carry ({exc}): the "
            f"router would refuse it or store another secret; set {variable} to such a secret at "
            "both ends"
        ) from None
    check_literal(variable, value)  # and nothing IOS's parser would not take as typed
    return encoded


def _secret_text(
    site: Site, l2tp: L2tpClass, *, reveal: bool, environ: Mapping[str, str] | None
) -> str:
    variable = secret_variable(site, l2tp)
    return _encrypted(variable, environ) if reveal else masked(variable)


_PLACEHOLDER = re.compile(
    r"^(\s*(?:password|digest secret) 7 )<([A-Za-z_][A-Za-z0-9_]*)>", re.MULTILINE
)


def reveal(text: str, environ: Mapping[str, str] | None = None) -> str:
    """A masked rendering with its secrets filled in: the same text ``--reveal-secrets`` gives.

    Push renders once (masked), lints that, and fills the secrets in here.

    Raises:
        SecretError: a variable is unset, or holds what type 7 cannot carry.
    """
    require_all(text, environ)  # every missing or refused variable at once
    filled = _PLACEHOLDER.sub(lambda m: m.group(1) + _encrypted(m.group(2), environ), text)
    return reveal_cookies(reveal_psks(filled, environ), environ)


def l2tp_view(
    site: Site, l2tp: L2tpClass, *, reveal: bool, environ: Mapping[str, str] | None
) -> L2tpClassView:
    """One l2tp-class as IOS prints it."""
    password = digest = None
    if l2tp.authentication == "password":
        password = f"7 {_secret_text(site, l2tp, reveal=reveal, environ=environ)}"
    elif l2tp.authentication == "digest":
        secret = _secret_text(site, l2tp, reveal=reveal, environ=environ)
        hashed = "" if l2tp.effective_hash == IOS_DEFAULT_HASH else f" hash {l2tp.effective_hash}"
        digest = f"secret 7 {secret}{hashed}"
    return L2tpClassView(
        name=l2tp.name,
        authentication=l2tp.authentication == "password",
        password=password,
        digest=digest,
        hello=None if l2tp.hello == IOS_DEFAULT_HELLO else l2tp.hello,
        cookie_size=l2tp.cookie_size,
    )


def pw_view(site: Site, pw: PseudowireClass, l2tp: L2tpClass) -> PseudowireClassView:
    """One pseudowire-class as IOS prints it."""
    return PseudowireClassView(
        name=pw.name,
        protocol="none" if pw.signaling == "static" else f"{pw.dialect} {l2tp.name}",
        local_interface=site.tunnel_interface,
        pmtu=pw.effective_pmtu,
        df_bit=pw.df_bit,
        tos_reflect=pw.tos_reflect,
        sequencing=None if pw.sequencing == "none" else pw.sequencing,
    )


def class_views(
    site: Site,
    pseudowires: Sequence[Pseudowire],
    *,
    reveal: bool,
    environ: Mapping[str, str] | None,
    port_peer: str | None = None,
) -> tuple[tuple[L2tpClassView, ...], tuple[PseudowireClassView, ...]]:
    """Every l2tp-class and pseudowire-class the site's pseudowires use, each once, by name.

    Which: ``classes_used``.
    """
    l2tp: dict[str, L2tpClassView] = {}
    pws: dict[str, PseudowireClassView] = {}
    for settings, control, needs_class in classes_used(site, pseudowires, port_peer):
        if needs_class and control.name not in l2tp:
            l2tp[control.name] = l2tp_view(site, control, reveal=reveal, environ=environ)
        pws.setdefault(settings.name, pw_view(site, settings, control))
    return tuple(l2tp[n] for n in sorted(l2tp)), tuple(pws[n] for n in sorted(pws))
