"""IOS output in configuration mode: refusals are refusals, notices are not (captured transcripts).

The transcripts quote real sessions from public sources (the research notes of issue 11):
the notice without `%` after a subinterface change (a CCIE study capture), netmiko issue #451's
error lines, syslog lines interleaved in a session (a public lab capture), and the lists other
automation tools keep (Net::Telnet::Cisco, Cisco NSO NED, Ansible cisco.ios, scrapli, RANCID).
"""

from __future__ import annotations

import pytest

from l2tpgen.device.messages import NOTICES, REFUSALS, Kind, classify
from l2tpgen.device.session import LineError, parse_output

PROMPT = "R4"

# A real capture (CCIE study notes): the notice comes with no `%` on a leaving `exit`.
NOTICE_WITHOUT_PERCENT = (
    "R4(config)#interface Serial6/0\n"
    "R4(config-if)#encapsulation frame-relay\n"
    "R4(config-if)#exit\n"
    "Not all config may be removed and may reappear after reactivating the sub-interface\n"
    "R4(config)#int ser6/0.1 multipoint\n"
)
# netmiko issue #451: the three error forms IOS prints for bad input (note the two spaces).
REFUSED = (
    "R4(config)#intreface Gi0/0.10\n"
    "            ^\n"
    "% Invalid input detected at '^' marker.\n"
    "\n"
    "R4(config)#xconnect\n"
    "% Incomplete command.\n"
    "\n"
    'R4(config)#b\n% Ambiguous command:  "b"\n'
    "R4(config)#\n"
)


@pytest.mark.parametrize(
    "line",
    [
        "%Not all config may be removed and may reappear after reactivating the sub-interface",
        "Not all config may be removed and may reappear after reactivating the sub-interface",
        "% Unknown VPN",
        "%No CEF interface information",
        "%Warning: this command is deprecated",
        "Warning: Attempting to overwrite an NVRAM configuration previously written",
        "INFO: IP routing table will be rebuilt",
        "*Oct 26 03:27:34.367: %LINK-3-UPDOWN: Interface FastEthernet0/0, changed state to up",
        "*Oct 26 03:27:38.723: %SYS-5-CONFIG_I: Configured from console by console",
        "Interface GigabitEthernet0/0 set to default configuration",
    ],
)
def test_notices_other_tools_list_as_harmless_are_notices(line: str) -> None:
    assert classify(line) is Kind.NOTICE


@pytest.mark.parametrize(
    "line",
    [
        "% Invalid input detected at '^' marker.",
        "% Incomplete command.",
        '% Ambiguous command:  "b"',
        "% Configuration buffer full, can't add command",  # Ansible and scrapli let it through
        "%Error opening flash:x.cfg (File not found)",
        "Command authorization failed.",  # no `%`
        "Command rejected: Bad VLAN list",  # no `%`
        "startup-config file open failed (Device or resource busy)",  # no `%`
        "Non-Volatile memory is in use",
        "ERROR: no such interface",
        "% Some message no tool lists",  # unknown `%` lines stay refusals
    ],
)
def test_errors_with_and_without_percent_are_refusals(line: str) -> None:
    assert classify(line) is Kind.REFUSAL


@pytest.mark.parametrize(
    "line", ["", "            ^", "Enter configuration commands, one per line."]
)
def test_markers_and_banners_are_neither(line: str) -> None:
    assert classify(line) is Kind.OTHER


def test_every_pattern_names_its_source() -> None:
    assert all(source.strip() for _, source in (*NOTICES, *REFUSALS))


def test_a_notice_without_percent_in_a_real_transcript_is_no_refusal() -> None:
    refused, notices = parse_output(NOTICE_WITHOUT_PERCENT, PROMPT)
    assert refused == []
    assert notices == [
        LineError(
            "exit",
            "Not all config may be removed and may reappear after reactivating the sub-interface",
        )
    ]


def test_refusals_are_attributed_to_the_line_echoed_before_them() -> None:
    refused, notices = parse_output(REFUSED, PROMPT)
    assert [(e.line, e.error) for e in refused] == [
        ("intreface Gi0/0.10", "% Invalid input detected at '^' marker."),
        ("xconnect", "% Incomplete command."),
        ("b", '% Ambiguous command:  "b"'),
    ]
    assert notices == []
