"""Lint cases: a config snippet (or site files) and the exact (line, column) of each finding.

A rule's own cases are its examples (``l2tpgen/lint/rules/examples/<CODE>.yaml``, the
``Example`` of ``l2tpgen.lint.examples``): ``tests/test_lint_rules.py`` finds them from the rules
and runs each with ``check``. The builders below write cases inline for tests about reading
text (``test_lint_paste.py``) rather than about one rule. A finding's expected severity is the
case's, else its rule's default (``Rule.severity``, which docs/rules.md's table shows).
"""

from __future__ import annotations

import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from l2tpgen.lint import ConfigText, Finding, Severity, lint_configs, lint_models
from l2tpgen.lint.examples import Example, Kind, Position
from l2tpgen.lint.rules import BY_CODE
from l2tpgen.model import load_fleet

Case = Example


def snippet(text: str) -> str:
    """A config as written in a test: dedented, starting at its first line."""
    return textwrap.dedent(text).lstrip("\n")


def param(case: Case) -> object:
    """The case as a ``pytest.param`` with its id (a strict xfail if it has a disagreement)."""
    marks = [pytest.mark.xfail(strict=True, reason=case.disagreement)] if case.disagreement else []
    return pytest.param(case, id=f"{case.code}-{case.id}", marks=marks)


def examples(code: str) -> tuple[Case, ...]:
    """Rule ``code``'s examples."""
    return BY_CODE[code].examples()


def example(code: str, name: str) -> Case:
    """Rule ``code``'s example called ``name``."""
    (found,) = [case for case in examples(code) if case.name == name]
    return found


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


def params(cases: list[Case]) -> list[object]:
    """Cases as pytest parameters, each with its readable id."""
    return [param(case) for case in cases]


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
    several = case.several
    where = sorted((f.file, f.line, f.column) if several else (f.line, f.column) for f in mine)
    assert where == sorted(case.expected), "\n".join(
        f"{f.line}:{f.column} {f.message}" for f in mine
    )
    severity = case.severity or BY_CODE[case.code].severity
    assert [f.severity for f in mine] == [severity] * len(mine)
    assert [f for f in findings if f.code in case.absent] == []
