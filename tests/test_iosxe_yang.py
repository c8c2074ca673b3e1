"""Every line l2tpgen renders for IOS-XE, matched keyword by keyword to Cisco's YANG (issue 27).

The model: Cisco-IOS-XE-native for IOS XE 17.18.1 and the modules that augment it, as published
in YangModels/yang ``vendor/cisco/xe/17181/`` (vendored with its licence and source in
``tests/vendor/cisco-xe-yang/``, SOURCE.md). Cisco generates these models from the CLI's parser,
so a keyword is a node and a value a leaf's type. ``tests/iosxe_grammar.py`` walks each line down
the tree; ``tests/yang_schema.py`` compiles the modules with pyang.

What is checked: what ``render --platform iosxe`` produces for every fleet of ``sites/`` and
``examples/`` (all that render for IOS-XE) and the golden IOS configs (``tests/golden/render/``:
the static-session lines with cookies and hello). A new rendered line is checked without an edit
here: its kind (the keywords it starts with) becomes a new test. Where Cisco's model lacks a
line l2tpgen renders, ``DEVIATIONS`` says so with its evidence, and a test keeps that table exact.
Classic IOS has no published YANG model (YangModels/yang ``vendor/cisco/`` holds nx, svo, xe and
xr only): these lines stand for the lines both render (docs/lab.md).
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from conftest import GOLDEN, ROOT
from iosxe_grammar import Matcher, Outcome, check_config
from yang_schema import RELEASE, load_native

from l2tpgen import load_fleet
from l2tpgen.errors import L2tpgenError
from l2tpgen.platforms.render import render_files

FLEETS = [ROOT / "sites", *sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir())]

# How many keywords name a line's kind, by its first one or two tokens (default: one).
_KIND_WIDTH = {
    "crypto": 3,
    "crypto map": 2,
    "ip access-list": 3,
    "ip local": 3,
    "ip dfbit": 3,
    "ip": 2,
    "no": 3,
    "no ip": 3,
    "set": 2,
    "match": 2,
    "authentication": 2,
    "identity": 2,
    "keyring": 2,
    "l2tp": 2,
    "l2tp cookie": 3,
    "digest": 2,
    "cookie": 2,
    "encapsulation": 2,
    "mode": 2,
    "hold-queue": 1,
}

# What Cisco's IOS XE 17.18.1 model lacks, by line kind: (the modules it is checked against, why).
# Each was looked for in the whole compiled tree (no node named digest, and none named l2tp or id
# under any xconnect). A kind listed here must fail for every line of it; one that starts
# matching (a fixed renderer, a newer model) fails test_each_rendered_line_kind_... until its
# entry is removed, and an entry no rendered line has fails test_the_deviation_table_is_exact.
# The CLI has these commands (shared docs l2tpv3-brief.md, S1/S3): `digest [secret {0|7}
# password] [hash {md5|sha}]` in L2TP class mode, Cisco IOS 12.0(29)S/12.2(25)S L2TPv3 reference,
# p. 88 (https://www.manualshelf.com/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-88.html);
# `xconnect ... encapsulation l2tpv3 manual`, then `l2tp id`, `l2tp cookie local|remote`,
# `l2tp hello` (http://www.cisco.com/c/en/us/td/docs/ios/12_0s/feature/guide/l2tpv323.html).
# [U] that IOS XE 17.18 still accepts them: Cisco's IOS XE L2TPv3 guide (l2tpv3-brief.md S8)
# carries the feature, the model does not; only a device can settle it.
# Value: (the modules checked, why, how the check's report ends: where the walk stopped).
DEVIATIONS: dict[str, tuple[str, str, str]] = {
    # Cisco-IOS-XE-l2vpn's grouping l2tp-class-options (augmenting /native/l2tp-class) has
    # authentication, hello, password and cookie size: no digest.
    "l2tp-class > digest secret": (
        "Cisco-IOS-XE-native, Cisco-IOS-XE-l2vpn",
        "the model has no l2tp-class/digest (17.18.1); the CLI documents `digest secret`",
        "/native/l2tp-class: no child 'digest'",
    ),
    # /native/interface/*/xconnect (Cisco-IOS-XE-l2vpn, grouping
    # config-interface-xconnect-grouping) has address, vcid, encapsulation, manual, sequence and
    # pw-class: the static session's sub-mode (`manual`, then these lines) is not modelled.
    "interface > xconnect > l2tp id": (
        "Cisco-IOS-XE-l2vpn",
        "xconnect's manual sub-mode (l2tp id) is not modelled in 17.18.1",
        "/xconnect: no child 'l2tp'",
    ),
    "interface > xconnect > l2tp cookie local": (
        "Cisco-IOS-XE-l2vpn",
        "xconnect's manual sub-mode (l2tp cookie) is not modelled in 17.18.1",
        "/xconnect: no child 'l2tp'",
    ),
    "interface > xconnect > l2tp cookie remote": (
        "Cisco-IOS-XE-l2vpn",
        "xconnect's manual sub-mode (l2tp cookie) is not modelled in 17.18.1",
        "/xconnect: no child 'l2tp'",
    ),
    "interface > xconnect > l2tp hello": (
        "Cisco-IOS-XE-l2vpn",
        "xconnect's manual sub-mode (l2tp hello) is not modelled in 17.18.1",
        "/xconnect: no child 'l2tp'",
    ),
}


def _kind(tokens: list[str]) -> str:
    width = _KIND_WIDTH.get(" ".join(tokens[:2]), _KIND_WIDTH.get(tokens[0], 1))
    return " ".join(tokens[:width])


def _rendered() -> dict[str, str]:
    """Every IOS-XE config l2tpgen renders for the example fleets, and the golden IOS ones."""
    configs: dict[str, str] = {}
    for directory in FLEETS:
        try:
            fleet = load_fleet(directory)
        except L2tpgenError:
            continue  # examples/broken: refused by design
        for name in sorted(fleet.sites):
            try:
                text = render_files(fleet, name, platform="iosxe")[""]
            except L2tpgenError:
                continue  # an IPv6 underlay: IOS-XE carries no xconnect over IPv6
            configs[f"{directory.relative_to(ROOT)}/{name}"] = text
    for path in sorted((GOLDEN / "render").glob("*.ios.conf")):
        configs[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return configs


def _lines_by_kind(configs: dict[str, str]) -> dict[str, list[tuple[str, int, str]]]:
    kinds: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for where, text in configs.items():
        parents: list[tuple[int, str]] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("!"):
                continue
            indent = len(raw) - len(raw.lstrip(" "))
            while parents and parents[-1][0] >= indent:
                parents.pop()
            kind = " > ".join([*(k for _, k in parents), _kind(line.split())])
            parents.append((indent, _kind(line.split())))
            kinds[kind].append((where, number, line))
    return dict(kinds)


CONFIGS = _rendered()
KINDS = _lines_by_kind(CONFIGS)


@pytest.fixture(scope="module")
def matcher(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Matcher:
    """Cisco's model compiled once (about 25 s of CPU), then read from pytest's cache."""
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    where = cache.mkdir("cisco-xe-yang") if cache else tmp_path_factory.mktemp("cisco-xe-yang")
    return Matcher(load_native(where))


@pytest.fixture(scope="module")
def outcomes(matcher: Matcher) -> dict[tuple[str, int], Outcome]:
    """Each rendered line's match, by (config, line number)."""
    found = {}
    for where, text in CONFIGS.items():
        for result in check_config(matcher, text):
            found[(where, result.number)] = result.outcome
    return found


