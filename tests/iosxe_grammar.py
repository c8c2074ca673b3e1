"""Each line of an IOS-XE config, matched keyword by keyword to a path of Cisco's native YANG model.

The native model is generated from IOS-XE's CLI parser, so its node names are the CLI's keywords,
and a line is walked down the tree one token at a time (``tests/yang_schema.py`` compiles the
tree):

- a token that names a child is a keyword: a container is entered, a list is entered and its keys
  are taken from the following tokens, an ``empty`` leaf is set, a ``boolean`` leaf is set (true,
  or false under ``no``), any other leaf takes the next token as its value;
- a token that names no child is a value: it fills a list key still to fill, or else the first
  unset leaf of the current node in schema order (an optional enumeration such as
  ``pre-shared-key [0|6] KEY``'s may be left out), if that leaf's type accepts it (range, length,
  pattern, enumeration, union members); a line's first token is always a keyword;
- Cisco's model adds nodes the CLI does not spell (``ip route``'s
  ``ip-route-interface-forwarding-list``, ``ip address``'s ``primary``): such a node is entered
  without a token, at most ``_STRUCTURAL`` in a row;
- an obsolete node is refused, its successor (the keyword plus ``-option``, ``-type``, ...) used;
- where the model's names differ from the CLI's otherwise, ``tests/iosxe_renames.py`` says
  where the keyword goes.

Indented lines are matched from their parent line's sub-mode: the last list it entered
(``interface X`` -> the interface's entry, ``crypto map M 10 ipsec-isakmp`` -> the map's entry),
or the node it ended in (``xconnect ...`` -> the xconnect container). ``no`` lines are matched
like the line they negate. Every alternative is tried (backtracking); a line that matches nowhere
reports the deepest point reached and what the model expected there.

What this proves: each keyword exists at that place in IOS-XE 17.18.1's grammar and each value has
the type Cisco's model gives it. Not what it does, not cross-references (leafrefs, ``must``,
``when``), not that two leaves of one ``choice`` are not both set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from iosxe_renames import (
    DESTINATIONS,
    KEYWORD_ONLY,
    NUMBERED,
    RENAMES,
    REST_OF_LINE,
    SUCCESSORS,
)
from yang_schema import Node, value_error

_STRUCTURAL = 2  # nodes entered without a token, in a row
_BUDGET = 200_000  # search steps per line


@dataclass
class Outcome:
    """A line's match: ``ok``, or the deepest token reached and what the model expected there."""

    ok: bool
    consumed: int
    steps: list[str] = field(default_factory=list)  # "path=value" for each leaf, "path" otherwise
    modules: set[str] = field(default_factory=set)
    context: Node | None = None  # where the walk ended
    context_path: str = ""
    context_shown: str = ""
    mode: tuple[Node, str, str] | None = None  # the last list entered: the line's sub-mode
    expected: str = ""
    generic: bool = False  # "no child X": any failure that got as far says more


@dataclass
class _State:
    node: Node
    path: str  # schema path, without keys (for RENAMES)
    shown: str  # the path with keys, for messages
    used: frozenset[str]
    keys: tuple[str, ...]  # list keys still to fill
    structural: int
    entered: bool = True  # False in the node a line starts from: keywords only there
    # The children of the nodes entered without a token on the way here: keywords still, not
    # values (`no cdp run` is not cdp's tlv-list entry named "run").
    shadow: frozenset[str] = frozenset()


