"""A Linux PE's IKEv2 for its protected pseudowires: a strongSwan ``swanctl.conf``.

One connection per peer whose pseudowires get IPsec (``pw.protection``), between the tunnel
addresses: IKEv2 (``version = 2``) with a pre-shared key, one CHILD SA whose traffic selectors
are the pseudowire's own traffic, IP protocol 115 between the two tunnel addresses
(``local_ts = A/32[115]``, ``remote_ts = B/32[115]``; over an IPv6 underlay ``A/128[115]``,
``B/128[115]``), in transport mode by default; the IKE and
ESP proposals are the transform's swanctl names (``TRANSFORM_NAMES``), the same transform the
Cisco end renders. ``start_action = trap``: the first packet of the pseudowire brings the SA up,
from either end. No MOBIKE (IOS does not speak it), and UDP encapsulation forced only with
``nat_t``. Keys as swanctl.conf(5) documents them
(https://docs.strongswan.org/docs/latest/swanctl/swanctlConf.html).

The pre-shared key is the pair's own, derived from the master key in the variable the model names
(``psk_env``; ``l2tpgen.model.keys``), and written only when revealed, hex-encoded (``0x...``:
swanctl's form for any bytes, no quoting); masked it is ``<VARIABLE/psk/A/B>``, which swanctl
refuses to load. Install the file as
``/etc/swanctl/conf.d/l2tpgen.conf`` (the default swanctl.conf includes ``conf.d/*.conf``), then
``swanctl --load-all``.

charon installs only the per-peer policies: an L2TPv3 packet from any other address matches none
and is accepted in clear. ``linux.py`` renders the xfrm blocks that drop it (and keep L2TPv3
from leaving in clear while charon is down).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.keys import pair_psk_text
from l2tpgen.model.protection import TRANSFORM_NAMES
from l2tpgen.model.reads import ipsec_peers

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from l2tpgen.model import Pseudowire, Site

L2TP_PROTOCOL = 115
FILE_NAME = "swanctl.conf"
INSTALL_PATH = "/etc/swanctl/conf.d/l2tpgen.conf"


def psk_text(value: str) -> str:
    """A pre-shared key as swanctl reads it: ``0x`` and its UTF-8 bytes in hex."""
    return "0x" + value.encode().hex()


def connection_name(peer: str) -> str:
    """The connection (and CHILD SA) to one peer: ``l2tpgen-PEER``."""
    return f"l2tpgen-{peer}"


def _connection(site: Site, pw: Pseudowire) -> list[str]:
    protection = pw.protection
    names = TRANSFORM_NAMES[protection.transform]
    local, remote = site.tunnel_address, pw.peer_address
    name = connection_name(pw.peer.name)
    host = local.max_prefixlen  # /32, or /128 on an IPv6 underlay
    return [
        f"  {name} {{",
        "    version = 2",
        f"    local_addrs = {local}",
        f"    remote_addrs = {remote}",
        f"    proposals = {names.swan_ike}",
        f"    encap = {'yes' if protection.nat_t else 'no'}",
        "    mobike = no",
        "    local {",
        "      auth = psk",
        f"      id = {local}",
        "    }",
        "    remote {",
        "      auth = psk",
        f"      id = {remote}",
        "    }",
        "    children {",
        f"      {name} {{",
        f"        mode = {protection.ipsec_mode}",
        f"        local_ts = {local}/{host}[{L2TP_PROTOCOL}]",
        f"        remote_ts = {remote}/{host}[{L2TP_PROTOCOL}]",
        f"        esp_proposals = {names.swan_esp}",
        "        start_action = trap",
        "      }",
        "    }",
        "  }",
    ]


def render_swanctl(
    site: Site,
    pseudowires: Sequence[Pseudowire],
    *,
    reveal_secrets: bool = False,
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """The site's swanctl.conf, or None when no pseudowire of it gets IPsec.

    Raises:
        SecretError: revealing, and a ``psk_env`` is unset or empty (named, never a value).
    """
    peers = ipsec_peers(pseudowires)
    if not peers:
        return None
    lines = [
        f"# l2tpgen: {site.name} ({site.hostname}), IKEv2 for its pseudowires (IP protocol 115)",
        f"# install as {INSTALL_PATH}, then: swanctl --load-all",
        "connections {",
    ]
    for pw in peers:
        lines += _connection(site, pw)
    lines += ["}", "secrets {"]
    for pw in peers:
        key = pair_psk_text(
            pw.protection.psk_env, (site.name, pw.peer.name), reveal=reveal_secrets, environ=environ
        )
        secret = psk_text(key) if reveal_secrets else key
        lines += [
            f"  ike-{connection_name(pw.peer.name)} {{",
            f"    id-local = {site.tunnel_address}",
            f"    id-remote = {pw.peer_address}",
            f"    secret = {secret}",
            "  }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"
