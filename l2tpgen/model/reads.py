"""What a site's rendering holds, told by the model: its classes, its IPsec peers, its secrets.

A masked rendering writes a placeholder for each secret (``l2tpgen.model.needs``): the IKEv2
master key of each peer its pseudowires protect with IPsec, the cookie key of each keyed-cookie
session, the secret of each l2tp-class with authentication that it renders. Each platform's
``needs.py`` (``l2tpgen.platforms.needs`` finds them) says which of these its renderer writes,
from the same choices the renderers make, which are here (``classes_used``, ``ipsec_peers``:
``render/classes.py`` and ``render/swanctl.py`` read them), so that ``validate`` names the unset
variables without loading Jinja nor the renderers (issue 35).
``tests/test_secret_needs_model.py`` holds them equal to the rendering's placeholders on every
fleet of the repository.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.model import Fleet, Pseudowire, Site
    from l2tpgen.model.needs import Purpose
    from l2tpgen.model.site import L2tpClass, PseudowireClass

    Reads = dict[str, set[Purpose]]  # variable -> what for
    SiteReads = Callable[[Fleet, str], Reads]  # what one site's rendering reads


def classes_used(
    site: Site, pseudowires: Sequence[Pseudowire], port_peer: str | None = None
) -> list[tuple[PseudowireClass, L2tpClass, bool]]:
    """The classes the site renders: (pseudowire-class, its l2tp-class, whether that is rendered).

    An l2tp-class is rendered for the signalled pseudowires and for static sessions that run
    `l2tp hello`. A site without pseudowires renders its own default classes. ``port_peer``: the
    peer of a kept port-mode xconnect (dynamic: its classes are the peer's). The classes that
    render a secret say which variables the site reads (``l2tpgen.platforms.ios.needs``).
    """
    uses = [(pw.settings, pw.l2tp_class, not pw.static or pw.hello) for pw in pseudowires]
    if port_peer is not None:
        uses.append((site.pseudowire_for(port_peer), site.l2tp_for(port_peer), True))
    if not uses:
        default = site.pseudowire_class
        uses = [(default, site.l2tp_class, default.signaling == "dynamic")]
    return uses


def secret_variable(site: Site, l2tp: L2tpClass) -> str:
    """The variable an l2tp-class with authentication reads its secret from.

    Raises:
        RenderError: the class has no ``secret_env`` (validation refuses such a site).
    """
    variable = l2tp.secret_env
    if variable is None:  # validation requires secret_env whenever authentication is on
        raise RenderError(f"{site.name}: l2tp-class {l2tp.name} has authentication, no secret_env")
    return variable


def authenticated(l2tp: L2tpClass) -> bool:
    """Whether the l2tp-class renders a secret (``password`` or ``digest secret``)."""
    return l2tp.authentication in ("password", "digest")


def ipsec_peers(pseudowires: Sequence[Pseudowire]) -> list[Pseudowire]:
    """One pseudowire per peer whose pseudowires get IPsec, in order."""
    found: dict[str, Pseudowire] = {}
    for pw in pseudowires:
        if pw.protection.ipsec:
            found.setdefault(pw.peer.name, pw)
    return list(found.values())


def _add(found: Reads, variable: str, purpose: Purpose) -> None:
    found.setdefault(variable, set()).add(purpose)


def ipsec_reads(pseudowires: Sequence[Pseudowire], found: Reads) -> None:
    """The master key of each peer whose pseudowires get IPsec (its first pseudowire's)."""
    for pw in ipsec_peers(pseudowires):
        _add(found, pw.protection.psk_env, "ike-master-key")


def cookie_reads(pseudowires: Sequence[Pseudowire], found: Reads) -> None:
    """The cookie key of each session whose cookies are keyed."""
    for pw in pseudowires:
        if pw.keyed_cookies:
            _add(found, pw.protection.cookie_key_env, "cookie-key")


def class_reads(site: Site, pseudowires: Sequence[Pseudowire], found: Reads) -> None:
    """The secret of each l2tp-class with authentication the site renders (IOS text).

    Raises:
        RenderError: such a class names no variable (the renderer refuses it too).
    """
    port = site.kept_port
    port_peer = port.peer if port is not None else None
    for _settings, control, rendered in classes_used(site, pseudowires, port_peer):
        if rendered and authenticated(control):
            # In the namespace (``SecretVar``), as the placeholder reader wants a `<VAR>`.
            _add(found, secret_variable(site, control), "l2tp-secret")