class Matcher:
    """Walks lines down ``native`` (the /native container, from ``yang_schema.load_native``)."""

    def __init__(self, native: Node) -> None:
        self.native = native
        self._flat: dict[int, dict[str, Node]] = {}
        self._budget = 0

    def flat(self, node: Node) -> dict[str, Node]:
        """A node's children, choices and cases seen through."""
        found = self._flat.get(id(node))
        if found is None:
            found = {}
            for name, child in node.get("children", {}).items():
                if child["kind"] in ("choice", "case"):
                    for sub, grandchild in self.flat(child).items():
                        found.setdefault(sub, grandchild)
                else:
                    found[name] = child
            self._flat[id(node)] = found
        return found

    def match(self, tokens: list[str], node: Node, path: str = "", shown: str = "") -> Outcome:
        """Match one line's tokens from ``node`` (at schema path ``path``; a list entry's keys
        are set already)."""
        negate = bool(tokens) and tokens[0] == "no"
        self._negate = negate
        tokens = tokens[1:] if negate else tokens
        if tokens and tokens[0] in REST_OF_LINE and len(tokens) > 1:
            tokens = [tokens[0], " ".join(tokens[1:])]
        self._budget = _BUDGET
        shown = shown or "/native" + (f"/{path}" if path else "")
        start = _State(node, path, shown, frozenset(node.get("key", ())), (), 0, entered=False)
        return self._walk(start, tokens, 0)

    def _walk(self, s: _State, tokens: list[str], i: int) -> Outcome:
        self._budget -= 1
        if self._budget < 0:
            return _fail(i, "search budget exhausted")
        if i == len(tokens):
            if s.keys:
                return _fail(i, f"{s.shown}: list key(s) {list(s.keys)} missing")
            return Outcome(
                ok=True, consumed=i, context=s.node, context_path=s.path, context_shown=s.shown
            )
        best = _fail(i, f"{s.shown}: no child {tokens[i]!r}", generic=True)
        for attempt in (self._by_keyword, self._by_value, self._by_structure):
            result = attempt(s, tokens, i, best)
            if result.ok:
                return result
            best = result
        return best

    def _by_keyword(self, s: _State, tokens: list[str], i: int, best: Outcome) -> Outcome:
        """The token names a child (or, through RENAMES, where Cisco's model puts it)."""
        children = self.flat(s.node)
        numbered = NUMBERED.get(s.path)
        if numbered and tokens[i].isdigit():  # `10 permit ...`: the entry with key 10
            child = children[numbered]
            inner = _enter(s, numbered, child)
            result = self._walk(inner, tokens, i)
            if result.ok:
                return _step(_mode(result, child, inner), f"{s.shown}/{numbered}", child)
            best = _deeper(best, result)
        for name in RENAMES.get((s.path, tokens[i]), (tokens[i],)):
            if "/" in name or "=" in name:
                result = self._rename(s, tokens, i, name)
            elif (
                name not in children
                or name in s.used
                or (name == "src-eq" and s.used & DESTINATIONS)
            ):
                continue
            elif children[name].get("status") == "obsolete":
                result = self._successor(s, tokens, i, name)
            else:
                result = self._keyword(s, tokens, i, name, children[name])
            if result.ok:
                return result
            best = _deeper(best, result)
        return best

    def _by_value(self, s: _State, tokens: list[str], i: int, best: Outcome) -> Outcome:
        """The token is a value filling a leaf: never a token that names a child (the CLI's
        keyword wins), and not in the node a line starts from (lines begin with a keyword)."""
        tok, children = tokens[i], self.flat(s.node)
        if not s.entered or tok in children or tok in s.shadow:
            return best
        for name, child in children.items():
            if name in s.used or not self._positional(s, name, child):
                continue
            error = value_error(child["type"], tok)
            if error is not None:
                best = _deeper(best, _fail(i, f"{s.shown}/{name}: {tok!r} {error}"))
                continue
            result = self._walk(_set(s, name), tokens, i + 1)
            if result.ok:
                return _step(result, f"{s.shown}/{name}={tok}", child)
            best = _deeper(best, result)
        return best

    def _by_structure(self, s: _State, tokens: list[str], i: int, best: Outcome) -> Outcome:
        """A container or list the CLI does not spell, entered without a token: containers
        first (a list's entry is a choice made), at most _STRUCTURAL in a row."""
        if not s.entered or s.structural >= _STRUCTURAL or s.keys:
            return best
        children = sorted(self.flat(s.node).items(), key=lambda item: item[1]["kind"] == "list")
        for name, child in children:
            if child["kind"] not in ("container", "list") or name == tokens[i]:
                continue
            if child.get("status") == "obsolete":
                continue
            inner = _enter(s, name, child, structural=s.structural + 1)
            inner.shadow = s.shadow | frozenset(self.flat(s.node))
            result = self._walk(inner, tokens, i)
            if result.ok:
                return _step(_mode(result, child, inner), f"{s.shown}/{name}", child)
            best = _deeper(best, result)
        return best

    def _positional(self, s: _State, name: str, child: Node) -> bool:
        """May ``name`` take a value without its keyword? A list's keys and, while keys are
        pending, any leaf not taking any string (``hold-queue 2048 in``: the key comes last);
        otherwise only the first unset leaf in schema order (bare values fill a node's leaves in
        order, as the CLI's positional arguments do)."""
        if not _bare(name, child):
            return False
        if name in s.keys:
            return True
        if s.keys:
            return not _any_string(child["type"])
        for other, node in self.flat(s.node).items():
            if node["kind"] in ("leaf", "leaf-list") and other not in s.used and _bare(other, node):
                if other == name:
                    return True
                if "enums" not in node["type"] or node["type"].get("base") == "union":
                    return False  # an optional word (`pre-shared-key [0|6] KEY`) may be left out
        return False

    def _keyword(self, s: _State, tokens: list[str], i: int, name: str, child: Node) -> Outcome:
        shown = f"{s.shown}/{name}"
        if child["kind"] in ("container", "list"):
            inner = _enter(s, name, child)
            result = self._walk(inner, tokens, i + 1)
            return _step(_mode(result, child, inner), shown, child)
        base = child["type"].get("base")
        last = i + 1 == len(tokens)
        if base == "empty" or (base == "boolean" and (last or self._negate)):
            value = "=false" if self._negate and base == "boolean" else ""
            return _step(self._walk(_set(s, name), tokens, i + 1), shown + value, child)
        if last:  # `no KEYWORD` removes the value; otherwise one is missing
            if self._negate:
                return _step(self._walk(_set(s, name), tokens, i + 1), shown, child)
            return _fail(i + 1, f"{shown}: a value ({child['type']['name']})")
        value = tokens[i + 1]
        error = value_error(child["type"], value)
        if error is not None:
            return _fail(i + 1, f"{shown}: {value!r} {error}")
        return _step(self._walk(_set(s, name), tokens, i + 2), f"{shown}={value}", child)

    def _successor(self, s: _State, tokens: list[str], i: int, name: str) -> Outcome:
        """An obsolete node's keyword, read as its successor's: Cisco keeps the old node and adds
        one named after the keyword with a suffix (``local`` -> ``local-option``, ``identity
        address`` -> ``address-type``, ``cdp run`` -> ``run-enable``)."""
        best = _fail(i + 1, f"{s.shown}/{name} is obsolete in Cisco's model")
        children = self.flat(s.node)
        for suffix in SUCCESSORS:
            successor = children.get(name + suffix)
            if successor is None or name + suffix in s.used:
                continue
            if successor.get("status") == "obsolete":
                continue
            result = self._keyword(s, tokens, i, name + suffix, successor)
            if result.ok:
                return result
            best = _deeper(best, result)
        return best

    def _rename(self, s: _State, tokens: list[str], i: int, target: str) -> Outcome:
        """Follow a RENAMES target: containers/lists entered without tokens, then the keyword."""
        *inner, last = target.split("/")
        state, entered = s, []
        for name in inner:
            child = self.flat(state.node).get(name)
            if child is None:
                return _fail(i, f"{state.shown}: RENAMES names no {name!r}")
            state = _enter(state, name, child, implicit_keys=True)
            entered.append((child, state.path, state.shown))
        if last.startswith("="):  # the keyword is this leaf's value
            leaf = last[1:]
            child = self.flat(state.node).get(leaf)
            if child is None:
                return _fail(i, f"{state.shown}: RENAMES names no {leaf!r}")
            error = value_error(child["type"], tokens[i])
            if error is not None:
                return _fail(i, f"{state.shown}/{leaf}: {tokens[i]!r} {error}")
            result = self._walk(_set(state, leaf), tokens, i + 1)
            result = _step(result, f"{state.shown}/{leaf}={tokens[i]}", child)
        else:
            child = self.flat(state.node).get(last)
            if child is None or last in state.used:
                return _fail(i, f"{state.shown}: no {last!r}")
            result = self._keyword(state, tokens, i, last, child)
        for node, path, shown in reversed(entered):
            if result.ok:
                result.modules.add(node["module"])
                if node["kind"] == "list" and result.mode is None:
                    result.mode = (node, path, shown)
        return result


