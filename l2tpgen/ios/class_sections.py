"""Reading ``pseudowire-class`` and ``l2tp-class`` sections into facts (for ``ios.extract``).

Secrets are never kept: a secret line gives the variable of a config l2tpgen rendered
(``<VARIABLE>``), else a fingerprint of its plain text.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from l2tpgen.ios import keywords, type7
from l2tpgen.ios.facts import At, L2tpClass, PseudowireClass, SecretLine
from l2tpgen.ios.names import canonical_or_same
from l2tpgen.ios.words import number, position, word

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Node


def _pw_ip(fields: dict[str, object], child: Node, words: list[str]) -> bool:
    what = keywords.IP_PW.get(words[1].lower()) if len(words) > 1 else None
    if what == "local" and len(words) > 3:  # noqa: PLR2004 - ip local interface NAME
        fields["local_interface"] = canonical_or_same(" ".join(words[3:]))
        fields["local_interface_at"] = position(child)
    elif what == "pmtu" and len(words) == 2:  # noqa: PLR2004
        fields["pmtu"], fields["pmtu_at"] = True, position(child)
    elif what == "dfbit" and words[2:3] == ["set"]:
        fields["df_bit"] = True
    elif what == "tos" and len(words) > 2:  # noqa: PLR2004
        if words[2].lower() == "reflect":
            fields["tos_reflect"] = True
        else:
            fields["tos_value"] = number(word(words, 3))
    elif what == "ttl":
        fields["ttl"] = number(word(words, 2))
    else:
        return False
    return True


def pw_class(node: Node) -> PseudowireClass:
    """A ``pseudowire-class`` section's facts; lines it does not read are kept as ``other``."""
    fields: dict[str, object] = {}
    other: list[tuple[str, At]] = []
    for child in node.children:
        words = child.text.split()
        head = keywords.PW.get(words[0].lower())
        if head == "encapsulation" and len(words) > 1:
            fields["encapsulation"] = words[1].lower()
            fields["encapsulation_at"] = position(child)
        elif head == "protocol" and len(words) > 1:
            fields["protocol"] = words[1].lower()
            fields["protocol_class"] = word(words, 2)
            fields["protocol_at"] = position(child)
        elif head == "sequencing" and len(words) > 1:
            fields["sequencing"] = words[1].lower()
        elif not (head == "ip" and _pw_ip(fields, child, words)):
            other.append((child.text, position(child)))
    name = node.text.split(maxsplit=1)[1] if " " in node.text else ""
    return PseudowireClass(name=name, at=position(node), other=tuple(other), **fields)  # type: ignore[arg-type]


def fingerprint(secret: str, encryption: int) -> str | None:
    """A short SHA-256 of a secret's plain text, to compare two ends without keeping it."""
    if encryption == 7:  # noqa: PLR2004 - type 7
        try:
            secret = type7.decode(secret)
        except type7.Type7Error:
            return None
    elif encryption != 0:
        return None
    return hashlib.sha256(secret.encode()).hexdigest()[:16]


_MASK = re.compile(r"^<([A-Za-z_][A-Za-z0-9_]*)>$")  # l2tpgen's masked secret: `<VARIABLE>`


def _secret(kind: str, node: Node, words: list[str]) -> SecretLine:
    # "password [0|7] SECRET" / "digest secret [0|7] SECRET [hash ...]"; no type means type 0.
    typed = len(words) > 1 and words[0] in {"0", "7"}
    encryption = int(words[0]) if typed else 0
    secret = words[1] if typed else (words[0] if words else "")
    masked = _MASK.match(secret)
    if masked is not None:  # a config l2tpgen rendered: the variable, and no secret at all
        return SecretLine(kind, encryption, position(node), variable=masked.group(1))
    return SecretLine(kind, encryption, position(node), fingerprint(secret, encryption))


def l2tp_class(node: Node) -> L2tpClass:
    """An ``l2tp-class`` section's facts; secrets only as a variable name or a fingerprint."""
    secrets: list[SecretLine] = []
    fields: dict[str, object] = {}
    other: list[tuple[str, At]] = []
    for child in node.children:
        words = child.text.split()
        head = keywords.L2TP.get(words[0].lower())
        if head == "authentication" and len(words) == 1:
            fields["authentication"] = True
        elif head == "password" and len(words) > 1:
            secrets.append(_secret("password", child, words[1:]))
        elif head == "digest":
            fields["digest"] = True
            lowered = [w.lower() for w in words]
            if "hash" in lowered[:-1]:
                fields["digest_hash"] = lowered[lowered.index("hash") + 1]
            if lowered[1:2] == ["secret"] and len(words) > 2:  # noqa: PLR2004
                secrets.append(_secret("digest secret", child, words[2:]))
        elif head == "hello":
            fields["hello"] = number(word(words, 1))
        elif head == "cookie" and word(words, 1) == "size":
            fields["cookie_size"] = number(word(words, 2))
        else:
            other.append((child.text, position(child)))
    name = node.text.split(maxsplit=1)[1] if " " in node.text else ""
    return L2tpClass(
        name=name,
        at=position(node),
        secrets=tuple(secrets),
        other=tuple(other),
        **fields,  # type: ignore[arg-type]
    )
