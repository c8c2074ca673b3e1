"""The sites' half of the API: load, validate, render, lint (``l2tpgen.api``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.discovery import site_names
from l2tpgen.errors import FleetValidationError, L2tpgenError, SitesDirectoryError
from l2tpgen.files import write_files
from l2tpgen.model import Fleet, load_fleet, load_sites, resolve_site
from l2tpgen.model.class_checks import static_spread_hints
from l2tpgen.model.fleet import FleetCheckError
from l2tpgen.model.interface_checks import interface_hints
from l2tpgen.model.load import locate_problems
from l2tpgen.model.native_vlan import native_hints
from l2tpgen.model.pair_keys import check_pair_keys, compare_pair_keys
from l2tpgen.model.protection import unconfirmed
from l2tpgen.model.protection_checks import hub_hints
from l2tpgen.model.salvage import restore
from l2tpgen.model.underlay import check_underlay, reaches
from l2tpgen.platforms.needs import model_secret_needs
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from l2tpgen.lint import Finding, Selection
    from l2tpgen.model import Problem
    from l2tpgen.model.needs import SecretNeed
    from l2tpgen.model.pair_keys import KeyComparison
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.model.underlay import Reach


def load(sites: Path, names: Sequence[str] = ()) -> Fleet:
    """The fleet of a sites directory (or only ``names`` and their peers), validated.

    Raises:
        FleetValidationError: every problem of the site files (``.problems``).
        L2tpgenError: the directory or a file cannot be read.
    """
    return load_sites(sites, names) if names else load_fleet(sites)


def problem_dict(problem: Problem) -> dict[str, object]:
    """A problem as JSON (``validate --format json``, ``docs/site-files.md``)."""
    loc = problem.location
    return {
        "file": loc.file if loc else None,
        "line": loc.line if loc else None,
        "column": loc.column if loc else None,
        "site": problem.site,
        "path": list(problem.path),
        "message": problem.message,
        "hint": problem.hint,
        "code": problem.code,
    }


@dataclass(frozen=True)
class PairSummary:
    """Two sites with pseudowires between them, how they are protected, and what is unconfirmed."""

    sites: tuple[str, str]
    pseudowires: int
    protection: PathProtection
    notes: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        """As ``validate --format json`` writes it."""
        protection = self.protection
        ipsec = protection.ipsec
        return {
            "sites": list(self.sites),
            "pseudowires": self.pseudowires,
            "protection": protection.mode,
            "stated": protection.stated,
            "trusted": protection.trusted,
            "reason": protection.reason,
            "transform": protection.transform if ipsec else None,
            "ipsec_mode": protection.ipsec_mode if ipsec else None,
            "nat_t": protection.nat_t if ipsec else None,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Validation:
    """What ``validate`` found: the fleet's problems and its warnings, as data.

    ``ok``: the fleet loads and has no problem. ``problems`` are errors, ``warnings`` the rest
    (a peer's tunnel source the site files do not show reachable, a hub's cookies, a file that
    did not load); ``found`` is every problem of a fleet that does not load, in the order found
    (the checks run on what did load included). ``error``: the sites could not be read at all
    (no directory, an unreadable file); ``usage`` when that is the sites directory itself (the
    command line's exit 2). ``pair_keys``: the pairs whose ends name different master-key
    variables, compared by fingerprint (never a value). ``fleet``: the loaded fleet.
    """

    ok: bool
    sites: tuple[str, ...] = ()
    pseudowires: int | None = None
    problems: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    underlay: tuple[Reach, ...] = ()
    pairs: tuple[PairSummary, ...] = ()
    secrets: tuple[SecretNeed, ...] = ()
    pair_keys: tuple[KeyComparison, ...] = ()
    found: tuple[Problem, ...] = ()
    error: str | None = None
    usage: bool = False
    fleet: Fleet | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict[str, object]:
        """As ``validate --format json`` writes it (every key, whether the fleet loads or not)."""
        document: dict[str, object] = {
            "ok": self.ok,
            "sites": list(self.sites),
            "pseudowires": self.pseudowires,
            "problems": [problem_dict(p) for p in self.problems],
            "warnings": [problem_dict(w) for w in self.warnings],
            "underlay": [r.as_dict() for r in self.underlay],
            "pairs": [p.as_dict() for p in self.pairs],
            "secrets": [need.as_dict() for need in self.secrets],
            "pair_keys": [c.as_dict() for c in self.pair_keys],
        }
        if self.error is not None:
            document["error"] = self.error
        return document


def _invalid(problems: Sequence[Problem], directory: Path) -> Validation:
    return Validation(
        ok=False,
        sites=site_names(directory),  # the site files' names
        problems=tuple(p for p in problems if p.level == "error"),
        warnings=tuple(p for p in problems if p.level != "error"),
        found=tuple(problems),
    )


def _unknown_ignores(fleet: Fleet) -> list[Problem]:
    """``lint.site_ignores.unknown_ignores``; the linter is loaded only when a site sets any.

    The linter knows the rule codes a site file's ``lint.ignore`` may name; loading it (every
    rule, every platform's renderer) is a third of a small fleet's validate, for sites that
    mostly silence nothing.
    """
    if not any(site.lint.ignore for site in fleet.sites.values()):
        return []
    from l2tpgen.lint.site_ignores import unknown_ignores  # noqa: PLC0415 - startup: the linter

    return unknown_ignores(fleet)


def warnings_of(fleet: Fleet) -> list[Problem]:
    """What validate warns about besides the problems that stop a fleet, placed in the files."""
    sites = fleet.sites
    found = [*interface_hints(sites.values()), *native_hints(sites.values()), *hub_hints(sites)]
    found += [*check_underlay(sites), *static_spread_hints(sites)]
    return locate_problems([restore(p, fleet.kept) for p in found], fleet.files)


def pair_keys(fleet: Fleet) -> tuple[list[KeyComparison], list[Problem]]:
    """The pairs whose ends name different master-key variables, and those whose keys differ.

    Each comparison says same, differ or unknown (never a value, ``model.pair_keys``); a pair
    whose keys differ is also a located problem (V100), for ``validate`` to refuse.
    """
    comparisons = compare_pair_keys(fleet.sites)
    problems = check_pair_keys(fleet.sites, fleet.files, comparisons)
    return comparisons, locate_problems(problems, fleet.files)


def unset_secrets(fleet: Fleet) -> list[SecretNeed]:
    """The variables the fleet's secrets come from that are missing or refused.

    Told by the model (``platforms.needs``), not by rendering every site: the same variables
    (``tests/test_secret_needs_model.py``), without loading Jinja and the renderers (issue 35).
    """
    try:
        return [need for need in model_secret_needs(fleet) if need.state != "set"]
    except L2tpgenError:  # a site render refuses: render and push say why
        return []


def validate(sites: Path) -> Validation:
    """Load every site file and check the fleet as a whole: ``l2tpgen validate``.

    Every problem in one run: a site file with schema errors is still checked where it can be,
    and the checks that need the whole fleet run on what loaded.
    """
    try:
        fleet = load_fleet(sites)
    except FleetCheckError as exc:  # the rest of the checks, on what could be checked
        more = [*exc.notes, *_unknown_ignores(exc.checked), *warnings_of(exc.checked)]
        return _invalid(sorted([*exc.problems, *more], key=lambda p: p.sort_key()), sites)
    except FleetValidationError as exc:
        return _invalid(exc.problems, sites)
    except L2tpgenError as exc:
        return Validation(ok=False, error=str(exc), usage=isinstance(exc, SitesDirectoryError))
    unknown = _unknown_ignores(fleet)
    if unknown:
        return _invalid(unknown, sites)
    comparisons, differ = pair_keys(fleet)  # the environment's values, compared by fingerprint
    if differ:
        return _invalid(differ, sites)
    return Validation(
        ok=True,
        sites=tuple(fleet.sites),
        # Each pair's VLAN pseudowires, and its kept port-mode pseudowire (every VLAN of a trunk).
        pseudowires=sum(len(site.vlans) for site in fleet.sites.values()) // 2
        + len(fleet.kept_ports()),
        warnings=tuple(warnings_of(fleet)),
        underlay=tuple(reaches(fleet.sites)),
        pairs=tuple(
            PairSummary(
                (a, b), n, protection, unconfirmed(fleet.sites[a], fleet.sites[b], protection)
            )
            for a, b, n, protection in fleet.pairs()
        ),
        secrets=tuple(unset_secrets(fleet)),
        pair_keys=tuple(comparisons),
        fleet=fleet,
    )


@dataclass(frozen=True)
class Rendering:
    """One site's configuration: its files (``""`` for a single config) and its lint errors.

    ``errors``: the error-level findings of the rendered Cisco config linted alone (the command
    line writes nothing when there is one).
    """

    site: str
    files: Mapping[str, str]
    errors: tuple[Finding, ...] = ()
    private: bool = False  # holds revealed secrets: written with mode 0600

    @property
    def text(self) -> str:
        """The files as one text (several each under a ``# ==> NAME <==`` line)."""
        from l2tpgen.platforms.render import join_files  # noqa: PLC0415 - startup: jinja2 (the renderers)

        return join_files(self.files)

    def write(self, output: Path) -> list[Path]:
        """Write the config to ``output`` (a directory for several files), as ``render -o``."""
        return write_files(output, self.files, private=self.private)


def render(
    fleet: Fleet,
    site: str,
    *,
    platform: str | None = None,
    fmt: str | None = None,
    reveal_secrets: bool = False,
) -> Rendering:
    """Render one site for its platform (or ``platform``), linted if it is a Cisco config.

    Raises:
        SecretError: ``reveal_secrets`` and a secret's variable is unset or refused.
        L2tpgenError: the site cannot be rendered.
    """
    from l2tpgen.platforms.render import render_files  # noqa: PLC0415 - startup: jinja2 (the renderers)

    files = render_files(fleet, site, fmt, platform=platform, reveal_secrets=reveal_secrets)
    chosen = driver(platform or fleet.site(site).effective_platform)
    errors: tuple[Finding, ...] = ()
    if chosen.lint_platform is not None:
        errors = _lint_errors(site, files[""], chosen.lint_platform)
    return Rendering(site, files, errors, private=reveal_secrets)


def _lint_errors(name: str, text: str, platform: str) -> tuple[Finding, ...]:
    """The error-level findings of one rendered config linted alone."""
    from l2tpgen.lint import ConfigText, Severity, lint_configs  # noqa: PLC0415 - startup: the linter
    from l2tpgen.lint.origins import rendered_name  # noqa: PLC0415 - startup: the linter

    linted = lint_configs([ConfigText(rendered_name(name), text, platform=platform, rendered=True)])
    return tuple(f for f in linted if f.severity is Severity.ERROR)


@dataclass(frozen=True)
class LintReport:
    """Sorted findings, and those the site files' ``lint.ignore`` silenced (``quiet``)."""

    findings: tuple[Finding, ...]
    quiet: tuple[Finding, ...] = ()

    @property
    def silenced(self) -> int:
        """How many findings the site files' ``lint.ignore`` silenced."""
        return len(self.quiet)

    def as_json(self) -> str:
        """As ``lint --format json`` writes it."""
        from l2tpgen.lint.formats import to_json  # noqa: PLC0415 - startup: the linter

        return to_json(list(self.findings), list(self.quiet))


def lint(sites: Path, names: Sequence[str] = (), selection: Selection | None = None) -> LintReport:
    """Lint the sites named (all when none): the model, and the rendered configs together.

    A fleet that does not load gives its problems as findings. ``names`` may be site files.
    """
    from l2tpgen.lint import Selection, problems_as_findings  # noqa: PLC0415 - startup: the linter
    from l2tpgen.lint.site_ignores import unknown_ignores  # noqa: PLC0415 - startup: the linter
    from l2tpgen.lint.sites import lint_sites_counted  # noqa: PLC0415 - startup: the linter

    directory, chosen = sites, list(names)
    if chosen:
        resolved = [resolve_site(n, sites) for n in chosen]
        directory, chosen = resolved[0][0], [name for _, name in resolved]
    try:
        fleet = load_fleet(directory)
    except FleetValidationError as exc:
        return LintReport(tuple(problems_as_findings(exc.problems)))
    unknown = unknown_ignores(fleet, chosen)
    counted = lint_sites_counted(fleet, chosen, selection or Selection(), in_site_files=True)
    found = sorted([*problems_as_findings(unknown), *counted.findings])
    return LintReport(tuple(found), tuple(counted.quiet))