def test_the_example_fleets_render_for_iosxe() -> None:
    assert len(CONFIGS) >= 8, sorted(CONFIGS)
    assert {"l2tp-class", "pseudowire-class", "interface > xconnect"} <= set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_rendered_line_kind_matches_ciscos_iosxe_yang(
    kind: str, outcomes: dict[tuple[str, int], Outcome]
) -> None:
    lines = KINDS[kind]
    if kind in DEVIATIONS:
        matched = [f"{w}:{n}: {t}" for w, n, t in lines if outcomes[(w, n)].ok]
        assert not matched, f"{kind} now matches {RELEASE}: remove it from DEVIATIONS: {matched}"
        reported = {outcomes[(w, n)].expected for w, n, _ in lines}
        assert all(r.endswith(DEVIATIONS[kind][2]) for r in reported), reported
        return
    failures = []
    for where, number, text in lines:
        outcome = outcomes[(where, number)]
        if not outcome.ok:
            failures.append(f"{where}:{number}: {text!r}: reached {outcome.expected}")
    assert not failures, "\n".join(failures)
    first = outcomes[(lines[0][0], lines[0][1])]
    assert first.steps, kind  # a path was walked
    assert first.modules <= _VENDORED_MODULES, first.modules  # named after Cisco's modules


_VENDORED_MODULES = {
    p.stem for p in (ROOT / "tests" / "vendor" / "cisco-xe-yang" / RELEASE).glob("*.yang")
}


