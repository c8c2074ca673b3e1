"""How a site's pseudowires are protected on the WAN: IPsec (IKEv2), keyed cookies, or nothing.

A site states a default (``protection:``) and a peer entry may change it for that peer
(``peers[].protection``); ``Site.protection_for(peer)`` resolves what the pseudowires between the
two sites get. Left unset, the mode follows the path: IPsec when the path is untrusted, none when
it is trusted. A path is trusted when both ends are: an end states it (``wan.trusted``), or else
is trusted when neither its WAN address nor its tunnel address is public (``l2tpgen.public``).

Secrets never live in a site file: the IKEv2 pre-shared key is read from ``psk_env`` and the
cookie key from ``cookie_key_env`` at render time. Cookie values are derived (``keyed_cookie``)
from that key and the pseudowire's identity, so both ends compute the same values.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from l2tpgen.model.base import Flag, StrictModel
from l2tpgen.model.keys import master_key
from l2tpgen.model.secret_names import COOKIE_KEY_ENV, PSK_ENV
from l2tpgen.model.secret_names import SecretVar as EnvVar  # pydantic reads it
from l2tpgen.mtu import Esp
from l2tpgen.public import is_public

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.model.site import Site

Mode = Literal["ipsec", "cookie", "none"]
Transform = Literal["aes-gcm-128", "aes-gcm-256", "aes-cbc-128-sha256", "aes-cbc-256-sha256"]
IpsecMode = Literal["transport", "tunnel"]

# Keys people use when they paste a pre-shared key or a cookie into a site file (the loader
# turns them into advice to use psk_env / cookie_key_env).
PROTECTION_SECRET_KEYS = frozenset(
    {"pre_shared_key", "pre-shared-key", "ike_psk", "cookie_key", "cookie_value"}
    | {"cookie_local", "cookie_remote"}
)
# A cookie that protects (mode: cookie) is 8 bytes unless the class says 4: 64 bits to guess.
PROTECTING_COOKIE = 8


class Protection(StrictModel):
    """A site's default protection of its pseudowires (``protection:`` in a site file).

    ``mode`` unset: ``ipsec`` on an untrusted path, ``none`` on a trusted one. IPsec is IKEv2 with
    a pre-shared key (``psk_env``), ESP with ``transform`` in ``ipsec_mode``; ``nat_t`` when a NAT
    sits on the path. ``cookie`` keys the sessions' cookies with the secret in ``cookie_key_env``.
    ``inbound_filter`` renders an inbound WAN filter that admits L2TPv3 to the router's own
    addresses only from its peers (Cisco: an ACL on the WAN interface); unset, it is on when any
    of the site's paths is untrusted.
    """

    mode: Mode | None = None
    transform: Transform = "aes-gcm-128"
    ipsec_mode: IpsecMode = "transport"
    nat_t: Flag = False
    psk_env: EnvVar = PSK_ENV
    cookie_key_env: EnvVar = COOKIE_KEY_ENV
    inbound_filter: Flag | None = None


@dataclass(frozen=True)
class TransformNames:
    """One transform as each platform spells it: IOS IKEv2 proposal and transform set, swanctl.

    IKEv2 (IOS): an AEAD proposal has ``encryption`` + ``prf`` + ``group``, a CBC one
    ``encryption`` + ``integrity`` + ``group`` (IOS refuses a proposal that mixes them: "IKEv2
    proposal MUST either have ... an integrity algorithm ... or encryption algorithm aes-gcm, a
    prf algorithm"). DH: ECP group 19 (256-bit) with 128-bit ciphers, 20 (384-bit) with 256-bit.
    """

    ios_encryption: str
    ios_integrity: str | None  # None for AEAD: ``prf`` instead
    ios_prf: str
    ios_group: int
    ios_esp: str  # the transform set's transforms
    swan_ike: str  # swanctl ``proposals``
    swan_esp: str  # swanctl ``esp_proposals``


TRANSFORM_NAMES: dict[str, TransformNames] = {
    "aes-gcm-128": TransformNames(
        "aes-gcm-128",
        None,
        "sha256",
        19,
        "esp-gcm 128",
        "aes128gcm16-prfsha256-ecp256",
        "aes128gcm16",
    ),
    "aes-gcm-256": TransformNames(
        "aes-gcm-256",
        None,
        "sha384",
        20,
        "esp-gcm 256",
        "aes256gcm16-prfsha384-ecp384",
        "aes256gcm16",
    ),
    "aes-cbc-128-sha256": TransformNames(
        "aes-cbc-128",
        "sha256",
        "sha256",
        19,
        "esp-aes esp-sha256-hmac",
        "aes128-sha256-ecp256",
        "aes128-sha256",
    ),
    "aes-cbc-256-sha256": TransformNames(
        "aes-cbc-256",
        "sha256",
        "sha256",
        20,
        "esp-aes 256 esp-sha256-hmac",
        "aes256-sha256-ecp384",
        "aes256-sha256",
    ),
}


class PeerProtection(StrictModel):
    """What one peer's pseudowires change from the site's ``protection`` (unset: the same)."""

    mode: Mode | None = None
    transform: Transform | None = None
    ipsec_mode: IpsecMode | None = None
    nat_t: Flag | None = None
    psk_env: EnvVar | None = None
    cookie_key_env: EnvVar | None = None


@dataclass(frozen=True)
class PathProtection:
    """What the pseudowires between a site and one peer get, resolved (``Site.protection_for``).

    ``trusted``: whether the path counts as trusted; ``reason`` says why, in words (the first
    public address found, or that both ends state ``wan.trusted``). ``stated``: the mode was set
    in a site file rather than derived from the path.
    """

    mode: Mode
    transform: Transform
    ipsec_mode: IpsecMode
    nat_t: bool
    psk_env: str
    cookie_key_env: str
    inbound_filter: bool
    trusted: bool
    reason: str
    stated: bool

    @property
    def ipsec(self) -> bool:
        """Whether ESP protects the pseudowires."""
        return self.mode == "ipsec"

    @property
    def esp(self) -> Esp | None:
        """The ESP budget of the MTU (``None`` without IPsec)."""
        return Esp(self.transform, self.ipsec_mode, self.nat_t) if self.ipsec else None

    @property
    def keyed_cookies(self) -> bool:
        """Whether cookie values come from the secret key (any protection) or the legacy rule."""
        return self.mode != "none"

    def agreement(self) -> tuple[object, ...]:
        """What both ends of a path must agree on (env var names may differ per end)."""
        if self.mode == "ipsec":
            return (self.mode, self.transform, self.ipsec_mode, self.nat_t)
        return (self.mode,)

    def describe(self) -> str:
        """``IPsec IKEv2 transport aes-gcm-128 (untrusted path: 198.51.100.1 is public)``."""
        if self.mode == "ipsec":
            what = f"IPsec IKEv2 {self.ipsec_mode} {self.transform}" + (
                " NAT-T" if self.nat_t else ""
            )
        elif self.mode == "cookie":
            what = "cookies only (stop blind injection; not readers or replay)"
        else:
            what = "no protection"
        return f"{what} ({'stated' if self.stated else 'default'}; {self.reason})"


def _end_trust(site: Site) -> tuple[bool, str]:
    """Whether one end counts as trusted, and why."""
    if site.wan.trusted is not None:
        state = "true" if site.wan.trusted else "false"
        return site.wan.trusted, f"{site.name} states wan.trusted: {state}"
    for label, address in (("WAN", site.wan.address.ip), ("tunnel", site.tunnel_address)):
        if is_public(address):
            return False, f"{address} ({site.name}'s {label} address) is public"
    return True, f"no public address at {site.name}"


def path_trust(site: Site, peer: Site) -> tuple[bool, str]:
    """Whether the path between two sites is trusted (both ends are), and why, in words.

    Symmetric, so both ends derive the same default.
    """
    ends = sorted((site, peer), key=lambda s: s.name)
    checked = [_end_trust(end) for end in ends]
    for trusted, why in checked:
        if not trusted:
            return False, f"untrusted path: {why}"
    if all(s.wan.trusted for s in ends):
        return True, "trusted path: both ends state wan.trusted: true"
    return True, "trusted path: no public address at either end"


def resolve(site: Site, peer: Site) -> PathProtection:
    """The protection of the pseudowires from ``site`` to ``peer``.

    The site's ``protection`` with the peer entry's changes; an unset mode follows the path
    (IPsec when untrusted, none when trusted), an unset inbound filter likewise.
    """
    base = site.protection
    entry = site.peer_entry(peer.name)
    changes = entry.protection.model_dump(exclude_none=True) if entry and entry.protection else {}
    merged = base.model_copy(update=changes)
    trusted, reason = path_trust(site, peer)
    mode: Mode = merged.mode or ("none" if trusted else "ipsec")
    return PathProtection(
        mode=mode,
        transform=merged.transform,
        ipsec_mode=merged.ipsec_mode,
        nat_t=merged.nat_t,
        psk_env=merged.psk_env,
        cookie_key_env=merged.cookie_key_env,
        inbound_filter=not trusted if merged.inbound_filter is None else merged.inbound_filter,
        trusted=trusted,
        reason=reason,
        stated=merged.mode is not None,
    )


def keyed_cookie(
    key: bytes, pair: tuple[str, str], vc_id: int, receiver: str, size: int
) -> tuple[int, ...]:
    """The cookie ``receiver`` expects on VC ``vc_id`` of ``pair``: ``size`` bytes as 32-bit words.

    HMAC-SHA256 over ``l2tpgen-cookie/v1/<site>/<site>/<vc id>/<receiving site>`` (the two site
    names sorted) with the key, first ``size`` bytes, big-endian words (a 0 word becomes 1). Both
    ends compute the same values; each direction has its own; nothing is stored.
    """
    a, b = sorted(pair)
    message = f"l2tpgen-cookie/v1/{a}/{b}/{vc_id}/{receiver}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return tuple(int.from_bytes(digest[4 * i : 4 * i + 4], "big") or 1 for i in range(size // 4))


def cookie_key(variable: str, environ: Mapping[str, str] | None = None) -> bytes:
    """The cookie key from the environment, checked as a master key (``keys.check_master``).

    Raises:
        SecretError: unset, empty or refused (naming the variable, never the value).
    """
    return master_key(variable, environ)


# A masked cookie names the key's variable and the pseudowire, so that ``reveal_cookies`` (and
# push, which renders masked, lints, then reveals) can fill in the value; it holds no secret.
_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
COOKIE_PLACEHOLDER = re.compile(
    rf"<(?P<var>[A-Za-z_][A-Za-z0-9_]*)/cookie/(?P<a>{_NAME})/(?P<b>{_NAME})/(?P<vc>[0-9]+)"
    rf"/(?P<receiver>{_NAME})/(?P<size>[48])>"
)


def cookie_placeholder(
    variable: str, pair: tuple[str, str], vc_id: int, receiver: str, size: int
) -> str:
    """The masked form of a keyed cookie: ``<L2TPGEN_COOKIE_KEY/cookie/a/b/100/a/8>``."""
    a, b = sorted(pair)
    return f"<{variable}/cookie/{a}/{b}/{vc_id}/{receiver}/{size}>"


def reveal_cookies(
    text: str,
    environ: Mapping[str, str] | None = None,
    form: Callable[[tuple[int, ...]], str] = lambda words: " ".join(map(str, words)),
) -> str:
    """``text`` with every cookie placeholder replaced by its value, written by ``form``.

    ``form`` turns the 32-bit words into the platform's notation: IOS's default is the decimal
    words separated by a space (``l2tp cookie local 8 LOW HIGH``); iproute2 wants hex.

    Raises:
        SecretError: a key variable is unset or empty (the message names it, never a value).
    """
    keys: dict[str, bytes] = {}

    def fill(match: re.Match[str]) -> str:
        var = match.group("var")
        if var not in keys:
            keys[var] = cookie_key(var, environ)
        words = keyed_cookie(
            keys[var],
            (match.group("a"), match.group("b")),
            int(match.group("vc")),
            match.group("receiver"),
            int(match.group("size")),
        )
        return form(words)

    return COOKIE_PLACEHOLDER.sub(fill, text)


def unconfirmed(site: Site, peer: Site, protection: PathProtection) -> tuple[str, ...]:
    """What the protection of this pair relies on that Cisco's documentation did not confirm."""
    notes: list[str] = []
    classic = sorted(s.name for s in (site, peer) if s.driver.esp_gcm_unconfirmed)
    if protection.ipsec and protection.transform.startswith("aes-gcm") and classic:
        notes.append(
            f"[U] esp-gcm on classic IOS ({', '.join(classic)}) is unconfirmed; if the image "
            "refuses it, set `protection: {transform: aes-cbc-128-sha256}` at both ends"
        )
    # A kernel data plane whose rendering has no xfrm policies of l2tpgen's (VyOS): nothing keeps
    # its L2TPv3 from leaving in clear while charon is stopped, restarting or not yet up at boot.
    open_ends = [s for s in (site, peer) if s.driver.kernel_sessions and not s.driver.fail_closed]
    if protection.ipsec and open_ends:
        names = ", ".join(f"{s.name} ({s.driver.short_title or s.driver.title})" for s in open_ends)
        notes.append(
            f"{names} does not fail closed: l2tpgen renders no xfrm block for it, so while its "
            "IKE daemon is down (a restart, a crash, a boot before the IPsec configuration "
            "loads) its L2TPv3 leaves and is accepted in clear; block IP protocol 115 that is "
            "not ESP on its WAN yourself, both ways (docs/security.md, fail closed)"
        )
    return tuple(notes)
