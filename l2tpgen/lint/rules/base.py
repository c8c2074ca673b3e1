"""What a rule is: a code, a name, a default severity, documentation, and a ``check`` generator."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar

from l2tpgen.lint.finding import Finding, Severity

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import At, DeviceFacts
    from l2tpgen.lint.pairing import Pairing


class Rule:
    """Base of every rule. The subclass docstring is the rule's documentation."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    cross_device: ClassVar[bool] = False

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation (its docstring)."""
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """The first line of the documentation."""
        return cls.doc().splitlines()[0] if cls.__doc__ else ""

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

    cross_device = True

    def check(self, pairing: Pairing) -> Iterator[Finding]:
        """Yield this rule's findings across the paired devices."""
        raise NotImplementedError
