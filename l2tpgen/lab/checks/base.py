"""What a lab check is: a name, when it applies, its probes, its judge, its guest extras, its doc.

A check is a class in a module of ``l2tpgen/lab/checks/`` that lists it in ``CHECKS`` (the
registry finds the module, as the platform registry finds a driver). Its docstring is its
documentation (its first line the summary that docs/lab.md's table shows). Three scopes, as lint
rules have theirs:

* ``PairCheck``: one per stretched VLAN (a ``Pair``: the near CE sends, the far CE answers);
* ``LabCheck``: as many as it finds in the lab (``plan``), once per lab;
* ``ProtectionCheck``: one per pair of IPsec PEs the attacker aims at (``Attacked``).

Report rows come in that order: the pair checks VLAN by VLAN (each VLAN's in the checks'
``order``), then the lab checks, then the protection checks pair by pair.

Probes run in stages: ``before`` (a protected lab before its protection: the control attacks),
then the engine protects the lab, ``usual``, ``after`` (the attacks again), ``last`` (state read
at the end). Within a stage probes run by phase (``probes.ordered``), each key once.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar, Literal

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.lab.attack import Attacked
    from l2tpgen.lab.engines.qemu import Extras
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair
    from l2tpgen.lab.probes import CheckResult, Probe

Runner = Literal["vm", "live", "containerlab"]
RUNNERS: tuple[Runner, ...] = ("vm", "live", "containerlab")
# What each runner is to a user: the docs' table and the N/A reasons name them this way.
RUNNER_COMMANDS: dict[Runner, str] = {
    "vm": "`lab run` (vm engine)",
    "live": "`lab check` (a lab that is up)",
    "containerlab": "`lab run --engine containerlab`",
}
Stage = Literal["before", "usual", "after", "last"]
STAGES: tuple[Stage, ...] = ("before", "usual", "after", "last")
Scope = Literal["pair", "lab", "protection"]
SCOPES: tuple[Scope, ...] = ("pair", "lab", "protection")


class Check:
    """Base of every lab check. The subclass docstring is the check's documentation."""

    name: ClassVar[str]  # the report's ``check`` column
    order: ClassVar[int]  # its place among the checks of its scope (report rows)
    scope: ClassVar[Scope]
    # What it needs in the guest beyond the base initramfs (tools, packages, modules): each a
    # function that builds it; the engine calls each function once, however many checks name it.
    extras: ClassVar[tuple[Callable[[], Extras], ...]] = ()
    # The runners it never runs under, whatever the lab, and why (docs/lab.md's table shows it).
    never: ClassVar[Mapping[Runner, str]] = {}

    @classmethod
    def doc(cls) -> str:
        """The check's documentation (its docstring)."""
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """The first line of the documentation."""
        return cls.doc().splitlines()[0] if cls.__doc__ else ""

    @classmethod
    def applies(cls, lab: Lab, runner: Runner) -> str | None:  # noqa: ARG003 - the default
        """None when the check runs on ``lab`` under ``runner``; else why not (N/A).

        A check that applies to some labs only says so here, after this (its ``never``).
        """
        return cls.never.get(runner)

    @property
    def probes(self) -> tuple[Probe, ...]:
        """Its probes of the ``usual`` stage."""
        return ()

    def staged(self, stage: Stage) -> tuple[Probe, ...]:
        """Its probes of one stage (the usual ones unless a check says otherwise)."""
        return self.probes if stage == "usual" else ()

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """The verdict from the probes' results (``key`` -> exit code or output)."""
        raise NotImplementedError


class PairCheck(Check):
    """A check of one stretched VLAN."""

    scope: ClassVar[Scope] = "pair"
    pair: Pair  # the VLAN it checks (each subclass is a dataclass with this field)

    @classmethod
    def for_pair(cls, lab: Lab, pair: Pair) -> PairCheck:
        """The check of ``pair`` in ``lab``."""
        raise NotImplementedError


class LabCheck(Check):
    """A check planned once per lab: as many as it finds there."""

    scope: ClassVar[Scope] = "lab"

    @classmethod
    def plan(cls, lab: Lab) -> tuple[LabCheck, ...]:
        """Every check of this kind ``lab`` calls for."""
        raise NotImplementedError


class ProtectionCheck(Check):
    """A check of one pair of IPsec PEs under attack (a protected lab, vm engine)."""

    scope: ClassVar[Scope] = "protection"

    @classmethod
    def for_attacked(cls, lab: Lab, attacked: Attacked) -> ProtectionCheck:
        """The check of the ``attacked`` pair in ``lab`` (its secrets revealed)."""
        raise NotImplementedError
