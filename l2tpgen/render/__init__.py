"""Rendering: one Jinja environment, per-platform entry points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from l2tpgen.errors import RenderError
from l2tpgen.render.ios import render_base, render_ios
from l2tpgen.render.linux import render_linux

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet

Platform = Literal["ios", "linux"]
PLATFORMS: tuple[Platform, ...] = ("ios", "linux")


def render_site(
    fleet: Fleet,
    name: str,
    platform: str = "ios",
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> str:
    """Render one site of a validated fleet for ``platform``.

    Secrets are masked unless ``reveal_secrets``; then they are read from the environment
    (or ``environ``) and written as type 7.
    """
    if platform == "ios":
        return render_ios(fleet, name, reveal_secrets=reveal_secrets, environ=environ)
    if platform == "linux":
        return render_linux(fleet, name)  # static sessions: no secret to write
    raise RenderError(f"unknown platform {platform}; choose one of: {', '.join(PLATFORMS)}")


__all__ = ["PLATFORMS", "render_base", "render_site"]
