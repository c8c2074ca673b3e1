"""Lint leaves Python's garbage collector as the program set it (issue 35).

Parsing runs with the collector paused, and what it leaves is moved to the oldest generation
(``l2tpgen.lint.engine._gc_paused``): afterwards the collector is on again if it was on, off if it
was off, nothing of lint's stays frozen, and what the program froze itself stays frozen.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import pytest

from l2tpgen import startup
from l2tpgen.lint import ConfigText, lint_configs

if TYPE_CHECKING:
    from collections.abc import Iterator

CONFIG = ConfigText(
    "r.conf",
    "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n"
    " xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw\n",
)


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector on, nothing frozen, before and after each test."""
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


@pytest.mark.usefixtures("collector")
def test_after_a_lint_the_collector_runs_and_nothing_is_frozen() -> None:
    lint_configs([CONFIG])
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("collector")
def test_a_lint_leaves_a_paused_collector_paused() -> None:
    gc.disable()
    lint_configs([CONFIG])
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector")
def test_objects_the_program_froze_stay_frozen_through_a_lint() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    lint_configs([CONFIG])
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()


@pytest.mark.usefixtures("collector")
def test_after_the_command_lines_start_up_a_lint_keeps_it_frozen_without_counting_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The command line froze its start-up (l2tpgen/startup.py): hundreds of thousands of objects,
    # which gc.get_freeze_count walks one by one. `lint --sites` lints each site's config apart:
    # counting them before each (a few ms a config) made a 5000-site lint 1.7x slower.
    monkeypatch.setattr(startup, "_froze", False)  # restored after: no other test sees it set
    gc.disable()
    monkeypatch.setattr(startup, "_paused", True)
    startup.resume()
    frozen = gc.get_freeze_count()
    counted: list[int] = []
    real = gc.get_freeze_count

    def count() -> int:
        counted.append(1)
        return real()

    monkeypatch.setattr(gc, "get_freeze_count", count)
    lint_configs([CONFIG, CONFIG, CONFIG])
    assert counted == []
    assert real() == frozen  # start-up's objects stay frozen
    assert gc.isenabled()
