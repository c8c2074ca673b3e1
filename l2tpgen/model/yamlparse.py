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
from typing import TYPE_CHECKING, Any, NoReturn

import yaml
from yaml import events

if TYPE_CHECKING:
    from collections.abc import Callable

# Anchors and aliases are for a few shared settings; past this they are an attack or a mistake.
MAX_ALIAS_NODES = 1000
# A site file nests four levels (vlans -> item -> key); nothing here recurses on the input.
MAX_DEPTH = 20
# The largest number a site file takes is a VC ID (10 digits); int() refuses past 4300 digits.
MAX_NUMBER_CHARS = 100

# libyaml's parser; PyYAML built without libyaml falls back to its (slower) Python parser.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The parser whose verdict counts when libyaml refuses a text: it ships with every PyYAML and its
# words and positions do not change with the libyaml a wheel bundles (libyaml 0.2.5+ refuses
# nesting past 1000 levels while scanning ahead, before this module's own depth check has seen
# the 21st level: the same file would get another message at another column).
_REFEREE = yaml.SafeLoader
_CORE = "tag:yaml.org,2002:"
_NULLS = frozenset({"~", "null", "Null", "NULL", ""})
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
    if text.isascii() and text.isdigit() and len(text) <= MAX_NUMBER_CHARS:
        return int(text)  # the common case: IDs, ports, sizes
    if text in _NULLS:
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
    if kind == "null" and text in _NULLS:
        return None
    return _stop(position, f"not valid YAML: tag {tag} is not supported here", _NO_TAGS)


@dataclass
class _Open:
    """A mapping (``keys`` set) or a sequence being built."""

    data: list[Any] | dict[str, Any]
    parts: list[Node] | dict[str, tuple[Pos, Node]]
    start: Pos
    anchor: str | None
    mapping: bool
    size: int = 1  # values it holds, aliases expanded
    key: tuple[str, Pos, bool] | None = None  # the pending key: text, position, plain
    merges: list[tuple[object, Node]] | None = None


class _Builder:
    """Plain data and positions from parser events, iteratively, every limit enforced.

    The hot path (one call per event, tens of thousands for a big site) dispatches on the event's
    type and keeps the innermost open collection at hand in ``top``.
    """

    def __init__(self) -> None:
        self.stack: list[_Open] = []
        self.top: _Open | None = None
        self.anchors: dict[str, tuple[object, Node, int]] = {}
        self.alias_nodes = 0
        self.documents = 0
        self.root: tuple[object, Node] | None = None

    def run(self, get_event: Callable[[], events.Event | None]) -> None:
        """Take every event up to the end of the stream."""
        handlers: dict[type, Callable[[Any], None]] = {
            events.ScalarEvent: self._scalar,
            events.MappingStartEvent: self._mapping,
            events.SequenceStartEvent: self._sequence,
            events.MappingEndEvent: self._close,
            events.SequenceEndEvent: self._close,
            events.AliasEvent: self._alias,
            events.DocumentStartEvent: self._document,
        }
        while (event := get_event()) is not None:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)

    def _scalar(self, event: events.ScalarEvent) -> None:
        mark = event.start_mark
        position = (mark.line, mark.column) if mark is not None else (0, 0)
        top = self.top
        plain = event.tag is None and not event.style  # libyaml says "", the Python parser None
        if top is not None and top.mapping and top.key is None:
            top.key = (event.value, position, plain)
            return
        if plain:
            value = _plain(event.value, position)
        elif event.tag in {None, "!", f"{_CORE}str"}:
            value = event.value
        else:
            value = _tagged(event.value, str(event.tag), position)
        self._add(value, (position, None), 1, event.anchor)

    def _mapping(self, event: events.MappingStartEvent) -> None:
        self._open(event, {}, {}, mapping=True)

    def _sequence(self, event: events.SequenceStartEvent) -> None:
        self._open(event, [], [], mapping=False)

    def _open(
        self,
        event: events.CollectionStartEvent,
        data: list[Any] | dict[str, Any],
        parts: list[Node] | dict[str, tuple[Pos, Node]],
        *,
        mapping: bool,
    ) -> None:
        mark = event.start_mark
        position = (mark.line, mark.column) if mark is not None else (0, 0)
        if len(self.stack) >= MAX_DEPTH:
            _stop(
                position,
                f"not valid YAML for a site file: nested more than {MAX_DEPTH} levels deep",
                "a site file nests a few levels (vlans -> item -> key); check the brackets",
            )
        if event.tag not in {None, "!", f"{_CORE}{'map' if mapping else 'seq'}"}:
            _stop(position, f"not valid YAML: tag {event.tag} is not supported here", _NO_TAGS)
        self.top = _Open(data, parts, position, event.anchor, mapping)
        self.stack.append(self.top)

    def _close(self, _event: events.CollectionEndEvent) -> None:
        done = self.stack.pop()
        self.top = self.stack[-1] if self.stack else None
        if done.merges:
            _merge(done)
        self._add(done.data, (done.start, done.parts), done.size, done.anchor)

    def _document(self, event: events.DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            mark = event.start_mark
            _stop(
                (mark.line, mark.column) if mark is not None else (0, 0),
                "not valid YAML: a site file holds one document",
                "remove the `---` line: one site per file",
            )

    def _alias(self, event: events.AliasEvent) -> None:
        mark = event.start_mark
        position = (mark.line, mark.column) if mark is not None else (0, 0)
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
        top = self.top
        if top is None:
            self.root = (value, node)
            return
        top.size += size
        if not top.mapping:
            top.data.append(value)  # type: ignore[union-attr]
            top.parts.append(node)  # type: ignore[union-attr]
            return
        if top.key is None:
            _stop(node[0], "not valid YAML for a site file: a key must be a name", _PLAIN_KEYS)
        key, position, plain = top.key
        top.key = None
        if key == _MERGE and plain:
            top.merges = [*(top.merges or []), (value, node)]
            return
        data: dict[str, Any] = top.data  # type: ignore[assignment]
        parts: dict[str, tuple[Pos, Node]] = top.parts  # type: ignore[assignment]
        if key in data:
            line, column = parts[key][0]
            _stop(
                position,
                f"not valid YAML: duplicate key {key} (first at line {line + 1}, column "
                f"{column + 1})",
                "remove one of the two",
            )
        data[key] = value
        parts[key] = (position, node)


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


def _run(loader_class: Callable[[str], Any], text: str) -> tuple[object, Node] | None:
    builder = _Builder()
    loader = loader_class(text)
    try:
        builder.run(loader.get_event)
    finally:
        loader.dispose()
    return builder.root


def parse(text: str) -> tuple[object, Node] | None:
    """The document's plain data and positions (``None`` for an empty file).

    libyaml reads the text; a text libyaml refuses is read again by PyYAML's Python parser, whose
    verdict (this module's own limits first, then its syntax error) is the answer. A user gets
    the same message at the same file:line:column whichever PyYAML or libyaml is installed, and
    only a broken file pays for the slower parser.

    Raises:
        YamlProblem: the file breaks a limit or a rule of site files.
        yaml.YAMLError: the text is not YAML (the Python parser's error).
    """
    if _LOADER is _REFEREE:
        return _run(_REFEREE, text)
    try:
        return _run(_LOADER, text)
    except YamlProblem:
        raise
    except yaml.YAMLError:
        return _run(_REFEREE, text)
