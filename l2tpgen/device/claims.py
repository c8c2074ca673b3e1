"""Objects named like l2tpgen's that l2tpgen did not write: refused by name, never deleted.

Push owns what is named in l2tpgen's namespace (``l2tpgen.device.scope``): a colleague's ``crypto
map l2tpgen 90`` entry, keyring ``l2tpgen-partner`` or route ``name l2tpgen-backup`` used to be
deleted by the next push, silently (issue 33). Now push deletes an object of that namespace only
when l2tpgen can derive it, and refuses the push otherwise (nothing sent), naming each object.

What "derive" means, per kind (docs/push.md, "Names l2tpgen owns, and what it refuses"):

* **A name the current model renders** is l2tpgen's: push makes it what the model says (drift is
  repaired). The exception is a ``crypto map l2tpgen N`` entry, where N is only a number: the
  entry at a number the model uses must still name an l2tpgen pair (its ``set ikev2-profile
  l2tpgen-...`` or ``match address l2tpgen-pw-...``), or it is someone else's.
* **A name it would delete** must be one a model can give, in the form l2tpgen writes it, since
  a previous model (the only other source of l2tpgen's objects) renders nothing else:

  - ``crypto ikev2 policy``/``keyring`` ``l2tpgen`` (no other name); a proposal or transform set
    ``l2tpgen-TRANSFORM[-tunnel]`` of a transform l2tpgen knows; ``crypto map l2tpgen local-address
    IF`` (any model with a loopback writes it);
  - a peer's objects, tied together the way ``render/crypto.py`` writes them, which a name alone
    cannot prove (``l2tpgen-partner`` could be a site). The anchor is a **pair**: an entry
    ``crypto map l2tpgen N ipsec-isakmp`` (N a multiple of 10) holding exactly ``set peer A``,
    ``set transform-set`` one of l2tpgen's, ``set ikev2-profile l2tpgen-X`` and ``match address
    l2tpgen-pw-...``, and the profile ``l2tpgen-X`` holding exactly l2tpgen's five lines, for
    the same address A, with ``keyring local l2tpgen``. That entry, that profile, the keyring
    ``l2tpgen``'s ``peer X`` (exactly ``address A`` and a ``pre-shared-key``) and the access list
    the entry matches (only ``permit 115`` entries, to A) are l2tpgen's; any other entry,
    profile, keyring peer or ``l2tpgen-pw-*`` list is not;
  - ``l2tpgen-wan-in``, the inbound filter: only entries of the protocols it filters (115, ESP,
    UDP for IKE) and ``permit ip any any``;
  - judged in ``mark_claims``: a route ``name l2tpgen-...`` (a host route via a next hop, as
    ``wan.loopback`` renders); on the WAN interface, only ``crypto map l2tpgen`` and ``ip
    access-group l2tpgen-wan-in in``; a subinterface that push owns by its ``description
    l2tpgen: ...`` mark alone (no L2TPv3 xconnect): the mark as l2tpgen writes it (``l2tpgen:
    VLAN N ...`` on subinterface N with ``encapsulation dot1Q N``) and only lines l2tpgen
    writes there.

An object written by hand in exactly l2tpgen's form cannot be told from l2tpgen's, and is taken as
l2tpgen's. Classes are not in the namespace (the model names them); their versions are the
model's name plus six hex digits, removed only when nothing l2tpgen does not own uses them
(``class_versions``): their content hash cannot be checked against the router, which re-spells
secrets and hides defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.device.mark_claims import Claim, route_claims, subinterface_claims, wan_claims
from l2tpgen.device.scope import OwnershipError, protection_section
from l2tpgen.render.crypto import (
    CRYPTO_ACL_PREFIX,
    INBOUND_ACL,
    MAP_STEP,
    NAME,
    PROFILE_PREFIX,
    proposal_names,
)
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.ios.tree import Config, Node
    from l2tpgen.model import Site

_ENTRY = re.compile(rf"^crypto map {NAME} (\d+) ipsec-isakmp$")
_LOCAL_ADDRESS = re.compile(rf"^crypto map {NAME} local-address \S+$")
_PROFILE = f"crypto ikev2 profile {PROFILE_PREFIX}"
_KEYRING = f"crypto ikev2 keyring {NAME}"
_CRYPTO_ACL = f"ip access-list extended {CRYPTO_ACL_PREFIX}"
_FILTER = f"ip access-list extended {INBOUND_ACL}"
_ENTRY_LINE = re.compile(
    r"^(?P<key>set peer|set transform-set|set ikev2-profile|match address) (?P<value>\S+)$"
)
_REMOTE = re.compile(r"^match identity remote address (\S+)(?: 255\.255\.255\.255)?$")
_FIXED_PROFILE_LINES = frozenset(
    {
        "authentication remote pre-share",
        "authentication local pre-share",
        f"keyring local {NAME}",
    }
)
_ADDRESS = re.compile(r"^address (\S+)(?: 255\.255\.255\.255)?$")
# An access list's entry, its sequence number (IOS-XE prints them) and remarks aside.
_ACE = re.compile(r"^(?:\d+ )?(?P<action>permit|deny) (?P<protocol>\S+)(?P<rest>.*)$")
_FILTER_PROTOCOLS = frozenset({"115", "esp", "50", "udp", "17"})
# How many refused objects a message names.
_NAMED = 8


class ForeignClaimError(OwnershipError):
    """Objects in l2tpgen's namespace that l2tpgen did not write (push would delete them)."""


