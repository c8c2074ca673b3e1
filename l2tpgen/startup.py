"""The command line's start-up, spared the garbage collector.

Starting ``l2tpgen`` is mostly imports (typer, pydantic, the model's classes): they allocate
hundreds of thousands of long-lived objects and make almost no garbage, yet the collector walks
them again and again while they load, and once more when the interpreter exits. The entry
point (``l2tpgen/__main__.py``) pauses the collector before anything loads; the command line
resumes it once the command's module is imported (``cli/groups.py``), freezing what start-up
made (``gc.freeze``: kept out of every later collection, the one at exit included), so that the
command itself runs with the collector on. A process that imports ``l2tpgen.cli`` itself (a
test, a script calling the app) never paused it, and ``resume`` leaves its collector alone.
(Measured: a cold ``validate`` spends about a sixth of its CPU time in the collector otherwise;
``bench/cost_bench.py --only start``.)
"""

from __future__ import annotations

import gc

_paused = False  # the collector was on and ``pause`` turned it off
_froze = False  # ``resume`` froze start-up's objects


def pause() -> None:
    """Turn the collector off for the start-up, if it is on."""
    global _paused  # noqa: PLW0603 - one switch for the process, as gc's own
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """The start-up is over: freeze what it made and turn the collector back on.

    Only if ``pause`` turned it off; again or without a pause, nothing.
    """
    global _paused, _froze  # noqa: PLW0603 - one switch for the process, as gc's own
    if _paused:
        _paused = False
        _froze = True
        gc.freeze()
        gc.enable()


def froze() -> bool:
    """Whether the start-up's objects were frozen (``gc.get_freeze_count`` without its walk).

    The linter asks before its own freeze and unfreeze (``lint/engine.py``), which would
    unfreeze them: counting the frozen objects walks all of them, a few milliseconds a config.
    """
    return _froze
