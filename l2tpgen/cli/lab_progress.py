"""Progress of `lab run` and `lab up` on stderr: boot, each node's set-up, each check's probe.

In a terminal a rich status line shows the step under way and each step is kept as a line;
elsewhere (CI logs) one plain line per step; with `--format json` nothing. Steps are shown in
words (``VLAN 200: MTU: IP counters before``, not the probe key ``mtu.200.snmp.before``:
``l2tpgen.lab.steps``).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING

from l2tpgen.cli.app import err
from l2tpgen.lab.steps import describe

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@contextlib.contextmanager
def lab_progress(*, quiet: bool = False) -> Iterator[Callable[[str], None] | None]:
    """A callback that shows each step (None when ``quiet``), live while the lab runs."""
    if quiet:
        yield None
        return
    began = time.monotonic()

    def line(step: str) -> str:
        return f"[{time.monotonic() - began:5.1f} s] {describe(step)}"

    if not err.is_terminal:

        def plain(step: str) -> None:
            err.print(line(step), markup=False, highlight=False, soft_wrap=True)

        yield plain
        return
    with err.status("starting the lab") as status:

        def rich(step: str) -> None:
            err.print(line(step), style="dim", markup=False, highlight=False, soft_wrap=True)
            status.update(describe(step))

        yield rich
