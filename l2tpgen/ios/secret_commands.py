"""IOS's secret-bearing commands: one row per command, the token that is the secret, its source.

This table is the one place l2tpgen knows IOS's secret-bearing grammar; ``secret_grammar`` reads
lines with it (where a row matches, the spans of its secrets, its ``no`` form). docs/security.md
("Secrets IOS prints") lists the same rows with their sources; a test checks both agree.

Each ``pattern`` matches a line (leading spaces and ``no`` already taken off) and names groups:
``cmd``, the words of the command up to its secret (the ``no`` form's words), and ``v`` (and
``w`` for a second secret), the secret tokens. Type numbers (``0``, ``5``, ``6``, ``7``, ``8``,
``9``) stay visible: they say how the value is stored and are no secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_T = r"(?:[0-9]\s+)?"  # an optional type number before the value
_V = r"(?P<v>\S+)"  # the secret: one word


@dataclass(frozen=True)
class SecretCommand:
    """One secret-bearing IOS command: how it reads, which token is secret, and its source."""

    command: str  # the grammar as docs/security.md prints it
    pattern: str
    source: str
    no_form: str  # what l2tpgen types to remove it (never the value)
    first: tuple[str, ...] = ()  # the words it starts with, when not the grammar's first

    def first_words(self) -> tuple[str, ...]:
        """The words a line of this row starts with (``pre-shared-key``, ``tacacs-server``)."""
        return self.first or tuple(self.command.split()[0].lower().split("|"))

    def regex(self) -> re.Pattern[str]:
        """The row's pattern, compiled (case-insensitive, as IOS reads keywords)."""
        return _compiled(self.pattern)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    if pattern not in _CACHE:
        _CACHE[pattern] = re.compile(pattern, re.IGNORECASE)
    return _CACHE[pattern]


_SEC_P = "Cisco IOS Security Command Reference: Commands M to R"
_SEC_C = "Cisco IOS Security Command Reference: Commands A to C"
_SEC_D = "Cisco IOS Security Command Reference: Commands D to L"
_SEC_S = "Cisco IOS Security Command Reference: Commands S to Z"
_U = " [U]: not retrieved, the grammar as l2tpgen knows it"

# The keywords that follow `authentication` in IOS's commands and are no secret (IKE, PPP, OSPF,
# EIGRP, RIP, 802.1X, wireless, HTTP, security): the safe default masks the first other word.
_AUTH_WORDS = "|".join(
    re.escape(word)
    for word in [
        *("pre-share", "rsa-sig", "rsa-encr", "ecdsa-sig", "eap", "local", "remote", "null"),
        *("message-digest", "md5", "sha", "sha1", "sha256", "hmac-sha-1", "hmac-sha-256"),
        *("key-chain", "mode", "chap", "pap", "ms-chap", "ms-chap-v2", "callin", "callout"),
        *("callback", "optional", "if-needed", "failure", "rate", "log", "eigrp", "ospf", "rip"),
        *("open", "shared", "network-eap", "key-management", "wpa", "wpa2", "dot1x", "mac"),
        *("web", "list", "default", "none", "enable", "login", "ppp", "port-control", "priority"),
        *("periodic", "timeout", "host-mode", "order", "event", "fallback", "ipsec", "spi"),
        *("key", "key-string", "text", "string", "password"),  # the secret follows these
    ]
)

