"""Every ``set`` line l2tpgen renders for VyOS, checked against vyos-1x's command definitions
(issue 27): node names, tag names and values against each node's regex and validators.

The definitions are vyos-1x's ``interface-definitions/`` for VyOS 1.4 (sagitta), vendored in
``tests/vendor/vyos-1x/`` (SOURCE.md); ``tests/vyos_definitions.py`` reads them. No example fleet
has a VyOS PE, so the VyOS fleets of ``test_vyos.py`` (the hub example with its Linux edge made a
VyOS PE) and ``test_vyos_ipsec.py`` (the protected example, IPsec, with and without NAT-T) are
rendered: a line a future template adds is checked without an edit here.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from builders import HUB, PROTECTED, VYOS_EDGE, copy_example, vyos_protected_edits
from vyos_definitions import VyNode, check_set, load

from l2tpgen import load_fleet
from l2tpgen.platforms.render import render_files

FILES = (
    "interfaces_l2tpv3.xml.in",
    "interfaces_bridge.xml.in",
    "vpn_ipsec.xml.in",
    "interfaces_ethernet.xml.in",
    "interfaces_loopback.xml.in",
    "protocols_static.xml.in",
)
NAT_T = ("ipsec_mode: transport}", "ipsec_mode: transport, nat_t: true}")
PROTECTED_VYOS = vyos_protected_edits("site-b")
# (the example, its edits, the VyOS site)
FLEETS = {
    "hub-vyos-edge": (HUB, VYOS_EDGE, "linux-edge"),
    "protected-vyos-ipsec": (PROTECTED, PROTECTED_VYOS, "site-b"),
    "protected-vyos-nat-t": (
        PROTECTED,
        (*PROTECTED_VYOS, ("site-a", *NAT_T), ("site-b", *NAT_T)),
        "site-b",
    ),
}


def _render(tmp: Path, name: str) -> str:
    source, edits, site = FLEETS[name]
    sites = copy_example(source, tmp, *edits, name=name)
    return render_files(load_fleet(sites), site)[""]


def _kind(root: VyNode, line: str) -> str:
    """A line's kind: its keywords, names and values left out (``set interfaces l2tpv3 *
    peer-session-id``), so one check covers every line built alike."""
    words, node, out = line.split()[1:], root, []
    i = 0
    while i < len(words):
        child = node.children.get(words[i])
        out.append(words[i])
        if child is None or child.kind == "leafNode":
            break
        if child.kind == "tagNode":
            out.append("*")
            i += 1
        i += 1
        node = child
    return "set " + " ".join(out)


def _rendered() -> dict[str, list[tuple[str, str]]]:
    """Each rendered set line by kind: (fleet, line). Rendered when the module is collected,
    in a temporary directory removed at once, so each kind is a test of its own."""
    root = load(*FILES)
    kinds: dict[str, list[tuple[str, str]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for name in FLEETS:
            for line in _render(Path(tmp), name).splitlines():
                if line.startswith("set "):
                    kinds[_kind(root, line)].append((name, line))
    return dict(kinds)


RENDERED = _rendered()


@pytest.fixture(scope="module")
def definitions() -> VyNode:
    return load(*FILES)


def test_the_vyos_fleets_render_l2tpv3_bridge_and_ipsec_lines() -> None:
    assert "set interfaces l2tpv3 * peer-session-id" in RENDERED
    assert "set interfaces bridge * member interface * allowed-vlan" in RENDERED
    assert "set vpn ipsec site-to-site peer * force-udp-encapsulation" in RENDERED


@pytest.mark.parametrize("kind", sorted(RENDERED))
def test_each_rendered_vyos_line_kind_matches_vyos_1x_definitions(
    definitions: VyNode, kind: str
) -> None:
    """Every line of the kind; a failure names the node reached and the constraint."""
    failures = []
    for fleet, line in RENDERED[kind]:
        words = line.split()
        if "secret" in words:  # the value is masked; never printed either way
            line = " ".join([*words[: words.index("secret") + 1], "'<masked>'"])  # noqa: PLW2901
        checked = check_set(definitions, line)
        if not checked.ok:
            failures.append(f"{fleet}: {line}: at {checked.path}: {checked.reason}")
    assert not failures, "\n".join(failures)


# Lines a broken template could render, and the definition that refuses each (worked out by
# hand from the vendored files): l2tpv3 interfaces are named l2tpethN, session and tunnel IDs
# are 1..429496729 (interfaces_l2tpv3.xml.in), encapsulation udp|ip, mtu 68..16000
# (include/interface/mtu-68-16000.xml.i), bridge VLANs 1..4094 (interfaces_bridge.xml.in),
# ESP mode tunnel|transport, tunnel protocol an IP protocol (vpn_ipsec.xml.in).
BAD = [
    ("set interfaces l2tpv3 l2tp200 mtu '1454'", "/interfaces/l2tpv3", "l2tpeth[0-9]+"),
    ("set interfaces l2tpv3 l2tpeth1 session-id '0'", "session-id", "--range 1-429496729"),
    ("set interfaces l2tpv3 l2tpeth1 peer-tunnel-id '429496730'", "peer-tunnel-id", "1-4294967"),
    ("set interfaces l2tpv3 l2tpeth1 encapsulation 'ipip'", "encapsulation", "(udp|ip)"),
    ("set interfaces l2tpv3 l2tpeth1 mtu '16001'", "mtu", "--range 68-16000"),
    ("set interfaces l2tpv3 l2tpeth1 cookie '5'", "/interfaces/l2tpv3/l2tpeth1", "no node"),
    ("set interfaces bridge br0 member interface eth2 allowed-vlan '4095'", "allowed-vlan", ""),
    ("set vpn ipsec esp-group x mode 'transprt'", "mode", "regex"),
    ("set vpn ipsec site-to-site peer x tunnel 1 protocol '256'", "protocol", "ip-protocol"),
]


@pytest.mark.parametrize(("line", "where", "reason"), BAD, ids=[b[0][4:40] for b in BAD])
def test_a_line_vyos_would_refuse_fails_with_the_node_and_its_constraint(
    definitions: VyNode, line: str, where: str, reason: str
) -> None:
    checked = check_set(definitions, line)
    assert not checked.ok
    assert where in checked.path, checked
    assert reason in checked.reason, checked
