"""VyOS's command definitions (vyos-1x ``interface-definitions/*.xml.in``), and ``set`` lines
checked against them node by node.

The definitions are vendored in ``tests/vendor/vyos-1x/interface-definitions/`` (SOURCE.md).
What vyos-1x's build does with them, done here in small: ``#include <file>`` lines are replaced
by the file (vyos-1x ``scripts/transclude-template``); definitions of one node in several files
or includes are merged (a ``leafNode name="mtu"`` that only sets a default adds to the included
one). A ``node`` is a keyword, a ``tagNode`` a keyword followed by a name (its ``constraint``
checks the name), a ``leafNode`` a keyword followed by its value unless ``valueless``.

A value is valid when it passes any one of its ``constraint``'s checks: vyos-utils
``src/validate_value.ml`` (commit 3f84c582) exits 0 at the first check that passes. Regexes are
matched against the whole value here; validate_value.ml runs ``Pcre.exec`` without anchors
([U] whether VyOS anchors them elsewhere: whole-value matching is the stricter reading).
Validators are the programs of vyos-1x ``src/validators/`` and vyos-utils (``numeric``),
re-implemented for those the definitions here use; an unknown one fails the check, by name.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

DEFINITIONS = Path(__file__).resolve().parent / "vendor" / "vyos-1x" / "interface-definitions"
_INCLUDE = re.compile(r"^\s*#include <(.+)>\s*$")


@dataclass
class VyNode:
    """One command node: ``kind`` node, tagNode or leafNode."""

    kind: str
    name: str
    source: str  # the definition file it came from first
    children: dict[str, VyNode] = field(default_factory=dict)
    regexes: list[str] = field(default_factory=list)
    validators: list[tuple[str, str]] = field(default_factory=list)
    valueless: bool = False
    multi: bool = False


def _transclude(path: Path) -> str:
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = _INCLUDE.match(line)
        lines.append(_transclude(DEFINITIONS / found.group(1)) if found else line)
    return "\n".join(lines)


def load(*files: str) -> VyNode:
    """The root of the named definition files, merged."""
    root = VyNode("node", "", "")
    for name in files:
        tree = ET.fromstring(_transclude(DEFINITIONS / name))  # noqa: S314 - vendored files
        _merge(root, tree, name)
    return root


def _merge(parent: VyNode, element: ET.Element, source: str) -> None:
    """Add ``element``'s node, tagNode and leafNode children (an interfaceDefinition's, or a
    node's ``children`` element's) to ``parent``."""
    for child in element:
        if child.tag not in ("node", "tagNode", "leafNode"):
            continue
        name = child.get("name", "")
        node = parent.children.setdefault(name, VyNode(child.tag, name, source))
        props = child.find("properties")
        if props is not None:
            node.valueless = node.valueless or props.find("valueless") is not None
            node.multi = node.multi or props.find("multi") is not None
            for constraint in props.findall("constraint"):
                node.regexes += [(r.text or "").strip() for r in constraint.findall("regex")]
                node.validators += [
                    (v.get("name", ""), v.get("argument", ""))
                    for v in constraint.findall("validator")
                ]
        kids = child.find("children")
        if kids is not None:
            _merge(node, kids, source)


@dataclass
class Checked:
    ok: bool
    path: str
    reason: str = ""
    source: str = ""  # the definition file of the last node


def check_set(root: VyNode, line: str) -> Checked:
    """A ``set ...`` line, walked down the definitions."""
    tokens = shlex.split(line)
    if not tokens or tokens[0] != "set":
        return Checked(ok=False, path="", reason="not a set command")
    node, path, i = root, "", 1
    while i < len(tokens):
        child = node.children.get(tokens[i])
        if child is None:
            known = sorted(node.children)[:12]
            return Checked(ok=False, path=path or "/", reason=f"no node {tokens[i]!r} ({known})")
        path, node, i = f"{path}/{tokens[i]}", child, i + 1
        if child.kind == "node":
            continue
        if child.kind == "leafNode" and child.valueless:
            return _end(child, path, tokens[i:], "valueless")
        error = value_error(child, tokens[i]) if i < len(tokens) else "a value is missing"
        if error is not None:
            shown = f"{tokens[i]!r}: {error}" if i < len(tokens) else error
            return Checked(ok=False, path=path, reason=shown)
        path += f"/{tokens[i]}" if child.kind == "tagNode" else f"={tokens[i]}"
        i += 1
        if child.kind == "leafNode":
            return _end(child, path, tokens[i:], "a leaf takes one value")
    done = node.kind != "node"
    return Checked(ok=done, path=path, reason="" if done else "ends at a node", source=node.source)


def _end(node: VyNode, path: str, rest: list[str], what: str) -> Checked:
    if rest:
        return Checked(ok=False, path=path, reason=f"{what}, but given {rest}")
    return Checked(ok=True, path=path, source=node.source)


def value_error(node: VyNode, value: str) -> str | None:
    """Why the node's constraint refuses ``value`` (None: a check passed, or none exists)."""
    if not node.regexes and not node.validators:
        return None
    reasons = []
    for regex in node.regexes:
        if re.fullmatch(regex, value):
            return None
        reasons.append(f"regex {regex!r}")
    for name, argument in node.validators:
        reason = _validator(name, argument, value)
        if reason is None:
            return None
        reasons.append(reason)
    return "refused by " + "; ".join(reasons)


def _validator(name: str, argument: str, value: str) -> str | None:
    checks = {
        "ipv4-address": lambda: _is_address(value, 4),
        "ipv6-address": lambda: _is_address(value, 6),
        "ip-address": lambda: _is_address(value, 4) or _is_address(value, 6),
        "ipv4-prefix": lambda: _is_network(value, 4),
        "ipv6-prefix": lambda: _is_network(value, 6),
        "ip-prefix": lambda: _is_network(value, 4) or _is_network(value, 6),
        "ipv4-host": lambda: _is_host(value, 4),
        "ipv6-host": lambda: _is_host(value, 6),
        "ip-host": lambda: _is_host(value, 4) or _is_host(value, 6),
        "numeric": lambda: _numeric(argument, value),
        "ip-protocol": lambda: value.isdigit() and int(value) <= 255,
    }
    check = checks.get(name)
    if check is None:
        return f"validator {name} (not implemented here)"
    return None if check() else f"validator {name} {argument}".strip()


def _is_address(value: str, version: int) -> bool:
    """ipaddrcheck --is-ipv4-single / --is-ipv6-single: an address, no prefix length."""
    try:
        return ipaddress.ip_address(value).version == version
    except ValueError:
        return False


def _is_network(value: str, version: int) -> bool:
    """ipaddrcheck --is-ipv4-net: a prefix with its host bits zero."""
    try:
        return "/" in value and ipaddress.ip_network(value).version == version
    except ValueError:
        return False


def _is_host(value: str, version: int) -> bool:
    """ipaddrcheck --is-ipv4-host: an address with a prefix length, not the network's own."""
    try:
        interface = ipaddress.ip_interface(value)
    except ValueError:
        return False
    if "/" not in value or interface.version != version:
        return False
    network = interface.network
    return network.prefixlen >= network.max_prefixlen - 1 or interface.ip != network.network_address


def _numeric(argument: str, value: str) -> bool:
    """vyos-utils numeric: an integer within any ``--range a-b``; ``--non-negative``."""
    if not re.fullmatch(r"\d+", value):
        return False
    number = int(value)
    ranges = re.findall(r"--range (\d+)-(\d+)", argument)
    if ranges:
        return any(int(lo) <= number <= int(hi) for lo, hi in ranges)
    return True  # --non-negative, or no argument: any natural number
