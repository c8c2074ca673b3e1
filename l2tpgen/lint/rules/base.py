"""What a rule is: a code, a name, a default severity, documentation, examples, a ``check``.

Three scopes: a ``device`` rule reads one config, a ``cross-device`` rule several configs paired
together, a ``model`` rule the site models (only ``lint`` on sites runs those: a raw config has no
model).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar, Literal

from l2tpgen.lint.examples import load_examples
from l2tpgen.lint.finding import Finding, Severity

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import At, DeviceFacts
    from l2tpgen.lint.examples import Example
    from l2tpgen.lint.pairing import Pairing
    from l2tpgen.model import Fleet, Problem

Scope = Literal["device", "cross-device", "model"]


class Rule:
    """Base of every rule. The subclass docstring is the rule's documentation."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    scope: ClassVar[Scope] = "device"

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation (its docstring)."""
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """The first line of the documentation."""
        return cls.doc().splitlines()[0] if cls.__doc__ else ""

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        """The rule's examples (``rules/examples/CODE.yaml``): what tests run and docs show."""
        return load_examples(cls.code)

    def finding(
        self, file: str, at: At, message: str, fix: str = "", severity: Severity | None = None
    ) -> Finding:
        """A finding of this rule at ``at`` in ``file``."""
        return Finding(
            file=file,
            line=at.line,
            column=at.column,
            code=self.code,
            rule=self.name,
            severity=severity or self.severity,
            message=message,
            fix=fix,
        )


class DeviceRule(Rule):
    """A rule over one config."""

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        """Yield this rule's findings in ``device``."""
        raise NotImplementedError


class FleetRule(Rule):
    """A rule over several configs checked against each other."""

    scope = "cross-device"

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        """Yield this rule's findings across the paired devices."""
        raise NotImplementedError


class ModelRule(Rule):
    """A rule over the site models: a site's pseudowires, their links and what they carry.

    ``check`` yields problems (a site, a path in its model, a message and a fix); the linter
    places them in the site files and reports them with the rule's code and severity.
    """

    scope = "model"

    def check(self, fleet: Fleet, site: str) -> Iterator[Problem]:
        """Yield this rule's problems in ``site`` (its peers are in ``fleet``)."""
        raise NotImplementedError

    def model_finding(self, problem: Problem) -> Finding:
        """A finding of this rule where ``problem`` is (its site's file, when it was located)."""
        where = problem.location
        return Finding(
            file=where.file if where else problem.site,
            line=where.line if where else 1,
            column=where.column if where else 1,
            code=self.code,
            rule=self.name,
            severity=self.severity,
            message=problem.message,
            fix=problem.hint,
        )
