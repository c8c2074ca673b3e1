"""Validation problems have stable codes: one table, each code at one place, shown by validate.

The table is ``l2tpgen/model/problem_codes.yaml``; every ``Problem(...)`` l2tpgen builds is read
from the source (its syntax tree) and must name a code of the table, in the module the table
says. A lint model rule's problems carry the rule's own code (``code=self.code``).
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from typing import TYPE_CHECKING

from conftest import ROOT, Golden
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.problem_codes import problem_codes, problems_markdown

if TYPE_CHECKING:
    from pathlib import Path

PACKAGE = ROOT / "l2tpgen"
BROKEN = ROOT / "examples" / "broken"
runner = CliRunner()


def _problem_calls() -> list[tuple[Path, int, ast.expr | None]]:
    """Every ``Problem(...)`` in the package: its file, line and ``code=`` argument (or None)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Problem":
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                found.append((path.relative_to(ROOT), node.lineno, code))
    return found


CALLS = _problem_calls()
TABLE = {entry.code: entry for entry in problem_codes()}


def test_problem_codes_are_unique_and_numbered_v001_on() -> None:
    codes = [entry.code for entry in problem_codes()]
    assert [code for code, n in Counter(codes).items() if n > 1] == []
    assert all(re.fullmatch(r"V\d{3}", code) for code in codes)
    assert codes == sorted(codes)
    assert all(entry.message and entry.fix for entry in problem_codes())


def test_every_problem_l2tpgen_builds_names_a_code_of_the_table_in_its_module() -> None:
    assert len(CALLS) > 60  # the scan finds the problems (67 when the codes were given)
    wrong = []
    for path, line, code in CALLS:
        if path.parts[:3] == ("l2tpgen", "lint", "rules"):
            ok = code is not None and ast.unparse(code) == "self.code"  # a model rule's own code
        else:
            value = code.value if isinstance(code, ast.Constant) else None
            ok = value in TABLE and TABLE[value].module == path.stem
        if not ok:
            wrong.append(f"{path}:{line}")
    assert wrong == []


def test_each_code_of_the_table_is_reported_at_exactly_one_place() -> None:
    used = Counter(code.value for _, _, code in CALLS if isinstance(code, ast.Constant))
    assert {code: used[code] for code in TABLE if used[code] != 1} == {}


def test_problem_reference_in_docs_is_generated_from_the_table(golden: Golden) -> None:
    golden.check(ROOT / "docs" / "problems.md", problems_markdown())


def test_validate_shows_the_code_in_text_json_and_github_annotations() -> None:
    # examples/broken: VLAN 2998 stretched to site-b, which does not declare it (checks.py: V027)
    text = runner.invoke(app, ["validate", "--sites", str(BROKEN)])
    assert text.exit_code == 1
    (line,) = [line for line in text.stderr.splitlines() if ": error: " in line]
    assert line.startswith(f"{BROKEN}/site-a.yaml:26:5: error: VLAN 2998 is stretched")
    assert line.endswith(" [V027]")
    json_args = ["validate", "--sites", str(BROKEN), "--format", "json"]
    report = json.loads(runner.invoke(app, json_args).stdout)
    (problem,) = report["problems"]
    assert problem["code"] == "V027"
    assert {"file", "line", "column", "site", "path", "message", "hint"} <= set(problem)
    github = runner.invoke(app, ["validate", "--sites", str(BROKEN), "--format", "github"])
    assert ",title=l2tpgen validate V027::VLAN 2998" in github.stdout


def test_a_warning_shows_its_code_too(tmp_path: Path) -> None:
    # examples/hub without `wan.underlay: private`: each private loopback is reached over an
    # internet underlay (underlay.py: V067, a warning; validate still succeeds).
    for site in sorted((ROOT / "examples" / "hub").glob("*.yaml")):
        lines = site.read_text().splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith("  underlay: private")]
        (tmp_path / site.name).write_text("".join(kept))
    result = runner.invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 6  # and the Cisco hub's two pairs (V105, issue 33)
    assert sum(line.endswith(" [V067]") for line in warnings) == 4
    assert sum(line.endswith(" [V105]") for line in warnings) == 2
    json_args = ["validate", "--sites", str(tmp_path), "--format", "json"]
    report = json.loads(runner.invoke(app, json_args).stdout)
    assert sorted(w["code"] for w in report["warnings"]) == ["V067"] * 4 + ["V105"] * 2
