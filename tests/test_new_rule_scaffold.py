"""scripts/new-rule.py scaffolds a rule that the tests find and run, in a copy of the checkout.

The script writes into the source tree, so it runs on a copy (``tmp_path``); pytest then runs in
that copy, whose l2tpgen (first on ``PYTHONPATH``) has the new rule: its examples are collected
from the rule, not from a list, and run. The failing example fails until ``check`` is written
(the scaffold's ``check`` finds nothing); the passing and the boundary examples pass.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from conftest import ROOT
from support import checkout_copy, run_in_copy

if TYPE_CHECKING:
    import subprocess
    from pathlib import Path

# The test modules that read the rule registry (ALL_RULES, `l2tpgen rules`, docs/rules.md).
REGISTRY_READERS = (
    "tests/test_lint_rules.py", "tests/test_lint_cli.py", "tests/test_cli_help.py",
    "tests/test_lint_models.py", "tests/test_lint_normalize.py", "tests/test_problem_codes.py",
    "tests/test_cli.py", "tests/test_docs_complete.py",
)  # fmt: skip
SCOPES = {"device": r"L2T0\d\d", "model": r"L2T0\d\d", "cross-device": r"L2T1\d\d"}


def _pytest(copy: Path, selection: str) -> subprocess.CompletedProcess[str]:
    return run_in_copy(
        copy, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", "-k", selection,
        "tests/test_lint_rules.py",
    )  # fmt: skip


def test_a_scaffolded_rule_of_each_scope_is_found_and_its_examples_run(
    tmp_path: Path,
) -> None:
    copy = checkout_copy(tmp_path)
    codes = {}
    for scope, pattern in SCOPES.items():
        name = f"trial-{scope}"
        made = run_in_copy(
            copy, "scripts/new-rule.py", name, "--scope", scope, "--severity", "info"
        )
        assert made.returncode == 0, made.stderr
        (code,) = re.findall(r"wrote l2tpgen/lint/rules/examples/(L2T\d{3})\.yaml", made.stdout)
        assert re.fullmatch(pattern, code)
        assert f"## {code} {name}\n" in (copy / "docs" / "rules.md").read_text()
        codes[scope] = code
    shipped = {path.stem for path in (ROOT / "l2tpgen/lint/rules/examples").glob("*.yaml")}
    assert shipped.isdisjoint(codes.values())
    ran = _pytest(copy, " or ".join(codes.values()))
    results = {
        test.split("[", 1)[1].rstrip("]"): outcome
        for outcome, test in re.findall(r"^(PASSED|FAILED) (\S+)", ran.stdout, re.MULTILINE)
        if "example_exactly_where_documented" in test
    }
    assert results == {
        f"{code}-{kind}": outcome
        for code in codes.values()
        for kind, outcome in (
            ("fails-TODO-what-the-rule-catches", "FAILED"),  # until `check` is written
            ("passes-TODO-the-fixed-config", "PASSED"),
            ("boundary-TODO-the-edge-of-the-rule", "PASSED"),
        )
    }, ran.stdout[-3000:]
    # The rules' other checks pass: each has every kind of example and its help; docs are fresh.
    others = " or ".join(f"({code} and not example_exactly)" for code in codes.values())
    checks = _pytest(copy, f"{others} or reference_in_docs or examples_file_belongs")
    assert checks.returncode == 0, checks.stdout[-3000:]
    assert re.search(r"\b(1[0-9]|[6-9]) passed", checks.stdout), checks.stdout[-3000:]
    # Every test module that reads the rule registry passes with the new rules in it, untouched:
    # nothing else counts or lists the rules (only the failing examples wait for `check`).
    waiting = " and ".join(f"not ({code} and fails-TODO)" for code in codes.values())
    whole = run_in_copy(
        copy, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-k", waiting, *REGISTRY_READERS
    )
    assert whole.returncode == 0, whole.stdout[-3000:]


def test_the_scaffold_refuses_a_name_that_is_not_kebab_case(tmp_path: Path) -> None:
    copy = checkout_copy(tmp_path)
    made = run_in_copy(copy, "scripts/new-rule.py", "Trial_Rule")
    assert made.returncode == 2
    assert "kebab-case" in made.stderr
    assert not (copy / "l2tpgen/lint/rules/trial_rule.py").exists()
