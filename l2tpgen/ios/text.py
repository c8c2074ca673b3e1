"""Make messy real-world IOS text parseable, keeping every line where it was.

Accepts what people actually have: ``show running-config`` output (prompt, ``Building
configuration...``), configs that lost their indentation (pasted from a web page), tab indentation,
a block pasted with a uniform indent, CRLF / CR line ends, a byte order mark, UTF-16 (PowerShell's
``>``), NUL bytes, ``exit`` and ``end`` lines, banners, comments and abbreviations such as
``int e0/0``. The result has exactly one entry per input line, so line numbers always refer to the
file as given; lines that are not configuration become a filler ``!``.

A flattened config (no indented line under any section) is re-indented from knowledge of IOS
sections: a section header opens a section, a known global command or ``!`` closes it, anything else
is a child; ``l2tp ...`` lines after an ``xconnect`` are its submode children.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from l2tpgen.ios.encoding import split_lines
from l2tpgen.ios.flat import continues, in_circuit, opens_circuit
from l2tpgen.ios.names import canonical_or_same
from l2tpgen.ios.prompts import prompted
from l2tpgen.ios.typos import misspelt_header

FILLER = "!"
# IOS configs nest four levels at most; deeper indentation is clamped rather than followed.
MAX_DEPTH = 16


def _prefixes(word: str, shortest: int) -> str:
    return "|".join(re.escape(word[:n]) for n in range(len(word), shortest - 1, -1))


_INTERFACE = re.compile(rf"^(?:{_prefixes('interface', 3)})\s+(\S.*)$", re.IGNORECASE)
SECTION = re.compile(
    r"^(?:interface|l2tp-class|pseudowire-class|router|line|ip(?:v6)? access-list|class-map|"
    r"policy-map|control-plane|vrf definition|ip vrf|crypto map \S+ \d+|crypto isakmp policy|"
    r"crypto ikev2|crypto pki trustpoint|crypto pki certificate|crypto ipsec profile|key chain|"
    r"track|redundancy|archive|vpdn-group|controller|dial-peer|ip dhcp pool|ip sla|object-group|"
    r"route-map|l2vpn|bridge-domain|template|aaa group server|zone-pair|zone security|"
    r"parameter-map|event manager applet|voice|application|call-home|flow (?:record|exporter|"
    r"monitor)|spanning-tree mst configuration|vlan \d|ipv6 dhcp pool|ip nat pool|"
    r"pseudowire|vpdn|mpls ldp neighbor|ip explicit-path|xconnect context|"
    r"l2 vfi|crypto keyring|crypto isakmp profile|crypto ipsec transform-set|crypto dynamic-map"
    r"|connect \S+ .* l2transport)(?=\s|$)",
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
    r"line-mode|warm-reboot|mgcp|ivr|sccp|stcapp|netconf|restconf|telemetry)(?=\s|$)"
    # interface commands that start like global ones
    r"(?! event| disable| broadcast)",
    re.IGNORECASE,
)
_XCONNECT = re.compile(r"^xconn(?:e(?:c(?:t)?)?)?\b", re.IGNORECASE)
_XCONNECT_CHILD = re.compile(r"^(?:l2tp (?:id|cookie|hello)|backup|remote)\b", re.IGNORECASE)
_NOISE = re.compile(
    r"^(?:Building configuration\.\.\.|Current configuration\s*:.*|Last configuration change.*|"
    r"NVRAM config last updated.*|--More--|Load for .*|Time source is .*|Enter configuration.*)$",
    re.IGNORECASE,
)
_NOISE_STARTS = tuple(
    w
    for word in ("Building", "Current", "Last", "NVRAM", "--More--", "Load", "Time", "Enter")
    for w in (word, word.lower())
)
_MACRO_END = "\n@"  # a `macro name NAME` body ends at a line `@` (no banner delimiter holds \n)
_BANNER = re.compile(r"^banner\s+\S+\s+(\S)", re.IGNORECASE)
_EXIT = re.compile(r"^exit(?:-[a-z-]+)?$", re.IGNORECASE)
_DIRECTIVE = re.compile(r"^!\s*l2tpgen:\s*(disable|disable-file)\s*=\s*([\w,\s-]+)$", re.IGNORECASE)
# Commands whose argument is free text, where ` !` is part of it rather than a pasted note.
_FREE_TEXT = frozenset({"description", "remark", "banner", "alias", "hostname", "username"})


@dataclass
class CleanText:
    """Parseable text and what the clean-up learned on the way.

    ``lines[i]`` is line ``i + 1`` of the input, re-indented one space per level (or the filler
    ``!``); ``columns[i]`` is where its text starts in the input (1-based). ``disabled`` maps a line
    number to the rules (codes or names, as written) switched off for it; ``disabled_file`` holds
    those switched off for the whole file.
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
    return f"interface {canonical_or_same(match.group(1))}"


