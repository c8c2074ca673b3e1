"""A lab run's progress steps in words: ``control.200.far.traffic.start`` as a reader says it.

The guest names each step by its probes' keys (``engines/guest.py``: one key, or several started
at once). A key is dotted: the check or attack (``reach``, ``mtu``, ``control``), often a VLAN,
then what the probe does (``snmp.before``) and the node it runs on. ``describe`` turns each known
part into words and keeps an unknown one as it is (a node's name, a new probe), so a step is
always shown, in words as far as this table knows them. Steps that are words already (``set up
pe-site-a``, ``VM booted``) pass unchanged.
"""

from __future__ import annotations

# The first part of a key: what the probe belongs to.
SUBJECTS = {
    "reach": "reach",
    "mtu": "MTU",
    "heartbeat": "multicast",
    "mdb": "multicast groups learned",
    "capture": "isolation capture",
    "seen": "isolation markers",
    "ike": "IKE sessions",
    "control": "attack without IPsec (the control)",
    "protected": "attack over IPsec",
    "protect": "IPsec",
    "adv": "independent attacker",
    "wan": "WAN",
}

# What the rest of a key says, whole (after the subject and the VLAN).
TAILS = {
    ("reach", ""): "ping through the pseudowire",
    ("mtu", "fits"): "the largest packet that fits",
    ("mtu", "over"): "a packet one byte too large",
    ("mtu", "snmp.before"): "IP counters before",
    ("mtu", "snmp.over"): "IP counters after the packet too large",
    ("mtu", "snmp.after"): "IP counters after",
    ("heartbeat", "send"): "send heartbeats",
    ("wan", "qdisc"): "the shaping in place",
}

# An attack phase (``control``, ``protected``): each probe, whole.
ATTACK = {
    "far.traffic.start": "watch the traffic through the far end",
    "wan.start": "watch the WAN",
    "traffic": "traffic through the pseudowire",
    "wan": "what the WAN saw",
    "far.traffic": "the traffic through the far end",
    "far.start": "watch the far end for forged frames",
    "xfrm.before": "IPsec counters before",
    "xfrm.after": "IPsec counters after",
    "forge.own": "forge packets from the attacker's own address",
    "forge.spoofed": "forge packets from the peer's address",
    "replay": "replay a captured packet",
    "sentinel": "the closing marker",
    "far": "what the far end received",
}

# A subject whose key then names one node alone (``capture.ce-site-b.2996``, ``ike.pe-site-a``).
ON_NODE = {
    "capture": "isolation: capture on {}",
    "seen": "isolation: tagged payloads seen on {}",
    "ike": "IKE sessions on {}",
    "mdb": "multicast groups learned on {}",
    "protect": "IPsec: start charon on {}",
}

# Single words in any other key.
WORDS = {
    "start": "start",
    "before": "before",
    "after": "after",
    "send": "send",
    "seen": "seen on",
    "receiver": "listener on",
    "initiate": "initiate from",
    "charon": "start charon on",
    "xfrm": "policies on",
    "snmp": "IP counters",
    "tune": "tune",
    "steady": "steady state",
    "reach": "reach",
    "boot": "at boot",
    "all": "every address",
    "mixed": "mixed traffic",
    "ipv6": "IPv6 on",
}

MAX_SHOWN = 3  # probes named in a step that starts several at once


def _one(key: str) -> str:
    """One probe key in words."""
    subject, _, rest = key.partition(".")
    vlan, _, tail = rest.partition(".")
    if not vlan.isdigit():
        vlan, tail = "", rest
    where = f"VLAN {vlan}: " if vlan else ""
    if subject in {"control", "protected"} and tail in ATTACK:
        return f"{where}{SUBJECTS[subject]}: {ATTACK[tail]}"
    if (subject, tail) in TAILS:
        return f"{where}{SUBJECTS[subject]}: {TAILS[subject, tail]}"
    parts = [part for part in tail.split(".") if part]
    trailing = parts.pop() if parts and parts[-1].isdigit() else ""  # capture.NODE.VLAN
    words = " ".join(WORDS.get(part, part) for part in parts)
    where = f"VLAN {trailing}: " if trailing and not where else where
    if subject in ON_NODE and len(parts) == 1:
        return where + ON_NODE[subject].format(parts[0])
    name = SUBJECTS.get(subject, subject)
    return f"{where}{name}{': ' + words if words else ''}"


def _grouped(phrases: list[str]) -> list[str]:
    """One phrase per thing done, its VLANs together: ``VLANs 200, 201: isolation: ...``."""
    vlans: dict[str, list[str]] = {}
    for phrase in phrases:
        head, sep, rest = phrase.partition(": ")
        vlan = head.removeprefix("VLAN ")
        if sep and head.startswith("VLAN ") and vlan.isdigit():
            vlans.setdefault(rest, []).append(vlan)
        else:
            vlans.setdefault(phrase, [])
    return [
        f"VLAN{'s' if len(ids) > 1 else ''} {', '.join(dict.fromkeys(ids))}: {rest}"
        if ids
        else rest
        for rest, ids in vlans.items()
    ]


def describe(step: str) -> str:
    """A progress step in words; one naming several probes names the first few and the count."""
    keys = step.split()
    if not keys or not all("." in key for key in keys):  # words already: `set up pe-site-a`
        return step
    phrases = _grouped([_one(key) for key in keys])
    if len(phrases) == 1:
        return phrases[0]
    more = f"; and {len(phrases) - MAX_SHOWN} more" if len(phrases) > MAX_SHOWN else ""
    return f"{len(keys)} at once: " + "; ".join(phrases[:MAX_SHOWN]) + more
