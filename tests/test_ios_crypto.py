"""The IPsec and access-list facts read from configs (``l2tpgen/ios/crypto.py``, ``acl.py``).

Real third-party configs first (tests/realworld/configs, sources in SOURCES.md), then the syntax
variants IOS prints (Cisco IOS Security Configuration Guide, "Configuring Security for VPNs with
IPsec"; IP access list configuration guide): expectations read off the text by hand.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network

from conftest import TESTS
from lint_cases import snippet

from l2tpgen.ios.crypto import CryptoFacts, inbound_acl, protection
from l2tpgen.ios.facts import At
from l2tpgen.lint import ConfigText, read_configs
from l2tpgen.lint.engine import parse_config
from l2tpgen.public import is_public

REAL = TESTS / "realworld" / "configs"


def _crypto_of_file(name: str) -> CryptoFacts:
    (config,) = read_configs([REAL / name])
    crypto = parse_config(config).facts.crypto
    assert crypto is not None
    return crypto


def _crypto(text: str) -> CryptoFacts:
    crypto = parse_config(ConfigText("x.conf", snippet(text))).facts.crypto
    assert crypto is not None
    return crypto


def test_labfinal_crypto_acl_is_udp_1701_between_the_two_wan_addresses() -> None:
    crypto = _crypto_of_file("labfinal2025-l2tpv3-ipsec-r2.cfg")
    (entry,) = crypto.maps["MAP-L2TP"]
    assert (entry.seq, entry.peers, entry.transform_sets) == (
        10,
        (IPv4Address("200.13.67.6"),),
        ("TS-L2TP",),
    )
    assert (entry.acl, entry.acl_at) == ("ACL_TRAFICO_L2TP", At(90, 2))
    (line,) = crypto.acls["ACL_TRAFICO_L2TP"].entries
    assert (line.action, line.protocol, line.at) == ("permit", 17, At(94, 2))
    assert line.source == IPv4Network("200.13.67.2/32")
    assert line.destination == IPv4Network("200.13.67.6/32")
    assert crypto.transform_sets["TS-L2TP"].mode == "tunnel"  # no `mode` line: Cisco's default
    assert crypto.transform_sets["TS-GRE"].mode == "transport"


def test_labfinal_crypto_map_lets_protocol_115_out_in_clear_and_udp_1701_through() -> None:
    crypto = _crypto_of_file("labfinal2025-l2tpv3-ipsec-r2.cfg")
    a, b = IPv4Address("200.13.67.2"), IPv4Address("200.13.67.6")
    assert protection(crypto, "MAP-L2TP", 115, a, b).verdict == "deny"
    assert protection(crypto, "MAP-L2TP", 17, a, b).verdict == "permit"


def test_poormansmpls_crypto_map_protects_protocol_115_between_the_loopbacks() -> None:
    crypto = _crypto_of_file("poormansmpls-l2tpv3-ipsec-hq.cfg")
    found = protection(
        crypto, "MYTUNNELMAP", 115, IPv4Address("172.16.18.5"), IPv4Address("172.16.18.6")
    )
    assert found.verdict == "permit"
    assert found.entry is not None
    assert crypto.transform_sets[found.entry.transform_sets[0]].transforms == "esp-aes esp-sha-hmac"


def test_heldry_dynamic_crypto_map_is_unknown_not_clear() -> None:
    crypto = _crypto_of_file("heldry-l2tpv2-ipsec-dynamic-map-r-l2tp.cfg")
    (entry,) = crypto.maps["MAP_L2TP"]
    assert entry.dynamic
    assert crypto.transform_sets["TS_L2TP"].mode == "transport"
    found = protection(crypto, "MAP_L2TP", 115, None, IPv4Address("20.25.6.2"))
    assert found.verdict == "unknown"


def test_numbered_standard_and_sequenced_lists_and_object_groups() -> None:
    crypto = _crypto(
        """
        access-list 101 remark the pseudowire
        access-list 101 permit 115 host 192.0.2.1 host 203.0.113.2
        access-list 101 deny ip any any
        access-list 10 permit 192.0.2.0 0.0.0.255
        ip access-list extended SEQ
         10 permit udp any eq 1701 host 203.0.113.2 eq 1701
         20 permit object-group PW host 192.0.2.1 host 203.0.113.2
        ip access-list extended ODD
         permit ip 192.0.2.0 0.0.255.0 any
        """
    )
    numbered = crypto.acls["101"]
    assert numbered.at == At(1, 1)
    assert [(e.action, e.protocol, e.at.line) for e in numbered.entries] == [
        ("permit", 115, 2),
        ("deny", -1, 3),
    ]
    (standard,) = crypto.acls["10"].entries
    assert (standard.protocol, standard.source) == (-1, IPv4Network("192.0.2.0/24"))
    udp, group = crypto.acls["SEQ"].entries
    assert (udp.protocol, udp.source, udp.destination) == (
        17,
        IPv4Network("0.0.0.0/0"),
        IPv4Network("203.0.113.2/32"),
    )
    assert group.protocol is None  # an object group: l2tpgen cannot tell what it matches
    (odd,) = crypto.acls["ODD"].entries
    assert odd.source is None  # a wildcard that is not contiguous
    verdict, entry = crypto.acls["ODD"].verdict(
        115, IPv4Address("192.0.2.1"), IPv4Address("1.1.1.1")
    )
    assert (verdict, entry) == ("unknown", odd)


def test_documentation_and_borrowed_addresses_are_public_private_ranges_are_not() -> None:
    public = ["192.0.2.1", "198.51.100.1", "203.0.113.2", "1.1.1.1", "172.32.0.1", "100.128.0.1"]
    private = [
        "10.0.0.1",
        "172.31.255.254",
        "192.168.1.1",
        "100.64.0.1",
        "127.0.0.1",
        "169.254.1.1",
    ]
    assert all(is_public(IPv4Address(a)) for a in public)
    assert not any(is_public(IPv4Address(a)) for a in private)


def test_half_written_crypto_and_acl_lines_give_no_fact_and_no_error() -> None:
    crypto = _crypto(
        """
        crypto map
        crypto map WAN
        crypto map WAN local-address GigabitEthernet0/1
        crypto map WAN 99999999999 ipsec-isakmp
        crypto map WAN 10 ipsec-isakmp
         set peer
         set peer vpn.example.net
         match address
        crypto ipsec transform-set TS
        access-list 101
        access-list 101 permit
        access-list 700 permit 0000.0000.0001
        ip access-list extended
        ip access-list extended HALF
         permit
         permit 115 host
         remark permit 115 any any
        """
    )
    (entry,) = crypto.maps["WAN"]
    assert (entry.seq, entry.peers, entry.acl) == (10, (), None)
    assert crypto.transform_sets == {}
    assert "700" not in crypto.acls  # a MAC access list, not IP
    half = crypto.acls["HALF"].entries
    assert [(e.protocol, e.source) for e in half] == [(None, None), (115, None)]


def test_an_abbreviated_access_group_on_the_wan_is_read() -> None:
    (config,) = [
        ConfigText(
            "x.conf",
            snippet(
                """
                interface GigabitEthernet0/1
                 ip address 198.51.100.1 255.255.255.252
                 ip access-g WAN-IN in
                """
            ),
        )
    ]
    iface = parse_config(config).facts.interfaces["GigabitEthernet0/1"]
    assert inbound_acl(iface) == ("WAN-IN", At(3, 2))
