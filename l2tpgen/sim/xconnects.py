"""What a simulated router's running config says about each xconnect, read off its own tree.

The configuration is already a tree of stored lines (``config.Line``), each in the full spelling
the grammar stores, so reading it needs no parser: a top-level ``interface`` line holds its
``xconnect`` line, which holds the manual session's ``l2tp id`` and ``l2tp cookie`` lines; a
``pseudowire-class`` line holds its encapsulation, signaling protocol and source interface; an
``l2tp-class`` line holds the control channel's authentication. Secrets are kept only as
fingerprints (an HMAC-SHA-256 of the clear text under a key made afresh in each process), so a
secret typed in clear and the same secret stored as type 7 under another salt compare equal, and
nothing here can print one or be matched against a precomputed table.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.sim import type7

if TYPE_CHECKING:
    from l2tpgen.sim.config import Config, Line

# `ip protocol l2tp` is IP protocol 115 (the default: sessions show "IP protocol 115", brief S11);
# `uti` is 120, the number UTI used (S1 p.11: L2TPv3 interoperates with a UTI peer by "setting
# the IP protocol number of outgoing data packets to 120").
IP_PROTOCOLS = {"l2tp": 115, "uti": 120}
DEFAULT_IP_PROTOCOL = 115
# Cisco's default signaling when a pseudowire-class has no `protocol` line ([U] in the brief).
DEFAULT_SIGNALING = "l2tpv3"


_KEY = secrets.token_bytes(32)


def fingerprint(secret: str) -> str:
    """A value that compares secrets without holding them (valid within this process)."""
    return hmac.new(_KEY, secret.encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Cookie:
    """An ``l2tp cookie local|remote`` setting: size in bytes and the value's words."""

    size: int
    low: int
    high: int | None


@dataclass(frozen=True)
class Control:
    """What an l2tp-class asks of the control channel (its authentication), as fingerprints."""

    authentication: bool = False  # `authentication`: CHAP-style, with `password`
    password: str | None = field(default=None, repr=False)
    digest: str | None = field(default=None, repr=False)  # `digest secret`
    digest_hash: str = "md5"  # `digest ... hash sha` (md5 is the default and not shown)


@dataclass(frozen=True)
class Xc:
    """One xconnect as the simulator sees it: where it is and what its far end must match."""

    interface: str
    vlan: int | None
    peer: str
    vc_id: int
    pw_class: str
    static: bool
    source: str | None  # the address of the class's `ip local interface`
    shutdown: bool
    port: str  # the physical port of the attachment circuit
    pw_class_defined: bool
    encapsulation: str | None = "l2tpv3"
    ip_protocol: int | str = DEFAULT_IP_PROTOCOL
    signaling: str = DEFAULT_SIGNALING
    session_ids: tuple[int, int] | None = None  # manual `l2tp id LOCAL REMOTE`
    cookie_local: Cookie | None = None
    cookie_remote: Cookie | None = None
    hello: bool = False  # a manual session with `l2tp hello CLASS`
    control: Control = Control()  # the dynamic session's class, or a manual session's hello class


def _sections(config: Config, keyword: str) -> dict[str, Line]:
    prefix = keyword + " "
    return {x.text[len(prefix) :]: x for x in config.lines if x.text.startswith(prefix)}


def _words(line: Line, first: str) -> list[str] | None:
    """The words of ``line``'s first child that starts with ``first`` (None: no such child)."""
    child = next((c for c in line.children if c.text.startswith(first + " ")), None)
    return child.text.split() if child is not None else None


def _after(words: list[str], key: str) -> str | None:
    """The word after ``key`` in ``words`` (None: no such word)."""
    return words[words.index(key) + 1] if key in words[:-1] else None


def _address(interface: Line | None) -> str | None:
    if interface is None:
        return None
    for child in interface.children:
        words = child.text.split()
        if words[:2] == ["ip", "address"] and len(words) == 4:  # noqa: PLR2004 - primary only
            return words[2]
    return None


