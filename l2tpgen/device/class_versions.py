"""Classes on a live router: adopt what is there, change what is in use make-before-break.

A class that xconnects use (or that a pseudowire-class in use names) is never edited in place: a
changed ``protocol`` or ``ip local interface`` under live sessions tears them down, and some IOS
releases refuse the edit. When the model changes such a class, the change builds a new class named
``NAME-xxxxxx`` (six hex digits of its content), moves the xconnects to it, then removes the old
one. The next push finds that version, sees its content is the model's, and keeps it: the name on
the router is the model's name or one of its versions, never anything else.

Secrets are compared by value, not by text: IOS writes type 7 with a random salt, so one secret has
many spellings. Where the model's secret is the router's (or unknown: a dry run without the
variable), the router's text is kept, and an unchanged secret changes nothing. A new secret is set
in place (it takes effect when sessions next authenticate): the version name leaves secrets out,
so that no hash of a secret ever appears on a router.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.device.scope import section_lines
from l2tpgen.ios import type7

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Config, Node

KINDS = ("l2tp-class", "pseudowire-class")  # l2tp-classes first: pseudowire-classes name them
_VERSION = re.compile(r"^(?P<base>.+)-[0-9a-f]{6}$")
_SECRET = re.compile(
    r"^(?P<head>(?P<keyword>password|digest secret)(?: (?P<type>[0-9]))? )(?P<value>\S+)"
    r"(?P<tail>.*)$"
)
# Where a class is named: `protocol l2tpv3 X` (in a pseudowire-class), `l2tp hello X` (under a
# manual xconnect), `pw-class X` (at the end of an xconnect line).
_L2TP_REFERENCE = re.compile(r"^((?:protocol l2tpv3|l2tp hello) )(\S+)$")
_PW_REFERENCE = re.compile(r"^(xconnect .* pw-class )(\S+)$")


@dataclass(frozen=True)
class Adopted:
    """The intended config with class names settled, and what happened to each class.

    ``names``: model header -> header on the router after the push. ``notes``: one line per
    class moved to a new version (for the user). ``versions``: every running header that is the
    model's class or one of its versions (candidates for removal when no longer used).
    """

    text: str
    names: dict[str, str]
    notes: tuple[str, ...]
    versions: frozenset[str]


def _body(node: Node) -> list[str]:
    return section_lines(node)[1:]


def _without_secrets(body: list[str]) -> tuple[str, ...]:
    out = []
    for line in body:
        found = _SECRET.match(line.strip())
        out.append(f"{found.group('head')}<secret>{found.group('tail')}" if found else line)
    return tuple(out)


Canonical = tuple[tuple[str, "Canonical"], ...]


def canonical(body: list[str], *, ordered: bool = False) -> Canonical:
    """A section's body (indented lines) as IOS compares it: each level's lines as a set.

    A class's, an interface's or a crypto section's lines are settings: IOS prints them in an
    order of its own whatever order they were typed in, so two bodies with the same lines (each
    with the same children) are the same. ``ordered``: the top level keeps its order (an access
    list's entries, whose order is what the list does).
    """
    return _level(body, 0, len(body), ordered=ordered)


def _level(body: list[str], start: int, end: int, *, ordered: bool) -> Canonical:
    """The lines of ``body[start:end]`` at its shallowest depth, each with its children."""
    out: list[tuple[str, Canonical]] = []
    at = start
    while at < end:
        depth = len(body[at]) - len(body[at].lstrip(" "))
        below = at + 1
        while below < end and len(body[below]) - len(body[below].lstrip(" ")) > depth:
            below += 1
        out.append((body[at].strip(), _level(body, at + 1, below, ordered=False)))
        at = below
    return tuple(out) if ordered else tuple(sorted(out))


def _comparable(body: list[str]) -> Canonical:
    """The body as compared with the router's: secrets left out, whatever their type, order too.

    ``password 0 X``, ``password X`` and ``password 7 <X encoded>`` set the same secret; which
    secret it is, is compared by value (``_align``), never by text. IOS prints a class's lines in
    its own order (``sequencing`` right after ``encapsulation``, which l2tpgen renders last), so
    the order is not compared either (``canonical``).
    """
    out = []
    for line in body:
        found = _SECRET.match(line.strip())
        indent = line[: len(line) - len(line.lstrip(" "))]
        out.append(
            f"{indent}{found.group('keyword')} <secret>{found.group('tail')}" if found else line
        )
    return canonical(out)


def version_name(base: str, body: list[str]) -> str:
    """``base-xxxxxx``: six hex digits of the class's content, secrets and line order left out."""
    lines = sorted(_without_secrets(body))
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:6]
    return f"{base}-{digest}"


def base_name(name: str) -> str:
    """The model's name of a class version (``ethernet-1a2b3c`` -> ``ethernet``)."""
    found = _VERSION.match(name)
    return found.group("base") if found else name


def _xconnects(root: Node) -> list[Node]:
    return [node for node in root.walk() if node.text.startswith("xconnect ")]


