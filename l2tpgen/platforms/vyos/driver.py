"""VyOS PEs' driver: their renderer (``set`` commands), bound to their traits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.vyos.render import render_vyos
from l2tpgen.platforms.vyos.traits import VYOS

if TYPE_CHECKING:
    from l2tpgen.render import Renderer

RENDERERS: dict[str, Renderer] = {VYOS.name: render_vyos}
