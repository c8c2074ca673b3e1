"""What differs between a classic IOS router and an IOS-XE one, as far as l2tpgen can see.

Two flavors: ``ios`` (a Cisco 2911, IOS 15.7: ``Directory of flash:/``) and ``iosxe`` (a Catalyst
8000V, IOS-XE 17.9, the CSR1000v's successor: ``Directory of bootflash:/``, no ``flash:``). They
print ``show xconnect all`` differently: classic IOS a two-line legend and the segment type
left-aligned (genieparser's fixtures, ``tests/realworld/show/genieparser-show-xconnect-all-*``),
IOS-XE a three-line legend with the SB/HS/RV states, a blank line after it and the type
right-aligned (a CSR1000v capture, ``tests/realworld/show/spcor-show-xconnect-all-detail.txt``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Flavor:
    """One kind of router: its name, file system, version text and ``show xconnect`` layout."""

    name: str
    device_type: str  # netmiko's (and an l2tpgen inventory's)
    file_system: str
    version: str  # ``show version``; {hostname} is filled in
    legend: tuple[str, ...]
    type_align: str  # how the segment type sits in its 4 columns: "<" or ">"
    show_l2tp: bool = False  # answers `show l2tp` (IOS-XE, genieparser's layout); classic IOS [U]


IOS = Flavor(
    name="ios",
    device_type="cisco_ios",
    file_system="flash:",
    version=(
        "Cisco IOS Software, C2900 Software (C2900-UNIVERSALK9-M), Version 15.7(3)M8, "
        "RELEASE SOFTWARE (fc2)\n"
        "Technical Support: http://www.cisco.com/techsupport\n"
        "{hostname} uptime is 1 hour, 2 minutes\n"
        'System image file is "flash:c2900-universalk9-mz.SPA.157-3.M8.bin"\n'
        "Cisco CISCO2911/K9 (revision 1.0) with 487424K/36864K bytes of memory.\n"
        "3 Gigabit Ethernet interfaces\n"
        "Configuration register is 0x2102\n"
    ),
    legend=(
        "Legend: XC ST=Xconnect State, S1=Segment1 State, S2=Segment2 State",
        "UP=Up, DN=Down, AD=Admin Down, IA=Inactive, NH=No Hardware",
    ),
    type_align="<",
)

IOS_XE = Flavor(
    name="iosxe",
    device_type="cisco_xe",
    file_system="bootflash:",
    version=(
        "Cisco IOS XE Software, Version 17.09.04a\n"
        "Cisco IOS Software [Cupertino], Virtual XE Software (X86_64_LINUX_IOSD-UNIVERSALK9-M), "
        "Version 17.9.4a, RELEASE SOFTWARE (fc3)\n"
        "Technical Support: http://www.cisco.com/techsupport\n"
        "\n"
        "ROM: IOS-XE ROMMON\n"
        "\n"
        "{hostname} uptime is 1 hour, 2 minutes\n"
        "Uptime for this control processor is 1 hour, 4 minutes\n"
        "System returned to ROM by reload\n"
        'System image file is "bootflash:packages.conf"\n'
        "Last reload reason: reload\n"
        "\n"
        "cisco C8000V (VXE) processor (revision VXE) with 1987614K/3075K bytes of memory.\n"
        "Processor board ID 9SIMULATED0\n"
        "Router operating mode: Autonomous\n"
        "3 Gigabit Ethernet interfaces\n"
        "32768K bytes of non-volatile configuration memory.\n"
        "3965316K bytes of physical memory.\n"
        "11526144K bytes of virtual hard disk at bootflash:.\n"
        "\n"
        "Configuration register is 0x2102\n"
    ),
    legend=(
        "Legend:    XC ST=Xconnect State  S1=Segment1 State  S2=Segment2 State",
        "  UP=Up       DN=Down            AD=Admin Down      IA=Inactive",
        "  SB=Standby  HS=Hot Standby     RV=Recovering      NH=No Hardware",
        "",
    ),
    type_align=">",
    show_l2tp=True,
)

FLAVORS: dict[str, Flavor] = {flavor.name: flavor for flavor in (IOS, IOS_XE)}
