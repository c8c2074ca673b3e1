"""One definition of a public address (``l2tpgen.public``), and validate and lint agree on it.

Validate (the model: a path with a public end is untrusted and gets IPsec by default) and lint
(L2T024: a pseudowire to a public peer that leaves in clear) once read two lists, only one with
IPv6 (issue 29). The table below is decided by IANA's special-purpose address registries (RFC
6890, section 2.2: "Globally Reachable";
https://www.iana.org/assignments/iana-ipv4-special-registry,
https://www.iana.org/assignments/iana-ipv6-special-registry), with l2tpgen's one exception:
the documentation blocks (RFC 5737, RFC 3849) count as public, as examples use them for real
public peers.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address, ip_interface

import pytest

from l2tpgen.lint.engine import ConfigText, lint_configs
from l2tpgen.model.protection import path_trust
from l2tpgen.model.site import Site
from l2tpgen.public import is_public

# Each case: the address, whether it is public, and why.
CASES = [
    ("8.8.8.8", True, "global unicast"),
    ("192.0.2.1", True, "TEST-NET-1, RFC 5737: documentation, counted public"),
    ("198.51.100.7", True, "TEST-NET-2, RFC 5737: documentation, counted public"),
    ("203.0.113.9", True, "TEST-NET-3, RFC 5737: documentation, counted public"),
    ("172.32.0.1", True, "just past 172.16.0.0/12"),
    ("10.1.2.3", False, "private use, RFC 1918"),
    ("172.31.255.1", False, "private use, RFC 1918"),
    ("192.168.1.1", False, "private use, RFC 1918"),
    ("100.64.0.1", False, "shared address space, RFC 6598"),
    ("169.254.1.1", False, "link local, RFC 3927"),
    ("198.18.0.1", False, "benchmarking, RFC 2544"),
    ("192.0.0.1", False, "IETF protocol assignments, RFC 6890"),
    ("2a00:1450:4001::1", True, "global unicast"),
    ("2001:db8::1", True, "documentation, RFC 3849: counted public"),
    ("fd12:3456::1", False, "unique local (fc00::/7), RFC 4193"),
    ("fc00::1", False, "unique local (fc00::/7), RFC 4193"),
    ("fe80::1", False, "link-local unicast, RFC 4291"),
    ("100::1", False, "discard-only, RFC 6666"),
]
# Not a unicast WAN address a site file could state: the definition alone is checked.
DEFINITION_ONLY = [
    ("127.0.0.1", False, "loopback"),
    ("224.0.0.5", False, "multicast, RFC 5771"),
    ("240.0.0.1", False, "reserved"),
    ("::1", False, "loopback, RFC 4291"),
    ("ff02::1", False, "multicast, RFC 4291"),
    ("::ffff:8.8.8.8", False, "IPv4-mapped, RFC 4291"),
]


@pytest.mark.parametrize(("address", "public", "why"), CASES + DEFINITION_ONLY)
def test_the_definition_follows_the_special_purpose_registries(
    address: str, public: bool, why: str
) -> None:
    assert is_public(ip_address(address)) is public, why


def _site(name: str, address: IPv4Address | IPv6Address) -> Site:
    prefix = 30 if address.version == 4 else 64
    network = ip_interface(f"{address}/{prefix}").network
    first, second = network[1], network[2]
    gateway = second if first == address else first
    return Site.model_validate(
        {
            "name": name,
            "hostname": f"pe-{name}",
            "platform": "linux" if address.version == 6 else "ios",
            "management": {"host": "192.0.2.200"},
            "wan": {
                "interface": "enp1s0" if address.version == 6 else "GigabitEthernet0/1",
                "address": f"{address}/{prefix}",
                "gateway": str(gateway),
            },
            "lan": {"interface": "enp2s0" if address.version == 6 else "GigabitEthernet0/0"},
        }
    )


def _validate_says_public(address: IPv4Address | IPv6Address) -> bool:
    """The model's verdict: a path with this end is untrusted (the other end being private)."""
    private = ip_address("10.9.9.1" if address.version == 4 else "fd00:9::1")
    trusted, _ = path_trust(_site("a", address), _site("b", private))
    return not trusted


_CLEAR = """\
pseudowire-class pw
 encapsulation l2tpv3
 ip local interface GigabitEthernet0/1
interface GigabitEthernet0/1
 ip address 198.51.100.1 255.255.255.252
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect {peer} 10 pw-class pw
ip route 0.0.0.0 0.0.0.0 198.51.100.2
"""


def _lint_says_public(address: IPv4Address) -> bool:
    """L2T024's verdict on a pseudowire to this peer leaving in clear."""
    findings = lint_configs([ConfigText("pe.cfg", _CLEAR.format(peer=address))])
    return any(f.code == "L2T024" for f in findings)


@pytest.mark.parametrize(("address", "public", "why"), CASES)
def test_validate_and_lint_agree_on_what_is_public(address: str, public: bool, why: str) -> None:
    ip = ip_address(address)
    assert _validate_says_public(ip) is public, why
    if isinstance(ip, IPv4Address):  # an IOS xconnect's peer is IPv4 (platforms/ios/traits.py)
        assert _lint_says_public(ip) is public, why