def _expand_class(text: str, first: str) -> str:
    """``pseudowire-clas pw`` is ``pseudowire-class pw`` to IOS (a unique prefix), so to l2tpgen."""
    for header in ("pseudowire-class", "l2tp-class"):
        if header.startswith(first):
            return header + text[len(first) :]
    return text


def _uniform_indent(raw: list[str]) -> int:
    """The indentation every configuration line shares (a block pasted indented), in columns."""
    smallest: int | None = None
    for raw_line in raw:
        line = raw_line.expandtabs(8) if "\t" in raw_line else raw_line
        stripped = line.lstrip()
        if stripped and stripped[0] != "!":
            width = len(line) - len(stripped)
            if width == 0:
                return 0
            smallest = width if smallest is None else min(smallest, width)
    return smallest or 0


def _is_flattened(raw: list[str], indent: int) -> bool:
    """No line is indented right under a section header: the indentation was lost."""
    in_section = False
    for original in raw:
        line = original.expandtabs(8)[indent:]
        stripped = line.strip()
        if not stripped or stripped.startswith("!"):
            continue
        if line[0] == " ":
            if in_section:
                return False
        else:
            in_section = bool(SECTION.match(_expand_interface(stripped)))
    return True


def _config_text(stripped: str, lowered: str) -> str:
    """A command as l2tpgen reads it: a pasted note cut, spaces single, abbreviated headers full."""
    if " !" in stripped and lowered not in _FREE_TEXT:
        # `ip local interface Gi0/1 ! public address`: a note pasted with the config
        stripped = stripped[: stripped.index(" !")].rstrip()
    text = " ".join(stripped.split()) if "  " in stripped or "\t" in stripped else stripped
    if lowered.startswith("int"):
        return _expand_interface(text)
    if lowered.startswith(("pseudowire-c", "l2tp-c")):
        return _expand_class(text, lowered)
    return text


