"""The change a push makes: the part of the config l2tpgen owns, running vs intended, as commands.

l2tpgen owns the l2tp-class and pseudowire-class named in the site model, every dot1Q subinterface
of the LAN trunk (stale ones are removed), and the hold-queue lines of the LAN and WAN interfaces.
Nothing else is read into the comparison, so nothing else can change. The remediation comes from
hier_config, then is put in a safe order: stale subinterfaces (and their xconnects) removed first,
classes created or changed before the interfaces that use them.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hier_config import Platform, WorkflowRemediation, get_hconfig

from l2tpgen.ios import type7
from l2tpgen.ios.names import interface_sort_key
from l2tpgen.ios.order import SortKey, running_config_key
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Node
    from l2tpgen.model import Site

_SECRET = re.compile(r"^(\s*(?:password|digest secret) 7 )(\S+)(.*)$", re.MULTILINE)
MASK = "<masked>"


@dataclass(frozen=True)
class Scope:
    """The sections and lines of one router that l2tpgen manages."""

    classes: frozenset[str]
    lan: str
    hold_queue_interfaces: frozenset[str]

    @classmethod
    def of(cls, site: Site) -> Scope:
        """The scope of a site's router."""
        classes = {f"pseudowire-class {site.pseudowire_class.name}"}
        if site.pseudowire_class.signaling == "dynamic":
            classes.add(f"l2tp-class {site.l2tp_class.name}")
        return cls(
            frozenset(classes),
            site.lan.interface,
            frozenset({site.lan.interface, site.wan.interface}),
        )

    def select(self, config: str) -> str:
        """The managed part of a config, as indented IOS text in running-config order."""
        out: list[str] = []
        for node in sorted(parse(config).roots, key=_order):
            text = node.text
            if text in self.classes or text.startswith(f"interface {self.lan}."):
                out += _lines(node, 0)
            elif text.removeprefix("interface ") in self.hold_queue_interfaces:
                queues = [c for c in node.children if c.text.startswith("hold-queue ")]
                if queues:
                    out.append(text)
                    out += [" " + c.text for c in queues]
        return "".join(line + "\n" for line in out)


def _order(node: Node) -> SortKey:
    return running_config_key(node.text)


def _lines(node: Node, depth: int) -> list[str]:
    out = [" " * depth + node.text]
    for child in node.children:
        out += _lines(child, depth + 1)
    return out


def _plain(secret: str) -> str | None:
    try:
        return type7.decode(secret)
    except type7.Type7Error:
        return None


def align_secrets(intended: str, running: str) -> str:
    """Keep the router's type 7 text where the secret is unchanged or unknown.

    Type 7 has a random salt, so the same secret has many spellings: where the intended secret
    decodes to the router's (or is masked, i.e. unknown), the router's text is used, and an
    unchanged secret makes no change.
    """
    on_router = {m.group(1).strip(): m.group(2) for m in _SECRET.finditer(running)}

    def keep(match: re.Match[str]) -> str:
        head, value, tail = match.groups()
        theirs = on_router.get(head.strip())
        if theirs is None:
            return match.group(0)
        ours = _plain(value)
        if ours is None or ours == _plain(theirs):
            return f"{head}{theirs}{tail}"
        return match.group(0)

    return _SECRET.sub(keep, intended)


def mask(text: str) -> str:
    """Hide every type 7 secret (reversible, so as good as clear text)."""
    return _SECRET.sub(lambda m: f"{m.group(1)}{MASK}{m.group(3)}", text)


@dataclass(frozen=True)
class Plan:
    """What a push would change on one router.

    Texts and ``commands`` are masked for display; the commands to send are in ``send``, which may
    hold secrets: never print it.
    """

    running: str
    intended: str
    send: tuple[str, ...]

    @property
    def commands(self) -> tuple[str, ...]:
        """The commands, secrets masked: for display and JSON."""
        return tuple(mask(c) for c in self.send)

    @property
    def empty(self) -> bool:
        """No change needed."""
        return not self.send

    def diff(self, name: str) -> str:
        """Unified diff of the managed scope, secrets masked."""
        return "".join(
            difflib.unified_diff(
                mask(self.running).splitlines(keepends=True),
                mask(self.intended).splitlines(keepends=True),
                fromfile=f"{name} (running, managed part)",
                tofile=f"{name} (intended)",
            )
        )


def _commands(remediation: Any) -> list[str]:  # noqa: ANN401 - hier_config's tree is untyped
    removals: list[str] = []
    blocks: list[tuple[tuple[int, tuple[int, str, tuple[int, ...], int]], list[str]]] = []
    no_interface = (0, "", (), 0)
    for child in remediation.children:
        text = child.text
        block = [text, *(" " * depth + line for depth, line in _walk(child, 1))]
        if text.startswith("l2tp-class "):
            blocks.append(((0, no_interface), block))
        elif text.startswith("pseudowire-class "):
            blocks.append(((1, no_interface), block))
        elif text.startswith("interface "):
            blocks.append(((2, interface_sort_key(text.split(" ", 1)[1])), block))
        else:
            removals.append(text)  # `no interface X.Y`: stale xconnects go before anything changes
    return removals + [line for _, block in sorted(blocks, key=lambda b: b[0]) for line in block]


def _walk(node: Any, depth: int) -> list[tuple[int, str]]:  # noqa: ANN401
    out: list[tuple[int, str]] = []
    for child in node.children:
        out.append((depth, child.text))
        out += _walk(child, depth + 1)
    return out


def plan_change(site: Site, running_config: str, intended_config: str) -> Plan:
    """The change that takes the router's managed part from running to intended."""
    scope = Scope.of(site)
    running = scope.select(running_config)
    intended = align_secrets(scope.select(intended_config), running)
    workflow = WorkflowRemediation(
        get_hconfig(Platform.CISCO_IOS, running), get_hconfig(Platform.CISCO_IOS, intended)
    )
    return Plan(running, intended, tuple(_commands(workflow.remediation_config)))
