"""Rule cases in yamllint's style: a config snippet and the exact (line, column) of each finding.

Each ``tests/test_lint_rules_*.py`` module writes its rules' cases inline, next to the test that
runs them: a dedented IOS snippet and where the rule must report, judged by reading the rule's
documentation (``docs/rules.md``), never copied from l2tpgen's output. Every rule has at least one
failing case, one passing case and one boundary case (the edge of the rule, on either side).
This module holds what those modules share: the case types, how a case is run, and the severities
the documentation gives. Model rules (scope ``model``) read site files, not configs: their cases
are site files written inline, loaded as a fleet and linted as sites (``sites``).
"""

from __future__ import annotations

import tempfile
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import pytest

from l2tpgen.lint import ConfigText, Finding, Severity, lint_configs, lint_models
from l2tpgen.model import load_fleet

Kind = Literal["fails", "passes", "boundary"]
Position = tuple[int, int]  # line, column (1-based; a tab counts as one column)
FilePosition = tuple[str, int, int]  # file, line, column

# The default severities of docs/rules.md's table, written out by hand.
DOCUMENTED_SEVERITY: dict[str, Severity] = {
    **dict.fromkeys(
        (
            *("L2T001", "L2T002", "L2T003", "L2T005", "L2T012", "L2T013", "L2T017", "L2T103"),
            *("L2T104", "L2T022", "L2T023", "L2T024", "L2T026", "L2T027"),
        ),
        Severity.WARNING,
    ),
    **dict.fromkeys(("L2T004", "L2T014", "L2T106"), Severity.INFO),
    **dict.fromkeys(
        (
            *("L2T006", "L2T007", "L2T008", "L2T009", "L2T010", "L2T011", "L2T015", "L2T016"),
            *("L2T018", "L2T019", "L2T020", "L2T021", "L2T030", "L2T101", "L2T102", "L2T105"),
            *("L2T025", "L2T028", "L2T107", "L2T108"),
        ),
        Severity.ERROR,
    ),
}

# Rules about a pseudowire-class that must leave an MPLS (AToM) class alone: L2TPv3 is their scope.
MPLS_IS_OUT_OF_SCOPE = ("L2T002", "L2T003", "L2T009", "L2T010", "L2T014", "L2T021")


def snippet(text: str) -> str:
    """A config as written in a test: dedented, starting at its first line."""
    return textwrap.dedent(text).lstrip("\n")


@dataclass(frozen=True)
class Case:
    """One config (``configs`` has one entry) or several linted together, and what one rule says.

    ``expected`` holds the rule's findings as (line, column) for one config, as (file, line,
    column) for several. ``severity`` is that of every finding (None: the documented default).
    ``absent`` names other codes that must not be reported at all. A non-empty ``disagreement``
    says why the code is believed wrong: the case is then a strict xfail.
    """

    code: str
    kind: Kind
    name: str
    configs: tuple[tuple[str, str], ...]
    expected: tuple[Position, ...] | tuple[FilePosition, ...]
    severity: Severity | None = None
    absent: tuple[str, ...] = ()
    platform: str | None = None
    disagreement: str = ""
    model: bool = False  # site files, linted as sites (a model rule's case)

    @property
    def id(self) -> str:
        """The pytest id: what kind of case, and what it is about."""
        return f"{self.kind}-{self.name}"

    def param(self) -> object:
        """The case as a ``pytest.param`` with its id (and its xfail mark, if any)."""
        marks = (
            [pytest.mark.xfail(strict=True, reason=self.disagreement)] if self.disagreement else []
        )
        return pytest.param(self, id=self.id, marks=marks)


def device(
    code: str,
    kind: Kind,
    name: str,
    config: str,
    *expected: Position,
    severity: Severity | None = None,
    absent: tuple[str, ...] = (),
    platform: str | None = None,
    disagreement: str = "",
) -> Case:
    """A case over one config, linted alone."""
    return Case(
        code,
        kind,
        name,
        (("x.conf", snippet(config)),),
        expected,
        severity,
        absent,
        platform,
        disagreement,
    )


def fleet(
    code: str,
    kind: Kind,
    name: str,
    configs: dict[str, str],
    *expected: FilePosition,
    severity: Severity | None = None,
    absent: tuple[str, ...] = (),
    disagreement: str = "",
) -> Case:
    """A case over several configs linted together (file names as given)."""
    texts = tuple((file, snippet(text)) for file, text in configs.items())
    return Case(code, kind, name, texts, expected, severity, absent, None, disagreement)


def sites(
    code: str,
    kind: Kind,
    name: str,
    files: dict[str, str],
    *expected: FilePosition,
    absent: tuple[str, ...] = (),
) -> Case:
    """A case over site files (YAML, named as the sites), loaded as a fleet and linted as sites."""
    texts = tuple((file, snippet(text)) for file, text in files.items())
    return Case(code, kind, name, texts, expected, None, absent, None, "", model=True)


def params(cases: list[Case]) -> list[object]:
    """Cases as pytest parameters, each with its readable id."""
    return [case.param() for case in cases]


def lint_case(case: Case) -> list[Finding]:
    """Every finding of every rule on the case's configs (or, for a model case, site files)."""
    if not case.model:
        return lint_configs([ConfigText(file, text, case.platform) for file, text in case.configs])
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        for file, text in case.configs:
            (root / file).write_text(text)
        findings = lint_models(load_fleet(root))
    return [replace(f, file=Path(f.file).name) for f in findings]


def check(case: Case) -> None:
    """The case's rule reports exactly where expected, at its severity; ``absent`` codes never."""
    findings = lint_case(case)
    mine = [f for f in findings if f.code == case.code]
    several = len(case.configs) > 1 or case.model
    where = sorted((f.file, f.line, f.column) if several else (f.line, f.column) for f in mine)
    assert where == sorted(case.expected), "\n".join(
        f"{f.line}:{f.column} {f.message}" for f in mine
    )
    severity = case.severity or DOCUMENTED_SEVERITY[case.code]
    assert [f.severity for f in mine] == [severity] * len(mine)
    assert [f for f in findings if f.code in case.absent] == []
