"""The IPsec and access-list facts of one config, and what they do to a pseudowire's packets.

Read from the top-level sections (full keywords only, as ``show running-config`` prints them):

* ``crypto ipsec transform-set NAME T1 [T2 [T3]]`` and its ``mode {tunnel | transport}`` (tunnel
  when absent, Cisco's default);
* ``crypto map NAME SEQ ipsec-isakmp|ipsec-manual [dynamic DYN]`` and its ``set peer``,
  ``set transform-set`` and ``match address`` lines;
* extended and standard access lists, named (``ip access-list extended|standard NAME`` and its
  entries, with or without sequence numbers) and numbered (``access-list N ...``).

An interface's ``crypto map`` is ``Interface.crypto_map``; its ``ip access-group NAME in`` and
``zone-member security`` lines are among its unread lines (``Interface.other``), read here.

Cisco's rule for a crypto ACL: a ``permit`` entry protects the matching outbound traffic, a
``deny`` entry leaves it to the next crypto map entry, and traffic no entry of the map permits
leaves in clear; inbound, packets that match but arrive unprotected are discarded. Sources: "31
Days Before Your CCNA Security Exam" (Cisco Press), day 19, crypto ACLs on IOS routers
(https://fliphtml5.com/voccb/savb/31_Days_Before_Your_CCNA_Security_Exam/146); Cisco Security
Appliance Command Line Configuration Guide OL-12172-03, table "Special Meanings of Permit and Deny
in Crypto Access Lists Applied to Outbound Traffic" (ASA: the deny-then-next-entry order is stated
there; IOS routers are assumed to read them the same way [U]). Entries are read first match first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import IPv4Address
from typing import TYPE_CHECKING

from l2tpgen.ios import keywords
from l2tpgen.ios.acl import Acl, AclEntry, Verdict, named_acl, number, numbered_kind
from l2tpgen.ios.acl import entry as acl_entry
from l2tpgen.ios.facts import At

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.ios.facts import DeviceFacts, Interface, PseudowireClass
    from l2tpgen.ios.tree import Node

L2TP_PROTOCOL = 115  # IANA; what `encapsulation l2tpv3` sends unless `ip protocol` says otherwise
UTI_PROTOCOL = 120


@dataclass(frozen=True)
class TransformSet:
    """``crypto ipsec transform-set NAME ...`` with its mode."""

    name: str
    transforms: str  # the words after the name, single-spaced: `esp-aes 256 esp-sha-hmac`
    mode: str
    at: At


@dataclass(frozen=True)
class CryptoMapEntry:
    """``crypto map NAME SEQ ...`` and the lines under it that decide what it protects."""

    map: str
    seq: int
    at: At
    peers: tuple[IPv4Address, ...] = ()
    transform_sets: tuple[str, ...] = ()
    acl: str | None = None
    acl_at: At | None = None
    dynamic: bool = False  # `ipsec-isakmp dynamic DYN`: its traffic is not known from the map


@dataclass(frozen=True)
class CryptoFacts:
    """The IPsec and access-list sections of one config."""

    acls: dict[str, Acl] = field(default_factory=dict)
    transform_sets: dict[str, TransformSet] = field(default_factory=dict)
    maps: dict[str, tuple[CryptoMapEntry, ...]] = field(default_factory=dict)  # by sequence


@dataclass(frozen=True)
class MapVerdict:
    """What the crypto map on a pseudowire's way out does with its packets.

    ``verdict`` is ``permit`` when an entry of the map protects them (``entry`` is that one),
    ``deny`` when none does (they leave in clear), ``unknown`` when l2tpgen cannot tell.
    """

    verdict: Verdict
    entry: CryptoMapEntry | None = None


def _at(node: Node) -> At:
    return At(node.line, node.column)


def _map_entry(node: Node, words: list[str]) -> CryptoMapEntry | None:
    seq = number(words[3]) if len(words) > 3 else None  # noqa: PLR2004 - crypto map NAME SEQ
    if seq is None:
        return None  # `crypto map NAME local-address IF`, `... redundancy ...`
    fields: dict[str, object] = {"dynamic": "dynamic" in (w.lower() for w in words[4:])}
    for child in node.children:
        sub = child.text.split()
        lowered = [w.lower() for w in sub]
        if lowered[:2] == ["set", "peer"] and len(sub) > 2:  # noqa: PLR2004
            try:
                peers = fields.setdefault("peers", [])
                assert isinstance(peers, list)  # noqa: S101 - set just above
                peers.append(IPv4Address(sub[2]))
            except ValueError:
                pass  # a host name: not an address this module can compare
        elif lowered[:2] == ["set", "transform-set"]:
            fields["transform_sets"] = tuple(sub[2:])
        elif lowered[:2] == ["match", "address"] and len(sub) > 2:  # noqa: PLR2004
            fields["acl"], fields["acl_at"] = sub[2], _at(child)
    peers = fields.pop("peers", [])
    return CryptoMapEntry(words[2], seq, _at(node), peers=tuple(peers), **fields)  # type: ignore[arg-type]


def _transform_set(node: Node, words: list[str]) -> TransformSet:
    mode = next((c.text.split() for c in node.children if c.text.startswith("mode ")), [])
    return TransformSet(
        words[3],
        " ".join(words[4:]).lower(),
        mode[1].lower() if len(mode) > 1 else "tunnel",
        _at(node),
    )


def _numbered_entry(node: Node, words: list[str], into: dict[str, list[AclEntry]]) -> None:
    """Add an ``access-list N ...`` line to its list (the list's first line is where it is)."""
    found = number(words[1])
    standard = numbered_kind(found) if found is not None else None
    if standard is not None:
        entries = into.setdefault(words[1], [])
        line = acl_entry(words[2:], _at(node), standard=standard)
        if line is not None:
            entries.append(line)
        into.setdefault(f"@{words[1]}", []).append(AclEntry("remark", None, None, None, _at(node)))


def read_crypto(roots: Iterable[Node]) -> CryptoFacts:
    """The crypto and access-list facts among a config's top-level nodes."""
    acls: dict[str, Acl] = {}
    numbered: dict[str, list[AclEntry]] = {}
    sets: dict[str, TransformSet] = {}
    maps: dict[str, list[CryptoMapEntry]] = {}
    for node in roots:
        if not node.text.startswith(("crypto ", "ip access-list ", "access-list ")):
            continue
        words = node.text.split()
        lowered = [w.lower() for w in words[:4]]
        if lowered[:3] in (["ip", "access-list", "extended"], ["ip", "access-list", "standard"]):
            if len(words) > 3:  # noqa: PLR2004
                acls.setdefault(words[3], named_acl(node, words))
        elif lowered[0] == "access-list" and len(words) > 2:  # noqa: PLR2004
            _numbered_entry(node, words, numbered)
        elif lowered[1:3] == ["ipsec", "transform-set"] and len(words) > 4:  # noqa: PLR2004
            sets.setdefault(words[3], _transform_set(node, words))
        elif lowered[1] == "map" and (entry := _map_entry(node, words)) is not None:
            maps.setdefault(entry.map, []).append(entry)
    for name, entries in numbered.items():
        if not name.startswith("@"):
            acls.setdefault(name, Acl(name, numbered[f"@{name}"][0].at, tuple(entries)))
    return CryptoFacts(
        acls, sets, {name: tuple(sorted(e, key=lambda m: m.seq)) for name, e in maps.items()}
    )


def inbound_acl(iface: Interface) -> tuple[str, At] | None:
    """The access list ``ip access-group NAME in`` applies to ``iface``, and where."""
    for text, at in iface.other:
        words = text.split()
        if (
            len(words) == 4  # noqa: PLR2004 - ip access-group NAME in
            and words[0].lower() == "ip"
            and keywords.IP_INTERFACE.get(words[1].lower()) == "access-group"
            and words[3].lower() == "in"
        ):
            return words[2], at
    return None


def zone_member(iface: Interface) -> bool:
    """Whether ``iface`` is in a zone-based firewall's zone (its policy filters what enters)."""
    return any(text.lower().startswith("zone-member security") for text, _ in iface.other)


def pw_protocol(pw: PseudowireClass | None) -> int | None:
    """The IP protocol a class's data packets carry: 115 unless ``ip protocol`` says otherwise.

    ``ip protocol {l2tp | uti | NUMBER}`` (Cisco 12.0S L2TPv3 command reference); None for a
    value l2tpgen does not know.
    """
    for text, _ in pw.other if pw is not None else ():
        words = text.lower().split()
        if len(words) == 3 and words[0] == "ip" and keywords.IP_PW.get(words[1]) == "protocol":  # noqa: PLR2004
            return {"l2tp": L2TP_PROTOCOL, "uti": UTI_PROTOCOL}.get(words[2], number(words[2]))
    return L2TP_PROTOCOL


def tunnel_source(device: DeviceFacts, pw: PseudowireClass | None) -> IPv4Address | None:
    """The address a class sources its packets from (its `ip local interface`'s first address)."""
    iface = device.interfaces.get(pw.local_interface or "") if pw is not None else None
    return iface.addresses[0].ip if iface is not None and iface.addresses else None


def protection(
    crypto: CryptoFacts,
    map_name: str,
    protocol: int,
    source: IPv4Address | None,
    destination: IPv4Address,
) -> MapVerdict:
    """What crypto map ``map_name`` does with ``protocol`` packets from ``source`` to a peer.

    The entries are tried in sequence order; the first whose ACL permits the packets protects
    them. An entry without ACL protects nothing; a dynamic entry, an undefined map or ACL, or an
    entry l2tpgen cannot read make the answer ``unknown`` unless an earlier entry protects.
    """
    entries = crypto.maps.get(map_name)
    if entries is None:
        return MapVerdict("unknown")
    unknown = False
    for entry in entries:
        acl = crypto.acls.get(entry.acl or "")
        if entry.dynamic or (entry.acl is not None and acl is None):
            unknown = True
            continue
        if acl is None:
            continue
        verdict, _ = acl.verdict(protocol, source, destination)
        if verdict == "permit":
            return MapVerdict("permit", entry)
        unknown = unknown or verdict == "unknown"
    return MapVerdict("unknown" if unknown else "deny")