# The YANG module or submodule (the file) of each node a kind's lines walk through, reviewed by
# eye against the vendored files. Cisco-IOS-XE-interfaces and -ip are submodules of
# Cisco-IOS-XE-native; -l2vpn, -crypto, -acl, -cdp and -ethernet are modules augmenting /native;
# -interface-common gives crypto map local-address its interface type. A kind rendered later and
# not listed here is still walked (test_each_rendered_line_kind_...); add it here. (An entry no
# longer rendered is skipped: the table documents, the walk tests.)
MODULES = {
    "crypto ikev2 keyring": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-native",
    "crypto ikev2 keyring > peer": "Cisco-IOS-XE-crypto",
    "crypto ikev2 keyring > peer > address": "Cisco-IOS-XE-crypto",
    "crypto ikev2 keyring > peer > pre-shared-key": "Cisco-IOS-XE-crypto",
    "crypto ikev2 policy": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-native",
    "crypto ikev2 policy > proposal": "Cisco-IOS-XE-crypto",
    "crypto ikev2 profile": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-native",
    "crypto ikev2 profile > authentication local": "Cisco-IOS-XE-crypto",
    "crypto ikev2 profile > authentication remote": "Cisco-IOS-XE-crypto",
    "crypto ikev2 profile > identity local": "Cisco-IOS-XE-crypto",
    "crypto ikev2 profile > keyring local": "Cisco-IOS-XE-crypto",
    "crypto ikev2 profile > match identity": "Cisco-IOS-XE-crypto",
    "crypto ikev2 proposal": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-native",
    "crypto ikev2 proposal > encryption": "Cisco-IOS-XE-crypto",
    "crypto ikev2 proposal > group": "Cisco-IOS-XE-crypto",
    "crypto ikev2 proposal > prf": "Cisco-IOS-XE-crypto",
    "crypto ipsec transform-set": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-native",
    "crypto ipsec transform-set > mode transport": "Cisco-IOS-XE-crypto",
    "crypto map": "Cisco-IOS-XE-crypto, Cisco-IOS-XE-interface-common, Cisco-IOS-XE-native",
    "crypto map > match address": "Cisco-IOS-XE-crypto",
    "crypto map > set ikev2-profile": "Cisco-IOS-XE-crypto",
    "crypto map > set peer": "Cisco-IOS-XE-crypto",
    "crypto map > set transform-set": "Cisco-IOS-XE-crypto",
    "interface": "Cisco-IOS-XE-interfaces",
    "interface > crypto map": "Cisco-IOS-XE-crypto",
    "interface > description": "Cisco-IOS-XE-interfaces",
    "interface > duplex": "Cisco-IOS-XE-ethernet",
    "interface > encapsulation dot1Q": "Cisco-IOS-XE-interfaces",
    "interface > hold-queue": "Cisco-IOS-XE-interfaces",
    "interface > ip access-group": "Cisco-IOS-XE-interfaces",
    "interface > ip address": "Cisco-IOS-XE-interfaces",
    "interface > mtu": "Cisco-IOS-XE-interfaces",
    "interface > no cdp enable": "Cisco-IOS-XE-cdp",
    "interface > no ip address": "Cisco-IOS-XE-interfaces",
    "interface > speed": "Cisco-IOS-XE-ethernet",
    "interface > xconnect": "Cisco-IOS-XE-l2vpn",
    "ip access-list extended": "Cisco-IOS-XE-acl, Cisco-IOS-XE-ip",
    "ip access-list extended > deny": "Cisco-IOS-XE-acl",
    "ip access-list extended > permit": "Cisco-IOS-XE-acl",
    "ip route": "Cisco-IOS-XE-ip",
    "l2tp-class": "Cisco-IOS-XE-native",
    "l2tp-class > authentication": "Cisco-IOS-XE-l2vpn",
    "l2tp-class > password": "Cisco-IOS-XE-l2vpn",
    "no cdp run": "Cisco-IOS-XE-cdp, Cisco-IOS-XE-native",
    "pseudowire-class": "Cisco-IOS-XE-native",
    "pseudowire-class > encapsulation l2tpv3": "Cisco-IOS-XE-l2vpn",
    "pseudowire-class > ip dfbit set": "Cisco-IOS-XE-l2vpn",
    "pseudowire-class > ip local interface": "Cisco-IOS-XE-l2vpn",
    "pseudowire-class > ip pmtu": "Cisco-IOS-XE-l2vpn",
    "pseudowire-class > protocol": "Cisco-IOS-XE-l2vpn",
}


def test_each_line_kind_names_the_yang_modules_it_is_checked_against(
    outcomes: dict[tuple[str, int], Outcome],
) -> None:
    named = {}
    for kind in MODULES.keys() & KINDS.keys():
        modules: set[str] = set()
        for where, number, _ in KINDS[kind]:
            modules |= outcomes[(where, number)].modules
        named[kind] = ", ".join(sorted(modules))
    assert named == {k: v for k, v in MODULES.items() if k in named}
    assert {"l2tp-class", "pseudowire-class > protocol", "interface > xconnect"} <= set(named)


