"""Findings: what the linter reports, as sortable frozen values. Nothing here prints."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.IntEnum):
    """How bad a finding is; ``--fail-on`` compares with these."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """``"warning"`` -> ``Severity.WARNING``."""
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or info") from None


@dataclass(frozen=True, order=True)
class Finding:
    """One problem found in a config, at 1-based line and column of the file as given."""

    file: str
    line: int
    column: int
    code: str
    rule: str
    severity: Severity
    message: str
    fix: str = ""
