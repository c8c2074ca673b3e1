"""Each interface line l2tpgen reads lands in its field; a line that says more stays in ``other``.

``other`` is what import notes and push would remove (``l2tpgen/ios/extract.py``), so a line read
into a field but saying more (``encapsulation dot1Q 10 second-dot1q 20``) must stay there too;
``native`` is read (``dot1q_native``), so that line is fully read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.extract import extract
from l2tpgen.ios.tree import parse

if TYPE_CHECKING:
    from l2tpgen.ios.facts import Interface

SERIAL = (
    "interface Serial0/0\n encapsulation ppp\n mtu 1500\n crypto map VPN\n"
    " tunnel protection ipsec profile P\n description up link\n shutdown\n duplex Full\n"
    " speed 100\n hold-queue 2048 in\n hold-queue 1024 out\n"
)


def _interfaces(text: str) -> dict[str, Interface]:
    return extract("r.cfg", parse(text)).interfaces


def test_every_interface_setting_line_is_read_into_its_field() -> None:
    serial = _interfaces(SERIAL)["Serial0/0"]
    assert (serial.encapsulation, serial.mtu, serial.crypto_map) == ("ppp", 1500, "VPN")
    assert serial.tunnel_protection
    assert (serial.description, serial.shutdown) == ("up link", True)
    assert (serial.duplex, serial.speed) == ("full", "100")
    assert (serial.hold_queue_in, serial.hold_queue_out) == (2048, 1024)
    assert serial.other == ()


def test_a_dot1q_line_that_says_more_than_the_vlan_is_read_and_kept_in_other() -> None:
    text = "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10 second-dot1q 20\n"
    sub = _interfaces(text)["GigabitEthernet0/0.10"]
    assert sub.dot1q == 10
    assert not sub.dot1q_native
    assert [line for line, _ in sub.other] == ["encapsulation dot1Q 10 second-dot1q 20"]


def test_a_native_dot1q_line_is_read_whole_into_its_fields() -> None:
    text = "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10 native\n"
    sub = _interfaces(text)["GigabitEthernet0/0.10"]
    assert (sub.dot1q, sub.dot1q_native) == (10, True)
    assert sub.other == ()


def test_a_line_no_field_records_stays_in_other() -> None:
    text = "interface GigabitEthernet0/1\n load-interval 30\n hold-queue 2048 sideways\n"
    iface = _interfaces(text)["GigabitEthernet0/1"]
    assert [line for line, _ in iface.other] == ["load-interval 30", "hold-queue 2048 sideways"]


def test_only_a_dot1q_line_ending_in_native_is_read_as_the_native_vlan() -> None:
    text = (
        "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10 NATIVE\n"
        "interface GigabitEthernet0/0.20\n encapsulation dot1Q 20 native second-dot1q 30\n"
    )
    interfaces = _interfaces(text)
    assert interfaces["GigabitEthernet0/0.10"].dot1q_native
    assert interfaces["GigabitEthernet0/0.10"].other == ()
    assert not interfaces["GigabitEthernet0/0.20"].dot1q_native
    assert [line for line, _ in interfaces["GigabitEthernet0/0.20"].other] == [
        "encapsulation dot1Q 20 native second-dot1q 30"
    ]


def test_xconnect_options_abbreviated_alike_on_many_lines_are_read_on_each() -> None:
    text = "".join(
        f"interface GigabitEthernet0/0.{vlan}\n"
        f" xconn 192.0.2.{vlan} {vlan} encap L2TPv3 pw-cl PW-{vlan % 2} manu\n"
        for vlan in (10, 11, 12)
    )
    read = [
        (xc.peer_text, xc.vc_id, xc.encapsulation, xc.pw_class, xc.manual)
        for iface in _interfaces(text).values()
        if (xc := iface.xconnect) is not None
    ]
    assert read == [
        ("192.0.2.10", 10, "l2tpv3", "PW-0", True),
        ("192.0.2.11", 11, "l2tpv3", "PW-1", True),
        ("192.0.2.12", 12, "l2tpv3", "PW-0", True),
    ]


def test_an_xconnect_missing_its_vc_id_still_names_its_pw_class() -> None:
    text = "interface GigabitEthernet0/0.10\n xconnect 192.0.2.2 pw-class PW\n"
    xc = _interfaces(text)["GigabitEthernet0/0.10"].xconnect
    assert xc is not None
    assert (xc.peer_text, xc.vc_id, xc.pw_class, xc.manual) == ("192.0.2.2", None, "PW", False)
