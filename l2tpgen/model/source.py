"""YAML loading that remembers where every key and value came from.

ruamel.yaml's round-trip loader records 0-based positions on every mapping and sequence;
``SourceDoc`` turns a model path such as ``("vlans", 2, "vc_id")`` back into a 1-based
``file:line:column``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from l2tpgen.model.problems import Location, PathItem, Problem

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class SourceDoc:
    """One parsed site file: its plain data and the positions of everything in it."""

    file: str
    tree: Any

    def plain(self) -> object:
        """The document as plain dicts and lists, for pydantic."""
        return _plain(self.tree)

    def locate(self, path: tuple[PathItem, ...], *, key: bool = False) -> Location:
        """Where ``path`` is in the file.

        Points at the value (or, with ``key``, at the key). A path that runs past what the file
        holds (a missing field) points at the deepest part that exists.
        """
        node = self.tree
        line, column = 0, 0
        for depth, step in enumerate(path):
            last = depth == len(path) - 1
            if isinstance(node, CommentedMap) and step in node:
                line, column = node.lc.key(step) if key or not last else node.lc.value(step)
                node = node[step]
            elif isinstance(node, CommentedSeq) and isinstance(step, int) and step < len(node):
                line, column = node.lc.item(step)
                node = node[step]
            else:
                break
        return Location(self.file, line + 1, column + 1)


def _plain(node: object) -> object:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def read_source(path: Path, display: str) -> SourceDoc | Problem:
    """Parse a YAML file, or return the problem that stops it from being parsed."""
    stem = path.stem
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Problem(stem, (), f"cannot read file: {exc}", location=Location(display, 1, 1))
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        tree = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = " ".join(part for part in (exc.context, exc.problem) if part)
        return Problem(
            stem,
            (),
            f"not valid YAML: {what}",
            "check the indentation and quoting near this line",
            location=Location(display, line, column),
        )
    except YAMLError as exc:
        return Problem(stem, (), f"not valid YAML: {exc}", location=Location(display, 1, 1))
    if not isinstance(tree, CommentedMap):
        return Problem(
            stem,
            (),
            "a site file must be a YAML mapping (name:, hostname:, wan:, ...)",
            "see the site-file reference in the README",
            location=Location(display, 1, 1),
        )
    return SourceDoc(display, tree)
