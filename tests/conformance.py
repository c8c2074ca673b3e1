"""The driver conformance suite's checker: what a platform's traits promise, read in its rendering.

As NAPALM runs every driver through one getters suite (napalm-automation/napalm,
``napalm/base/test/getters.py``: ``BaseTestGetters`` holds one test per getter, and each driver's
``test/unit/test_getters.py`` subclasses it; ``docs/development/testing_framework.rst``: "Same
tests across all vendors. Tests defined in napalm.base/test/getters.py are shared across all
drivers"), every platform here goes through the same checks: each builds the same generated pair
of sites for the platform (its own interface names, signaling and cookies from its traits),
renders it with the platform's renderer, and reads the text for what the trait promises (IPsec,
the VLAN tag carried, static hello, the MTU of the model's budget...). Unlike NAPALM's, which
skips a getter a driver leaves ``NotImplemented``, nothing is skipped: a promise the rendering
does not keep is a failure. A check returns its failures as sentences; the suite
(``tests/test_driver_conformance.py``) runs every check on every platform, and runs the same
checks on fake drivers whose traits promise what their renderer does not write. The pair of sites
each check builds and renders is in ``conformance_sites.py``.

What each format's text is read for is in ``format_readers.READERS``, one entry per format a
driver lists: a new platform that renders an existing format gets every case for free; one with
a new format fails ``test_every_format_a_platform_lists_has_a_reader`` until it says how its text
says each thing (or that it cannot).
"""

from __future__ import annotations

import re
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING

from conformance_sites import (
    VLANS,
    Driver,
    Failures,
    build,
    each_format,
    pair_dicts,
    protected,
    refused,
    render,
    says,
)
from format_readers import READERS

from l2tpgen.errors import RenderError
from l2tpgen.ios.extract import extract
from l2tpgen.ios.tree import parse_rendered
from l2tpgen.platforms.traits import Traits

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.model import Fleet

IOS_DEFAULT_QUEUES = (75, 40)  # what IOS holds when no hold-queue line is written


# --- the checks: one per trait (or group of traits) ---------------------------------------------


def check_formats(d: Driver) -> Failures:
    """Every listed format renders the plain pair."""
    fleet = build(pair_dicts(d.traits))
    failures = []
    for fmt in d.traits.formats:
        if fmt not in READERS:
            failures.append(f"format {fmt} has no reader in tests/format_readers.py")
            continue
        try:
            text = render(d, fleet, fmt)
        except RenderError as exc:
            failures.append(f"{fmt} refuses the plain pair: {exc}")
            continue
        if not re.search(READERS[fmt].signature, text, re.MULTILINE):
            failures.append(f"what it renders as {fmt} is not {fmt}")
    return failures


def check_ipsec(d: Driver) -> Failures:
    """``ipsec``: IPsec is rendered exactly when promised (else validation refuses it)."""
    sites = protected(d.traits, pair_dicts(d.traits))
    if refused(sites):
        return ["validation refuses an IPsec pair it promises"] if d.traits.ipsec else []
    fleet = build(sites)
    if not d.traits.ipsec:
        written = says(READERS[d.traits.formats[0]].ipsec, render(d, fleet))
        return [f"validation accepts IPsec it does not promise (rendered: {written})"]
    return each_format(d, fleet, "IPsec", lambda r: r.ipsec)


def check_inbound_filter(d: Driver) -> Failures:
    """``inbound_filter``: the protected pair's WAN filter is written exactly when promised."""
    sites = protected(d.traits, pair_dicts(d.traits))
    if not d.traits.ipsec or refused(sites):
        return []  # check_ipsec says whether that is right
    fleet = build(sites)
    if d.traits.inbound_filter:
        return each_format(d, fleet, "an inbound WAN filter", lambda r: r.inbound_filter)
    text = render(d, fleet)
    if says(READERS[d.traits.formats[0]].inbound_filter, text):
        return ["renders an inbound WAN filter it does not promise"]
    return []


