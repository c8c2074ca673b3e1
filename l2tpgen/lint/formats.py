"""Findings as text for people, JSON for scripts, SARIF for code scanning, GitHub annotations."""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.lint.examples import example_markdown
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules import ALL_RULES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.lint.finding import Finding
    from l2tpgen.lint.rules.base import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


@lru_cache(maxsize=256)
def _repository_root(directory: str) -> str | None:
    """The nearest directory at or above ``directory`` holding ``.git`` (a worktree's is a file)."""
    here = Path(directory)
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return str(candidate)
    return None


def repository_path(file: str) -> str:
    """``file`` as code scanning and annotations name it: relative to its repository's root.

    GitHub resolves SARIF ``artifactLocation.uri`` and an annotation's ``file=`` against the root
    of the checkout ("SARIF support for code scanning", docs.github.com/en/code-security/reference/
    code-scanning/sarif-files/sarif-support-for-code-scanning); a path relative to another
    directory, or a name such as ``<stdin>``, would attach to nothing. Not in a repository: relative
    to the current directory if it is under it, else as given. Always with ``/`` separators.
    """
    absolute = os.path.abspath(file)  # noqa: PTH100 - no symlink resolution: the path as named
    if not os.path.exists(absolute):  # noqa: PTH110 - a name such as <stdin>
        return file
    root = _repository_root(os.path.dirname(absolute)) or os.getcwd()  # noqa: PTH109, PTH120
    relative = os.path.relpath(absolute, root)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return Path(file).as_posix()
    return Path(relative).as_posix()


def text_line(finding: Finding) -> str:
    """``file:line:col: CODE severity message`` (the ``text`` format, one finding)."""
    return (
        f"{finding.file}:{finding.line}:{finding.column}: {finding.code} {finding.severity} "
        f"{finding.message}"
    )


def as_dict(finding: Finding) -> dict[str, object]:
    """One finding as the ``json`` format writes it."""
    return {
        "file": finding.file,
        "line": finding.line,
        "column": finding.column,
        "code": finding.code,
        "rule": finding.rule,
        "severity": str(finding.severity),
        "message": finding.message,
        "fix": finding.fix,
    }


def to_json(findings: Sequence[Finding], silenced: Sequence[Finding] = ()) -> str:
    """A JSON list of findings, each with ``silenced``.

    ``silenced`` is true for the findings a site's ``lint.ignore`` silenced: listed after the
    others, they do not fail the run.
    """
    listed = [as_dict(f) | {"silenced": False} for f in findings]
    listed += [as_dict(f) | {"silenced": True} for f in silenced]
    return json.dumps(listed, indent=2)


# Site-file validation problems (`l2tpgen validate`) reported as findings: not a rule of the
# linter, but a result a code-scanning upload must carry, located in the site file.
MODEL_RULE = {
    "id": "L2T000",
    "name": "invalid-site-model",
    "shortDescription": {
        "text": "A site file is not valid (the problems `l2tpgen validate` shows)."
    },
    "fullDescription": {
        "text": "A site file is not valid (the problems `l2tpgen validate` shows)."
    },
    "help": {
        "text": "Fix the site file at the location given; `l2tpgen validate` lists every problem.",
        "markdown": "Fix the site file at the location given; `l2tpgen validate` lists every "
        "problem.",
    },
    "defaultConfiguration": {"level": "error"},
    "properties": {"tags": ["l2tpv3", "site-model"]},
}


SILENCED = "lint.ignore in the site file"
# SARIF 2.1.0 section 3.35: a result suppressed where the analysed artefact says so is "inSource";
# GitHub code scanning shows such a result as dismissed, not open.
_SUPPRESSION = {"kind": "inSource", "justification": SILENCED}


def _sarif_result(f: Finding, index: dict[str, int], *, quiet: bool) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": f.code,
        "ruleIndex": index.get(f.code, 0),
        "level": _SARIF_LEVEL[f.severity],
        "message": {"text": f"{f.message}" + (f" (fix: {f.fix})" if f.fix else "")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": repository_path(f.file)},
                    "region": {"startLine": f.line, "startColumn": f.column},
                }
            }
        ],
    }
    if quiet:
        result["suppressions"] = [_SUPPRESSION]
    return result


