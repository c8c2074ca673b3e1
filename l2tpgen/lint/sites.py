"""Linting sites: model problems as findings, and the rendered configs linted together."""

from __future__ import annotations

from ipaddress import IPv4Address
from typing import TYPE_CHECKING

from l2tpgen.lint.engine import ConfigText, Selection, lint_configs
from l2tpgen.lint.finding import Finding, Severity
from l2tpgen.lint.origins import place_in_site_files, rendered_name
from l2tpgen.lint.rules import MODEL_RULES
from l2tpgen.lint.site_ignores import Silenced, ignored_codes, silenced
from l2tpgen.model.load import locate_problems
from l2tpgen.platforms.render import render_site
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.ios.parsed import ParsedText
    from l2tpgen.model import Fleet, Problem

MODEL_CODE = "L2T000"
MODEL_RULE = "invalid-site-model"


def problems_as_findings(problems: Sequence[Problem]) -> list[Finding]:
    """Site-file validation problems as error findings (code L2T000)."""
    return [
        Finding(
            file=p.location.file if p.location else p.site,
            line=p.location.line if p.location else 1,
            column=p.location.column if p.location else 1,
            code=MODEL_CODE,
            rule=MODEL_RULE,
            severity=Severity.ERROR,
            message=p.message,
            fix=p.hint,
        )
        for p in problems
    ]


def lint_models(
    fleet: Fleet, names: Sequence[str] = (), selection: Selection | None = None
) -> list[Finding]:
    """The model rules (what VLANs carry over which paths) on ``names`` (default: every site).

    Findings are placed in the site files, read again for positions.
    """
    return sorted(f for _, f in _model_findings(fleet, names, selection))


def _model_findings(
    fleet: Fleet, names: Sequence[str], selection: Selection | None
) -> list[tuple[str, Finding]]:
    """``lint_models``'s findings, each with the site it is about."""
    selection = selection or Selection()
    rules = [rule for rule in MODEL_RULES if selection.wants(rule.code)]
    found = [
        (rule, problem)
        for name in names or list(fleet.sites)
        for rule in rules
        for problem in rule.check(fleet, fleet.site(name).name)
    ]
    located = locate_problems((problem for _, problem in found), fleet.files)
    return [(p.site, rule.model_finding(p)) for (rule, _), p in zip(found, located, strict=True)]


def lint_sites(
    fleet: Fleet,
    names: Sequence[str] = (),
    selection: Selection | None = None,
    rendered: Mapping[str, str] | None = None,
    *,
    in_site_files: bool = False,
    trees: Mapping[str, ParsedText] | None = None,
) -> list[Finding]:
    """Lint sites: their models (``lint_models``) and their rendered configs, together.

    Each site is rendered (secrets masked) and the configs are linted together; the findings of
    ``names`` are kept.

    Only IOS and IOS-XE sites are rendered and linted as IOS configs (IOS-XE without the
    classic-IOS rules); a Linux site's model is validated, and no IOS rule runs on it.

    No ``names``: every site. Else the named sites and their peers are rendered, each peer with
    its pseudowires towards those sites only (``Fleet.around``), so that the cross-device rules
    see both ends of every pseudowire of ``names`` without rendering the rest of the fleet.

    ``rendered``: masked renderings of some of ``names`` already made (push renders each site
    once, and lints and pushes that one text); ``trees``: those texts read already
    (``l2tpgen.ios.parsed``, named ``rendered:SITE``), so that push reads each text once.

    A finding in a rendered config names it ``rendered:SITE`` at its line of ``render SITE``; with
    ``in_site_files`` it is placed in the site's file instead, at the key that produced the line,
    its fix said in YAML terms (``origins.place_in_site_files``): what `l2tpgen lint` reports.

    Findings a site's ``lint.ignore`` silences are left out (``lint_sites_counted`` counts them).
    """
    return lint_sites_counted(
        fleet, names, selection, rendered, in_site_files=in_site_files, trees=trees
    ).findings


def _site_configs(
    view: Fleet,
    names: Sequence[str],
    rendered: Mapping[str, str] | None,
    trees: Mapping[str, ParsedText] | None,
) -> tuple[list[ConfigText], dict[str, str], set[IPv4Address]]:
    """The IOS sites' configs to lint, each site's text, and the peers that are not IOS routers.

    The caller's renderings (and their readings, ``trees``) are used when given.
    """
    configs = []
    texts = {}
    elsewhere: set[IPv4Address] = set()
    for name, site in view.sites.items():
        platform = driver(site.effective_platform).lint_platform
        if platform is None:  # not IOS: its model was validated, no IOS rule applies
            if isinstance(site.tunnel_address, IPv4Address):  # an IOS xconnect peer is IPv4
                elsewhere.add(site.tunnel_address)
            continue
        given = rendered.get(name) if rendered is not None and name in names else None
        text = texts[name] = given if given is not None else render_site(view, name)
        tree = trees.get(name) if trees is not None and given is not None else None
        configs.append(
            ConfigText(rendered_name(name), text, platform=platform, rendered=True, tree=tree)
        )
    return configs, texts, elsewhere


def lint_sites_counted(
    fleet: Fleet,
    names: Sequence[str] = (),
    selection: Selection | None = None,
    rendered: Mapping[str, str] | None = None,
    *,
    in_site_files: bool = False,
    trees: Mapping[str, ParsedText] | None = None,
) -> Silenced:
    """``lint_sites``'s findings, and how many the sites' ``lint.ignore`` silenced."""
    view = fleet.around(names) if names else fleet
    wanted = {rendered_name(fleet.site(name).name) for name in names} or {
        rendered_name(name) for name in fleet.sites
    }
    configs, texts, elsewhere = _site_configs(view, names, rendered, trees)
    findings = lint_configs(configs, selection, elsewhere)
    ignores = ignored_codes(fleet)
    by_file = {rendered_name(name): name for name in fleet.sites}
    about = [(by_file[f.file], f) for f in findings if f.file in wanted]
    about += _model_findings(fleet, names, selection)
    quiet = [f for site, f in about if silenced(f.code, ignores.get(site, ()))]
    kept = [f for site, f in about if not silenced(f.code, ignores.get(site, ()))]
    if in_site_files:
        kept = place_in_site_files(kept, fleet, texts)
    if in_site_files:
        quiet = place_in_site_files(quiet, fleet, texts)
    return Silenced(sorted(kept), sorted(quiet))