@dataclass(frozen=True)
class _Pair:
    """A protected peer as l2tpgen writes it: its name, address and crypto access list."""

    peer: str
    address: str
    acl: str


def _texts(node: Node) -> list[str]:
    return [child.text for child in node.children]


def _entry_pair(node: Node) -> _Pair | None:
    """The pair an entry names, when it holds exactly l2tpgen's four lines (else None)."""
    found = _ENTRY.match(node.text)
    if found is None or int(found.group(1)) % MAP_STEP or any(c.children for c in node.children):
        return None
    lines = [_ENTRY_LINE.match(text) for text in _texts(node)]
    values = {m.group("key"): m.group("value") for m in lines if m is not None}
    if None in lines or len(values) != len(lines) or len(values) != 4:  # noqa: PLR2004 - 4 lines
        return None
    profile, acl = values["set ikev2-profile"], values["match address"]
    if (
        not profile.startswith(PROFILE_PREFIX)
        or not acl.startswith(CRYPTO_ACL_PREFIX)
        or values["set transform-set"] not in proposal_names()
    ):
        return None
    return _Pair(profile.removeprefix(PROFILE_PREFIX), values["set peer"], acl)


def _profile_address(node: Node) -> str | None:
    """The remote address of a profile holding exactly l2tpgen's five lines (else None)."""
    texts = set(_texts(node))
    remote = [m for t in texts if (m := _REMOTE.match(t)) is not None]
    local = [t for t in texts if t.startswith("identity local address ")]
    rest = texts - {m.group(0) for m in remote} - set(local)
    if len(remote) != 1 or len(local) != 1 or rest != _FIXED_PROFILE_LINES:
        return None
    if len(node.children) != len(texts) or any(c.children for c in node.children):
        return None
    return remote[0].group(1)


def pairs(running: Config) -> dict[str, _Pair]:
    """The protected peers the running config holds in l2tpgen's form, by peer name.

    A pair is an entry of ``crypto map l2tpgen`` in l2tpgen's form and the profile it names, in
    l2tpgen's form, for the same address (see the module docstring).
    """
    profiles = {
        root.text.removeprefix(_PROFILE): address
        for root in running.roots
        if root.text.startswith(_PROFILE) and (address := _profile_address(root)) is not None
    }
    found: dict[str, _Pair] = {}
    for root in running.roots:
        pair = _entry_pair(root)
        if pair is not None and profiles.get(pair.peer) == pair.address:
            found.setdefault(pair.peer, pair)
    return found


