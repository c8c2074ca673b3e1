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