class _Cleaner:
    def __init__(self, raw: list[str], *, marked: bool = True) -> None:
        self.raw = raw
        self.marked = marked  # some line may hold a prompt, a pasted note or a tab (``_marked``)
        self.indent = _uniform_indent(raw)
        self.flattened = _is_flattened(raw, self.indent)
        self.out = CleanText(lines=[], columns=[], flattened=self.flattened)
        self.lines, self.columns = self.out.lines, self.out.columns
        self.depth = 0  # depth of the last content line
        self.stack: list[int] = []  # indented mode: indent widths of the open parents
        self.base = 0  # indented mode: the depth of the prompted line the stack starts from
        self.pending: set[str] = set()  # directive for the next content line
        self.section: set[str] = set()  # directive covering the open section's children
        self.file_codes: set[str] = set()
        self.banner_end: str | None = None
        self.open = False  # flattened mode: a section is open
        self.xconnect = False  # flattened mode: the last child opened an xconnect submode
        self.blank = False  # flattened mode: a blank line came after the last content line
        self.output = False  # the lines are what an exec command printed (`R0#show ...`)
        self.kind = ""  # flattened mode: the open section's first word (`interface`)
        self.circuit = False  # flattened mode: an ATM PVC's submode is open
        self.xdepth = 1  # flattened mode: the depth of the last xconnect

    def emit(self, depth: int, text: str, column: int) -> None:
        self.lines.append(" " * depth + text)
        self.columns.append(column)

    def filler(self, column: int) -> None:
        self.emit(self.depth, FILLER, column)

    def run(self) -> CleanText:
        if self.flattened:
            line = self.line
            for number, raw_line in enumerate(self.raw, start=1):
                line(number, raw_line.rstrip())
        else:
            self.run_indented()
        self.out.disabled_file = frozenset(self.file_codes)
        return self.out

    def run_indented(self) -> None:
        """Indented mode: plain lines (most of a config) nested here, the others by ``line``.

        A plain line is a command ``line`` would keep as it is, bar an ``interface`` header's
        name, at the depth of the indentation stack (``indented_depth``): no first word it reads
        otherwise (``_NOT_PLAIN``), no double space, none of the marks of ``_marked`` (looked for
        in each line only when the text has one). A blank line or a ``!`` is a filler here too.
        ``line`` reads any other line, and every line after one that leaves a banner, an exec
        command's output or a directive open (``quiet``). Four calls a line fewer: a third of the
        clean-up of a 50,000-line config.
        """
        lines, columns, indent, marked = self.lines, self.columns, self.indent, self.marked
        stack, base, depth, quiet = self.stack, self.base, 0, True
        for number, raw_line in enumerate(self.raw, start=1):
            line = raw_line.rstrip()
            stripped = line.lstrip()
            if quiet and (not stripped or stripped == FILLER):
                lines.append(" " * depth + FILLER)
                columns.append(len(line) - len(stripped) + 1)
                continue
            head = stripped[:12].lower()
            if (
                not quiet
                or head.startswith(_NOT_PLAIN)
                or "  " in stripped
                or (marked and _marked(line))
            ):
                self.depth, self.base = depth, base
                self.line(number, line)
                stack, base, depth = self.stack, self.base, self.depth
                quiet = self.banner_end is None and not (
                    self.output or self.pending or self.section
                )
                continue
            column = len(line) - len(stripped)
            width = column - indent if column > indent else 0
            while stack and stack[-1] >= width:
                stack.pop()
            if not stack:
                base = 0
            depth = base + len(stack)  # the stack never holds more than MAX_DEPTH widths
            if depth < MAX_DEPTH:
                stack.append(width)
            text = _expand_interface(stripped) if head.startswith("int") else stripped
            lines.append(" " * depth + text if depth else text)
            columns.append(column + 1)

    def line(self, number: int, line: str) -> None:
        """One input line (right-stripped already)."""
        stripped = line.lstrip()
        column = len(line) - len(stripped) + 1
        if self.banner_end is not None:  # banner and macro text is not configuration
            self.banner_line(self.banner_end, stripped, column)
            return
        # Cheap string tests guard each regex: this loop runs once per line of large configs.
        if (
            not stripped
            or stripped[0] in "!#"
            or (stripped.startswith(_NOISE_STARTS) and _NOISE.match(stripped))
        ):
            self.comment(stripped, column)
            return
        command = self.command(stripped, column)
        if command is None:
            return
        stripped, column, forced = command
        first = stripped.split(" ", 1)[0]
        lowered = first.lower()
        if lowered in {"end", "exit"} or (lowered.startswith("exit-") and _EXIT.match(stripped)):
            self.exit(lowered, column)
            return
        text = _config_text(stripped, lowered)
        if forced is not None:
            depth = self.prompted_depth(text, forced, len(line) - len(line.lstrip()))
        elif self.flattened:
            depth = self.flat_depth(text)
        else:
            depth = self.indented_depth(line, column)
        self.depth = depth
        if self.pending or self.section:
            self.directives(number, depth)
        if depth == 0 and lowered in {"banner", "macro"}:
            self.open_banner(text)
        self.lines.append(" " * depth + text if depth else text)
        self.columns.append(column)

    def banner_line(self, end: str, stripped: str, column: int) -> None:
        """A line of a banner's or a macro's text (up to ``end``): a filler."""
        if stripped == "@" if end == _MACRO_END else end in stripped:
            self.banner_end = None
        self.filler(column)

    def command(self, stripped: str, column: int) -> tuple[str, int, int | None] | None:
        """The configuration command of a line, its column, and the depth a prompt gives it.

        None (a filler is emitted) for an exec command, ``end`` / ``exit`` / ``do ...`` after a
        prompt, or what ``R0#show ...`` printed.
        """
        first = stripped.split(" ", 1)[0]
        prompt = prompted(stripped) if "#" in first or ">" in first else None
        forced = None if prompt is None else prompt.depth  # the depth a prompt's mode gives
        if prompt is not None:
            self.output = prompt.output
            column += prompt.offset
            stripped = prompt.command or ""
        if not stripped or (self.output and forced is None):
            self.filler(column)
            return None
        return stripped, column, forced

    def indented_depth(self, line: str, column: int) -> int:
        """Indented mode: nest under the last less indented line."""
        width = (column - 1 if "\t" not in line else _width(line)) - self.indent
        if width < 0:  # noqa: PLR1730 - max() is a call per line: 8% of the clean-up
            width = 0
        stack = self.stack
        while stack and stack[-1] >= width:
            stack.pop()
        if not stack:
            self.base = 0
        depth = self.base + len(stack)  # the stack never holds more than MAX_DEPTH widths
        if depth < MAX_DEPTH:
            stack.append(width)
        return depth

    def exit(self, lowered: str, column: int) -> None:
        """``exit`` leaves a section (it tells a flattened config's structure); ``end`` ends it."""
        if self.flattened and lowered != "end":
            self.depth = max(self.depth - 1, 0)
            # out of an xconnect's submode, else out of a PVC's, else out of the section
            self.open = self.open and (self.xconnect or self.circuit)
            self.circuit = self.circuit and self.xconnect
            self.xconnect = False
        self.filler(column)

    def directives(self, number: int, depth: int) -> None:
        """A ``disable=`` directive covers the next line and, if it opens a section, its body."""
        if depth == 0:
            self.section = set(self.pending)
        codes = self.pending | (self.section if depth else set())
        if codes:
            self.out.disabled[number] = frozenset(codes)
        self.pending = set()

    def open_banner(self, text: str) -> None:
        """Text that is not config: a banner's up to its closing delimiter on a later line.

        So is a ``macro name``'s body: its commands run up to a line ``@``.
        """
        if text.lower().startswith("macro name "):
            self.banner_end = _MACRO_END
            return
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
            codes = {c.strip() for c in directive.group(2).split(",") if c.strip()}
            target = (
                self.file_codes if directive.group(1).lower() == "disable-file" else self.pending
            )
            target.update(codes)
        if self.flattened and stripped == "!":
            # In pasted configs "!" separates sections.
            self.depth, self.open, self.xconnect, self.circuit = 0, False, False, False
        elif self.flattened and not stripped:
            # A blank line may separate sections, or only the lines of one (a class pasted in two
            # pieces): the next line decides (``flat_depth``).
            self.blank = self.open
        self.filler(column)

    def prompted_depth(self, text: str, depth: int, width: int) -> int:
        """A prompted line goes where its mode says; lines after it without one nest under it.

        In an indented config, the lines after it that are indented further (a section pasted
        with its prompt on the header only: ``R1(config)# pseudowire-class X`` then `` encap...``)
        are its children, as in a flat one.
        """
        self.open, self.xconnect = True, bool(_XCONNECT.match(text)) and depth > 0
        self.circuit, self.xdepth = False, depth
        self.blank = False
        if depth == 0:
            self.kind = text.split(" ", 1)[0].lower()
        depth = min(depth, MAX_DEPTH)
        self.stack, self.base = [max(width - self.indent, 0)], depth
        return depth

    def flat_depth(self, text: str) -> int:
        blank, self.blank = self.blank, False
        header = misspelt_header(text.split(" ", 1)[0]) is not None  # `12tp-class`: its own
        if header or SECTION.match(text) or _GLOBAL.match(text):
            self.open, self.xconnect = header or bool(SECTION.match(text)), False
            self.kind, self.circuit = text.split(" ", 1)[0].lower(), False
            return 0
        if not self.open:
            return 0
        # After a blank line, only a command of the open section's mode stays in it.
        if blank and not (
            (self.xconnect and _XCONNECT_CHILD.match(text)) or continues(self.kind, text)
        ):
            self.open, self.xconnect = False, False
            return 0
        if self.xconnect and _XCONNECT_CHILD.match(text):
            return self.xdepth + 1
        # an ATM PVC's lines belong to it (`pvc 1/100 l2transport`, `xconnect ...`)
        depth = 2 if self.circuit and not blank and in_circuit(text) else 1
        self.circuit = depth == 2 or opens_circuit(self.kind, text)  # noqa: PLR2004
        self.xconnect, self.xdepth = bool(_XCONNECT.match(text)), depth
        return depth


# First words (lower-cased prefixes) that ``_Cleaner.line`` reads otherwise than as a plain command:
# comments, output noise, `end` and `exit`, class headers it completes, banners and macros.
_NOT_PLAIN = (
    *("!", "#", "pseudowire-c", "l2tp-c", "end", "exit", "banner", "macro"),
    *sorted({w.lower() for w in _NOISE_STARTS}),
)


def _marked(text: str) -> bool:
    """Whether ``text`` holds a prompt's ``#`` or ``>``, a pasted note (`` !``), a tab or a NUL.

    A line with one is left to ``_Cleaner.line`` (a NUL's removal may make one of the others).
    """
    return "#" in text or ">" in text or " !" in text or "\t" in text or "\x00" in text


def _width(line: str) -> int:
    """The indentation of a line with tabs, in columns (tab stops every 8)."""
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def clean(text: str) -> CleanText:
    """Re-indent and clean IOS text; see the module docstring."""
    return _Cleaner(split_lines(text), marked=_marked(text)).run()