SECRET_COMMANDS: tuple[SecretCommand, ...] = (
    SecretCommand(
        "pre-shared-key address A [MASK]|hostname H key [0|6] KEY",
        r"^(?P<cmd>pre-shared-key\s+(?:address\s+\S+(?:\s+(?!key\b)\S+)?|hostname\s+\S+))"
        r"\s+key\s+(?:[06]\s+)?" + _V,
        'Cisco IOS Security Configuration Guide, Encrypted Preshared Key, "Configuring an ISAKMP '
        'Preshared Key in ISAKMP Keyrings" (IKEv1 `crypto keyring`: `pre-shared-key address '
        "address key key`; type 6 with `password encryption aes`) (https://www.cisco.com/c/en/us/"
        "td/docs/ios-xml/ios/sec_conn_ikevpn/configuration/12-4/sec-ike-for-ipsec-vpns-12-4-book/"
        "sec-encrypt-preshare.html)",
        "no pre-shared-key address A [U]: IOS's no form names the key",
    ),
    SecretCommand(
        "pre-shared-key [local|remote] hex KEY",
        r"^(?P<cmd>pre-shared-key(?:\s+(?:local|remote))?)\s+hex\s+" + _V,
        f"{_SEC_P}, `pre-shared-key (IKEv2 keyring)`: `pre-shared-key {{local | remote}} "
        "[0 | 6] line | hex hexadecimal-string`; the keyring's peer sub-mode: Cisco 7600 SIP, SSC "
        'and SPA Software Configuration Guide, "Configuring IKEv2 Key Rings" (http://www.cisco'
        ".com/c/en/us/td/docs/interfaces_modules/shared_port_adapters/configuration/7600series/"
        "sipspasw/76cfvpn2.html)",
        "no pre-shared-key [local|remote]",
    ),
    SecretCommand(
        "pre-shared-key [local|remote] [0|6] KEY",
        r"^(?P<cmd>pre-shared-key(?:\s+(?:local|remote))?)\s+(?:[06]\s+)?" + _V,
        f"{_SEC_P}, `pre-shared-key (IKEv2 keyring)` (the same entry)",
        "no pre-shared-key [local|remote]",
    ),
    SecretCommand(
        "crypto isakmp key [0|6] KEY address|hostname ...",
        r"^(?P<cmd>crypto\s+isakmp\s+key)\s+(?:[06]\s+)?" + _V,
        "Cisco IOS Security Command Reference, `crypto isakmp key` "
        "(http://www.cisco.com/en/US/docs/ios/security/command/reference/sec_c4.html)",
        "no crypto isakmp key [0|6] <masked> address ... [U]: IOS's no form names the key",
    ),
    SecretCommand(
        "l2tp cookie local|remote 4|8 LOW [HIGH]",
        r"^(?P<cmd>l2tp\s+cookie\s+(?:local|remote))\s+[48]\s+(?P<v>\S+(?:[ \t]+\S+)?)",
        "Cisco IOS Wide-Area Networking Command Reference, `l2tp cookie local` and `l2tp cookie "
        "remote`: `l2tp cookie local size low-value [high-value]` (xconnect configuration)" + _U,
        "no l2tp cookie local|remote [U]; l2tpgen re-enters the new value instead (one instance)",
    ),
    SecretCommand(
        "digest secret [0|7] KEY [hash md5|sha]",
        r"^(?P<cmd>digest)\s+secret\s+" + _T + _V,
        "Cisco, Layer 2 Tunnel Protocol Version 3, IOS 12.0(29)S and 12.2(25)S, `digest`: `digest "
        "[secret {0 | 7} password] [hash {md5 | sha}]`, `no digest` (https://www.manualshelf.com/"
        "manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-88.html)",
        "no digest",
    ),
    SecretCommand(
        "enable secret|password [level N] [0|5|7|8|9] KEY",
        r"^(?P<cmd>enable\s+(?:secret|password))(?:\s+level\s+\d+)?\s+" + _T + _V,
        f"{_SEC_D}, `enable secret` and `enable password`" + _U,
        "no enable secret|password",
    ),
    SecretCommand(
        "username NAME ... secret|password [0|5|7|8|9] KEY",
        r"^(?P<cmd>username\s+\S+)(?:\s+(?!secret\b|password\b)\S+)*?\s+(?:secret|password)\s+"
        + _T
        + _V,
        f"{_SEC_S}, `username`" + _U,
        "no username NAME",
    ),
    SecretCommand(
        "snmp-server community STRING [view V] [ro|rw] [ACL]",
        r"^(?P<cmd>snmp-server\s+community)\s+" + _V,
        "Cisco IOS SNMP Support Command Reference, `snmp-server community`" + _U,
        "no snmp-server community <masked> [U]: IOS's no form names the string",
    ),
    SecretCommand(
        "snmp-server user U G v3 auth md5|sha KEY [priv des|aes N KEY]",
        r"^(?P<cmd>snmp-server\s+user\s+\S+\s+\S+\s+v3)\s+(?:encrypted\s+)?auth\s+\S+\s+(?P<v>\S+)"
        r"(?:\s+priv\s+\S+(?:\s+\d+)?\s+(?P<w>\S+))?",
        "Cisco IOS SNMP Support Command Reference, `snmp-server user`" + _U,
        "no snmp-server user U G v3",
    ),
    SecretCommand(
        "ntp authentication-key N md5 KEY [7]",
        r"^(?P<cmd>ntp\s+authentication-key\s+\d+)\s+\S+\s+" + _V,
        "Cisco IOS Basic System Management Command Reference, `ntp authentication-key`: "
        "`ntp authentication-key number md5 key [encryption-type]`" + _U,
        "no ntp authentication-key N",
    ),
    SecretCommand(
        "standby [N] authentication md5 key-string [0|7] KEY [timeout S]",
        r"^(?P<cmd>standby(?:\s+\d+)?\s+authentication\s+md5\s+key-string)\s+" + _T + _V,
        "Cisco IOS XE SD-WAN qualified command reference, HSRP commands, `standby "
        "authentication` (https://pseudoco.cisco.com/c/en/us/td/docs/routers/sdwan/command/iosxe/"
        "qualified-cli-command-reference-guide/m-hsrp-commands.html)",
        "no standby [N] authentication",
    ),
    SecretCommand(
        "standby [N] authentication [text] STRING",
        r"^(?P<cmd>standby(?:\s+\d+)?\s+authentication)\s+(?!md5\b)(?:text\s+)?" + _V,
        "the same HSRP entry: `standby [group-number] authentication {text string | md5 ...}`",
        "no standby [N] authentication",
    ),
    SecretCommand(
        "glbp N authentication md5 key-string [0|7] KEY",
        r"^(?P<cmd>glbp\s+\d+\s+authentication\s+md5\s+key-string)\s+" + _T + _V,
        "Cisco IOS Release 12.3(2)T, GLBP MD5 Authentication, `glbp authentication`: `glbp "
        "group-number authentication {text string | md5 {key-string [0 | 7] key | key-chain "
        "name-of-chain}}` (http://www.cisco.com/en/US/docs/ios/12_3t/12_3t2/feature/guide/"
        "gtglbpau.html)",
        "no glbp N authentication",
    ),
    SecretCommand(
        "glbp N authentication text STRING",
        r"^(?P<cmd>glbp\s+\d+\s+authentication)\s+text\s+" + _V,
        "the same GLBP entry",
        "no glbp N authentication",
    ),
    SecretCommand(
        "vrrp N authentication md5 key-string [0|7] KEY",
        r"^(?P<cmd>vrrp\s+\d+\s+authentication\s+md5\s+key-string)\s+" + _T + _V,
        "Cisco IOS First Hop Redundancy Protocols Command Reference, `vrrp authentication`" + _U,
        "no vrrp N authentication",
    ),
    SecretCommand(
        "vrrp N authentication [text] STRING",
        r"^(?P<cmd>vrrp\s+\d+\s+authentication)\s+(?!md5\b)(?:text\s+)?" + _V,
        "the same VRRP entry: `vrrp group authentication {text text-string | md5 ...}`" + _U,
        "no vrrp N authentication",
    ),
    SecretCommand(
        "key-string [0|7] KEY",
        r"^(?P<cmd>key-string)\s+" + _T + _V,
        "Cisco IOS IP Routing Protocol-Independent Command Reference, `key-string "
        "(authentication)` (key chain key)" + _U,
        "no key-string",
    ),
    SecretCommand(
        "ip ospf authentication-key [0|7] KEY",
        r"^(?P<cmd>ip\s+ospf\s+authentication-key)\s+" + _T + _V,
        "Cisco IOS IP Routing: OSPF Command Reference, `ip ospf authentication-key`" + _U,
        "no ip ospf authentication-key",
    ),
    SecretCommand(
        "ip ospf message-digest-key N md5 [0|7] KEY",
        r"^(?P<cmd>ip\s+ospf\s+message-digest-key\s+\d+)\s+md5\s+" + _T + _V,
        "Cisco IOS IP Routing: OSPF Command Reference, `ip ospf message-digest-key md5`" + _U,
        "no ip ospf message-digest-key N",
    ),
    SecretCommand(
        "tacacs-server|radius-server ... key [0|6|7] KEY",
        r"^(?P<cmd>(?:tacacs-server|radius-server)\b.*?\s+key)\s+" + _T + _V,
        f"{_SEC_S}, `tacacs-server key`, `tacacs-server host`; `radius-server key`, "
        "`radius-server host`" + _U,
        "no tacacs-server|radius-server key",
    ),
    SecretCommand(
        "key [0|6|7] KEY (tacacs server / radius server)",
        r"^(?P<cmd>key)\s+(?!chain\b|config-key\b)" + _T + _V,
        f"{_SEC_D}, `key (TACACS+)`; {_SEC_D}, `key (server-group RADIUS)`" + _U,
        "no key",
    ),
    SecretCommand(
        "server-private ADDRESS ... key [0|7] KEY",
        r"^(?P<cmd>server-private\b.*?\s+key)\s+" + _T + _V,
        f"{_SEC_S}, `server-private (TACACS+)` and `server-private (RADIUS)`" + _U,
        "no server-private ADDRESS",
    ),
    SecretCommand(
        "neighbor X password [0|7] KEY",
        r"^(?P<cmd>neighbor\s+\S+\s+password)\s+" + _T + _V,
        "Cisco IOS IP Routing: BGP Command Reference, `neighbor password`" + _U,
        "no neighbor X password",
    ),
    SecretCommand(
        "l2tp tunnel password [0|7] KEY",
        r"^(?P<cmd>l2tp\s+tunnel\s+password)\s+" + _T + _V,
        "Cisco IOS VPDN Command Reference, `l2tp tunnel password` "
        "(https://cisco.com/c/en/us/td/docs/ios/vpdn/command/reference/vpd_book/vpd_l1.html)",
        "no l2tp tunnel password",
    ),
    SecretCommand(
        "ppp chap|pap ... password [0|7] KEY",
        r"^(?P<cmd>ppp\s+(?:chap|pap)\b.*?\s+password)\s+" + _T + _V,
        "Cisco IOS Dial Technologies Command Reference, `ppp chap password`, `ppp pap "
        "sent-username`" + _U,
        "no ppp chap|pap ...",
    ),
    SecretCommand(
        "ospfv3|ipv6|area ... authentication|encryption ipsec spi N ... md5|sha1 [0|7] KEY",
        r"^(?P<cmd>(?:ipv6\s+ospf|ospfv3(?:\s+\d+)?|area\s+\S+)\s+(?:authentication|encryption)"
        r"\s+ipsec\s+spi\s+\d+)(?:\s+esp\s+(?:null|(?:des|3des|aes-cbc(?:\s+\d+)?)\s+"
        r"(?:[0-9]\s+)?(?P<w>\S+)))?\s+(?:md5|sha1)\s+(?:[0-9]\s+)?(?P<v>\S+)",
        "tests/realworld/configs/ciscoconfparse-sample08.cfg (`ospfv3 encryption ipsec spi 1001 "
        "esp null md5 0 KEY`); Cisco IOS IPv6 Command Reference, `ipv6 ospf authentication` and "
        "`ipv6 ospf encryption`" + _U,
        "no ipv6 ospf|ospfv3 authentication|encryption ipsec spi N [U]",
    ),
    SecretCommand(
        "ip nhrp authentication STRING",
        r"^(?P<cmd>ip\s+nhrp\s+authentication)\s+" + _V,
        "Cisco IOS in a Nutshell, `ip nhrp authentication string`, `no ip nhrp authentication` "
        "(https://www.oreilly.com/library/view/cisco-ios-in/0596008694/re387.html); Cisco, "
        "Dynamic Multipoint VPN configuration guide (http://cisco.com/en/US/docs/ios-xml/ios/"
        "sec_conn_dmvpn/configuration/15-s/sec-conn-dmvpn.html)",
        "no ip nhrp authentication",
    ),
    SecretCommand(
        "snmp-server host H [vrf V] [informs|traps] [version 1|2c|3 LEVEL] COMMUNITY ...",
        r"^(?P<cmd>snmp-server\s+host\s+\S+)(?:\s+vrf\s+\S+)?(?:\s+(?:informs|traps))?"
        r"(?:\s+version\s+(?:1|2c|3(?:\s+(?:auth|noauth|priv))?))?\s+" + _V,
        "Cisco ME 3400E Software Configuration Guide, Configuring SNMP, `snmp-server host "
        "host-addr [informs | traps] [version {1 | 2c | 3 {auth | noauth | priv}}] "
        "community-string [notification-type]` (https://test-gsx.cisco.com/c/en/us/td/docs/"
        "switches/metro/me3400e/software/release/12-2_55_se/configuration/guide/ME3400e_scg/"
        "swsnmp.html); the community travels in clear like a password (a v3 user name is masked "
        "too)",
        "no snmp-server host H ... <masked> [U]: IOS's no form names the string",
    ),
    SecretCommand(
        "area-password|domain-password [0|7] PASSWORD [authenticate snp ...]",
        r"^(?P<cmd>(?:area|domain)-password)\s+" + _T + _V,
        "Cisco IOS IP Command Reference (2000), IS-IS, `area-password password`, "
        "`domain-password`, `isis password` (https://www.oocities.org/manojkreddyutl/cisco/"
        "39.htm)",
        "no area-password|domain-password",
    ),
    SecretCommand(
        "isis password PASSWORD [level-1|level-2]",
        r"^(?P<cmd>isis\s+password)\s+" + _T + _V,
        "the same IS-IS entry",
        "no isis password",
    ),
    SecretCommand(
        "wpa-psk ascii|hex [0|7|8] KEY",
        r"^(?P<cmd>wpa-psk\s+(?:ascii|hex))\s+" + _T + _V,
        "Cisco IOS Software Configuration Guide for Cisco Aironet Access Points (OL-11350-01), "
        '"Setting a Pre-Shared Key": `wpa-psk {hex | ascii} [0 | 7] encryption-key` '
        "(http://38.142.81.21:8001/manual/cisco-systems/ios-software-0l-11350-01/user-s-manual-"
        "english/page-238.html)",
        "no wpa-psk",
    ),
    SecretCommand(
        "client ADDRESS ... server-key [0|6|7] KEY (or server-key alone)",
        r"^(?P<cmd>(?:client\s+\S+(?:\s+(?!server-key\b)\S+)*?\s+)?server-key)\s+" + _T + _V,
        f"{_SEC_C}, `client (aaa server radius dynamic-author)` and `server-key`" + _U,
        "no server-key [U]",
        first=("client", "server-key"),
    ),
    SecretCommand(
        "password [0|7] KEY (l2tp-class, line)",
        r"^(?P<cmd>password)\s+" + _T + r"(?P<v>.*\S)",
        "Cisco, Layer 2 Tunnel Protocol Version 3, IOS 12.0(29)S, l2tp-class `password [0 | 7] "
        "password` (http://38.142.81.21:8001/manual/cisco/cisco-ios-software-release-12-0-29-s/"
        "manual-english/page-30.html); a line password may hold spaces (the rest of the line is "
        "masked)",
        "no password [U]",
    ),
    SecretCommand(
        "any other `authentication` [KEYWORD ...] WORD",
        r"^(?P<cmd>authentication)(?:\s+(?:[0-9]+|" + _AUTH_WORDS + r")(?=\s|$))*\s+"
        r"(?![0-9]+\s)(?!(?:" + _AUTH_WORDS + r")(?:\s|$))(?P<v>\S+)",
        "l2tpgen's safe default for an `authentication` no row above covers (`ip nhrp "
        "authentication`, HSRP's old `standby authentication STRING`): the first word after it "
        "that is no keyword of IOS's `authentication` commands (`pre-share`, `local`, `chap`, "
        "`message-digest`, ...) nor a number; `aaa`, `login authentication` and `snmp-server "
        "enable traps` lines name no secret and are left alone",
        "the same line (no value-free form known)",
        first=("authentication",),
    ),
    SecretCommand(
        "any other `password|secret|key|key-string|authentication-key|community|passphrase|"
        "server-key|password-encrypt|authentication text|md5` WORD",
        r"^(?P<cmd>.*?(?<![\w-])(?:password|secret|key-string|authentication-key|community|md5"
        r"|passphrase|server-key|password-encrypt|authentication\s+text"
        r"|key(?!\s+(?:chain|config-key)\b)))"
        r"(?:\s+(?:[0-9](?=\s)|level\s+[0-9]+|ascii|hex)){0,2}\s+" + _V,
        "l2tpgen's own catch-all for commands no row above covers: the word after the keyword "
        "and its optional type number (may mask a word that is no secret; never misses one "
        "written this way)",
        "the same line (no value-free form known)",
    ),
)