def check_fail_closed(d: Driver) -> Failures:
    """``fail_closed``: clear L2TPv3 is blocked while no IKE daemon runs, exactly when promised."""
    sites = protected(d.traits, pair_dicts(d.traits))
    if not d.traits.ipsec or refused(sites):
        return []
    fleet = build(sites)
    if d.traits.fail_closed:
        return each_format(d, fleet, "fail-closed xfrm blocks", lambda r: r.fail_closed)
    if says(READERS[d.traits.formats[0]].fail_closed, render(d, fleet)):
        return ["renders fail-closed blocks it does not promise"]
    return []


def check_static_hello(d: Driver) -> Failures:
    """``static_hello_capable``: `static_hello: true` renders hello exactly when promised."""
    if "static" not in d.traits.signaling:
        return []
    fleet = build(pair_dicts(d.traits, static_hello=True))
    pws = fleet.pseudowires("a")
    failures = []
    if d.traits.static_hello_capable != all(pw.hello for pw in pws):
        failures.append("the model's hello disagrees with static_hello_capable")
    if d.traits.static_hello_capable:
        failures += each_format(d, fleet, "static hello", lambda r: r.static_hello)
    elif says(READERS[d.traits.formats[0]].static_hello, render(d, fleet)):
        failures.append("renders static hello it does not promise")
    quiet = build(pair_dicts(d.traits, static_hello=False))
    if says(READERS[d.traits.formats[0]].static_hello, render(d, quiet)):
        failures.append("renders static hello for a site that turned it off")
    return failures


def check_cookies(d: Driver) -> Failures:
    """``cookies``: an 8-byte cookie is rendered when promised, refused by validation when not."""
    if "static" not in d.traits.signaling:
        return []
    sites = pair_dicts(d.traits, cookie=8)
    if not d.traits.cookies:
        return [] if refused(sites) else ["validation accepts cookies it does not promise"]
    if refused(sites):
        return ["validation refuses cookies it promises"]
    return each_format(d, build(sites), "8-byte cookies", lambda r: r.cookie)


def check_tagging(d: Driver) -> Failures:
    """``frames_dot1q_subinterface``: every VLAN enters its pseudowire tagged exactly when
    promised (and the model's ``dot1q_carried``, which sizes the MTU, agrees)."""
    fleet = build(pair_dicts(d.traits))
    text = render(d, fleet)
    reader = READERS[d.traits.formats[0]]
    failures = []
    for pw in fleet.pseudowires("a"):
        tagged = says(reader.tag_carried, text, vlan=pw.vlan.id)
        if tagged != d.traits.frames_dot1q_subinterface:
            failures.append(
                f"VLAN {pw.vlan.id}: the tag is {'' if tagged else 'not '}carried, "
                f"frames_dot1q_subinterface={d.traits.frames_dot1q_subinterface}"
            )
        if pw.dot1q_carried != tagged:
            failures.append(f"VLAN {pw.vlan.id}: the model's dot1q_carried says {pw.dot1q_carried}")
    return failures


def _mtus(d: Driver, fleet: Fleet, fmt: str) -> Failures:
    try:
        text = render(d, fleet, fmt)
    except RenderError:
        return []  # the site is one this format refuses (checked by the trait's own check)
    pattern = READERS[fmt].mtu
    failures = []
    for pw in fleet.pseudowires("a"):
        want = pw.budget.max_inner_mtu
        found = re.search(pattern.format(vlan=pw.vlan.id), text, re.MULTILINE) if pattern else None
        got = int(found["mtu"]) if found else None
        if got != want:
            failures.append(f"{fmt}: VLAN {pw.vlan.id}'s MTU is {got}, the model's budget {want}")
    return failures


