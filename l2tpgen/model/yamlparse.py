"""YAML to plain data and positions, fast and within limits.

libyaml (PyYAML's C parser) turns the text into events that carry 0-based positions; ``_Builder``
turns them, without recursion, into plain dicts, lists and scalars for pydantic and a parallel tree
of positions (``Node``). Scalars follow the YAML 1.2 core schema (``yes`` and ``no`` stay text,
``010`` is ten), as the round-trip loader this replaces did.

Whatever a hostile or broken file holds stops with a located ``YamlProblem`` before it costs time
or memory: aliases that expand past ``MAX_ALIAS_NODES`` values (the "billion laughs"), nesting
deeper than ``MAX_DEPTH``, numbers longer than ``MAX_NUMBER_CHARS``, duplicate keys, tags beyond
the core schema, keys that are not names, several documents.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, NoReturn

import yaml
from yaml import events

# Anchors and aliases are for a few shared settings; past this they are an attack or a mistake.
MAX_ALIAS_NODES = 1000
# A site file nests four levels (vlans -> item -> key); nothing here recurses on the input.
MAX_DEPTH = 20
# The largest number a site file takes is a VC ID (10 digits); int() refuses past 4300 digits.
MAX_NUMBER_CHARS = 100

# libyaml's parser; PyYAML built without libyaml falls back to its (slower) Python parser.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_CORE = "tag:yaml.org,2002:"
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)")
_FLOAT = re.compile(
    r"[-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_BASES = {"0b": 2, "0o": 8, "0x": 16}
_MERGE = "<<"
_NO_TAGS = "remove the tag: site files hold plain text, numbers, true/false, lists and mappings"
_PLAIN_KEYS = "write keys as plain names (name:, wan:, vlans:, ...)"

# A 0-based (line, column). A node is where a value starts and where its parts are: a mapping's
# parts map each key to the key's position and the value's node, a sequence's list its items'.
Pos = tuple[int, int]
Parts = dict[str, tuple[Pos, "Node"]] | list["Node"] | None
Node = tuple[Pos, Parts]


class YamlProblem(Exception):  # noqa: N818 - a located problem, not a bug
    """The text breaks a limit or a rule of site files; ``position`` is 0-based."""

    def __init__(self, position: Pos, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.position = position
        self.hint = hint


def _at(mark: Any) -> Pos:  # noqa: ANN401 - the C and the Python parser have their own Mark
    return (mark.line, mark.column) if mark is not None else (0, 0)


def _stop(position: Pos, message: str, hint: str = "") -> NoReturn:
    raise YamlProblem(position, message, hint)


def _number(text: str, position: Pos) -> int | float:
    if len(text) > MAX_NUMBER_CHARS:
        _stop(
            position,
            f"a number {len(text)} characters long: far beyond any value a site file takes",
            "check this value; the largest number in a site file is a VC ID (10 digits)",
        )
    digits = text.replace("_", "")
    if _INT.fullmatch(text):
        body = digits.lstrip("+-")
        sign = -1 if digits.startswith("-") else 1
        base = _BASES.get(body[:2])
        return sign * (int(body[2:], base) if base else int(body))
    lowered = digits.lower()
    if lowered.endswith(("inf", "nan")):
        return math.nan if "nan" in lowered else -math.inf if lowered[0] == "-" else math.inf
    return float(digits)


def _is_number(text: str) -> bool:
    return bool(_INT.fullmatch(text) or _FLOAT.fullmatch(text))


def _plain(text: str, position: Pos) -> object:
    """An untagged plain scalar, resolved by the YAML 1.2 core schema."""
    if _NULL.fullmatch(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if text[0] in "+-.0123456789" and _is_number(text):
        return _number(text, position)
    return text


def _tagged(text: str, tag: str, position: Pos) -> object:
    """A scalar with an explicit core tag (``!!int '12'``); other tags are refused."""
    kind = tag.removeprefix(_CORE)
    if kind in {"int", "float"} and _is_number(text):
        value = _number(text, position)
        if kind == "float":
            return float(value)
        if isinstance(value, int):
            return value
    if kind == "bool" and text in _BOOL:
        return _BOOL[text]
    if kind == "null" and _NULL.fullmatch(text):
        return None
    return _stop(position, f"not valid YAML: tag {tag} is not supported here", _NO_TAGS)


def _scalar(event: events.ScalarEvent, position: Pos) -> object:
    tag = event.tag
    if tag is None and not event.style:  # plain: libyaml says "", the Python parser None
        return _plain(event.value, position)
    if tag in {None, "!", f"{_CORE}str"}:
        return event.value
    return _tagged(event.value, str(tag), position)


@dataclass
class _Open:
    """A mapping or sequence being built."""

    data: dict[str, Any] | list[Any]
    parts: dict[str, tuple[Pos, Node]] | list[Node]
    start: Pos
    anchor: str | None
    size: int = 1  # values it holds, aliases expanded
    key: tuple[str, Pos, bool] | None = None  # the pending key: text, position, plain
    merges: list[tuple[object, Node]] | None = None


class _Builder:
    """Plain data and positions from parser events, iteratively, every limit enforced."""

    def __init__(self) -> None:
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[object, Node, int]] = {}
        self.alias_nodes = 0
        self.documents = 0
        self.root: tuple[object, Node] | None = None

    def feed(self, event: events.Event) -> None:
        """Take one event."""
        position = _at(event.start_mark)
        if isinstance(event, events.ScalarEvent):
            top = self.stack[-1] if self.stack else None
            if top is not None and top.key is None and isinstance(top.data, dict):
                top.key = (event.value, position, not event.style and event.tag is None)
            else:
                self._add(_scalar(event, position), (position, None), 1, event.anchor)
        elif isinstance(event, events.MappingStartEvent):
            self._open(event, position, {}, {}, f"{_CORE}map")
        elif isinstance(event, events.SequenceStartEvent):
            self._open(event, position, [], [], f"{_CORE}seq")
        elif isinstance(event, events.CollectionEndEvent):
            done = self.stack.pop()
            if done.merges:
                _merge(done)
            self._add(done.data, (done.start, done.parts), done.size, done.anchor)
        elif isinstance(event, events.AliasEvent):
            self._alias(event, position)
        elif isinstance(event, events.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                _stop(
                    position,
                    "not valid YAML: a site file holds one document",
                    "remove the `---` line: one site per file",
                )

    def _open(
        self,
        event: events.CollectionStartEvent,
        position: Pos,
        data: dict[str, Any] | list[Any],
        parts: dict[str, tuple[Pos, Node]] | list[Node],
        tag: str,
    ) -> None:
        if len(self.stack) >= MAX_DEPTH:
            _stop(
                position,
                f"not valid YAML for a site file: nested more than {MAX_DEPTH} levels deep",
                "a site file nests a few levels (vlans -> item -> key); check the brackets",
            )
        if event.tag not in {None, "!", tag}:
            _stop(position, f"not valid YAML: tag {event.tag} is not supported here", _NO_TAGS)
        self.stack.append(_Open(data, parts, position, event.anchor))

    def _alias(self, event: events.AliasEvent, position: Pos) -> None:
        target = self.anchors.get(event.anchor or "")
        if target is None:
            _stop(
                position, f"not valid YAML: alias *{event.anchor} names no anchor defined before it"
            )
        value, node, size = target
        self.alias_nodes += size
        if self.alias_nodes > MAX_ALIAS_NODES:
            _stop(
                position,
                f"aliases expand to more than {MAX_ALIAS_NODES} values",
                "write the values out: anchors and aliases are for a few shared settings",
            )
        self._add(value, (position, node[1]), size, None)

    def _add(self, value: object, node: Node, size: int, anchor: str | None) -> None:
        if anchor is not None:
            self.anchors[anchor] = (value, node, size)
        if not self.stack:
            self.root = (value, node)
            return
        top = self.stack[-1]
        top.size += size
        if isinstance(top.data, list) and isinstance(top.parts, list):
            top.data.append(value)
            top.parts.append(node)
            return
        if top.key is None:
            _stop(node[0], "not valid YAML for a site file: a key must be a name", _PLAIN_KEYS)
        key, position, plain = top.key
        top.key = None
        if key == _MERGE and plain:
            top.merges = [*(top.merges or []), (value, node)]
        elif isinstance(top.data, dict) and isinstance(top.parts, dict):
            if key in top.data:
                line, column = top.parts[key][0]
                _stop(
                    position,
                    f"not valid YAML: duplicate key {key} (first at line {line + 1}, column "
                    f"{column + 1})",
                    "remove one of the two",
                )
            top.data[key] = value
            top.parts[key] = (position, node)


def _merge(done: _Open) -> None:
    """``<<: *defaults``: the merged mappings' keys that the mapping does not set itself."""
    if not isinstance(done.data, dict) or not isinstance(done.parts, dict):
        return
    for value, node in done.merges or []:
        sources: list[tuple[object, Node]] = [(value, node)]
        if isinstance(value, list) and isinstance(node[1], list):
            sources = list(zip(value, node[1], strict=True))
        for source, (_, parts) in sources:
            if not isinstance(source, dict) or not isinstance(parts, dict):
                _stop(node[0], "not valid YAML: << merges a mapping or a list of mappings")
            for key, item in source.items():
                if key not in done.data:
                    done.data[key] = item
                    done.parts[key] = parts[key]


def parse(text: str) -> tuple[object, Node] | None:
    """The document's plain data and positions (``None`` for an empty file).

    Raises:
        YamlProblem: the file breaks a limit or a rule of site files.
        yaml.YAMLError: the text is not YAML.
    """
    builder = _Builder()
    loader = _LOADER(text)
    try:
        while loader.check_event():
            builder.feed(loader.get_event())
    finally:
        loader.dispose()
    return builder.root
