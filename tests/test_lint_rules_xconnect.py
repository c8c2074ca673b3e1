"""Rules about attachment circuits (L2T001, L2T008, L2T011, L2T012, L2T015), case by case.

Every expectation below was worked out by reading the rule's documentation and the snippet.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, check, device, params

L2T001 = [
    device(
        "L2T001",
        "fails",
        "xconnect-on-the-main-lan-port",
        """
        interface GigabitEthernet0/0
         no ip address
         xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet
        """,
        (3, 2),
    ),
    device(
        "L2T001",
        "passes",
        "one-xconnect-per-dot1q-subinterface",
        """
        interface GigabitEthernet0/0
         no ip address
        !
        interface GigabitEthernet0/0.2996
         encapsulation dot1Q 2996
         xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
    device(
        "L2T001",
        "boundary",
        "serial-port-is-not-an-ethernet-trunk",
        """
        interface Serial0/0/0
         no ip address
         xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet
        """,
    ),
    device(
        "L2T001",
        "boundary",
        "ppp-serial-port-carries-one-ppp-link-not-vlans",
        """
        interface Serial0/0
         no ip address
         encapsulation ppp
         xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ppp
        """,
    ),
    device(
        "L2T001",
        "boundary",
        "atm-port-and-frame-relay-dlci-carry-no-vlans",
        """
        interface ATM0/0
         no ip address
         xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class atm
        interface Serial0/1
         encapsulation frame-relay
        connect fr1 Serial0/1 100 l2transport
         xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class fr
        """,
    ),
    device(
        "L2T001",
        "boundary",
        "abbreviated-port-name-is-still-the-main-port",
        """
        int gi0/0
         xconnect 10.216.44.47 125 encapsulation l2tpv3 pw-class ethernet
        """,
        (2, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T001))
def test_l2t001_flags_an_xconnect_that_carries_a_whole_ethernet_port(case: Case) -> None:
    check(case)


L2T008 = [
    device(
        "L2T008",
        "fails",
        "second-xconnect-with-the-same-peer-and-vc-id",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        """,
        (6, 2),
    ),
    device(
        "L2T008",
        "passes",
        "each-pseudowire-to-a-peer-has-its-own-vc-id",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.2 200 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T008",
        "boundary",
        "same-vc-id-to-a-different-peer-is-fine",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.3 100 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T008",
        "boundary",
        "every-repeat-after-the-first-is-flagged",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 20
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/0.30
         encapsulation dot1Q 30
         xconnect 192.0.2.2 100 encapsulation l2tpv3 pw-class pw
        """,
        (6, 2),
        (9, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T008))
def test_l2t008_flags_a_peer_and_vc_id_used_twice_on_one_router(case: Case) -> None:
    check(case)


L2T011 = [
    device(
        "L2T011",
        "fails",
        "address-on-the-attachment-circuit",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         ip address 10.0.0.1 255.255.255.0
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 2),
    ),
    device(
        "L2T011",
        "passes",
        "attachment-circuit-without-an-address",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         no ip address
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T011",
        "boundary",
        "address-on-the-parent-port-is-not-on-the-circuit",
        """
        interface GigabitEthernet0/0
         ip address 10.0.0.1 255.255.255.0
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T011",
        "boundary",
        "primary-and-secondary-address-flagged-once-at-the-first",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
         ip address 10.0.0.1 255.255.255.0
         ip address 10.0.1.1 255.255.255.0 secondary
        """,
        (4, 2),
    ),
    device(
        "L2T011",
        "boundary",
        "address-from-dhcp-is-an-address-too",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         ip address dhcp
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (3, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T011))
def test_l2t011_flags_an_attachment_circuit_that_also_has_an_address(case: Case) -> None:
    check(case)


# Port mode only: Cisco's L2TPv3 guide (12.0(29)S, "Ethernet" and "802.1q (VLAN)") tunnels every
# frame of a port in port mode, and only the frames tagged with its VLAN on a dot1Q subinterface;
# CDP runs untagged on the physical port. (These cases were on dot1Q subinterfaces, where issue 20
# found the rule wrong.)
L2T012 = [
    device(
        "L2T012",
        "fails",
        "port-mode-attachment-circuit-without-no-cdp-enable",
        """
        interface GigabitEthernet0/0
         no ip address
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (1, 1),
    ),
    device(
        "L2T012",
        "passes",
        "port-mode-attachment-circuit-with-no-cdp-enable",
        """
        interface GigabitEthernet0/0
         no ip address
         no cdp enable
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T012",
        "boundary",
        "no-cdp-run-turns-cdp-off-everywhere",
        """
        interface GigabitEthernet0/0
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        !
        no cdp run
        """,
    ),
    device(
        "L2T012",
        "boundary",
        "only-the-port-that-runs-cdp",
        """
        interface GigabitEthernet0/0
         no cdp enable
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        interface GigabitEthernet0/1
         xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
        (4, 1),
    ),
    device(
        "L2T012",
        "passes",
        "cdp-never-enters-a-dot1q-subinterface-pseudowire",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T012",
        "passes",
        "atm-interface-and-atm-pvc-are-not-ethernet-ports-running-cdp",
        """
        interface ATM0/0
         no ip address
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        interface ATM1/0
         no ip address
         pvc 1/100 l2transport
          encapsulation aal5
          xconnect 192.0.2.2 20 encapsulation l2tpv3 pw-class pw
        """,
    ),
    device(
        "L2T012",
        "boundary",
        "serial-port-mode-still-tunnels-the-sites-cdp",
        """
        interface Serial0/0
         encapsulation hdlc
         xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw
        """,
        (1, 1),
    ),
]


@pytest.mark.parametrize("case", params(L2T012))
def test_l2t012_flags_an_attachment_circuit_that_runs_cdp(case: Case) -> None:
    check(case)


L2T015 = [
    device(
        "L2T015",
        "fails",
        "two-subinterfaces-of-one-port-on-vlan-10",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
        interface GigabitEthernet0/0.11
         encapsulation dot1Q 10
        """,
        (4, 2),
    ),
    device(
        "L2T015",
        "passes",
        "one-subinterface-per-vlan",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
        interface GigabitEthernet0/0.11
         encapsulation dot1Q 11
        """,
    ),
    device(
        "L2T015",
        "boundary",
        "same-vlan-on-two-different-ports-is-fine",
        """
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
        interface GigabitEthernet0/1.10
         encapsulation dot1Q 10
        """,
    ),
    device(
        "L2T015",
        "boundary",
        "the-later-one-in-the-file-is-flagged-whatever-its-number",
        """
        interface GigabitEthernet0/0.20
         encapsulation dot1Q 10
        interface GigabitEthernet0/0.10
         encapsulation dot1Q 10
        """,
        (4, 2),
    ),
]


@pytest.mark.parametrize("case", params(L2T015))
def test_l2t015_flags_a_vlan_attached_twice_to_one_port(case: Case) -> None:
    check(case)


CASES = {"L2T001": L2T001, "L2T008": L2T008, "L2T011": L2T011, "L2T012": L2T012, "L2T015": L2T015}