def check_mtu(d: Driver) -> Failures:
    """Every session's MTU is the model's budget: plain, with cookies, and under IPsec."""
    cases = [pair_dicts(d.traits)]
    if d.traits.cookies and "static" in d.traits.signaling:
        cases.append(pair_dicts(d.traits, cookie=8))
    if d.traits.ipsec:
        cases.append(protected(d.traits, pair_dicts(d.traits)))
    failures = []
    for sites in cases:
        if refused(sites):
            continue
        fleet = build(sites)
        for fmt in d.traits.formats:
            failures += _mtus(d, fleet, fmt)
    return failures


def check_signaling(d: Driver) -> Failures:
    """``signaling``: each mode it speaks renders as that mode; the others are refused."""
    failures = []
    for mode in ("static", "dynamic"):
        sites = pair_dicts(d.traits, signaling=mode)
        if mode not in d.traits.signaling:
            if not refused(sites):
                failures.append(f"validation accepts {mode} sessions it does not speak")
            continue
        if refused(sites):
            failures.append(f"validation refuses {mode} sessions it speaks")
            continue
        failures += each_format(d, build(sites), f"{mode} sessions", attrgetter(mode))
    return failures


def check_peer_routes(d: Driver) -> Failures:
    """``peer_routes``: a route to the peer's loopback is written exactly when promised."""
    fleet = build(pair_dicts(d.traits))
    address = fleet.site("b").wan.loopback
    assert address is not None
    peer = str(address.address.ip)
    routed = says(READERS[d.traits.formats[0]].peer_route, render(d, fleet), address=peer)
    if routed != d.traits.peer_routes:
        return [f"a route to the peer's loopback is {'' if routed else 'not '}written"]
    return []


def check_sublayer(d: Driver) -> Failures:
    """``sublayer``: sessions without sequencing carry the sublayer exactly when promised
    (a platform that always carries it has validation refuse a pair without it)."""
    plain = pair_dicts(d.traits, sequencing="none")
    reader = READERS[d.traits.formats[0]]
    if d.traits.sublayer:
        failures = [] if refused(plain) else ["validation accepts a pair without the sublayer"]
        text = render(d, build(pair_dicts(d.traits, sequencing="transmit")))
        return failures + ([] if says(reader.sublayer, text) else ["no sublayer rendered"])
    if refused(plain):
        return ["validation refuses sessions without the sublayer"]
    if says(reader.sublayer, render(d, build(plain))):
        return ["renders the sublayer without sequencing"]
    return []


def check_kernel_sessions(d: Driver) -> Failures:
    """``kernel_sessions``: its sessions are the Linux kernel's exactly when promised."""
    kernel = says(
        READERS[d.traits.formats[0]].kernel_session, render(d, build(pair_dicts(d.traits)))
    )
    if kernel != d.traits.kernel_sessions:
        return [f"its sessions are {'' if kernel else 'not '}the kernel's"]
    return []


def check_ipv6_underlay(d: Driver) -> Failures:
    """``ipv6_underlay``: an IPv6 pair validates and renders with its addresses, or is refused."""
    sites = pair_dicts(d.traits, ipv6=True)
    if not d.traits.ipv6_underlay:
        return [] if refused(sites) else ["validation accepts an IPv6 underlay it does not carry"]
    if refused(sites):
        return ["validation refuses the IPv6 underlay it promises"]
    text = render(d, build(sites))
    return [] if "2001:db8:1::1" in text else ["the peer's IPv6 address is not rendered"]


def check_interface_names(d: Driver) -> Failures:
    """``interface_names``: the rendering names the WAN and LAN trunk as the site does."""
    text = render(d, build(pair_dicts(d.traits)))
    wan, lan, _ = d.traits.interface_names.examples
    return [f"{name} is not in the rendering" for name in (wan, lan) if name not in text]


