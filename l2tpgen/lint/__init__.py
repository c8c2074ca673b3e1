"""The linter: rules over any IOS config, and cross-device checks of both ends of a pseudowire."""

from l2tpgen.lint.engine import ConfigText, Selection, lint_configs, read_configs
from l2tpgen.lint.finding import Finding, Severity
from l2tpgen.lint.rules import ALL_RULES, BY_CODE
from l2tpgen.lint.sites import lint_models, lint_sites, problems_as_findings

__all__ = [
    "ALL_RULES",
    "BY_CODE",
    "ConfigText",
    "Finding",
    "Selection",
    "Severity",
    "lint_configs",
    "lint_models",
    "lint_sites",
    "problems_as_findings",
    "read_configs",
]
