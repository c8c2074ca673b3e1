"""What the platforms' renderers share: Jinja environment, marks, class and crypto views, swanctl.

Each platform renders in its own folder (``l2tpgen/platforms/<name>/render.py``); a site is
rendered through its platform's driver by ``l2tpgen.platforms.render`` (``render_files``,
``render_site``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet


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