def in_use(running: Config, intended: Config, owned: frozenset[str], lan: str = "") -> set[str]:
    """Headers of the classes that carry sessions while the classes change.

    Push changes classes before it touches the subinterfaces (``l2tpgen.device.plan``), so every
    xconnect on a subinterface that stays is still there when its class would change, even one
    about to be replaced (static sessions becoming dynamic: the ``manual`` xconnects use the
    class until their own turn comes). Only xconnects that go before any class changes free
    their classes: those of subinterfaces the intended config drops, and the LAN trunk's
    (``lan``) unless the intended config keeps the same one. An xconnect on an interface
    l2tpgen does not own always stays. A pseudowire-class is in use if such an xconnect names
    it; an l2tp-class if such a pseudowire-class, or such an xconnect's ``l2tp hello``, names it.
    """
    wanted = {
        root.text: {_subtree(x) for x in _xconnects(root)}
        for root in intended.roots
        if root.text.startswith("interface ")
    }
    staying: list[Node] = []
    for root in running.roots:
        if not root.text.startswith("interface "):
            continue
        name = root.text.removeprefix("interface ")
        mine = name in owned
        kept = root.text in wanted and name != lan
        staying += [
            x
            for x in _xconnects(root)
            if not mine or kept or _subtree(x) in wanted.get(root.text, set())
        ]
    used = _named(staying)
    return used | _named([r for r in running.roots if r.text in used])


def _named(nodes: list[Node]) -> set[str]:
    """Headers of the classes these nodes (and their children) name."""
    named: set[str] = set()
    for top in nodes:
        for node in top.walk():
            if (found := _PW_REFERENCE.match(node.text)) is not None:
                named.add(f"pseudowire-class {found.group(2)}")
            elif (found := _L2TP_REFERENCE.match(node.text)) is not None:
                named.add(f"l2tp-class {found.group(2)}")
    return named


def _subtree(node: Node) -> tuple[str, ...]:
    return tuple(section_lines(node))


def _rename(lines: list[str], names: dict[str, str]) -> list[str]:
    """Apply header renames to class headers and every reference to them."""
    plain = {
        kind: {
            old.split(" ", 1)[1]: new.split(" ", 1)[1]
            for old, new in names.items()
            if old.startswith(kind + " ")
        }
        for kind in KINDS
    }
    out = []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped in names:
            stripped = names[stripped]
        elif (found := _L2TP_REFERENCE.match(stripped)) is not None:
            stripped = found.group(1) + plain["l2tp-class"].get(found.group(2), found.group(2))
        elif (found := _PW_REFERENCE.match(stripped)) is not None:
            new = plain["pseudowire-class"].get(found.group(2), found.group(2))
            stripped = found.group(1) + new
        out.append(indent + stripped)
    return out


def _plain(found: re.Match[str]) -> str | None:
    """The clear value of a secret line's secret: type 0 (or none) as written, type 7 decoded.

    None for a hash (types 5, 8, 9 ...), which cannot be compared. The value never leaves this
    module's comparisons.
    """
    kind, value = found.group("type"), found.group("value")
    if kind in {None, "0"}:
        return value
    if kind != "7":
        return None
    try:
        return type7.decode(value)
    except type7.Type7Error:
        return None


def _align(body: list[str], theirs: list[str]) -> list[str]:
    """The intended body, its secret lines in the router's spelling where the secret is the same."""
    router = {}
    for line in theirs:
        found = _SECRET.match(line.strip())
        if found:
            router[found.group("head").split()[0]] = found
    out = []
    for line in body:
        found = _SECRET.match(line.strip())
        other = router.get(found.group("head").split()[0]) if found else None
        if found and other is not None and found.group("tail") == other.group("tail"):
            plain = _plain(found)
            if found.group("value").startswith("<") or (
                plain is not None and plain == _plain(other)
            ):
                line = " " + other.group(0)  # noqa: PLW2901 - the aligned line replaces it
        out.append(line)
    return out


@dataclass
class _Sections:
    """Top-level sections of one config: header -> body lines, in order."""

    bodies: dict[str, list[str]]
    order: list[str]

    @classmethod
    def of(cls, config: Config) -> _Sections:
        bodies: dict[str, list[str]] = {}
        order = []
        for root in config.roots:
            bodies[root.text] = _body(root)
            order.append(root.text)
        return cls(bodies, order)


def adopt(intended: Config, running: Config, owned: frozenset[str], lan: str = "") -> Adopted:
    """Settle the intended classes' names against the router (see the module docstring).

    ``owned``: the interfaces whose xconnects push owns, ``lan`` the LAN trunk (see ``in_use``).
    """
    want = _Sections.of(intended)
    have = _Sections.of(running)
    used = in_use(running, intended, owned, lan)
    names: dict[str, str] = {}
    notes: list[str] = []
    versions: set[str] = set()
    for kind in KINDS:
        for header in [h for h in want.order if h.startswith(kind + " ")]:
            base = header.split(" ", 1)[1]
            body = _rename(want.bodies[header], names)
            family = [
                h
                for h in have.order
                if h.startswith(kind + " ") and base_name(h.split(" ", 1)[1]) == base
            ]
            versions.update(family)
            same = [h for h in family if _comparable(have.bodies[h]) == _comparable(body)]
            if header in same or not same:
                chosen = header
                if not same and header in have.bodies and header in used:
                    chosen = f"{kind} {version_name(base, body)}"
                    notes.append(
                        f"{header} is in use and changes: building {chosen}, moving its users "
                        f"to it, then removing {header} if nothing else uses it"
                    )
            else:
                chosen = same[0]
            names[header] = chosen
    lines: list[str] = []
    for header in want.order:
        body = _rename(want.bodies[header], names)
        final = names.get(header, header)
        if final in have.bodies and header in names:
            body = _align(body, have.bodies[final])
        lines += [final, *body]
    return Adopted("".join(line + "\n" for line in lines), names, tuple(notes), frozenset(versions))
