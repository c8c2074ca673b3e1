"""Cisco IOS and IOS-XE's driver: their renderer, bound to their traits (``traits.py``).

The IOS text layer, ``l2tpgen.ios`` (cleaning, parsing and reading IOS configs into facts), is
this platform's reader: lint, import, push and verify read an IOS config back with it, for every
platform whose traits say ``ios_config``. It stays a package of its own below the model, which
reads interface names with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.platforms.ios.render import render_base, render_ios
from l2tpgen.platforms.ios.traits import IOS, IOS_XE

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.model import Fleet
    from l2tpgen.render import Renderer, StartRenderer


def _render(
    fleet: Fleet,
    name: str,
    fmt: str,  # noqa: ARG001 - one format
    *,
    reveal_secrets: bool,
    environ: Mapping[str, str] | None,
) -> dict[str, str]:
    """The IOS configuration of one site."""
    return {"": render_ios(fleet, name, reveal_secrets=reveal_secrets, environ=environ)}


RENDERERS: dict[str, Renderer] = {IOS.name: _render, IOS_XE.name: _render}
# What `l2tpgen sim up` starts each simulated router with (the simulator plays IOS routers).
STARTS: dict[str, StartRenderer] = {IOS.name: render_base, IOS_XE.name: render_base}
