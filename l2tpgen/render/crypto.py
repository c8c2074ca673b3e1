"""Cisco IOS / IOS-XE protection of the pseudowires: IKEv2, a crypto map, an inbound WAN filter.

Built from ``Site.protection_for`` (``l2tpgen.model.protection``). Each command follows Cisco's
documentation (cited in ``tests/test_render_crypto.py``):

* IKEv2 proposal, policy, keyring and profile with a pre-shared key (FlexVPN and IKEv2
  configuration guide; Cisco's FlexVPN site-to-site example 115782);
* a transform set in transport mode (``mode transport``) and a crypto map whose entry sets the
  peer, the transform set and the IKEv2 profile and matches an ACL (Cisco, "Appendix: IKEv2 and
  Legacy VPNs", crypto-map-based IKEv2 peers with a pre-shared key);
* the crypto map on the WAN interface, the interface the pseudowires leave from, with
  ``crypto map NAME local-address`` the tunnel source when it is a loopback, so that IKE and ESP
  run between the tunnel addresses and transport mode applies (the protected traffic is the
  peers' own);
* the crypto ACL matching exactly the pseudowires: IP protocol 115 from this site's tunnel
  address to the peer's (l2tpgen renders IP encapsulation only);
* an inbound WAN ACL denying L2TPv3 (protocol 115) to the router's own tunnel and WAN addresses
  from everyone but the peers' tunnel addresses, then everything else (``permit ip any any``:
  ESP, IKE, management, routing, L2TPv3 to hosts behind the router and other traffic are not this
  filter's business, and the operator is not locked out).

The pre-shared key is masked (``<VARIABLE>``) unless revealed, like the L2TP secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from l2tpgen.model.protection import TRANSFORM_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.model import Pseudowire, Site
    from l2tpgen.model.protection import PathProtection

    PskText = Callable[[str, str], str]  # (psk_env, peer) -> the key as written

NAME = "l2tpgen"  # keyring, policy, crypto map; proposals, profiles and ACLs add a suffix
INBOUND_ACL = f"{NAME}-wan-in"
IKE_PORTS = (500, 4500)
# The forms of l2tpgen's protection names, for push to tell its own objects from others named
# like them (``l2tpgen.device.claims``).
PROFILE_PREFIX = f"{NAME}-"  # crypto ikev2 profile l2tpgen-PEER
CRYPTO_ACL_PREFIX = f"{NAME}-pw-"  # ip access-list extended l2tpgen-pw-PEER
MAP_STEP = 10  # crypto map l2tpgen 10, 20, ...: one entry per protected peer


@dataclass(frozen=True)
class Proposal:
    """A ``crypto ikev2 proposal`` and the transform set of the same transform."""

    name: str
    encryption: str
    integrity: str | None
    prf: str | None
    group: int
    esp: str
    mode: str  # transport | tunnel


@dataclass(frozen=True)
class CryptoPeer:
    """Everything per protected peer: keyring entry, IKEv2 profile, crypto ACL, crypto map entry."""

    name: str
    address: str
    local_address: str
    psk: str
    profile: str
    acl: str
    seq: int
    transform_set: str


@dataclass(frozen=True)
class InboundRule:
    """One line of the inbound WAN ACL."""

    action: str
    text: str


@dataclass(frozen=True)
class CryptoView:
    """What ``ios/crypto.j2`` and the WAN interface need."""

    proposals: tuple[Proposal, ...]
    peers: tuple[CryptoPeer, ...]
    local_interface: str | None  # `crypto map NAME local-address IF` (a loopback source)
    inbound: tuple[InboundRule, ...]

    @property
    def map_name(self) -> str | None:
        """The crypto map applied to the WAN interface, if any peer is protected by IPsec."""
        return NAME if self.peers else None

    @property
    def inbound_acl(self) -> str | None:
        """The inbound WAN ACL's name, if the site renders one."""
        return INBOUND_ACL if self.inbound else None


