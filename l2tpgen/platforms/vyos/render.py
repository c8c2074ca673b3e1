"""VyOS PEs: static L2TPv3 sessions as VyOS ``set`` commands (configuration mode).

VyOS's L2TPv3 interface (https://docs.vyos.io/en/latest/configuration/interfaces/l2tpv3.html;
its definition, vyos/vyos-1x ``interface-definitions/interfaces_l2tpv3.xml.in``) is one tunnel
and one static session: ``encapsulation ip``, ``source-address``, ``remote``, ``tunnel-id``,
``peer-tunnel-id``, ``session-id``, ``peer-session-id``, ``mtu``. VyOS creates it with
``ip l2tp add tunnel ...`` and ``ip l2tp add session ...`` (vyos-1x
``python/vyos/ifconfig/l2tpv3.py``), so it forwards with the Linux kernel's L2TPv3, and what it
does not pass iproute2 decides:

- no cookie, no ``l2spec_type``, no ``seq``: its sessions carry no cookie and iproute2's
  default 4-byte L2-specific sublayer (iproute2 ``ip/ipl2tp.c``: ``p->l2spec_type =
  L2TP_L2SPECTYPE_DEFAULT``) without sequence numbers. A cookie'd pseudowire is refused; the
  peer must use the sublayer too (``sequencing`` other than none, ``Traits.sublayer``).
- the interface has no ``vif``: towards a Cisco dot1Q subinterface, which carries the tag in the
  session (``Pseudowire.dot1q_carried``), the tag is added by a VLAN-aware bridge
  (https://docs.vyos.io/en/latest/configuration/interfaces/bridge.html: ``enable-vlan``,
  ``allowed-vlan`` egresses tagged, ``native-vlan`` untagged). Every pseudowire of the site and
  the LAN trunk are members of one bridge, ``br0``: the trunk allows each VLAN tagged, a session
  towards Linux or VyOS is that VLAN's native (untagged) port, one towards Cisco a tagged port.

Interface names are the site's own, as VyOS writes them (``ethN``; a WAN ``ethN.VID`` is a vif).
IPsec is rendered for VyOS 1.4 and later (``ipsec_peers``: ``set vpn ipsec ...``, IKEv2 with a
pre-shared key, ESP in transport mode for IP protocol 115 between the tunnel addresses); the
inbound WAN filter is not (the model refuses a VyOS PE whose path needs one), push and the
simulator do not handle VyOS, and the lab runs a VyOS PE on its Linux data plane.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.keys import pair_psk_text
from l2tpgen.model.protection import TRANSFORM_NAMES
from l2tpgen.platforms.vyos.sessions import check_session
from l2tpgen.platforms.vyos.traits import wan_path
from l2tpgen.render.env import environment
from l2tpgen.render.marks import VlanDescription
from l2tpgen.render.swanctl import psk_text

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.model import Fleet, Pseudowire

_PACKAGE = __name__.rpartition(".")[0]  # its templates/ are this folder's

BRIDGE = "br0"
L2TP_PROTOCOL = 115  # IANA's number for L2TP; vyos-1x's ip-protocol validator takes 0-255


def _session(pw: Pseudowire) -> dict[str, object]:
    check_session(pw)
    local, remote = pw.session_ids
    return {
        "name": f"l2tpeth{pw.vlan.id}",
        "vlan": pw.vlan.id,
        "description": VlanDescription(pw.vlan.id, pw.vlan.name, pw.peer.name).text(marked=False),
        "source": str(pw.site.tunnel_address),
        "remote": str(pw.peer_address),
        "tunnel": pw.vc_id,  # one tunnel per session; IP mode carries no tunnel ID on the wire
        "session": local,
        "peer_session": remote,
        "mtu": pw.budget.max_inner_mtu,  # the pair's budget: both ends get the same MTU
        "port": "allowed-vlan" if pw.dot1q_carried else "native-vlan",
        # The LAN port's membership: the trunk's native VLAN is its untagged one.
        "lan_port": "native-vlan" if pw.vlan.native else "allowed-vlan",
    }


# Each transform's cipher as vpn-ipsec-encryption.xml.i names it (IKE and ESP alike).
ENCRYPTION = {
    "aes-gcm-128": "aes128gcm128",
    "aes-gcm-256": "aes256gcm128",
    "aes-cbc-128-sha256": "aes128",
    "aes-cbc-256-sha256": "aes256",
}


def _name(peer: str) -> str:
    """The peer's connection, ike-group, esp-group and psk name: ``l2tpgen-PEER``.

    vpn_ipsec.xml.in: a peer name matches ``[-_a-zA-Z0-9|@]+`` (a site name may have dots).
    """
    return "l2tpgen-" + peer.replace(".", "_")


def _ipsec(pw: Pseudowire, *, reveal: bool, environ: Mapping[str, str] | None) -> dict[str, object]:
    """One IPsec peer: the transform as VyOS names it, and the pre-shared key (masked or hex).

    vpn-ipsec-encryption.xml.i names AES-GCM with a 16-byte ICV ``aesNNNgcm128`` (swanctl's
    ``aesNNNgcm16``). vyos-1x's ``get_esp_ike_cipher`` skips a proposal without both
    ``encryption`` and ``hash``: an AEAD one gets the PRF's hash (in IKE it is the PRF, in ESP
    strongSwan drops it from an AEAD proposal). ``pfs disable``: l2tpgen's other ends propose no
    DH group for ESP, and a rekey with one would not match. The key is written as swanctl reads
    any bytes, ``0x`` and hex (``psk_text``, as the Linux end writes it): vyos-1x copies the
    secret into swanctl.conf between double quotes, and hex needs no quoting on either side.
    Masked, the placeholder is left unquoted, like IOS's masked key: entered as it is, the line
    is not a valid command (vbash reads ``<`` as a redirection, [U]) rather than setting the
    placeholder as the key, which the quoted form would.
    """
    protection = pw.protection
    names = TRANSFORM_NAMES[protection.transform]
    pair = (pw.site.name, pw.peer.name)
    key = pair_psk_text(protection.psk_env, pair, reveal=reveal, environ=environ)
    secret = f"'{psk_text(key)}'" if reveal else key
    return {
        "name": _name(pw.peer.name),
        "local": str(pw.site.tunnel_address),
        "remote": str(pw.peer_address),
        "encryption": ENCRYPTION[protection.transform],
        "hash": names.ios_integrity or names.ios_prf,
        "dh_group": names.ios_group,
        "nat_t": protection.nat_t,
        "protocol": L2TP_PROTOCOL,
        "secret": secret,
    }


def ipsec_peers(
    pseudowires: Sequence[Pseudowire],
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> list[dict[str, object]]:
    """One IPsec peer per peer site whose pseudowires get IPsec, in order.

    Raises:
        SecretError: revealing, and a ``psk_env`` is unset or empty (named, never a value).
    """
    found: dict[str, Pseudowire] = {}
    for pw in pseudowires:
        if pw.protection.ipsec:
            found.setdefault(pw.peer.name, pw)
    return [_ipsec(pw, reveal=reveal_secrets, environ=environ) for pw in found.values()]


def vyos_context(
    fleet: Fleet,
    name: str,
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """What the template writes for one site (the logic lives here, not in the template).

    Raises:
        RenderError: a pseudowire VyOS cannot express.
        SecretError: revealing, and a ``psk_env`` is unset or empty (named, never a value).
    """
    site = fleet.site(name)
    routes = [
        {"network": str(network), "gateway": str(site.wan.gateway)} for network in site.wan.routes
    ]
    loopback = site.wan.loopback
    pseudowires = fleet.pseudowires(name)
    sessions = [_session(pw) for pw in pseudowires]  # refuses what VyOS cannot express
    return {
        "site": site,
        "wan": wan_path(site.data_plane.wan),
        "lan": site.data_plane.lan,
        "bridge": BRIDGE,
        "loopback": str(loopback.address) if loopback is not None else None,
        "routes": routes,
        "sessions": sessions,
        "ipsec": ipsec_peers(pseudowires, reveal_secrets=reveal_secrets, environ=environ),
    }


def render_vyos(
    fleet: Fleet,
    name: str,
    fmt: str,  # noqa: ARG001 - one format
    *,
    reveal_secrets: bool,
    environ: Mapping[str, str] | None,
) -> dict[str, str]:
    """The site's VyOS ``set`` commands; the IKE pre-shared key masked unless ``reveal_secrets``."""
    template = environment(_PACKAGE).get_template("site.j2")
    context = vyos_context(fleet, name, reveal_secrets=reveal_secrets, environ=environ)
    return {"": template.render(**context)}
