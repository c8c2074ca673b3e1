"""Rules silenced inside a site file (``lint: {ignore: [L2T001]}``), as ruff's per-file-ignores.

A site's ``lint.ignore`` names rule codes, prefixes or names (``L2T001``, ``L2T1``,
``single-trunk-xconnect``). A finding of such a rule on that site (its rendered config or its
model) is silenced: left out of the findings that fail a run, and still shown (counted in text,
listed in JSON with ``"silenced": true``, as SARIF ``suppressions``, as one GitHub notice) so that
it is not invisible. A name that matches no rule is an error at its line of the site file, and so
is a prefix that spans more than one rule family (``L``, ``L2T``: it would silence every rule).
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
    """Findings kept, and those a site's ``lint.ignore`` silenced."""

    findings: list[Finding]
    quiet: list[Finding]

    @property
    def silenced(self) -> int:
        """How many findings the sites' ``lint.ignore`` silenced."""
        return len(self.quiet)


def ignored_codes(fleet: Fleet) -> dict[str, tuple[str, ...]]:
    """Each site's ``lint.ignore`` as code prefixes (names resolved to codes)."""
    return {name: resolve(site.lint.ignore) for name, site in fleet.sites.items()}


def silenced(code: str, prefixes: Iterable[str]) -> bool:
    """Whether a finding of rule ``code`` is silenced by ``prefixes``."""
    return any(code.startswith(prefix) for prefix in prefixes)


FAMILY = 4  # a rule family is the code's first four characters: L2T0 (one router), L2T1 (pairs)


def _problem(name: str, index: int, given: str, prefix: str) -> Problem | None:
    matched = {rule.code[:FAMILY] for rule in ALL_RULES if rule.code.startswith(prefix)}
    if not matched:
        return Problem(
            name,
            ("lint", "ignore", index),
            f"lint.ignore: {given} matches no rule code or name",
            "`l2tpgen rules` lists them (e.g. L2T001, single-trunk-xconnect, or a prefix such as "
            "L2T1)",
            code="V076",
        )
    if len(matched) > 1:
        return Problem(
            name,
            ("lint", "ignore", index),
            f"lint.ignore: {given} spans every rule family ({', '.join(sorted(matched))}): it "
            "would silence every rule for this site",
            "name the rules or one family: L2T001, single-trunk-xconnect, L2T1 (the pair rules)",
            code="V130",
        )
    return None


def unknown_ignores(fleet: Fleet, names: Collection[str] = ()) -> list[Problem]:
    """A problem, at its line, for each ``lint.ignore`` entry matching no rule or every family."""
    problems = [
        problem
        for name, site in fleet.sites.items()
        if not names or name in names
        for index, (given, prefix) in enumerate(
            zip(site.lint.ignore, resolve(site.lint.ignore), strict=True)
        )
        if (problem := _problem(name, index, given, prefix)) is not None
    ]
    return locate_problems(problems, fleet.files)
