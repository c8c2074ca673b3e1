"""Which secret variables a site's rendering reads, told by the model without rendering (issue 35).

A masked rendering writes a placeholder for each secret (``l2tpgen.model.needs``): the IKEv2
master key of each peer its pseudowires protect with IPsec, the cookie key of each keyed-cookie
session, the secret of each l2tp-class with authentication that it renders. Each platform's
``needs.py`` (``l2tpgen.platforms.needs`` finds them) says which of these its renderer writes,
from the same choices the renderer makes (``swanctl.ipsec_peers``, ``classes.classes_used``), so
that ``validate`` names the unset variables without loading Jinja and the renderers.
``tests/test_secret_needs_model.py`` holds them equal to the rendering's placeholders on every
fleet of the repository.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.secret_names import in_namespace
from l2tpgen.render.classes import authenticated, classes_used, secret_variable
from l2tpgen.render.swanctl import ipsec_peers

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.model import Fleet, Pseudowire, Site
    from l2tpgen.model.needs import Purpose

    Reads = dict[str, set[Purpose]]  # variable -> what for
    SiteReads = Callable[[Fleet, str], Reads]  # what one site's rendering reads


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
            variable = secret_variable(site, control)
            if in_namespace(variable):  # as the placeholder reader takes `<VAR>`
                _add(found, variable, "l2tp-secret")
