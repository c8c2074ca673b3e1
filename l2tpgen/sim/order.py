"""Where IOS prints a line among its siblings inside a section.

IOS does not keep a section's lines in the order they were typed: ``show running-config`` prints
each mode's settings in the order its parser generates them, so a line typed again (or added
later) shows in its own place, not at the end. The simulator keeps its own tables (never
``l2tpgen.ios``, which it is there to check), read off published ``show running-config`` captures
in ``tests/realworld/configs`` and, where no capture has the lines, Cisco's documentation:

- pseudowire-class: ``aviacao-cme-rtop-cme.cfg`` (a ``show running-config`` capture, with the
  pager's ``!`` lines) prints ``encapsulation l2tpv3``, ``sequencing transmit``, ``protocol
  none``, ``ip local interface Loopback0``, ``ip tos value 160``, ``ip ttl 8``. Where ``ip pmtu``
  and ``ip dfbit set`` go is [U]: no capture has them with the others; the table follows the task
  order of Cisco's "Layer 2 Tunnel Protocol Version 3" guide, 12.0(23)S ("Configuring the L2TPv3
  Pseudowire": ``ip pmtu``, ``ip tos``, ``ip dfbit set``, ``ip ttl``, ``ip protocol``;
  https://www.cisco.com/c/en/us/td/docs/ios/12_0s/feature/guide/l2tpv325.html).
- l2tp-class: [U], no capture prints more than ``authentication`` and ``password``
  (``byteworks-xconnect-over-ipsec-site1.cfg``, in that order). The rest follows the same
  guide's task order ("Configuring L2TP Control Channel Parameters": timing, authentication,
  hashing, maintenance).
- interface: ``ciscoconfparse-sample08.cfg`` (IOS 15.4): ``description``, ``ip address``, ``no ip
  redirects``/``unreachables``/``proxy-arp``, ``ip nat``, ``ip tcp adjust-mss``,
  ``load-interval``, ``speed``, ``keepalive``, ``cdp``, ``hold-queue ... in``, ``hold-queue ...
  out``; ``batfish-ios-interface-show-run-all.cfg`` (IOS 15.5, its ``description`` moved last by
  batfish's authors, so not used for it): ``mtu`` and ``encapsulation dot1Q`` before ``ip
  address``, ``ip mtu`` after ``ip proxy-arp``, ``ip nat`` then ``ip access-group`` then
  ``load-interval``, ``shutdown``, ``negotiation auto``; ``aviacao-cme-rtop-cme.cfg``: ``duplex``
  then ``speed``, ``no cdp enable`` then ``xconnect``; ``poormansmpls-l2tpv3-ipsec-hq.cfg``:
  ``keepalive`` then ``crypto map`` last. ``crypto map`` against ``cdp`` and ``service-policy``
  are [U].
- crypto: the IKEv2 profile and keyring as the ``show running-config`` paste in
  ``WellspringV/TOUCH`` ``README.md`` (``match identity remote address``, ``authentication
  remote``, ``authentication local``, ``keyring local``; ``peer`` / ``address`` /
  ``pre-shared-key``); ``identity local`` after ``match`` is [U]. The proposal as
  ``kaysalawu/azure-network-terraform`` ``4-poc/sort/4-hub-spoke-sec-single-region/output/
  hub1-nva.sh`` (``encryption``, ``integrity``, ``group``; ``prf`` between them is [U]), the
  policy there too (``proposal``, then ``match``). Crypto map entries [U]: Cisco's examples
  (``set peer``, ``set transform-set``, ``set ikev2-profile``, ``match address``).
- access lists: by sequence number (Cisco, "IP Access List Entry Sequence Numbering": an entry
  typed with a number goes at its number, one without gets the last number plus 10), which
  ``show running-config`` does not print. ``ciscoconfparse-sample01.cfg`` shows remarks and
  entries interleaved in typed order.

A word ``*`` in a table matches any one word; a line no entry matches goes where ``*`` (alone)
stands, else last. ``no X`` goes where ``X`` does.
"""

from __future__ import annotations

_ORDER: dict[str, tuple[str, ...]] = {
    "pw-class": (
        "encapsulation",
        "sequencing",
        "protocol",
        "ip local interface",
        "ip pmtu",
        "ip tos",
        "ip dfbit",
        "ip ttl",
        "ip protocol",
    ),
    "l2tp-class": (
        "receive-window",
        "retransmit",
        "timeout setup",
        "authentication",
        "hostname",
        "password",
        "digest",
        "hidden",
        "hello",
        "cookie size",
    ),
    "interface": (
        "description",
        "bandwidth",
        "encapsulation",
        "mtu",
        "ip address",
        "ip redirects",
        "ip unreachables",
        "ip proxy-arp",
        "ip mtu",
        "ip nat",
        "ip access-group",
        "ip helper-address",
        "ip tcp adjust-mss",
        "ip ospf",
        "load-interval",
        "shutdown",
        "negotiation",
        "media-type",
        "duplex",
        "speed",
        "keepalive",
        "cdp enable",
        "crypto map",
        "xconnect",
        "service-policy",
        "*",
        "hold-queue * in",
        "hold-queue * out",
    ),
    "xconnect": ("l2tp id", "l2tp cookie local", "l2tp cookie remote", "l2tp hello", "backup"),
    "ikev2-proposal": ("encryption", "integrity", "prf", "group"),
    "ikev2-policy": ("proposal", "match"),
    "ikev2-keyring-peer": ("address", "identity", "pre-shared-key"),
    "ikev2-profile": (
        "match identity",
        "identity local",
        "authentication remote",
        "authentication local",
        "keyring",
    ),
    "crypto-map": ("set peer", "set transform-set", "set ikev2-profile", "match address"),
}
_SPLIT = {mode: tuple(tuple(p.split()) for p in table) for mode, table in _ORDER.items()}


def _fits(pattern: tuple[str, ...], words: list[str]) -> bool:
    if pattern == ("*",) or len(words) < len(pattern):
        return False
    return all(p in ("*", w) for p, w in zip(pattern, words, strict=False))


def rank(mode: str, text: str) -> int:
    """Where a line of this mode goes among its siblings (lower first); 0 for unordered modes."""
    table = _SPLIT.get("interface" if mode == "subinterface" else mode)
    if table is None:
        return 0
    words = text.split()
    if words[:1] == ["no"]:
        words = words[1:]
    for at, pattern in enumerate(table):
        if _fits(pattern, words):
            return at
    return table.index(("*",)) if ("*",) in table else len(table)


def ordered(mode: str) -> bool:
    """Whether IOS prints this mode's lines in an order of its own (not as typed)."""
    return mode in _SPLIT or mode == "subinterface"
