"""What IOS prints in configuration mode: a refusal (the line did not take effect) or a notice.

IOS marks most errors with `%`, but also prints harmless notices with it, and a few errors without
it. Tools split into two camps: error lists with everything else taken as success (Ansible, scrapli:
they let `% Configuration buffer full` through), and "any reply is an error unless it is a known
warning" (Cisco's own NSO NED, NetSPoC). l2tpgen sits between: a line starting with `%` is a refusal
unless it is a known notice; a line without `%` is a refusal only if it is a known error. Each
pattern names its source (the research notes behind them quote each one):

- NTC: Net::Telnet::Cisco 1.10, its `warnings` regex ("Not all strings that begin with a '%' are
  really errors. Some are just warnings.").
- NSO: Cisco NSO cisco-ios NED, `IOSNedCli.java` `staticWarning` list (lower-cased regexes).
- CCPX: Cisco CCP Express `deviceCommunicator.js`, "router responses that are to be ignored".
- NETSPOC: hknutzen/Netspoc-Approve `go/pkg/ios/device.go` (`INFO:` ignored, `WARNING:` logged).
- ANSIBLE: ansible-collections/cisco.ios `plugins/terminal/ios.py` `terminal_stderr_re`.
- SCRAPLI: scrapli `cisco_iosxe` `failure_indicators`.
- RANCID: `lib/ios.pm.in`.
- NAPALM: napalm `ios.py` (merge and replace checks).
"""

from __future__ import annotations

import enum
import re

# Harmless, though most start with `%`.
NOTICES: tuple[tuple[str, str], ...] = (
    # Printed after `no interface X.Y` (a real capture prints it without the `%`).
    (r"^%?\s?Not all config may be removed and may reappear after", "NTC, NSO, CCPX"),
    (r"^% ?Unknown VPN", "NTC"),
    (r"^%IP routing table VRF.* does not exist\. Create first$", "NTC"),
    (r"^%No CEF interface information", "NTC, NSO"),
    (r"^%No matching route to delete$", "NTC"),
    (r"(?i)^%?\s?Warning[:,]", "NSO, CCPX, NETSPOC"),
    (r"(?i)^%?\s?(?:Note|INFO):", "NSO, CCPX, NETSPOC"),
    (r"(?i)xconnect configuration on this circuit is incomplete", "NSO"),
    (r"(?i)encapsulation dot1q", "NSO"),
    (r"(?i)is .+ fragmentation may occur", "NSO"),
    (r"(?i)set to default configuration", "NSO, CCPX"),
    (r"(?i)will take effect after reload", "NSO"),
    # Syslog messages the router interleaves (`*Oct 26 03:27:34.367: %LINK-3-UPDOWN: ...`): not an
    # answer to the command at all. l2tpgen's own pattern.
    (r"^\*?[A-Z][a-z]{2}\s+\d+\s+[\d:.]+(?:\s+\w+)?:\s+%[A-Z0-9_]+-\d-[A-Z0-9_]+:", "l2tpgen"),
)
# Errors, with or without `%`.
REFUSALS: tuple[tuple[str, str], ...] = (
    (r"(?i)^%\s?Invalid input detected", "SCRAPLI, ANSIBLE, NAPALM"),
    (r"(?i)^%\s?Incomplete command", "SCRAPLI, ANSIBLE"),
    (r"(?i)^%\s?Ambiguous command", "SCRAPLI, ANSIBLE"),
    (r"(?i)^%\s?Unknown command", "SCRAPLI"),
    (r"Command authorization failed", "ANSIBLE, SCRAPLI, RANCID"),
    (r"(?i)Command rejected", "ANSIBLE"),
    (r"(?i)^%\s?Error", "ANSIBLE"),
    (r"(?i)Error opening \S+", "NAPALM, RANCID"),
    (r"(?i)^%\s?configuration buffer full", "RANCID"),
    (r"Non-Volatile memory is in use", "RANCID"),
    (r"startup-config file open failed", "NETSPOC"),
    (r"(?i)^ERROR:", "ANSIBLE"),
    (r"(?i)invalid input detected", "ANSIBLE, RANCID"),
)
_NOTICE = tuple(re.compile(pattern) for pattern, _ in NOTICES)
_REFUSAL = tuple(re.compile(pattern) for pattern, _ in REFUSALS)


class Kind(enum.Enum):
    """What a line of router output means for the command before it."""

    REFUSAL = "refusal"
    NOTICE = "notice"
    OTHER = "other"  # an echo, a prompt, output of a show: nothing to report


def classify(line: str) -> Kind:
    """A refusal, a notice, or neither. Unknown `%` lines are refusals."""
    text = line.strip()
    if not text:
        return Kind.OTHER
    if any(p.search(text) for p in _NOTICE):
        return Kind.NOTICE
    if text.startswith("%") or any(p.search(text) for p in _REFUSAL):
        return Kind.REFUSAL
    return Kind.OTHER