def _bare(name: str, child: Node) -> bool:
    """Can this leaf take a bare value at all?"""
    if child["kind"] not in ("leaf", "leaf-list") or child.get("status") == "obsolete":
        return False
    return name not in KEYWORD_ONLY and child["type"].get("base") not in ("empty", "boolean")


def _any_string(type_: dict[str, Any]) -> bool:
    """Does the type accept any string (a keyword too)?"""
    if type_.get("base") == "union":
        return any(_any_string(member) for member in type_["union"])
    return type_.get("base") in ("string", "leafref") and not type_["patterns"]


def _enter(
    s: _State, name: str, child: Node, *, structural: int = 0, implicit_keys: bool = False
) -> _State:
    keys = () if implicit_keys else tuple(child.get("key", ()))
    path, shown = f"{s.path}/{name}".lstrip("/"), f"{s.shown}/{name}"
    return _State(child, path, shown, frozenset(), keys, structural)


def _fail(consumed: int, expected: str, *, generic: bool = False) -> Outcome:
    return Outcome(ok=False, consumed=consumed, expected=expected, generic=generic)


def _mode(result: Outcome, child: Node, inner: _State) -> Outcome:
    """A list entered on a line is its sub-mode (the last one, the innermost)."""
    if result.ok and child["kind"] == "list" and result.mode is None:
        result.mode = (child, inner.path, inner.shown)
    return result


