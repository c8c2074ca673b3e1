"""Configs pasted from a terminal session, each line behind its prompt (``R0(config-if)#xconnect``).

A prompt is a host name and, in configuration mode, the mode in parentheses: ``R0#``, ``R0>``,
``R0(config)#``, ``R0(config-if)#``, ``R0(config-pw-class)#``, ``R0(config-if-xconn)#``. Cisco's
guides print their steps this way (``Router(config-pw)# ip pmtu``, ``Router(config-if-xconn)#
l2tp id 245 245``: the L2TPv3 configuration guide, cisco.com/c/en/us/td/docs/ios/12_0s/feature/
guide/l2tpv325.html), and so do people who copy a session. Such text is flat: the mode, not the
indentation, tells where a command belongs. ``prompted`` reads one line: the command typed and
the depth its mode puts it at. Exec commands (``R0#show ...``, ``R0>enable``, ``R0#configure
terminal``) and what only moves between modes (``end``, ``exit``, ``do ...``) are not config, nor
is what such a command prints, up to the next prompt; unless the command prints a config
(``R0#show running-config``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `host` `(mode)`? `#` or `>`, then what was typed. Host names: letters, digits, `-._/:`.
_PROMPT = re.compile(r"^[A-Za-z0-9][\w./:-]*(?:\(([\w-]+)\))?[#>]")
# Submodes one level deeper than the mode they are entered from (`config-if-atm-l2trans-pvc`: a
# PVC under an interface; `config-if-xconn`: the xconnect's own lines; `config-pmap-c`: a class in
# a policy-map; `config-router-af`: an address family).
_NESTED = ("vc", "pvc", "pvp", "dlci", "xconn", "af", "c", "srv", "police", "member", "vfi")
# Commands typed in a submode that IOS runs in global configuration (it falls back to the parent
# mode): `R0(config-if)#interface Gi0/1` opens another interface, it is not under the first.
_GLOBAL_FROM_SUBMODE = re.compile(
    r"^(?:interface|pseudowire-class|l2tp-class|router|line|ip(?:v6)? access-list|class-map|"
    r"policy-map|route-map|vrf definition|ip vrf (?!forwarding)\S+|crypto map \S+ \d+|"
    r"crypto isakmp|crypto ipsec (?:profile|transform-set)|"
    r"crypto pki|crypto keyring|key chain|hostname|connect \S+|controller|vpdn-group|vpdn|"
    r"ip route|ip cef|no ip cef|cdp run|no cdp run|ip dhcp pool|username|access-list|l2vpn|"
    r"version|snmp-server|aaa|banner|enable|spanning-tree mode)(?=\s|$)",
    re.IGNORECASE,
)
# The same headers abbreviated, as IOS takes them (a unique prefix): `int Gi0/1`, `inter s0/1`,
# `pseudowire-c X`, `l2tp-cl X`. In a submode IOS first tries the submode's own commands; an
# interface name after the word (a letter, then a digit somewhere) is no argument of a submode
# command that begins the same way (`interworking ethernet` in config-pw-class).
_ABBREVIATED_GLOBAL = re.compile(
    r"^(?:int(?:e|er|erf|erfa|erfac)?\s+[A-Za-z][\w./:-]*\d|"
    r"pseudowire-cl?a?s?\s|l2tp-cl?a?s?\s|rou(?:t|te)?\s+(?:bgp|ospf|eigrp|isis|rip))",
    re.IGNORECASE,
)
_NOT_CONFIG = re.compile(
    r"^(?:end|exit(?:-[a-z-]+)?|do|show|sh|write|wr|copy)(?=\s|$)", re.IGNORECASE
)
_PIPE_LINES = re.compile(r"\|\s*(?:i|e|c)", re.IGNORECASE)  # `| include`, `| exclude`, `| count`
# Exec commands that print something other than config (`configure terminal`, `terminal length 0`
# print nothing: lines typed after them without a prompt are still read).
_PRINTS = re.compile(r"^(?:do\s+)?(?:sh\w*|ping|tr\w*|dir|more)(?=\s|$)", re.IGNORECASE)
# Exec commands whose output is a config (`show running-config`, `more nvram:startup-config`).
_CONFIG_DUMP = re.compile(
    r"^(?:do\s+)?(?:sh\w*\s+(?:ru|star|arc|conf)|more\s|wr\w*\s+t|$)", re.IGNORECASE
)


@dataclass(frozen=True)
class Prompted:
    """One prompted line: the command typed (None: nothing that is config) and where it goes.

    ``offset`` is where the command starts in the stripped line (0-based); ``depth`` the section
    level its mode puts it at (0: global configuration).
    """

    command: str | None
    offset: int
    depth: int
    output: bool = False  # an exec command whose output (the lines after it) is not config


def mode_depth(mode: str) -> int:
    """How deep a configuration mode is: ``config`` 0, ``config-if`` 1, ``config-if-xconn`` 2.

    IOS prints ``cfg-`` for some submodes (``cfg-if-atm-l2trans-pvc``): the same modes.
    """
    words = mode.lower().split("-")
    if words[0] not in {"config", "cfg"}:
        return 1
    if len(words) == 1:
        return 0
    # `config-if-atm-l2trans-pvc-xconn`: interface 1, its PVC 2, the PVC's xconnect 3.
    return 1 + sum(1 for word in words[2:] if word in _NESTED)


def prompted(stripped: str) -> Prompted | None:
    """The prompt of a left-stripped line, or None when the line has none."""
    match = _PROMPT.match(stripped)
    if match is None:
        return None
    rest = stripped[match.end() :]
    command = rest.strip()
    offset = match.end() + len(rest) - len(rest.lstrip())
    mode = match.group(1)
    if mode is None or not command or _NOT_CONFIG.match(command):
        # exec mode (`R0#show run`, `R0>en`), `do ...`, or leaving a mode (`end`, `exit`)
        # `show running-config | include ...` prints loose lines, not sections
        dump = _CONFIG_DUMP.match(command) is not None and not _PIPE_LINES.search(command)
        output = _PRINTS.match(command) is not None and not dump
        return Prompted(None, offset, 0, output)
    depth = mode_depth(mode)
    if depth and (_GLOBAL_FROM_SUBMODE.match(command) or _ABBREVIATED_GLOBAL.match(command)):
        depth = 0
    return Prompted(command, offset, depth)
