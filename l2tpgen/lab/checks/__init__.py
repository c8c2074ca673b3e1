"""The lab checks' registry: every module of this package lists its ``CHECKS``, and is found here.

A new check is one module here (its class, its docstring the documentation, ``applies``, its
probes and judge, its guest ``extras``), its test, and its line in docs/lab.md, which is
generated from the docstrings (``checks_markdown``; tests/test_lab_registry.py keeps it fresh).
Every runner (``engines/vm.py``, ``engines/liveops.py``, ``engines/clab.py``) plans its checks
here (``plan_checks``), and merges the guest extras they name one way (``Plan.extras``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from l2tpgen.lab.checks.base import (
    RUNNER_COMMANDS,
    RUNNERS,
    SCOPES,
    Check,
    LabCheck,
    PairCheck,
    ProtectionCheck,
    Runner,
    Stage,
)
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.probes import ordered
from l2tpgen.lab.security import attacked_pairs

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.lab.engines.qemu import Extras
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import CheckResult, Probe

NOT_CHECKS = ("base",)  # the modules of this package that hold no check


def check_modules() -> tuple[str, ...]:
    """The names of this package's check modules, in name order."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in NOT_CHECKS))


@cache
def registered() -> tuple[type[Check], ...]:
    """Every check of every module, by scope (pair, lab, protection), then by ``order``."""
    found: list[type[Check]] = []
    for module in check_modules():
        # A module without CHECKS registers nothing: tests/test_lab_registry.py names it.
        found += getattr(importlib.import_module(f"{__name__}.{module}"), "CHECKS", ())
    return tuple(sorted(found, key=lambda c: (SCOPES.index(c.scope), c.order, c.name)))


def by_name() -> dict[str, type[Check]]:
    """Every check by its name."""
    return {check.name: check for check in registered()}


def not_applicable(lab: Lab, runner: Runner) -> dict[str, str]:
    """The checks that do not run on ``lab`` under ``runner``, each with the reason."""
    return {
        check.name: reason
        for check in registered()
        if (reason := check.applies(lab, runner)) is not None
    }


def check_extras(lab: Lab, runner: Runner) -> tuple[Callable[[], Extras], ...]:
    """What the checks that run on ``lab`` under ``runner`` need in the guest (builders, once)."""
    skipped = not_applicable(lab, runner)
    chosen = (check for check in registered() if check.name not in skipped)
    return tuple(dict.fromkeys(build for check in chosen for build in check.extras))


@dataclass(frozen=True)
class Plan:
    """The checks one run makes, the guest extras they need, and those that do not apply."""

    checks: tuple[Check, ...]
    extras: tuple[Callable[[], Extras], ...]
    skipped: tuple[tuple[str, str], ...]  # (check name, why it does not apply)

    def probes(self, stage: Stage) -> tuple[Probe, ...]:
        """Every probe of one stage, by phase, each key once (checks share listeners)."""
        return ordered(p for check in self.checks for p in check.staged(stage))

    def judge(self, results: Mapping[str, str]) -> tuple[CheckResult, ...]:
        """Every check's verdict, in the report's order."""
        return tuple(check.judge(results) for check in self.checks)


def plan_checks(lab: Lab, runner: Runner) -> Plan:
    """The checks ``runner`` makes on ``lab`` (a protected lab's secrets revealed already)."""
    skipped = not_applicable(lab, runner)
    chosen = [check for check in registered() if check.name not in skipped]
    checks: list[Check] = []
    pair_checks = [c for c in chosen if issubclass(c, PairCheck)]
    if pair_checks:
        checks += [c.for_pair(lab, pair) for pair in pairs(lab) for c in pair_checks]
    checks += [found for c in chosen if issubclass(c, LabCheck) for found in c.plan(lab)]
    protection = [c for c in chosen if issubclass(c, ProtectionCheck)]
    if protection:
        checks += [c.for_attacked(lab, a) for a in attacked_pairs(lab) for c in protection]
    extras = tuple(dict.fromkeys(build for check in chosen for build in check.extras))
    return Plan(tuple(checks), extras, tuple(skipped.items()))


def checks_markdown() -> str:
    """docs/lab.md's list of checks: a table, then each one's docstring (between its markers)."""
    head = " | ".join(RUNNER_COMMANDS[runner] for runner in RUNNERS)
    lines = [
        f"| check | scope | what it proves | {head} | module |",
        "|---|---|---|" + "---|" * len(RUNNERS) + "---|",
    ]
    for check in registered():
        runs = " | ".join(_runs(check, runner) for runner in RUNNERS)
        module = check.__module__.replace(".", "/") + ".py"
        lines.append(
            f"| `{check.name}` | {check.scope} | {check.summary()} | {runs} | `{module}` |"
        )
    for check in registered():  # each check's documentation: its docstring
        lines += ["", f"### `{check.name}`", "", check.doc()]
    return "\n".join(lines) + "\n"


def _runs(check: type[Check], runner: Runner) -> str:
    """``yes``, or the reason it never runs under ``runner`` whatever the lab (documented)."""
    return f"N/A: {check.never[runner]}" if runner in check.never else "yes"


__all__ = [
    "Check",
    "LabCheck",
    "PairCheck",
    "Plan",
    "ProtectionCheck",
    "by_name",
    "check_extras",
    "check_modules",
    "checks_markdown",
    "not_applicable",
    "plan_checks",
    "registered",
]
