"""Rendering a site: the renderer its platform's driver binds (``platforms/<name>/driver.py``).

Each platform folder's ``driver.py`` lists its ``RENDERERS`` (platform name -> renderer) and is
found here, as ``l2tpgen.traits`` finds the traits; what the renderers share (the Jinja
environment, marks, crypto and class views, swanctl) is in ``l2tpgen.render``, below them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.errors import RenderError
from l2tpgen.model.interfaces import is_ios_style
from l2tpgen.model.needs import SecretNeed, secret_needs_in
from l2tpgen.traits import DRIVERS, platform_modules, platform_tables

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from l2tpgen.model import Fleet
    from l2tpgen.render import KernelPlane, Renderer, StartRenderer


# Every platform folder's ``driver.py`` lists its ``RENDERERS`` (and the start configs it offers,
# ``STARTS``), by platform name, in folder order.
RENDERERS: dict[str, Renderer] = platform_tables("driver", "RENDERERS")


def _starts() -> dict[str, StartRenderer]:
    """The start configs the drivers offer (``STARTS``), by platform name."""
    return platform_tables("driver", "STARTS", optional=True)


def _kernel() -> KernelPlane:
    """The one driver that writes the kernel's data plane (``KERNEL``): the lab's PEs."""
    planes: list[KernelPlane] = [
        module.KERNEL for module in platform_modules("driver") if hasattr(module, "KERNEL")
    ]
    if len(planes) != 1:
        raise RenderError(f"{len(planes)} platform drivers offer the kernel data plane, not one")
    return planes[0]


STARTS: dict[str, StartRenderer] = _starts()


def kernel_plane() -> KernelPlane:
    """The kernel data plane (iproute2 commands) the lab runs every PE on."""
    return _kernel()


def render_start(fleet: Fleet, name: str) -> str:
    """The config a simulated router of ``name`` starts from (before l2tpgen's lines).

    Raises:
        RenderError: the site's platform is not simulated (no driver offers its start).
    """
    platform = fleet.site(name).effective_platform
    if platform not in STARTS:
        raise RenderError(f"{name} is a {platform} site: no simulated router starts from it")
    return STARTS[platform](fleet, name)


def render_files(
    fleet: Fleet,
    name: str,
    fmt: str | None = None,
    *,
    platform: str | None = None,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """One site's configuration as files (name -> text; "" for a single config).

    ``platform`` (default: the site's own) picks the driver, ``fmt`` one of its formats (default:
    its first). Secrets are masked unless ``reveal_secrets``; then they are read from the
    environment (or ``environ``) and written as type 7.

    Raises:
        RenderError: an unknown platform or format, or a site the format cannot express (an
            IPv6 underlay on a platform whose driver does not carry pseudowires over IPv6).
    """
    chosen = platform or fleet.site(name).effective_platform
    if chosen not in DRIVERS:
        raise RenderError(f"unknown platform {chosen}; choose one of: {', '.join(DRIVERS)}")
    driver = DRIVERS[chosen]
    if fmt is not None and fmt not in driver.formats:
        raise RenderError(
            f"{driver.title} renders as {', '.join(driver.formats)}, not {fmt}"
            + (
                f" ({name} is {DRIVERS[fleet.site(name).effective_platform].a_title} site)"
                if not platform
                else ""
            )
        )
    site = fleet.site(name)
    if site.wan.ipv6 and not driver.ipv6_underlay:  # validate refuses the site's own platform
        raise RenderError(
            f"{name}'s underlay is IPv6 ({site.wan.address}), and {driver.title} cannot carry "
            f"its pseudowires over IPv6: {driver.ipv6_note}; render it for a platform that can "
            "(linux)"
        )
    own = DRIVERS[site.effective_platform]
    if own.interface_names.system and not driver.interface_names.system:
        written = [site.wan.interface, site.lan.interface]
        system = [n for n in written if not is_ios_style(own.interface_names, n)]
        if system:
            raise RenderError(
                f"{name} names its interfaces as {own.short_title or own.title} does "
                f"({', '.join(system)}), which {driver.title} cannot use: render it for its own "
                f"platform, or give a copy of its site file {driver.title}'s names "
                f"(e.g. {driver.interface_names.examples[0]})"
            )
    return RENDERERS[chosen](
        fleet, name, fmt or driver.formats[0], reveal_secrets=reveal_secrets, environ=environ
    )


def join_files(files: Mapping[str, str]) -> str:
    """Files as one text: a single config as it is, several each under a `# ==> NAME <==` line."""
    if list(files) == [""]:
        return files[""]
    return "\n".join(f"# ==> {name} <==\n{text}" for name, text in files.items())


def render_site(
    fleet: Fleet,
    name: str,
    platform: str | None = None,
    *,
    fmt: str | None = None,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> str:
    """One site's configuration as text (see ``render_files``)."""
    files = render_files(
        fleet, name, fmt, platform=platform, reveal_secrets=reveal_secrets, environ=environ
    )
    return join_files(files)


def secret_needs(
    fleet: Fleet,
    names: Iterable[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[SecretNeed]:
    """Every variable the selected sites (all by default) need, sorted by name.

    Raises:
        RenderError: a site cannot be rendered (the same error ``render`` gives).
    """
    chosen = sorted(fleet.sites if names is None else names)
    rendered = {name: list(render_files(fleet, name).values()) for name in chosen}
    return secret_needs_in(rendered, environ)


__all__ = ["RENDERERS", "join_files", "render_files", "render_site", "secret_needs"]
