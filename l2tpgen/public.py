"""What a public address is: the one definition validate (the model) and lint (the IOS reader) use.

An address is public when a host on the Internet can reach it: not in a block IANA's
special-purpose address registries mark "Globally Reachable: False" (RFC 6890, section 2.2;
https://www.iana.org/assignments/iana-ipv4-special-registry and
https://www.iana.org/assignments/iana-ipv6-special-registry), nor in multicast space (IPv4
224.0.0.0/4, RFC 5771; IPv6 ff00::/8, RFC 4291 section 2.7), whose addresses are no unicast peer.

One deliberate exception: the documentation blocks (192.0.2.0/24, 198.51.100.0/24 and
203.0.113.0/24, RFC 5737; 2001:db8::/32, RFC 3849), which the registries mark not globally
reachable, count as public here: site files and examples use them for real public peers, and a
path between two of them must be protected as an Internet path would be. Python's
``ipaddress.is_private`` calls them private, so it is not used.

Left out: 2001::/23 (IETF protocol assignments), whose registry entry is not globally reachable
while blocks inside it are (2001:3::/32 AMT, 2001:20::/28 ORCHIDv2): l2tpgen counts it public.
"""

from __future__ import annotations

from functools import cache
from ipaddress import IPv4Address, IPv6Address, ip_network

NOT_PUBLIC = tuple(
    ip_network(block)
    for block in (
        # IPv4 (iana-ipv4-special-registry, Globally Reachable: False)
        "0.0.0.0/8",  # "this network", RFC 791
        "10.0.0.0/8",  # private use, RFC 1918
        "100.64.0.0/10",  # shared address space, RFC 6598
        "127.0.0.0/8",  # loopback, RFC 1122
        "169.254.0.0/16",  # link local, RFC 3927
        "172.16.0.0/12",  # private use, RFC 1918
        "192.0.0.0/24",  # IETF protocol assignments, RFC 6890
        "192.168.0.0/16",  # private use, RFC 1918
        "198.18.0.0/15",  # benchmarking, RFC 2544
        "224.0.0.0/3",  # multicast (RFC 5771), reserved 240.0.0.0/4 and 255.255.255.255 (RFC 919)
        # IPv6 (iana-ipv6-special-registry, Globally Reachable: False)
        "::/128",  # unspecified, RFC 4291
        "::1/128",  # loopback, RFC 4291
        "::ffff:0:0/96",  # IPv4-mapped, RFC 4291
        "64:ff9b:1::/48",  # IPv4-IPv6 translation, local use, RFC 8215
        "100::/64",  # discard-only, RFC 6666
        "fc00::/7",  # unique local, RFC 4193
        "fe80::/10",  # link-local unicast, RFC 4291
        "ff00::/8",  # multicast, RFC 4291
    )
)


@cache  # a device has many xconnects but few peers
def is_public(address: IPv4Address | IPv6Address) -> bool:
    """Whether ``address`` is reached over the Internet (see the module's docstring)."""
    return not any(address in block for block in NOT_PUBLIC if block.version == address.version)
