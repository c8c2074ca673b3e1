"""A small IOS command grammar: patterns, abbreviation-aware matching, where input goes wrong.

Patterns read like IOS help: ``xconnect A.B.C.D <1-4294967295> [encapsulation (l2tpv3|mpls)]
[manual] pw-class WORD``. Literal keywords match any prefix of at least two letters (IOS accepts
unambiguous abbreviations) and are stored in their full spelling. ``WORD`` is one token, ``LINE``
the rest of the line, ``A.B.C.D`` an IPv4 address, ``<a-b>`` a whole number in range, ``IFNAME``
an interface name (``gi0/0`` or ``GigabitEthernet 0/0``), ``(a|b)`` one of, ``[...]`` optional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from ipaddress import IPv4Address

from l2tpgen.sim import names

MIN_ABBREVIATION = 2


@dataclass(frozen=True)
class Lit:
    """A keyword."""

    word: str


@dataclass(frozen=True)
class Arg:
    """A typed argument: WORD, LINE, A.B.C.D, IFNAME or a number range."""

    kind: str
    low: int = 0
    high: int = 0


@dataclass(frozen=True)
class Alt:
    """One of several single elements."""

    options: tuple[Lit | Arg, ...]


@dataclass(frozen=True)
class Opt:
    """An optional sequence."""

    body: tuple[Element, ...]


Element = Lit | Arg | Alt | Opt


def _atom(text: str) -> Lit | Arg:
    if text in {"WORD", "LINE", "A.B.C.D", "IFNAME"}:
        return Arg(text)
    range_match = re.fullmatch(r"<(\d+)-(\d+)>", text)
    if range_match:
        return Arg("RANGE", int(range_match.group(1)), int(range_match.group(2)))
    return Lit(text)


def _parse(tokens: list[str], pos: int, closing: str | None) -> tuple[tuple[Element, ...], int]:
    out: list[Element] = []
    while pos < len(tokens):
        token = tokens[pos]
        if token == closing:
            return tuple(out), pos + 1
        if token == "[":  # noqa: S105
            body, pos = _parse(tokens, pos + 1, "]")
            out.append(Opt(body))
        elif token == "(":  # noqa: S105
            end = tokens.index(")", pos)
            options = [t for t in tokens[pos + 1 : end] if t != "|"]
            out.append(Alt(tuple(_atom(o) for o in options)))
            pos = end + 1
        else:
            out.append(_atom(token))
            pos += 1
    return tuple(out), pos


@cache
def compile_pattern(pattern: str) -> tuple[Element, ...]:
    """Parse a pattern once."""
    tokens = re.findall(r"[\[\]()|]|[^\s\[\]()|]+", pattern)
    elements, _ = _parse(tokens, 0, None)
    return elements


@dataclass(frozen=True)
class Match:
    """How far a line matched a pattern.

    ``complete``: every token matched and the pattern needs nothing more. ``exhausted``: every
    token matched but the pattern wanted more (IOS: "% Incomplete command."). ``progress``: the
    index of the first token that did not match. ``words``: the tokens in their stored spelling
    (for an incomplete match, the longest prefix that matched).
    """

    complete: bool
    exhausted: bool
    progress: int
    words: tuple[str, ...]


State = tuple[int, tuple[str, ...]]


def _accept(atom: Lit | Arg, tokens: list[str], pos: int) -> list[tuple[int, tuple[str, ...]]]:  # noqa: PLR0911 - one return per argument kind
    """The ways ``atom`` can consume tokens at ``pos``: (tokens used, stored spelling)."""
    if pos >= len(tokens):
        return []
    token = tokens[pos]
    if isinstance(atom, Lit):
        word = atom.word.lower()
        low = token.lower()
        ok = low == word or (len(low) >= MIN_ABBREVIATION and word.startswith(low))
        return [(1, (atom.word,))] if ok else []
    kind = atom.kind
    if kind == "WORD":
        return [(1, (token,))]
    if kind == "LINE":
        return [(len(tokens) - pos, tuple(tokens[pos:]))]
    if kind == "A.B.C.D":
        try:
            IPv4Address(token)
        except ValueError:
            return []
        return [(1, (token,))]
    if kind == "RANGE":
        return [(1, (token,))] if token.isdigit() and atom.low <= int(token) <= atom.high else []
    if kind == "IFNAME":
        return _interface(tokens, pos)
    return []


def _interface(tokens: list[str], pos: int) -> list[tuple[int, tuple[str, ...]]]:
    found: list[tuple[int, tuple[str, ...]]] = []
    for used in (1, 2):
        text = "".join(tokens[pos : pos + used])
        if pos + used > len(tokens) or (used == 2 and not names.is_number(tokens[pos + 1])):  # noqa: PLR2004
            continue
        name = names.canonical(text)
        if name is not None:
            found.append((used, (name,)))
    return found


def _step(element: Element, tokens: list[str], states: set[State], best: list[int]) -> set[State]:
    out: set[State] = set()
    if isinstance(element, Opt):
        inner = states
        for sub in element.body:
            inner = _step(sub, tokens, inner, best)
        return states | inner
    atoms = element.options if isinstance(element, Alt) else (element,)
    for pos, words in states:
        # As in IOS, a keyword typed in full wins over keywords it abbreviates
        # (`protocol l2tpv3` is l2tpv3, not l2tpv3ietf).
        exact = pos < len(tokens) and any(
            isinstance(a, Lit) and a.word.lower() == tokens[pos].lower() for a in atoms
        )
        for atom in atoms:
            if exact and isinstance(atom, Lit) and atom.word.lower() != tokens[pos].lower():
                continue
            for used, spelled in _accept(atom, tokens, pos):
                out.add((pos + used, words + spelled))
                best[0] = max(best[0], pos + used)
    return out


def match(pattern: str, tokens: list[str]) -> Match:
    """Match input tokens against a pattern."""
    states: set[State] = {(0, ())}
    best = [0]
    for element in compile_pattern(pattern):
        states = _step(element, tokens, states, best)
        if not states:
            break
    finals = [words for pos, words in states if pos == len(tokens)]
    if finals:
        return Match(
            complete=True,
            exhausted=False,
            progress=len(tokens),
            words=max(finals, key=lambda w: (len(w), w)),  # deterministic: never set order
        )
    return Match(
        complete=False,
        exhausted=bool(tokens) and best[0] == len(tokens),
        progress=best[0],
        words=_prefix(pattern, tokens),
    )


def _prefix(pattern: str, tokens: list[str]) -> tuple[str, ...]:
    """The stored spelling of the longest prefix of ``tokens`` the pattern accepts."""
    for cut in range(len(tokens), 0, -1):
        states: set[State] = {(0, ())}
        best = [0]
        for element in compile_pattern(pattern):
            states = _step(element, tokens[:cut], states, best)
            if any(pos == cut for pos, _ in states):
                return max((w for p, w in states if p == cut), key=lambda w: (len(w), w))
            if not states:
                break
    return ()
