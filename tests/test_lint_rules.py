"""Every lint rule fires on its failing config, stays quiet on its passing one, and is documented.

Fixtures: ``tests/lint/rules/<CODE>/{fail,pass}.conf`` for device rules and
``tests/lint/pairs/<CODE>/{fail,pass}/{a,b}.conf`` for cross-device rules. The failing config's
findings for the rule are pinned in ``expected.txt`` (``pytest --update-golden`` rewrites them).
"""

from __future__ import annotations

import pytest
from conftest import TESTS, Golden

from l2tpgen.errors import LintConfigError
from l2tpgen.lint import ALL_RULES, ConfigText, Finding, Selection, Severity, lint_configs
from l2tpgen.lint.formats import rules_markdown, text_line

LINT = TESTS / "lint"
DEVICE_CODES = sorted(p.name for p in (LINT / "rules").iterdir())
PAIR_CODES = sorted(p.name for p in (LINT / "pairs").iterdir())


def _lint(*names: str, selection: Selection | None = None) -> list[Finding]:
    configs = [ConfigText(name, (LINT / name).read_text()) for name in names]
    return lint_configs(configs, selection)


def _codes(findings: list[Finding]) -> set[str]:
    return {f.code for f in findings}


def test_every_rule_has_a_failing_and_a_passing_fixture() -> None:
    assert sorted(r.code for r in ALL_RULES) == sorted(DEVICE_CODES + PAIR_CODES)


@pytest.mark.parametrize("code", DEVICE_CODES)
def test_device_rule_fires_on_failing_config(code: str, golden: Golden) -> None:
    findings = [f for f in _lint(f"rules/{code}/fail.conf") if f.code == code]
    assert findings
    golden.check(
        LINT / "rules" / code / "expected.txt", "".join(text_line(f) + "\n" for f in findings)
    )


@pytest.mark.parametrize("code", DEVICE_CODES)
def test_device_rule_is_quiet_on_passing_config(code: str) -> None:
    assert code not in _codes(_lint(f"rules/{code}/pass.conf"))


@pytest.mark.parametrize("code", PAIR_CODES)
def test_cross_device_rule_fires_on_failing_pair(code: str, golden: Golden) -> None:
    findings = [
        f for f in _lint(f"pairs/{code}/fail/a.conf", f"pairs/{code}/fail/b.conf") if f.code == code
    ]
    assert findings
    golden.check(
        LINT / "pairs" / code / "expected.txt", "".join(text_line(f) + "\n" for f in findings)
    )


@pytest.mark.parametrize("code", PAIR_CODES)
def test_cross_device_rule_is_quiet_on_passing_pair(code: str) -> None:
    assert code not in _codes(_lint(f"pairs/{code}/pass/a.conf", f"pairs/{code}/pass/b.conf"))


@pytest.mark.parametrize("code", PAIR_CODES)
def test_cross_device_rules_need_two_configs(code: str) -> None:
    assert code not in _codes(_lint(f"pairs/{code}/fail/a.conf"))


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_docs_say_what_why_example_and_fix(rule: object) -> None:
    doc = rule.doc()  # type: ignore[attr-defined]
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in doc
    assert rule.summary()  # type: ignore[attr-defined]


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


def test_l2t101_blames_only_the_end_pointing_at_a_non_source_address() -> None:
    findings = _lint("pairs/L2T101/fail/a.conf", "pairs/L2T101/fail/b.conf")
    files = {f.file for f in findings if f.code == "L2T101"}
    assert files == {"pairs/L2T101/fail/a.conf"}


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


def test_rule_reference_in_docs_is_generated_from_the_docstrings(golden: Golden) -> None:
    golden.check(TESTS.parent / "docs" / "rules.md", rules_markdown())


@pytest.mark.parametrize("design", ["before", "after"])
def test_shipped_flattened_reference_gives_the_same_findings_as_indented(design: str) -> None:
    def essence(findings: list[Finding]) -> list[tuple[int, str, str]]:
        return [(f.line, f.code, f.message) for f in findings]

    flat = essence(_lint(f"reference/{design}.flat.conf"))
    assert flat == essence(_lint(f"reference/{design}.conf"))
    assert flat  # both designs have findings to compare
