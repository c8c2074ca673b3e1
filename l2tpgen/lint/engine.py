"""The lint engine: configs in, sorted findings out. Nothing here prints.

Each config is normalized (``normalize``), parsed (the ciscoconfparse adapter), reduced to facts and
checked by every selected device rule; when several configs are linted together, the cross-device
rules check the two ends of every pseudowire. Inline comments switch rules off:
``! l2tpgen: disable=L2T004`` for the next line, ``! l2tpgen: disable-file=L2T014`` for the file.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from l2tpgen import startup
from l2tpgen.errors import LintConfigError
from l2tpgen.files import UserFileError, read_limited
from l2tpgen.ios.encoding import decode
from l2tpgen.ios.parsed import ParsedText, facts_of, parsed
from l2tpgen.lint.pairing import pair
from l2tpgen.lint.rules import ALL_RULES, DEVICE_RULES, FLEET_RULES
from l2tpgen.traits import linted

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Sequence
    from ipaddress import IPv4Address
    from pathlib import Path

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.ios.text import CleanText
    from l2tpgen.lint.finding import Finding
    from l2tpgen.lint.rules.base import Rule

ALL = "ALL"
STDIN = "-"


@dataclass(frozen=True)
class ConfigText:
    """A config to lint and the name findings use for it."""

    name: str
    text: str
    platform: str | None = None  # a driver's lint_platform (a site's), else from `version`
    rendered: bool = False  # l2tpgen's own output (see ``l2tpgen.ios.tree.build``)
    # ``text`` read already, under this config's name (a push reads it once, for all its checks)
    tree: ParsedText | None = None


def resolve(names: Iterable[str]) -> tuple[str, ...]:
    """Rule codes, prefixes or names (``L2T004``, ``L2T1``, ``default-hold-queue``) as codes."""
    by_name = {rule.name: rule.code for rule in ALL_RULES}
    return tuple(by_name.get(n.strip().lower(), n.strip().upper()) for n in names if n.strip())


@dataclass(frozen=True)
class Selection:
    """Which rules run: codes, prefixes (``L2T1``) or names (turned into codes) to select/ignore."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "select", resolve(self.select))
        object.__setattr__(self, "ignore", resolve(self.ignore))
        codes = [rule.code for rule in ALL_RULES]
        for prefix in (*self.select, *self.ignore):
            if prefix != ALL and not any(code.startswith(prefix) for code in codes):
                raise LintConfigError(
                    f"{prefix} matches no rule code or name; `l2tpgen rules` lists them (e.g. "
                    "L2T001, single-trunk-xconnect, or a prefix such as L2T1)"
                )

    def wants(self, code: str) -> bool:
        """Whether the rule ``code`` runs."""
        selected = not self.select or _matches(code, self.select)
        return selected and not _matches(code, self.ignore)


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(p == ALL or code.startswith(p) for p in prefixes)


@dataclass(frozen=True)
class Parsed:
    """One config after normalization and fact extraction."""

    normalized: CleanText
    facts: DeviceFacts


def parse_config(config: ConfigText) -> Parsed:
    """Clean, parse and extract one config (its ``tree``'s reading when it has one)."""
    with _gc_paused():
        tree = config.tree
        if tree is None or tree.name != config.name:
            tree = parsed(config.text, config.name, rendered=config.rendered)
        text, facts = tree.text, facts_of(tree)
        # A tree read here is freed now, while the collector is paused: it would otherwise be
        # in the young generation the collector's first run after the pause walks (a tenth of
        # a 50,000-line lint).
        del tree
    if config.platform is not None:
        software = linted(config.platform).ios_software
        facts = replace(facts, platform=config.platform, software=software or facts.software)
    return Parsed(text, facts)


def _suppressed(finding: Finding, normalized: CleanText) -> bool:
    written = normalized.disabled.get(finding.line, frozenset()) | normalized.disabled_file
    return bool(written) and _matches(finding.code, resolve(written))


def _run(rules: Sequence[Rule], selection: Selection) -> list[Rule]:
    return [rule for rule in rules if selection.wants(rule.code)]


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while one config's tree is built and read.

    Parsing builds a large graph of objects that survive until the facts are read; the collector
    would rescan it again and again (a quarter of the lint time on 50,000 lines). The pause is per
    config, so the parser's objects of one config are collected before the next is parsed (a pause
    over a whole multi-config lint tripled its memory on 2000 configs).

    What the parse leaves (the facts, tens of thousands of objects for a large config) lives until
    the lint ends: it is moved to the oldest generation at once (``gc.freeze`` then
    ``gc.unfreeze``, which move objects without walking them) rather than walked by the collections
    of the young generations that would follow, twice (a tenth of a 50,000-line lint). Not when
    the program has frozen objects of its own (a server that froze its start-up objects before
    forking; the command line, ``startup.py``): those stay frozen. The command line's are known
    without counting them (``gc.get_freeze_count`` walks every frozen object: 1.7 s over the
    1000 configs of ``lint --sites`` of 1000 sites).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not startup.froze() and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def lint_configs(
    configs: Sequence[ConfigText],
    selection: Selection | None = None,
    elsewhere: Collection[IPv4Address] = (),
) -> list[Finding]:
    """Lint configs, each alone and, if there are several, against each other.

    ``elsewhere``: addresses of peers known not to be IOS routers (see ``pairing.pair``).
    """
    selection = selection or Selection()
    parsed = {config.name: parse_config(config) for config in configs}
    findings: list[Finding] = []
    for item in parsed.values():
        for rule in _run(DEVICE_RULES, selection):
            findings.extend(rule.check(item.facts))  # type: ignore[attr-defined]
    if len(parsed) > 1:
        pairing = pair([item.facts for item in parsed.values()], elsewhere)
        for rule in _run(FLEET_RULES, selection):
            findings.extend(rule.check(pairing))  # type: ignore[attr-defined]
    kept = (f for f in findings if not _suppressed(f, parsed[f.file].normalized))
    return sorted(set(kept))


def read_configs(paths: Sequence[str | Path]) -> list[ConfigText]:
    """Read config files as given on the command line (``-``: standard input).

    Bytes are decoded by ``l2tpgen.ios.text.decode`` (BOM, UTF-16, UTF-8, Latin-1).

    Raises:
        LintConfigError: a file cannot be read (names the file and why).
    """
    configs = []
    for path in paths:
        try:
            data = read_limited(path)  # `-` is standard input; 64 MiB at most
        except UserFileError as exc:
            raise LintConfigError(str(exc)) from exc
        configs.append(ConfigText("<stdin>" if str(path) == STDIN else str(path), decode(data)[0]))
    return configs