def _secret(words: list[str]) -> str | None:
    """The fingerprint of a stored ``... 7 SECRET`` (None when it cannot be read)."""
    try:
        return fingerprint(type7.decode(words[words.index("7") + 1]))
    except (ValueError, IndexError):
        return None


def _control(section: Line | None) -> Control:
    if section is None:
        return Control()
    authentication, password, digest, digest_hash = False, None, None, "md5"
    for child in section.children:
        words = child.text.split()
        if words == ["authentication"]:
            authentication = True
        elif words[0] == "password":
            password = _secret(words)
        elif words[0] == "digest":
            digest = _secret(words) if words[1:2] == ["secret"] else None
            digest_hash = _after(words, "hash") or "md5"
    return Control(authentication, password, digest, digest_hash)


def _cookie(xconnect: Line, which: str) -> Cookie | None:
    words = _words(xconnect, f"l2tp cookie {which}")
    if words is None:
        return None
    numbers = [int(w) for w in words[3:]]
    return Cookie(numbers[0], numbers[1], numbers[2] if len(numbers) > 2 else None)  # noqa: PLR2004


def _ip_protocol(pw: Line | None) -> int | str:
    words = _words(pw, "ip protocol") if pw is not None else None
    if words is None:
        return DEFAULT_IP_PROTOCOL
    word = words[2].lower()
    return int(word) if word.isdigit() else IP_PROTOCOLS.get(word, word)


def _class_words(pw: Line | None, prefix: str) -> list[str] | None:
    """The words of a pseudowire-class's line that starts with ``prefix`` (None: no such line)."""
    return _words(pw, prefix) if pw is not None else None


def _xconnect(
    name: str,
    section: Line,
    xconnect: Line,
    *,
    interfaces: dict[str, Line],
    pw_classes: dict[str, Line],
    l2tp_classes: dict[str, Line],
) -> Xc:
    """Interface ``name``'s xconnect, with what its classes say."""
    words = xconnect.text.split()
    pw_name = _after(words, "pw-class") or ""
    pw = pw_classes.get(pw_name)
    protocol = _class_words(pw, "protocol") or ["", DEFAULT_SIGNALING]
    source = _class_words(pw, "ip local interface")
    pw_encapsulation = _class_words(pw, "encapsulation")
    encapsulation = _after(words, "encapsulation") or _after(
        pw_encapsulation or [], "encapsulation"
    )
    hello = _words(xconnect, "l2tp hello")
    l2tp_id = _words(xconnect, "l2tp id")
    static = "manual" in words or protocol[1] == "none"
    control_class = hello[2] if static and hello else (protocol[2:3] or [""])[0]
    dot1q = _words(section, "encapsulation dot1Q")
    return Xc(
        interface=name,
        vlan=int(dot1q[2]) if dot1q else None,
        peer=words[1],
        vc_id=int(words[2]),
        pw_class=pw_name,
        static=static,
        source=_address(interfaces.get(source[3])) if source else None,
        shutdown=any(c.text == "shutdown" for c in section.children),
        port=name.split(".", maxsplit=1)[0],
        pw_class_defined=pw is not None or not pw_name,
        encapsulation=encapsulation,
        ip_protocol=_ip_protocol(pw),
        signaling=protocol[1],
        session_ids=(int(l2tp_id[2]), int(l2tp_id[3])) if l2tp_id else None,
        cookie_local=_cookie(xconnect, "local"),
        cookie_remote=_cookie(xconnect, "remote"),
        hello=bool(static and hello),
        control=_control(l2tp_classes.get(control_class)),
    )


def read(config: Config) -> list[Xc]:
    """Every xconnect of ``config``, in the order their interfaces were entered."""
    interfaces = _sections(config, "interface")
    pw_classes = _sections(config, "pseudowire-class")
    l2tp_classes = _sections(config, "l2tp-class")
    found = []
    for name, section in interfaces.items():
        xconnect = next((c for c in section.children if c.text.startswith("xconnect ")), None)
        if xconnect is not None:
            found.append(
                _xconnect(
                    name,
                    section,
                    xconnect,
                    interfaces=interfaces,
                    pw_classes=pw_classes,
                    l2tp_classes=l2tp_classes,
                )
            )
    return found
