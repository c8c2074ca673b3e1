"""What the platforms' renderers share: Jinja environment, marks, class and crypto views, swanctl.

Each platform renders in its own folder (``l2tpgen/platforms/<name>/render.py``); a site is
rendered through its platform's driver by ``l2tpgen.platforms.render`` (``render_files``,
``render_site``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.model import Fleet, Pseudowire, Site


class Renderer(Protocol):
    """Renders one site in one format: file name -> text ("" for a single config)."""

    def __call__(
        self,
        fleet: Fleet,
        name: str,
        fmt: str,
        *,
        reveal_secrets: bool,
        environ: Mapping[str, str] | None,
    ) -> dict[str, str]:
        """Render."""
        ...


class StartRenderer(Protocol):
    """The config a simulated router starts from (``l2tpgen sim up``): before l2tpgen's lines."""

    def __call__(self, fleet: Fleet, name: str) -> str:
        """Render."""
        ...


@dataclass(frozen=True)
class KernelPlane:
    """The kernel's own L2TPv3 data plane, as one platform's driver writes it (iproute2).

    The lab plays every PE on Linux, whatever the site's platform: it asks the registry for the
    driver that offers this (``l2tpgen.platforms.render.kernel_plane``) rather than naming one.
    """

    base: Callable[[Site], list[str]]  # WAN addressing, routes, loopback, LAN trunk up
    pseudowires: Callable[[Site, tuple[Pseudowire, ...]], list[str]]  # tunnels, sessions
    site: Callable[[Fleet, str], list[str]]  # every command of one site, keyed cookies masked
    reveal_cookies: Callable[[str, Mapping[str, str] | None], str]  # the masked cookies filled
    bare: Callable[[str], str]  # a command without its re-run guard (`... || ip l2tp show ...`)
    binding_table: str  # the nftables table binding each peer to its own sessions at a hub
