"""Make messy real-world IOS text parseable, keeping every line where it was.

Accepts ``show running-config`` output (prompt, ``Building configuration...``), configs that
lost their indentation (pasted from a web page), tab indentation, trailing spaces, ``exit`` lines,
comments and abbreviations such as ``int e0/0``. Output has exactly one non-blank line per input
line, so line numbers always refer to the file as given.

A flattened config (no indented line under any section) is re-indented from knowledge of IOS
sections: a section header opens a section, a known global command or ``!`` closes it, anything else
is a child; ``l2tp ...`` lines after an ``xconnect`` are its submode children.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from l2tpgen.ifname import canonical_interface_name

FILLER = "!"


def _prefixes(word: str, shortest: int) -> str:
    return "|".join(re.escape(word[:n]) for n in range(len(word), shortest - 1, -1))


_INTERFACE = re.compile(rf"^(?:{_prefixes('interface', 3)})\s+(\S.*)$", re.IGNORECASE)
_SECTION = re.compile(
    r"^(?:interface|l2tp-class|pseudowire-class|router|line|ip(?:v6)? access-list|class-map|"
    r"policy-map|control-plane|vrf definition|ip vrf|crypto map|crypto isakmp policy|"
    r"crypto ikev2|crypto pki trustpoint|crypto pki certificate|key chain|track|redundancy|"
    r"archive|vpdn-group|controller|dial-peer|ip dhcp pool|ip sla|object-group|route-map|"
    r"l2vpn|bridge-domain|template|aaa group server|zone-pair|zone security|parameter-map|"
    r"event manager applet|voice|application|call-home|flow (?:record|exporter|monitor)|"
    r"spanning-tree mst configuration|vlan \d|ipv6 dhcp pool|ip nat pool)\b",
    re.IGNORECASE,
)
_GLOBAL = re.compile(
    r"^(?:no )?(?:hostname|version|service|boot|enable|username|aaa|clock|ip route|ip cef|"
    r"ip domain|ip domain-name|ip domain-lookup|ip name-server|ip ssh|ip http|ip forward-protocol|"
    r"ip scp|ip tftp|ip ftp|ip default-gateway|ip classless|ip subnet-zero|ip multicast-routing|"
    r"ip nat inside source|ip nat outside source|ipv6 unicast-routing|ipv6 route|ipv6 cef|"
    r"cdp run|cdp timer|cdp holdtime|lldp run|logging|ntp|snmp-server|access-list|banner|end|"
    r"license|spanning-tree mode|spanning-tree extend|spanning-tree portfast|vtp|crypto key|"
    r"multilink|memory-size|security|login|mpls ldp|mpls label|xconnect logging|diagnostic|"
    r"platform|errdisable|file prompt|tacacs-server|radius-server|alias|exception|scheduler|"
    r"privilege|default interface|system|vlan internal|power|hw-module|mac address-table|"
    r"udld|vpdn enable|transceiver|virtual-service|ip sla schedule|"
    r"ip dns|ip dhcp excluded-address|ip dhcp snooping|ip arp|ip igmp|ip pim|"
    r"ip tcp synwait-time|ip source-route|ip bootp|ip finger|ip icmp|ip options|ip rcmd|"
    r"line-mode|warm-reboot|mgcp|ivr|sccp|stcapp|netconf|restconf|telemetry)\b",
    re.IGNORECASE,
)
_XCONNECT = re.compile(r"^xconnect\b", re.IGNORECASE)
_XCONNECT_CHILD = re.compile(r"^(?:l2tp (?:id|cookie|hello)|backup|remote)\b", re.IGNORECASE)
_PROMPT = re.compile(r"^\S+[#>]\s*(?:sh|show|term|terminal|conf|configure)?\b.*$")
_NOISE = re.compile(
    r"^(?:Building configuration\.\.\.|Current configuration\s*:.*|Last configuration change.*|"
    r"NVRAM config last updated.*|--More--|Load for .*|Time source is .*)$",
    re.IGNORECASE,
)
_NOISE_STARTS = (
    "Building",
    "Current",
    "Last",
    "NVRAM",
    "--More--",
    "Load",
    "Time",
    "building",
    "current",
    "last",
    "nvram",
    "load",
    "time",
)
_BANNER = re.compile(r"^banner\s+\S+\s+(\S)", re.IGNORECASE)
_EXIT = re.compile(r"^exit(?:-[a-z-]+)?$", re.IGNORECASE)
_DIRECTIVE = re.compile(r"^!\s*l2tpgen:\s*(disable|disable-file)\s*=\s*([\w,\s]+)$", re.IGNORECASE)


@dataclass
class NormalizedConfig:
    """Parseable text and what the normalizer learned on the way.

    ``lines[i]`` is line ``i + 1`` of the input, re-indented (or a filler ``!``); ``columns[i]`` is
    where its text starts in the input (1-based). ``disabled`` maps a line number to the codes
    switched off for it; ``disabled_file`` holds the codes switched off for the whole file.
    """

    lines: list[str]
    columns: list[int]
    disabled: dict[int, frozenset[str]] = field(default_factory=dict)
    disabled_file: frozenset[str] = frozenset()
    flattened: bool = False


def _expand_interface(text: str) -> str:
    match = _INTERFACE.match(text)
    if match is None:
        return text
    try:
        return f"interface {canonical_interface_name(match.group(1))}"
    except ValueError:
        return f"interface {match.group(1)}"


def _is_flattened(raw: list[str]) -> bool:
    """No line starts with white space right under a section header: the indentation was lost."""
    in_section = False
    for line in raw:
        stripped = line.strip()
        if not stripped or stripped.startswith("!"):
            continue
        if line[0] in " \t":
            if in_section:
                return False
        else:
            in_section = bool(_SECTION.match(_expand_interface(stripped)))
    return True


class _Normalizer:
    def __init__(self, raw: list[str]) -> None:
        self.raw = raw
        self.flattened = _is_flattened(raw)
        self.out = NormalizedConfig(lines=[], columns=[], flattened=self.flattened)
        self.depth = 0  # depth of the last content line
        self.stack: list[int] = []  # indented mode: indent widths of the open parents
        self.pending: set[str] = set()
        self.file_codes: set[str] = set()
        self.banner_end: str | None = None
        self.section = False  # flattened mode: a section is open
        self.xconnect = False  # flattened mode: the last child opened an xconnect submode

    def emit(self, depth: int, text: str, column: int) -> None:
        self.out.lines.append(" " * depth + text)
        self.out.columns.append(column)

    def filler(self, column: int) -> None:
        # A comment at the current depth keeps ciscoconfparse's parent links intact.
        self.emit(self.depth, FILLER, column)

    def run(self) -> NormalizedConfig:
        for number, line in enumerate(self.raw, start=1):
            self.line(number, line.rstrip("\r\n").rstrip())
        self.out.disabled_file = frozenset(self.file_codes)
        return self.out

    def line(self, number: int, line: str) -> None:
        stripped = line.strip()
        column = len(line) - len(line.lstrip()) + 1
        if self.banner_end is not None:
            self.emit(1, stripped or FILLER, column)
            if self.banner_end in stripped:
                self.banner_end = None
            return
        # Cheap string tests guard each regex: this loop runs once per line of large configs.
        first = stripped.split(" ", 1)[0]
        if (
            not stripped
            or stripped[0] in "!#"
            or (stripped.startswith(_NOISE_STARTS) and _NOISE.match(stripped))
        ):
            self.comment(stripped, column)
            return
        if "#" in first and _PROMPT.match(stripped):
            self.filler(column)
            return
        if first.startswith(("exit", "Exit", "EXIT")) and _EXIT.match(stripped):
            if self.flattened:
                self.depth = max(self.depth - 1, 0)
                self.section = self.section and self.xconnect
                self.xconnect = False
            self.filler(column)
            return
        if self.pending:
            self.out.disabled[number] = frozenset(self.pending)
            self.pending = set()
        text = " ".join(stripped.split())
        if first[:3].lower() == "int":
            text = _expand_interface(text)
        depth = self.flat_depth(text) if self.flattened else self.indent_depth(line)
        self.depth = depth
        if depth == 0 and first.lower() == "banner":
            self.open_banner(text)
        self.emit(depth, text, column)

    def open_banner(self, text: str) -> None:
        """A banner whose closing delimiter is on a later line: its text is not config."""
        banner = _BANNER.match(text)
        if banner is None:
            return
        delimiter = "^C" if text.split()[2].startswith("^C") else banner.group(1)
        rest = text.split(maxsplit=2)[2]
        if rest.count(delimiter) < 2:  # noqa: PLR2004 - opening and closing delimiter
            self.banner_end = delimiter

    def comment(self, stripped: str, column: int) -> None:
        directive = _DIRECTIVE.match(stripped)
        if directive is not None:
            codes = {c.strip().upper() for c in directive.group(2).split(",") if c.strip()}
            (
                self.file_codes if directive.group(1).lower() == "disable-file" else self.pending
            ).update(codes)
        if self.flattened and (not stripped or stripped == "!"):
            # In pasted configs "!" and blank lines separate sections.
            self.depth, self.section, self.xconnect = 0, False, False
        self.filler(column)

    def flat_depth(self, text: str) -> int:
        if _SECTION.match(text) or _GLOBAL.match(text):
            self.section, self.xconnect = bool(_SECTION.match(text)), False
            return 0
        if not self.section:
            return 0
        if self.xconnect and _XCONNECT_CHILD.match(text):
            return 2
        self.xconnect = bool(_XCONNECT.match(text))
        return 1

    def indent_depth(self, line: str) -> int:
        width = len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())
        while self.stack and self.stack[-1] >= width:
            self.stack.pop()
        depth = len(self.stack)
        self.stack.append(width)
        return depth


def normalize(text: str) -> NormalizedConfig:
    """Re-indent and clean IOS text; see the module docstring."""
    return _Normalizer(text.splitlines()).run()