def _names_a_pair(node: Node) -> bool:
    """An entry that names an l2tpgen profile or crypto access list (drift of l2tpgen's own)."""
    return any(
        text.startswith(
            (f"set ikev2-profile {PROFILE_PREFIX}", f"match address {CRYPTO_ACL_PREFIX}")
        )
        for text in _texts(node)
    )


def _keyring_peer(node: Node, known: dict[str, _Pair]) -> bool:
    """A keyring ``peer X`` of a pair, holding exactly ``address A`` and a pre-shared key."""
    pair = known.get(node.text.removeprefix("peer "))
    texts = _texts(node)
    address = [m.group(1) for t in texts if (m := _ADDRESS.match(t)) is not None]
    keys = [t for t in texts if t.startswith("pre-shared-key ")]
    return (
        pair is not None
        and len(texts) == 2  # noqa: PLR2004 - address and key
        and address == [pair.address]
        and len(keys) == 1
        and not any(c.children for c in node.children)
    )


def _crypto_acl(node: Node, known: dict[str, _Pair]) -> bool:
    """A pair's crypto access list: only ``permit 115`` entries to the pair's address."""
    name = node.text.removeprefix("ip access-list extended ")
    addresses = {pair.address for pair in known.values() if pair.acl == name}
    entries = [t for t in _texts(node) if not t.startswith("remark ")]
    return bool(addresses and entries) and all(
        (m := _ACE.match(t)) is not None
        and m.group("action") == "permit"
        and m.group("protocol") == "115"
        and m.group("rest").split()[-1] in addresses
        for t in entries
    )


def _inbound_filter(node: Node) -> bool:
    """The inbound filter: entries of the protocols it filters, and ``permit ip any any``."""
    for text in _texts(node):
        if text.startswith("remark "):
            continue
        found = _ACE.match(text)
        if found is None:
            return False
        everything = (found.group("action"), found.group("protocol"), found.group("rest"))
        if found.group("protocol") not in _FILTER_PROTOCOLS and everything != (
            "permit",
            "ip",
            " any any",
        ):
            return False
    return True


def _entry_why(root: Node) -> str:
    if _ENTRY.match(root.text) and int(root.text.split()[3]) % MAP_STEP:
        return f"l2tpgen numbers its entries {MAP_STEP}, {2 * MAP_STEP}, ..."
    other = [t for t in _texts(root) if _ENTRY_LINE.match(t) is None]
    if other:
        return f"l2tpgen never writes `{mask_secrets(other[0])}` there"
    return "it names no l2tpgen pair: no IKEv2 profile and crypto access list of l2tpgen's form"


def _always(_root: Node, _known: dict[str, _Pair]) -> bool:
    return True


def _entry_mine(root: Node, known: dict[str, _Pair]) -> bool:
    pair = _entry_pair(root)
    return pair is not None and pair.peer in known


# How a protection section push would delete is judged, by kind: (is of this kind, is l2tpgen's,
# why not). The keyring `l2tpgen` is l2tpgen's; its peers are judged one by one (_keyring_claims).
_Judge = tuple[
    "Callable[[str], bool]", "Callable[[Node, dict[str, _Pair]], bool]", "Callable[[Node], str]"
]
_JUDGES: tuple[_Judge, ...] = (
    (
        lambda text: (
            bool(_LOCAL_ADDRESS.match(text)) or text in {f"crypto ikev2 policy {NAME}", _KEYRING}
        ),
        _always,
        lambda _root: "",
    ),
    (lambda text: bool(_ENTRY.match(text)), _entry_mine, _entry_why),
    (
        lambda text: text.startswith(("crypto ikev2 proposal ", "crypto ipsec transform-set ")),
        lambda root, _known: root.text.split()[3] in proposal_names(),
        lambda _root: "not a name l2tpgen gives a proposal or transform set",
    ),
    (
        lambda text: text.startswith(_PROFILE),
        lambda root, known: root.text.removeprefix(_PROFILE) in known,
        lambda _root: "no crypto map l2tpgen entry of l2tpgen's form uses it as a pair's",
    ),
    (
        lambda text: text == _FILTER,
        lambda root, _known: _inbound_filter(root),
        lambda _root: "it holds entries l2tpgen's inbound filter never has",
    ),
    (
        lambda text: text.startswith(_CRYPTO_ACL),
        _crypto_acl,
        lambda _root: "no l2tpgen pair matches it, or it holds more than that pair's L2TPv3",
    ),
)