def to_sarif(findings: Sequence[Finding], version: str, silenced: Sequence[Finding] = ()) -> str:
    """SARIF 2.1.0, as GitHub code scanning accepts it (site-file problems included, as L2T000).

    Findings a site's ``lint.ignore`` silenced are results with a ``suppressions`` entry.
    """
    index = {"L2T000": 0} | {rule.code: n + 1 for n, rule in enumerate(ALL_RULES)}
    rules = [MODEL_RULE] + [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary()},
            "fullDescription": {"text": rule.summary()},
            "help": {"text": rule_help(rule), "markdown": rule_help(rule)},
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
            "properties": {"tags": ["l2tpv3", rule.scope]},
        }
        for rule in ALL_RULES
    ]
    results = [_sarif_result(f, index, quiet=False) for f in findings]
    results += [_sarif_result(f, index, quiet=True) for f in silenced]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "l2tpgen",
                        "version": version,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2)


# What GitHub's escapes leave: the other control characters (ESC among them) and bidirectional
# overrides, shown as `\uNNNN` so that none acts on the terminal that shows the log.
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def escape_annotation(text: str, *, property_value: bool = False) -> str:
    """``text`` for a GitHub Actions workflow command (a property value escapes `:` and `,` too)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    text = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def to_github(findings: Sequence[Finding], silenced: Sequence[Finding] = ()) -> str:
    """GitHub Actions workflow commands: one annotation per finding, its fix on a second line.

    Findings a site's ``lint.ignore`` silenced end it as one notice that lists them (GitHub shows
    a few annotations of each kind per step; one line keeps them all in view).
    """
    lines = [
        f"::{_GITHUB_LEVEL[f.severity]} "
        f"file={escape_annotation(repository_path(f.file), property_value=True)}"
        f",line={f.line},col={f.column},"
        f"title={escape_annotation(f'{f.code} {f.rule}', property_value=True)}::"
        + escape_annotation(f.message + (f"\nfix: {f.fix}" if f.fix else ""))
        for f in findings
    ]
    if silenced:
        listed = "\n".join(
            f"{repository_path(f.file)}:{f.line}:{f.column}: {f.code} {f.rule}" for f in silenced
        )
        count = f"{len(silenced)} finding{'' if len(silenced) == 1 else 's'}"
        title = escape_annotation(f"l2tpgen lint: {count} silenced", property_value=True)
        lines.append(
            f"::notice title={title}::" + escape_annotation(f"silenced by {SILENCED}:\n{listed}")
        )
    return "\n".join(lines) + ("\n" if lines else "")


def _with_examples(rule: type[Rule] | Rule, heading: str, examples: str) -> str:
    """The rule's docstring with ``examples`` under ``heading``, before its "Use instead"."""
    doc = rule.doc()
    head, tail = doc.split("## Use instead", 1) if "## Use instead" in doc else (doc + "\n\n", "")
    return f"{head}{heading}\n\n{examples}\n" + (f"## Use instead{tail}" if tail else "")


def rule_help(rule: type[Rule] | Rule) -> str:
    """The rule's docs with one failing and one passing example (docs/rules.md shows them all).

    What `l2tpgen rule CODE` prints and SARIF's help for the rule holds.
    """
    shown = [
        next(e for e in rule.examples() if e.kind == kind)
        for kind in ("fails", "passes")
        if any(e.kind == kind for e in rule.examples())
    ]
    return _with_examples(rule, "## Example", "\n".join(example_markdown(e) for e in shown))


def rules_markdown() -> str:
    """The rule reference (docs/rules.md), generated from the rules' docstrings and examples."""
    parts = [
        "# Lint rules\n",
        (
            "Generated from the rules' docstrings and examples (`pytest --update-golden` rewrites "
            "this file). `l2tpgen rule CODE` prints one. Each example is a test case: "
            "`tests/test_lint_rules.py` runs it and expects the rule at exactly the line and "
            "column given (`l2tpgen/lint/rules/examples/CODE.yaml`). `scripts/new-rule.py` "
            "scaffolds a new rule ([new-rule.md](new-rule.md)).\n"
        ),
        "| code | name | severity | scope | examples |",
        "|---|---|---|---|---|",
    ]
    parts += [
        f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.severity} | {r.scope} | "
        f"{len(r.examples())} |"
        for r in ALL_RULES
    ]
    for rule in ALL_RULES:
        examples = "\n".join(example_markdown(e) for e in rule.examples())
        body = _with_examples(rule, "## Examples", examples).replace("\n## ", "\n### ")
        heading = f"\n## {rule.code} {rule.name}\n\nDefault severity: {rule.severity}.\n\n"
        parts.append(heading + body.rstrip("\n") + "\n")
    return "\n".join(parts)
