"""Rules silenced inside a site file (``lint: {ignore: [L2T001]}``), as ruff's per-file-ignores.

A site's ``lint.ignore`` names rule codes, prefixes or names (``L2T001``, ``L2T1``,
``single-trunk-xconnect``). A finding of such a rule on that site (its rendered config or its
model) is silenced: left out of the findings, and counted (``1 silenced``) so that it is not
invisible. A name that matches no rule is an error at its line of the site file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.lint.engine import resolve
from l2tpgen.lint.rules import ALL_RULES
from l2tpgen.model.load import locate_problems
from l2tpgen.model.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from l2tpgen.lint.finding import Finding
    from l2tpgen.model import Fleet


@dataclass(frozen=True)
class Silenced:
    """Findings kept, and how many a site's ``lint.ignore`` silenced."""

    findings: list[Finding]
    silenced: int


def ignored_codes(fleet: Fleet) -> dict[str, tuple[str, ...]]:
    """Each site's ``lint.ignore`` as code prefixes (names resolved to codes)."""
    return {name: resolve(site.lint.ignore) for name, site in fleet.sites.items()}


def silenced(code: str, prefixes: Iterable[str]) -> bool:
    """Whether a finding of rule ``code`` is silenced by ``prefixes``."""
    return any(code.startswith(prefix) for prefix in prefixes)


def unknown_ignores(fleet: Fleet, names: Collection[str] = ()) -> list[Problem]:
    """A problem for each ``lint.ignore`` entry that matches no rule, at its line."""
    codes = [rule.code for rule in ALL_RULES]
    problems = [
        Problem(
            name,
            ("lint", "ignore", index),
            f"lint.ignore: {given} matches no rule code or name",
            "`l2tpgen rules` lists them (e.g. L2T001, single-trunk-xconnect, or a prefix such as "
            "L2T1)",
            code="V076",
        )
        for name, site in fleet.sites.items()
        if not names or name in names
        for index, (given, prefix) in enumerate(
            zip(site.lint.ignore, resolve(site.lint.ignore), strict=True)
        )
        if not any(code.startswith(prefix) for code in codes)
    ]
    return locate_problems(problems, fleet.files)