def _section_claim(root: Node, known: dict[str, _Pair]) -> Claim | None:
    """Why a protection section push would delete is not l2tpgen's (None: it is)."""
    for applies, mine, why in _JUDGES:
        if applies(root.text):
            return None if mine(root, known) else Claim(root.text, why(root))
    return Claim(root.text, _other_name(root.text))


def _other_name(text: str) -> str:
    """Why a protection section of another form than l2tpgen's is not l2tpgen's."""
    if text.startswith(f"crypto map {NAME} "):
        return f"l2tpgen writes only `crypto map {NAME} N ipsec-isakmp` entries and `local-address`"
    for kind, what in (
        ("crypto ikev2 keyring ", "IKEv2 keyring"),
        ("crypto ikev2 policy ", "IKEv2 policy"),
        ("crypto map ", "crypto map"),
    ):
        if text.startswith(kind):
            return f"l2tpgen's {what} is `{kind}{NAME}`, no other"
    return "not a name l2tpgen gives"


def _keyring_claims(root: Node, wanted: set[str], known: dict[str, _Pair]) -> list[Claim]:
    """The keyring ``l2tpgen``'s peers that are neither the model's nor an l2tpgen pair's."""
    return [
        Claim(
            f"{root.text} / {peer.text}",
            "no crypto map l2tpgen entry and profile of l2tpgen's form name that peer",
        )
        for peer in root.children
        if peer.text not in wanted and not _keyring_peer(peer, known)
    ]


def _protection_claims(running: Config, intended: Config, known: dict[str, _Pair]) -> list[Claim]:
    wanted = {root.text: root for root in intended.roots}
    claims: list[Claim] = []
    for root in running.roots:
        if not protection_section(root.text):
            continue
        if root.text == _KEYRING:
            mine = wanted.get(root.text)
            claims += _keyring_claims(root, set(_texts(mine)) if mine else set(), known)
        elif root.text in wanted:
            if _ENTRY.match(root.text) and not _names_a_pair(root):
                claims.append(Claim(root.text, _entry_why(root)))
        elif (claim := _section_claim(root, known)) is not None:
            claims.append(claim)
    return claims


def unowned(
    running: Config, intended: Config, site: Site, owned: frozenset[str] = frozenset()
) -> list[Claim]:
    """The objects of l2tpgen's namespace that push would delete or take over but cannot derive.

    ``intended``: the config the push makes; ``owned``: the subinterfaces push owns.
    """
    known = pairs(running)
    return [
        *_protection_claims(running, intended, known),
        *wan_claims(running, site),
        *route_claims(running, intended),
        *subinterface_claims(running, intended, site, owned),
    ]


def refusal(claims: list[Claim]) -> str:
    """What push says: each object by name, why, and what to do."""
    named = "; ".join(f"`{mask_secrets(c.name)}` ({c.why})" for c in claims[:_NAMED])
    more = f"; and {len(claims) - _NAMED} more" if len(claims) > _NAMED else ""
    return (
        f"the router holds {len(claims)} object(s) named like l2tpgen's that l2tpgen did not "
        f"write, which push would delete: {named}{more}. Nothing was changed: rename each out of "
        f"l2tpgen's namespace (a name that does not start with `{NAME}`; an entry of `crypto map "
        f"{NAME}` goes to a crypto map of your own, and IOS applies one crypto map per "
        f"interface: remove it or merge its entries by hand), or merge it into the site model "
        f"(its peer a site of the fleet), then push again"
    )


def refuse_unowned(
    running: Config, intended: Config, site: Site, owned: frozenset[str] = frozenset()
) -> None:
    """Refuse a push that would delete objects l2tpgen did not write (``unowned``).

    Raises:
        ForeignClaimError: naming every such object, why, and what to do.
    """
    claims = unowned(running, intended, site, owned)
    if claims:
        raise ForeignClaimError(refusal(claims))