def check_ios_config(d: Driver) -> Failures:
    """``ios_config``: the rendering reads back through ``l2tpgen.ios`` exactly when promised:
    one L2TPv3 xconnect per VLAN, on the peer."""
    text = render(d, build(pair_dicts(d.traits)))
    try:
        facts = extract("a", parse_rendered(text, "a"))
        xconnects = facts.xconnects()
    except Exception:  # noqa: BLE001 - a text that is not IOS may fail to parse at all
        xconnects = ()
    read = len(xconnects) == len(VLANS) and all(str(x.peer) == "10.255.0.2" for _, x in xconnects)
    if read != d.traits.ios_config:
        read_as = f"l2tpgen.ios reads {len(xconnects)} xconnects to the peer"
        return [f"{read_as}, ios_config={d.traits.ios_config}"]
    return []


def check_hold_queue(d: Driver) -> Failures:
    """``hold_queue``: a site that leaves hold-queues out gets the platform's default on its LAN
    trunk and WAN, where its format writes hold-queues (none written: IOS's own, 75 in, 40 out)."""
    pattern = READERS[d.traits.formats[0]].hold_queue
    if pattern is None:
        return []
    text = render(d, build(pair_dicts(d.traits)))
    found = {(m["way"], int(m["size"])) for m in re.finditer(pattern, text, re.MULTILINE)}
    queue_in, queue_out = d.traits.hold_queue
    want = (
        set()
        if (queue_in, queue_out) == IOS_DEFAULT_QUEUES
        else {("in", queue_in), ("out", queue_out)}
    )
    return (
        [] if found == want else [f"hold-queues {sorted(found)} rendered, {sorted(want)} promised"]
    )


CHECKS: dict[str, Callable[[Driver], Failures]] = {
    "formats": check_formats,
    "ipsec": check_ipsec,
    "inbound_filter": check_inbound_filter,
    "fail_closed": check_fail_closed,
    "static_hello_capable": check_static_hello,
    "cookies": check_cookies,
    "frames_dot1q_subinterface": check_tagging,
    "mtu": check_mtu,
    "signaling": check_signaling,
    "peer_routes": check_peer_routes,
    "sublayer": check_sublayer,
    "kernel_sessions": check_kernel_sessions,
    "ipv6_underlay": check_ipv6_underlay,
    "interface_names": check_interface_names,
    "ios_config": check_ios_config,
    "hold_queue": check_hold_queue,
}

# Traits that do not show in a rendering, each with the reason it is not checked here.
NOT_RENDERED: dict[str, str] = {
    "name": "the registry's key",
    "title": "words for messages",
    "short_title": "words for messages",
    "default": "the model's choice for a site without a platform (test_platforms)",
    "device_type": "netmiko's connection type: push (test_platforms, push tests)",
    "hier_config": "what push diffs with: push, not render",
    "save_command": "a command push sends, not rendered config",
    "file_systems": "where push keeps a rollback copy",
    "show_xconnect": "a command verify sends",
    "show_sessions": "a command verify sends",
    "lint_platform": "what the linter is told the text is (lint tests)",
    "ios_software": "what the IOS reader calls the software (lint and import tests)",
    "simulated": "whether the simulator has a flavor (sim tests)",
    "timed_confirm": "a push option (confirm tests)",
    "lab_kind": "the lab's node kind (lab tests)",
    "data_plane": "the lab's stand-in (lab tests)",
    "esp_gcm_unconfirmed": "a validation warning, not rendered text",
    "ipv6_note": "words for messages (checked with ipv6_underlay)",
    # Rendered only for a PE with several peers, which this suite's pairs never are: the
    # rendering is checked by tests/test_hub_pairs.py, the kernel's verdict in its lab test.
    "binds_peers": "a hub's nftables binding (tests/test_hub_pairs.py)",
}


def unclassified() -> list[str]:
    """Traits fields neither checked nor listed as not rendered (a new trait lands here)."""
    checked = set(CHECKS) | set(NOT_RENDERED)
    return sorted(f.name for f in fields(Traits) if f.name not in checked)


def check_platform(d: Driver) -> dict[str, Failures]:
    """Every check on one driver: its failures by check (a failing check only)."""
    found = {name: check(d) for name, check in CHECKS.items()}
    return {name: failures for name, failures in found.items() if failures}
