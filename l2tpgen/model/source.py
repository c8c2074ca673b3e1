"""Site files read with the position of every key and value.

``yamlparse`` turns the text into plain data and a tree of 0-based positions; ``SourceDoc`` turns a
model path such as ``("vlans", 2, "vc_id")`` back into a 1-based ``file:line:column``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from l2tpgen.files import NotTextError, UserFileError, read_text
from l2tpgen.model.problems import Location, PathItem, Problem
from l2tpgen.model.yamlparse import YamlProblem, parse

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model.yamlparse import Node

__all__ = ["SourceDoc", "read_source"]


@dataclass(frozen=True)
class SourceDoc:
    """One parsed site file: its plain data and the positions of everything in it."""

    file: str
    data: dict[str, Any]
    node: Node

    def plain(self) -> object:
        """The document as plain dicts and lists, for pydantic."""
        return self.data

    def locate(self, path: tuple[PathItem, ...], *, key: bool = False) -> Location:
        """Where ``path`` is in the file.

        Points at the value (or, with ``key``, at the key). A path that runs past what the file
        holds (a missing field) points at the deepest part that exists.
        """
        parts = self.node[1]
        line, column = 0, 0
        for depth, step in enumerate(path):
            if isinstance(parts, dict) and isinstance(step, str) and step in parts:
                key_position, (value_position, parts) = parts[step]
                last = depth == len(path) - 1
                line, column = key_position if key or not last else value_position
            elif isinstance(parts, list) and isinstance(step, int) and 0 <= step < len(parts):
                (line, column), parts = parts[step]
            else:
                break
        return Location(self.file, line + 1, column + 1)


def _syntax_problem(stem: str, display: str, exc: yaml.YAMLError) -> Problem:
    """What the parser found wrong, where (in the Python parser's words: see ``yamlparse``)."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        return Problem(stem, (), "not valid YAML", location=Location(display, 1, 1), code="V001")
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    what = " ".join(part for part in (exc.context, exc.problem) if part)
    return Problem(
        stem,
        (),
        f"not valid YAML: {what}",
        "check the indentation and quoting near this line",
        location=Location(display, line, column),
        code="V002",
    )


def read_source(path: Path, display: str) -> SourceDoc | Problem:
    """Parse a YAML file, or return the problem that stops it from being parsed."""
    stem = path.stem
    try:
        text = read_text(path, "a site file")
    except NotTextError as exc:
        return Problem(
            stem,
            (),
            f"cannot read file: {exc.reason}",
            location=Location(display, 1, 1),
            code="V004",
        )
    except UserFileError as exc:
        return Problem(
            stem,
            (),
            f"cannot read file: {exc.reason}",
            location=Location(display, 1, 1),
            code="V003",
        )
    try:
        parsed = parse(text)
    except YamlProblem as exc:
        line, column = exc.position
        where = Location(display, line + 1, column + 1)
        return Problem(stem, (), str(exc), exc.hint, location=where, code="V005")
    except yaml.YAMLError as exc:
        return _syntax_problem(stem, display, exc)
    if parsed is None or not isinstance(parsed[0], dict):
        return Problem(
            stem,
            (),
            "a site file must be a YAML mapping (name:, hostname:, wan:, ...)",
            "see the site-file reference in the README",
            location=Location(display, 1, 1),
            code="V006",
        )
    return SourceDoc(display, parsed[0], parsed[1])