def _set(s: _State, name: str) -> _State:
    keys = tuple(k for k in s.keys if k != name)
    return _State(s.node, s.path, s.shown, s.used | {name}, keys, 0, s.entered, s.shadow)


def _step(result: Outcome, step: str, node: Node) -> Outcome:
    if result.ok:
        result.steps.insert(0, step)
        result.modules.add(node["module"])
    return result


def _deeper(a: Outcome, b: Outcome) -> Outcome:
    """The failure that got further; on a tie, the leaves' reasons rather than "no child X"."""
    if b.consumed > a.consumed or (b.consumed == a.consumed and a.generic and not b.generic):
        return b
    if b.consumed == a.consumed and not b.generic and b.expected not in a.expected:
        a.expected = f"{a.expected}; {b.expected}"  # each leaf that refused the same token
    return a


_INTERFACE = re.compile(r"([A-Za-z][A-Za-z-]*?)(\d[\d/.:]*)")


def tokens_of(line: str, *, top: bool) -> list[str]:
    """A line's tokens; ``interface GigabitEthernet0/0/0.100`` is the list GigabitEthernet with
    name 0/0/0.100 in Cisco's model (one list per interface type)."""
    tokens = line.split()
    if top and len(tokens) == 2 and tokens[0] == "interface":
        found = _INTERFACE.fullmatch(tokens[1])
        if found:
            return ["interface", found.group(1), found.group(2)]
    return tokens


@dataclass
class LineResult:
    number: int
    text: str
    outcome: Outcome


def check_config(matcher: Matcher, text: str) -> list[LineResult]:
    """Every configuration line of ``text`` (comments ``!`` and blank lines skipped), matched
    from /native or from the node its parent line ended in."""
    results: list[LineResult] = []
    stack: list[tuple[int, Any, str, str]] = []  # indent, node, path, shown
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("!"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            _, node, path, shown = stack[-1]
            outcome = matcher.match(tokens_of(stripped, top=False), node, path, shown)
        else:
            outcome = matcher.match(tokens_of(stripped, top=True), matcher.native)
        results.append(LineResult(number, stripped, outcome))
        if not outcome.ok:  # its sub-mode is unknown: its children fail with it
            stack.append((indent, {"children": {}}, "", f"(under {stripped.split()[0]!r})"))
        elif outcome.mode is not None:
            stack.append((indent, *outcome.mode))
        else:
            stack.append((indent, outcome.context, outcome.context_path, outcome.context_shown))
    return results