def _proposal(protection: PathProtection) -> Proposal:
    names = TRANSFORM_NAMES[protection.transform]
    return Proposal(
        name=f"{NAME}-{protection.transform}"
        + ("-tunnel" if protection.ipsec_mode == "tunnel" else ""),
        encryption=names.ios_encryption,
        integrity=names.ios_integrity,
        prf=None if names.ios_integrity else names.ios_prf,
        group=names.ios_group,
        esp=names.ios_esp,
        mode=protection.ipsec_mode,
    )


def _peers(site: Site, pseudowires: Sequence[Pseudowire], psk: PskText) -> list[CryptoPeer]:
    seen: dict[str, CryptoPeer] = {}
    for pw in pseudowires:
        protection = pw.protection
        if not protection.ipsec or pw.peer.name in seen:
            continue
        seen[pw.peer.name] = CryptoPeer(
            name=pw.peer.name,
            address=str(pw.peer_address),
            local_address=str(site.tunnel_address),
            psk=psk(protection.psk_env, pw.peer.name),
            profile=f"{PROFILE_PREFIX}{pw.peer.name}",
            acl=f"{CRYPTO_ACL_PREFIX}{pw.peer.name}",
            seq=MAP_STEP * (len(seen) + 1),
            transform_set=_proposal(protection).name,
        )
    return list(seen.values())


def own_addresses(site: Site) -> tuple[str, ...]:
    """The router's own addresses L2TPv3 can reach it on: the tunnel address, then the WAN's."""
    found = dict.fromkeys((str(site.tunnel_address), str(site.wan.address.ip)))
    return tuple(found)


def _inbound(
    site: Site, pseudowires: Sequence[Pseudowire], port: Site | None
) -> tuple[InboundRule, ...]:
    """The inbound WAN filter: L2TPv3 to the router's own addresses from its peers only.

    ``port``: the peer of the kept port-mode xconnect (``lan.port_xconnect``), a peer of the
    router too even without a VLAN pseudowire. Nothing else is judged: ESP and IKE are left alone
    (docs/security.md, "The inbound WAN filter"), and L2TPv3 crossing the router to other hosts
    is not this router's. Push adds the router's other pseudowire peers
    (``l2tpgen.device.foreign_peers``).
    """
    port_filter = port is not None and site.protection_for(port).inbound_filter
    if not port_filter and not any(pw.protection.inbound_filter for pw in pseudowires):
        return ()
    own = f"host {site.tunnel_address}"
    peers = {pw.peer.name: str(pw.peer_address) for pw in pseudowires}
    if port is not None:
        peers.setdefault(port.name, str(port.tunnel_address))
    rules = [InboundRule("permit", f"115 host {address} {own}") for address in peers.values()]
    rules += [InboundRule("deny", f"115 any host {address}") for address in own_addresses(site)]
    rules.append(InboundRule("permit", "ip any any"))
    return tuple(rules)


def crypto_view(
    site: Site, pseudowires: Sequence[Pseudowire], psk: PskText, port: Site | None = None
) -> CryptoView:
    """The protection a Cisco site renders.

    ``psk(psk_env, peer)`` is the pair's key as written: its placeholder, or the key derived from
    the master key (``l2tpgen.model.keys``). ``port``: the peer of the kept port-mode xconnect.
    """
    proposals: dict[str, Proposal] = {}
    for pw in pseudowires:
        if pw.protection.ipsec:
            proposal = _proposal(pw.protection)
            proposals.setdefault(proposal.name, proposal)
    peers = _peers(site, pseudowires, psk)
    loopback = site.wan.loopback
    return CryptoView(
        proposals=tuple(proposals[n] for n in sorted(proposals)),
        peers=tuple(peers),
        local_interface=loopback.interface if loopback is not None and peers else None,
        inbound=_inbound(site, pseudowires, port),
    )


@cache
def proposal_names() -> frozenset[str]:
    """Every name ``_proposal`` can give a proposal (and the transform set of its transform)."""
    return frozenset(
        f"{NAME}-{transform}{suffix}" for transform in TRANSFORM_NAMES for suffix in ("", "-tunnel")
    )
