"""A rule's examples: configs (or site files) and exactly where the rule reports in each.

In yamllint's style, a rule's documented examples are its test cases: each rule has one file,
``l2tpgen/lint/rules/examples/<CODE>.yaml``, a list of examples. ``tests/test_lint_rules.py`` runs
every example of every rule (found from the rules, not listed) and ``docs/rules.md`` shows them.

An example is one config (``config``, linted alone as ``x.conf``), several configs linted
together (``configs``: file name to text), or site files (``sites``: file name to YAML, a model
rule's example). ``at`` lists where the rule must report: ``line:column`` for one config,
``file:line:column`` for several (1-based; a tab counts as one column). ``kind`` is ``fails`` (the
rule reports), ``passes`` (it does not) or ``boundary`` (the edge of the rule, on either side).
Optional: ``severity`` (of every finding, when not the rule's default), ``absent`` (codes that
must not be reported at all), ``platform`` (of the config), ``disagreement`` (why the rule is
believed wrong here: the test is then a strict expected failure).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, cast

import yaml

from l2tpgen.errors import L2tpgenError
from l2tpgen.lint.finding import Severity

Kind = Literal["fails", "passes", "boundary"]
KINDS: tuple[Kind, ...] = ("fails", "passes", "boundary")
Position = tuple[int, int]  # line, column
FilePosition = tuple[str, int, int]  # file, line, column
EXAMPLES = Path(__file__).parent / "rules" / "examples"
ONE_CONFIG = "x.conf"  # the name a lone config is linted under
_KEYS = {"kind", "name", "config", "configs", "sites", "at"}
_KEYS |= {"severity", "absent", "platform", "disagreement"}


@dataclass(frozen=True)
class Example:
    """One example of rule ``code``: its files, and where the rule reports (``expected``)."""

    code: str
    kind: Kind
    name: str
    configs: tuple[tuple[str, str], ...]
    expected: tuple[Position, ...] | tuple[FilePosition, ...]
    severity: Severity | None = None
    absent: tuple[str, ...] = ()
    platform: str | None = None
    disagreement: str = ""
    model: bool = False  # site files, linted as sites (a model rule's example)

    @property
    def id(self) -> str:
        """What kind of example, and what it is about (``fails-xconnect-on-the-main-port``)."""
        return f"{self.kind}-{self.name}"

    @property
    def several(self) -> bool:
        """Whether findings are placed by file (several configs, or site files)."""
        return len(self.configs) > 1 or self.model


def examples_file(code: str) -> Path:
    """Where rule ``code``'s examples are."""
    return EXAMPLES / f"{code}.yaml"


class ExampleError(L2tpgenError):
    """A rule's examples file is not as documented in ``l2tpgen/lint/examples.py``."""


def _position(text: str, *, several: bool) -> Position | FilePosition:
    parts = str(text).rsplit(":", 2 if several else 1)
    if several:
        return (parts[0], int(parts[1]), int(parts[2]))
    return (int(parts[0]), int(parts[1]))


def _example(code: str, entry: dict[str, object], where: str) -> Example:
    unknown = set(entry) - _KEYS
    if unknown:
        raise ExampleError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if entry.get("kind") not in KINDS:
        raise ExampleError(f"{where}: kind must be one of {', '.join(KINDS)}")
    sources = [key for key in ("config", "configs", "sites") if key in entry]
    if len(sources) != 1:
        raise ExampleError(f"{where}: give exactly one of config, configs, sites")
    source = sources[0]
    if source == "config":
        configs: tuple[tuple[str, str], ...] = ((ONE_CONFIG, str(entry["config"])),)
    else:
        files = cast("dict[str, str]", entry[source])
        configs = tuple((str(file), str(text)) for file, text in files.items())
    several = len(configs) > 1 or source == "sites"
    at = cast("list[str]", entry.get("at") or [])
    severity = entry.get("severity")
    return Example(
        code=code,
        kind=cast("Kind", entry["kind"]),
        name=str(entry["name"]),
        configs=configs,
        expected=tuple(_position(p, several=several) for p in at),  # type: ignore[arg-type]
        severity=Severity.parse(str(severity)) if severity else None,
        absent=tuple(cast("list[str]", entry.get("absent") or [])),
        platform=cast("str | None", entry.get("platform")),
        disagreement=str(entry.get("disagreement") or ""),
        model=source == "sites",
    )


@cache
def load_examples(code: str) -> tuple[Example, ...]:
    """Rule ``code``'s examples, in the order its file gives them (none if it has no file)."""
    path = examples_file(code)
    if not path.exists():
        return ()
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(entries, list):
        raise ExampleError(f"{path}: a list of examples expected")
    return tuple(
        _example(code, entry, f"{path}: example {n}") for n, entry in enumerate(entries, 1)
    )


def example_markdown(example: Example) -> str:
    """One example as docs/rules.md shows it: what kind, where the rule reports, the files."""
    at = ", ".join(":".join(str(part) for part in p) for p in example.expected)
    said = f"reported at {at}" if at else "not reported"
    if example.disagreement:
        said += f" (known wrong: {example.disagreement})"
    extras = [f"severity {example.severity}"] if example.severity else []
    extras += [f"never {', '.join(example.absent)}"] if example.absent else []
    extras += [f"platform {example.platform}"] if example.platform else []
    tail = f"; {'; '.join(extras)}" if extras else ""
    lines = [f"**{example.kind}**: `{example.name}`: {said}{tail}.", ""]
    fence = "yaml" if example.model else "text"
    for file, text in example.configs:
        if example.several:
            lines.append(f"`{file}`:")
        lines += [f"```{fence}", text.rstrip("\n"), "```", ""]
    return "\n".join(lines)