def test_the_deviation_table_is_exact() -> None:
    """Every kind listed is rendered (a stale entry fails here); each failing kind is listed
    (test_each_rendered_line_kind_... fails otherwise)."""
    assert set(DEVIATIONS) <= set(KINDS), set(DEVIATIONS) - set(KINDS)


# Lines a broken renderer could produce, each with the model's reason to refuse it. Worked out
# by hand from the vendored modules: l2tp-class cookie size is 4 or 8 (Cisco-IOS-XE-l2vpn),
# hello 0..1000; hold-queue's queue-length 0..240000 and direction in|out
# (Cisco-IOS-XE-interfaces); mtu 64..18000; dot1Q vlan-id 1..4094; xconnect's encapsulation
# mpls|l2tpv3; ACE protocol names from an enumeration.
BAD_LINES = [
    ("l2tp-class x", " cookie size 5", "out of uint8's range 4 | 8"),
    ("l2tp-class x", " hello 1001", "out of uint16's range 0..1000"),
    ("interface GigabitEthernet0/0/0", " hold-queue 250000 in", "range 0..240000"),
    ("interface GigabitEthernet0/0/0", " hold-queue 2048 sideways", "'sideways' not one of"),
    ("interface GigabitEthernet0/0/0", " mtu 20000", "out of uint16's range 64..18000"),
    ("interface GigabitEthernet0/0/0.5", " encapsulation dot1Q 4095", "range 1..4094"),
    ("interface GigabitEthernet0/0/0.5", " xconnect 10.0.0.1 5 encapsulation l2tpv4", "enums"),
    ("interface GigabitEthernet0/0/0.5", " xconnect 10.0.0.1 5 pw-klass x", "'x'"),
    ("pseudowire-class x", " ip dfbit sett", "no child 'sett'"),
    ("ip access-list extended x", " permit 256 any any", "no member of union"),
    ("crypto ikev2 proposal x", " group 3", "no child '3'"),
    ("ip access-list extended x", " 0 permit ip any any", "range 1..2147483647"),
]


@pytest.mark.parametrize(
    ("parent", "line", "reason"), BAD_LINES, ids=[b[1].strip() for b in BAD_LINES]
)
def test_a_bad_keyword_or_out_of_range_value_is_refused_with_the_path_reached(
    matcher: Matcher, parent: str, line: str, reason: str
) -> None:
    results = check_config(matcher, f"{parent}\n{line}\n")
    assert results[0].outcome.ok, results[0].outcome.expected
    assert not results[1].outcome.ok
    assert reason in results[1].outcome.expected, results[1].outcome.expected
    assert results[1].outcome.expected.startswith("/native/"), results[1].outcome.expected


# Lines the templates do not render today but other work may (a remark, numbered ACEs, a
# source port, a key per direction, an IKE identity, archive): each walked to the path worked
# out by hand from the vendored modules, so the renaming rules behind them are pinned. `local`,
# `remote` and `identity address` are obsolete leaves in Cisco-IOS-XE-crypto; their successors
# are local-option, remote-option and address-type.
GOOD_LINES = [
    (
        "ip access-list extended x",
        " remark l2tpgen: IKE",
        "access-list-seq-rule/remark=l2tpgen: IKE",
    ),
    ("ip access-list extended x", " 10 permit 115 any any", "ace-rule/dst-any"),
    (
        "ip access-list extended x",
        " permit udp host 10.0.0.2 eq 500 any eq 500",
        "ace-rule/dst-eq=500",
    ),
    ("crypto ikev2 keyring k\n peer p", "  pre-shared-key local <X>", "local-option/key=<X>"),
    ("crypto ikev2 keyring k\n peer p", "  identity address 10.0.0.2", "address-type=10.0.0.2"),
    ("archive", " path flash:l2tpgen", "/native/archive/path=flash:l2tpgen"),
    ("archive\n log config", "  hidekeys", "/native/archive/log/config/hidekeys"),
]


@pytest.mark.parametrize(
    ("parent", "line", "end"), GOOD_LINES, ids=[good[1].strip() for good in GOOD_LINES]
)
def test_a_line_in_ciscos_grammar_is_walked_to_its_path(
    matcher: Matcher, parent: str, line: str, end: str
) -> None:
    outcome = check_config(matcher, f"{parent}\n{line}\n")[-1].outcome
    assert outcome.ok, outcome.expected
    assert outcome.steps[-1].endswith(end), outcome.steps
