"""What a platform driver is."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Driver:
    """Everything that differs between platforms.

    ``formats``: what ``render`` can write, the first being the default. ``hier_config``: the
    hier_config platform that diffs its configs (None: push does not handle it). ``file_systems``:
    where a rollback copy goes when the router's ``dir`` does not say (discovered first).
    ``lint_platform``: what the linter is told the config is (None: no IOS rule applies).
    """

    name: str
    title: str
    device_type: str
    cisco: bool
    formats: tuple[str, ...]
    renderer: Renderer
    hier_config: str | None = None
    save_command: str | None = None
    file_systems: tuple[str, ...] = ()
    show_xconnect: str | None = None
    show_sessions: str | None = None
    lint_platform: str | None = None
    simulated: bool = False
    # A change that reverts itself unless confirmed (``push --confirm-within``): IOS's
    # Configuration Rollback Confirmed Change (``configure terminal revert timer``).
    timed_confirm: bool = False
    # Whether the platform's pseudowires run over an IPv6 underlay (IPv6 tunnel sources and
    # peers); ``ipv6_note``: where that is documented, or why a site of it is refused.
    ipv6_underlay: bool = False
    ipv6_note: str = ""

    @property
    def pushable(self) -> bool:
        """Whether push, diff and verify handle this platform."""
        return self.hier_config is not None

    def render(
        self,
        fleet: Fleet,
        name: str,
        fmt: str | None = None,
        *,
        reveal_secrets: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> dict[str, str]:
        """The site's configuration in ``fmt`` (default: the platform's first format)."""
        return self.renderer(
            fleet, name, fmt or self.formats[0], reveal_secrets=reveal_secrets, environ=environ
        )
