"""How to push: ``PushOptions``, read by ``push`` and by its ``steps``.

Its own module, so that ``steps`` needs nothing of ``push`` (issue 35: the two were an import
circle).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.device import rollback_copy

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping

    from l2tpgen.ios.parsed import Readings


@dataclass(frozen=True)
class PushOptions:
    """How to push. ``progress`` is told each phase of each site (from worker threads).

    ``rendered``: masked renderings the caller made already (each site is rendered once);
    ``readings``: the renderings read in this run, by text (``l2tpgen.ios.parsed.Readings``),
    shared by the lint gate, the dry run, the pre-flight and the push (each text read once).
    The router's configs are read anew each time (a whole fleet's would stay in memory).
    ``stop``: asked between steps and chunks (``stop.Stop``). ``together``: the sites pushed in
    the same run (a single-trunk migration needs its peers there, unless ``one_end``).
    """

    dry_run: bool = False
    save: bool = True
    state_dir: Path = Path("~/.local/state/l2tpgen")
    environ: Mapping[str, str] | None = None
    progress: Callable[[str, str], None] | None = None
    # The fleet runner lints every site once, up front, and turns the per-site gate off.
    lint_gate: bool = True
    rendered: Mapping[str, str] | None = None
    readings: Readings | None = None
    stop: Callable[[], bool] | None = None
    together: Collection[str] = ()
    one_end: bool = False
    # The commands the user approved after seeing the diff: a router that now needs other
    # commands (changed since) is left alone.
    approved: Mapping[str, tuple[str, ...]] | None = None
    # Rollback copies kept per site, on the router and in the state directory (older ones go).
    keep_rollbacks: int = rollback_copy.KEEP
    # Enter configuration mode with a revert timer of this many minutes, and leave the change
    # unsaved until ``l2tpgen confirm`` (``l2tpgen.device.confirm``); None: no timer.
    confirm_within: int | None = None
    # Read, plan and run every refusal check, then stop before the rollback copy (nothing is
    # changed): the fleet runner's pre-flight, so that no router changes while another is refused.
    preflight: bool = False

    def tell(self, site: str, phase: str) -> None:
        """Report a phase, if anyone listens."""
        if self.progress is not None:
            self.progress(site, phase)

    def stopping(self) -> bool:
        """Whether a stop was requested."""
        return self.stop is not None and self.stop()
