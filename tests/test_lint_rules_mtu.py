"""The MTU budget (L2T013): what its findings say (where they are: its examples).

Every expectation below was worked out by reading the rule's documentation and the snippet; the
byte counts are `l2tpgen mtu`'s documented budget added up by hand: outer IPv4 20, session ID 4,
the cookie, the inner Ethernet header 14 (HDLC/PPP 4 on a serial circuit), 4 more for a dot1Q tag
on a subinterface and on an Ethernet port in port mode (a trunk's frames keep their tag), 73 for
IPsec on the WAN; the WAN is 1500 bytes unless its `mtu` says otherwise
(a GRE tunnel's default is 1476).
"""

from __future__ import annotations

from conftest import TESTS
from lint_cases import Case, example, lint_case

from l2tpgen.lint import ConfigText, lint_configs


def _named(name: str) -> Case:
    return example("L2T013", name)


def test_l2t013_one_byte_over_the_ipsec_budget_says_how_many_bytes_and_the_mtu_that_fits() -> None:
    # 1382 + 119 (worked out above) = 1501 bytes on a 1500-byte WAN; the CE MTU that fits is
    # 1381, its TCP MSS 1381 - 40 (IPv4 and TCP headers) = 1341.
    (finding,) = [
        f for f in lint_case(_named("ipsec-on-the-wan-one-byte-over")) if f.code == "L2T013"
    ]
    assert finding.message.startswith(
        "1382-byte packets from GigabitEthernet0/0.10 need 1501 bytes on the 1500-byte WAN "
        "(IPsec on GigabitEthernet0/1: 73 bytes assumed"
    )
    assert finding.message.endswith("static sessions cannot use ip pmtu")
    assert finding.fix == "lower the CE MTU to 1381 (TCP MSS 1341)"


def test_l2t013_tells_a_dynamic_session_to_add_ip_pmtu_first() -> None:
    # 1500 + 42 (dot1Q subinterface, no cookie) = 1542 bytes; fits at 1458, TCP MSS 1418
    (finding,) = [
        f
        for f in lint_case(_named("dynamic-class-without-ip-pmtu-at-the-default-mtu"))
        if f.code == "L2T013"
    ]
    assert finding.message == (
        "1500-byte packets from GigabitEthernet0/0.10 need 1542 bytes on the 1500-byte WAN, "
        "and there is no ip pmtu"
    )
    assert finding.fix == "add `ip pmtu`, or lower the CE MTU to 1458 (TCP MSS 1418)"


def test_l2t013_names_the_ports_mtu_a_subinterface_without_one_takes() -> None:
    # 1459 + 42 = 1501 bytes; fits at 1458, TCP MSS 1418
    (finding,) = [
        f
        for f in lint_case(_named("subinterface-without-mtu-takes-its-ports-mtu-one-byte-over"))
        if f.code == "L2T013"
    ]
    assert finding.message.startswith(
        "1459-byte packets from GigabitEthernet0/0.10 need 1501 bytes on the 1500-byte WAN, "
    )
    assert finding.fix == "lower the CE MTU to 1458 (TCP MSS 1418)"


def test_l2t013_tells_the_readmes_single_trunk_the_mtu_its_tagged_frames_fit_in() -> None:
    # tests/lint/reference/before.conf (the README's example): one xconnect on Gi0/0 carries the
    # four VLANs' frames, each with its tag, on a 1500-byte WAN, no cookie, no sublayer:
    # 1500 + 20 + 4 + 14 + 4 (tag) = 1542 bytes; fits at 1500 - 42 = 1458, TCP MSS 1418. The lab
    # measures the same 1458 (tests/test_lab.py, the single-trunk variant); 1462 would fragment.
    before = TESTS / "lint" / "reference" / "before.conf"
    (finding,) = [
        f
        for f in lint_configs([ConfigText("before.conf", before.read_text())])
        if f.code == "L2T013"
    ]
    assert finding.message == (
        "1500-byte packets from GigabitEthernet0/0 need 1542 bytes on the 1500-byte WAN, "
        "and there is no ip pmtu"
    )
    assert finding.fix == "add `ip pmtu`, or lower the CE MTU to 1458 (TCP MSS 1418)"
