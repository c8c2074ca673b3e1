"""The rule set as a whole: every rule's examples run; every rule has documentation; selection.

Each rule's cases are its documented examples, in yamllint's style: a config snippet (or site
files) and the exact line and column of each finding, in ``l2tpgen/lint/rules/examples/
<CODE>.yaml``. They are found from the rules (``Rule.examples``), never listed here; docs/rules.md
shows the same examples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import TESTS, Golden
from lint_cases import Case, check, param

from l2tpgen.errors import LintConfigError
from l2tpgen.lint import ALL_RULES, ConfigText, Finding, Selection, Severity, lint_configs
from l2tpgen.lint.examples import EXAMPLES, examples_file
from l2tpgen.lint.formats import rule_help, rules_markdown

if TYPE_CHECKING:
    from l2tpgen.lint.rules import Rule

LINT = TESTS / "lint"
CODES = sorted(rule.code for rule in ALL_RULES)
ALL_CASES: list[Case] = [case for rule in ALL_RULES for case in rule.examples()]


def _lint(*names: str, selection: Selection | None = None) -> list[Finding]:
    configs = [ConfigText(name, (LINT / name).read_text()) for name in names]
    return lint_configs(configs, selection)


def _codes(findings: list[Finding]) -> set[str]:
    return {f.code for f in findings}


@pytest.mark.parametrize("case", [param(case) for case in ALL_CASES])
def test_rule_reports_its_example_exactly_where_documented(case: Case) -> None:
    check(case)


def test_every_examples_file_belongs_to_a_rule() -> None:
    assert sorted(path.stem for path in EXAMPLES.glob("*.yaml")) == CODES


@pytest.mark.parametrize("code", CODES)
def test_every_rule_has_a_failing_a_passing_and_a_boundary_example(code: str) -> None:
    cases = [case for case in ALL_CASES if case.code == code]
    assert examples_file(code).exists()
    assert {case.kind for case in cases} == {"fails", "passes", "boundary"}
    assert all(case.expected for case in cases if case.kind == "fails")
    assert not any(case.expected for case in cases if case.kind == "passes")
    assert len({case.id for case in cases}) == len(cases)


FAILING_FLEETS = [
    param(case)
    for case in ALL_CASES
    if case.code.startswith("L2T1") and case.kind == "fails" and not case.model
]


@pytest.mark.parametrize("case", FAILING_FLEETS)
def test_cross_device_rules_stay_quiet_on_each_config_alone(case: Case) -> None:
    for file, text in case.configs:
        assert not any(f.code.startswith("L2T1") for f in lint_configs([ConfigText(file, text)]))


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_help_says_what_why_an_example_of_its_own_and_the_fix(rule: Rule) -> None:
    text = rule_help(rule)
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in text
    assert "**fails**" in text.split("## Use instead")[0]
    assert "## Example" not in rule.doc()  # the examples are data, run as tests: not prose
    assert rule.summary()


def test_rule_reference_in_docs_is_generated_from_the_docstrings(golden: Golden) -> None:
    golden.check(TESTS.parent / "docs" / "rules.md", rules_markdown())


def test_reference_before_design_reports_l2t001_to_l2t005_and_no_error() -> None:
    findings = _lint("reference/before.conf")
    assert {"L2T001", "L2T002", "L2T003", "L2T004", "L2T005"} <= _codes(findings)
    assert [f for f in findings if f.severity is Severity.ERROR] == []


def test_reference_after_design_reports_none_of_l2t001_to_l2t004() -> None:
    codes = _codes(_lint("reference/after.conf"))
    assert codes.isdisjoint({"L2T001", "L2T002", "L2T003", "L2T004"})


def test_reference_pair_after_has_no_cross_device_findings() -> None:
    findings = _lint("reference/after.conf", "reference/after-site-b.conf")
    assert [f for f in findings if f.code.startswith("L2T1")] == []


def test_cleartext_secret_finding_never_contains_the_secret() -> None:
    (finding,) = [f for f in _lint("reference/before.conf") if f.code == "L2T005"]
    assert "123456789" not in f"{finding.message} {finding.fix}"


def test_select_and_ignore_take_codes_and_prefixes() -> None:
    only_classes = _lint("reference/before.conf", selection=Selection(select=("L2T00",)))
    assert _codes(only_classes) <= {f"L2T00{n}" for n in range(10)}
    ignored = _lint("reference/before.conf", selection=Selection(ignore=("L2T001", "L2T01")))
    assert "L2T001" not in _codes(ignored)
    assert not any(c.startswith("L2T01") for c in _codes(ignored))


def test_unknown_code_in_a_selection_is_refused() -> None:
    with pytest.raises(LintConfigError, match="L2T999 matches no rule code"):
        Selection(select=("L2T999",))


@pytest.mark.parametrize("design", ["before", "after"])
def test_shipped_flattened_reference_gives_the_same_findings_as_indented(design: str) -> None:
    def essence(findings: list[Finding]) -> list[tuple[int, str, str]]:
        return [(f.line, f.code, f.message) for f in findings]

    flat = essence(_lint(f"reference/{design}.flat.conf"))
    assert flat == essence(_lint(f"reference/{design}.conf"))
    assert flat  # both designs have findings to compare
