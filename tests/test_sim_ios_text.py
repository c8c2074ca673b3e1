"""The simulator's own IOS text handling: interface names, type 7, running-config order.

Expectations come from outside l2tpgen: netutils' tables (an outside library), netutils'
published type 7 example, and the order of real ``show running-config`` captures in
``tests/realworld/configs``.
"""

from __future__ import annotations

import pytest
from conftest import TESTS
from netutils.interface import abbreviated_interface_name, canonical_interface_name
from netutils.password import decrypt_cisco_type7, encrypt_cisco_type7

from l2tpgen.sim import names, type7
from l2tpgen.sim.router import Router

REALWORLD = TESTS / "realworld" / "configs"


@pytest.mark.parametrize("salt", range(16))
def test_type_7_is_netutils_type_7_under_every_salt(salt: int) -> None:
    for secret in ("cisco", "s3cret", "x", "A~!b{}[]|", "y" * 25):
        stored = type7.encode(secret, salt)
        assert stored == encrypt_cisco_type7(secret, salt)
        assert type7.decode(stored) == secret == decrypt_cisco_type7(stored)


def test_type_7_reads_netutils_published_example() -> None:
    # netutils' encrypt_cisco_type7 docstring: encrypt_cisco_type7("cisco", 11) == "110A1016141D"
    assert type7.decode("110A1016141D") == "cisco"
    assert type7.encode("cisco", 11) == "110A1016141D"


@pytest.mark.parametrize("text", ["<L2TPGEN_L2TP_SECRET>", "16AB", "0", "0822455D0A1", ""])
def test_what_is_not_type_7_is_refused_without_repeating_it(text: str) -> None:
    with pytest.raises(type7.Type7Error) as caught:
        type7.decode(text)
    assert text not in str(caught.value) or not text


def test_type_7_refuses_what_it_cannot_carry() -> None:
    for secret, salt in (("has space", 1), ("", 1), ("ok", 16), ("z" * 26, 1)):
        with pytest.raises(type7.Type7Error):
            type7.encode(secret, salt)


# typed -> stored, worked out by hand from IOS's type names
CANONICAL = {
    "gi0/0": "GigabitEthernet0/0",
    "Gi0/0.100": "GigabitEthernet0/0.100",
    "giga0/1": "GigabitEthernet0/1",
    "fa0/1": "FastEthernet0/1",
    "Fa0/1": "FastEthernet0/1",
    "e0/0": "Ethernet0/0",
    "Et0/0": "Ethernet0/0",
    "lo0": "Loopback0",
    "Lo0": "Loopback0",
    "tu1": "Tunnel1",
    "Tu1": "Tunnel1",
    "te0/0/0": "TenGigabitEthernet0/0/0",
    "Te0/0/0": "TenGigabitEthernet0/0/0",
    "po1": "Port-channel1",
    "Po1": "Port-channel1",
    "Se0/0/0": "Serial0/0/0",
    "Fo1/0": "FortyGigabitEthernet1/0",
    "Tw1/0/1": "TwoGigabitEthernet1/0/1",
    "Twe1/0/1": "TwentyFiveGigE1/0/1",
    "vl10": "Vlan10",
    "GigabitEthernet0/0/0": "GigabitEthernet0/0/0",
}


@pytest.mark.parametrize(("typed", "stored"), CANONICAL.items(), ids=CANONICAL.keys())
def test_interface_names_are_stored_in_full(typed: str, stored: str) -> None:
    assert names.canonical(typed) == stored
    outside = canonical_interface_name(typed)
    # netutils is case-sensitive and knows no prefixes: where it expands the name, it agrees
    assert outside in {typed, stored}


@pytest.mark.parametrize("typed", ["bogus0/0", "gi", "0/0", "gi0/0.0", "gi0/0/", "gi0/0 x"])
def test_what_is_not_an_interface_name_is_not_one(typed: str) -> None:
    assert names.canonical(typed) is None


@pytest.mark.parametrize("full", [row[0] for row in names.TYPES])
def test_short_names_are_netutils_short_names(full: str) -> None:
    assert names.short(f"{full}0/1.10") == abbreviated_interface_name(f"{full}0/1.10")


def test_an_interface_typed_in_any_spelling_is_one_interface() -> None:
    router = Router("r1")
    for line in ("configure terminal", "interface gi0/0.10", "description one", "end"):
        router.handle(line)
    for line in ("configure terminal", "interface GigabitEthernet 0/0.10", "shutdown", "end"):
        router.handle(line)
    shown = router.handle("show running-config")
    assert "interface GigabitEthernet0/0.10\n description one\n shutdown\n" in shown
    assert shown.count("interface ") == 1


def _order(lines: list[str]) -> list[str]:
    """The top-level lines of ``lines`` typed in reverse, as ``show running-config`` prints them."""
    router = Router("r1")
    assert router.load("\n".join(reversed(lines))) == []
    body = router.running.body().splitlines()
    return [x for x in body if x and not x.startswith((" ", "!"))]


def _top_level(path: str, keep: tuple[str, ...]) -> list[str]:
    text = (REALWORLD / path).read_text(encoding="utf-8")
    return [x.rstrip() for x in text.splitlines() if x.startswith(keep)]


def test_interfaces_are_printed_in_the_order_of_a_real_running_config() -> None:
    real = _top_level("ciscoconfparse-sample01.cfg", ("interface ",))
    typed = [x for x in real if "point-to-point" not in x]  # a keyword the simulator lacks
    assert [x.split()[1] for x in typed] == [
        "Loopback0",
        "Null0",
        "ATM0/0",
        "FastEthernet0/0",
        "FastEthernet0/1",
        "FastEthernet1/0",
        "Virtual-Template1",
        "Dialer1",
    ]
    assert _order(typed) == typed


def test_subinterfaces_follow_their_port_in_numeric_order() -> None:
    typed = [
        "interface GigabitEthernet0/0",
        "interface GigabitEthernet0/0.2",
        "interface GigabitEthernet0/0.10",
        "interface GigabitEthernet0/0.100",
        "interface GigabitEthernet0/1",
        "interface GigabitEthernet0/10",
    ]
    assert _order(typed) == typed


def test_global_lines_are_printed_in_the_order_of_real_running_configs() -> None:
    # ciscoconfparse-sample01.cfg (IOS 12.4) for all but the l2tp-class and pseudowire-class,
    # whose place (before crypto and interfaces) is byteworks-xconnect-over-ipsec-site1.cfg's
    typed = [
        "version 12.4",
        "service password-encryption",
        "hostname Foo",
        "boot-start-marker",
        "boot-end-marker",
        "logging buffered 65535 debugging",
        "enable secret 5 $1$abcd$abcdefghijklmnopqrstu/",
        "aaa new-model",
        "clock timezone MST -7",
        "ip domain name foo.com",
        "ip name-server 172.16.1.5",
        "username ddclient password 7 110A1016141D",
        "l2tp-class c1",
        "pseudowire-class p1",
        "interface Loopback0",
        "router ospf 1",
        "ip route 0.0.0.0 0.0.0.0 172.16.2.254 254",
        "ip access-list standard INTERNAL",
        "logging 172.16.1.5",
        "access-list 11 permit any",
        "snmp-server ifindex persist",
        "control-plane",
        "line vty 0 4",
        "ntp server 1.1.1.1",
    ]
    assert _order(typed) == typed
