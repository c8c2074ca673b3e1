"""The pseudowire-class and l2tp-class settings of one router's pseudowires to one peer.

A peer's circuits are read as one class pair (the model has one per peer): the pseudowire-class
most of them name, and the l2tp-class it (or, for static sessions, their ``l2tp hello``) names.
Settings come from the facts; lines the model has no field for are notes. Secrets are never read:
a secret line gives an identity (the variable of a config l2tpgen rendered, else a fingerprint of
the plain text) so that classes sharing a secret share one ``secret_env``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from l2tpgen.importer.notes import Note, redact
from l2tpgen.ios.facts import PseudowireClass
from l2tpgen.model.site import NAME_PATTERN, NAME_RULES
from l2tpgen.render.classes import IOS_DEFAULT_HELLO  # what render leaves out

if TYPE_CHECKING:
    from l2tpgen.importer.router import Circuit, Router
    from l2tpgen.ios.facts import At
    from l2tpgen.ios.facts import L2tpClass as L2tpFacts
    from l2tpgen.ios.facts import PseudowireClass as PwFacts

SEQUENCING = ("transmit", "receive", "both")
DIALECTS = ("l2tpv3", "l2tpv3ietf")


@dataclass(frozen=True)
class PwSettings:
    """What a pseudowire-class says, in the model's terms (effective values)."""

    name: str
    signaling: str = "dynamic"
    dialect: str = "l2tpv3"
    cookie: int = 0
    pmtu: bool = True
    df_bit: bool = True
    tos_reflect: bool = False
    sequencing: str = "none"
    static_hello: bool = True

    def as_site_class(self) -> dict[str, object]:
        """The site's ``pseudowire_class``: the name and what differs from the model's defaults."""
        static = self.signaling == "static"
        found: dict[str, object] = {"name": self.name}
        if static:
            found["signaling"] = "static"
        if self.dialect != "l2tpv3":
            found["dialect"] = self.dialect
        if self.cookie != (4 if static else 0):
            found["cookie"] = self.cookie
        if self.pmtu != (not static):
            found["pmtu"] = self.pmtu
        if not self.df_bit:
            found["df_bit"] = False
        if self.tos_reflect:
            found["tos_reflect"] = True
        if self.sequencing != "none":
            found["sequencing"] = self.sequencing
        if static and not self.static_hello:
            found["static_hello"] = False
        return found


@dataclass(frozen=True)
class L2tpSettings:
    """What an l2tp-class says, in the model's terms; ``secret`` identifies its secret."""

    name: str
    authentication: str = "none"
    hash: str | None = None
    hello: int | None = None
    secret: tuple[str, str] | None = None  # ("variable", NAME) | ("fingerprint", F) | ("own", ID)

    def as_dict(self, secret_env: str | None) -> dict[str, object]:
        """The ``l2tp_class`` of a site file."""
        found: dict[str, object] = {"name": self.name, "authentication": self.authentication}
        if self.hash is not None:
            found["hash"] = self.hash
        if self.hello is not None:
            found["hello"] = self.hello
        if self.authentication != "none" and secret_env is not None:
            found["secret_env"] = secret_env
        return found


@dataclass(frozen=True)
class PeerClasses:
    """The classes a router's pseudowires to one peer use, and what could not be read."""

    pw: PwSettings
    l2tp: L2tpSettings
    notes: tuple[Note, ...]


class _Note(Protocol):
    """Records a note on a line the model has no field for (by default at the class header)."""

    def __call__(self, message: str, at: At | None = ...) -> None: ...


def _pw_protocol(facts: PwFacts, note: _Note) -> str:
    """The class's dialect; notes on an encapsulation or protocol push would rewrite."""
    if facts.encapsulation != "l2tpv3":
        what = (
            "has no `encapsulation l2tpv3`"
            if facts.encapsulation is None
            else f"has `encapsulation {facts.encapsulation}`, read as l2tpv3"
        )
        note(
            f"pseudowire-class {facts.name} {what}: push would write `encapsulation l2tpv3`",
            facts.encapsulation_at or facts.at,
        )
    if facts.protocol not in (*DIALECTS, "none", None):
        note(
            f"pseudowire-class {facts.name}: `protocol {facts.protocol}`: push would write the "
            "model's `protocol l2tpv3 ...`",
            facts.protocol_at,
        )
    return facts.protocol if facts.protocol in DIALECTS else "l2tpv3"


def _pw_sessions(facts: PwFacts, circuits: list[Circuit], note: _Note) -> list[Circuit]:
    """The manual xconnects among ``circuits``; notes where they disagree with the class."""
    manual = [c for c in circuits if c.xconnect.manual]
    if facts.static and len(manual) < len(circuits):
        note(
            f"pseudowire-class {facts.name} is static (protocol none) but an xconnect using it "
            "is not `manual`: push makes it a manual session with `l2tp id`"
        )
    if not facts.static and manual:
        note(
            f"pseudowire-class {facts.name} is signalled but an xconnect using it is `manual`: "
            "push makes it a signalled session",
            manual[0].xconnect.at,
        )
    return manual


def _pw_removed(facts: PwFacts, note: _Note) -> None:
    """Notes on the class's lines push would remove."""
    if facts.sequencing not in (*SEQUENCING, None):
        note(
            f"pseudowire-class {facts.name}: `sequencing {facts.sequencing}`: push would remove it"
        )
    if facts.tos_value is not None:
        note(
            f"pseudowire-class {facts.name}: `ip tos value {facts.tos_value}`: push would remove it"
        )
    if facts.ttl is not None:
        note(f"pseudowire-class {facts.name}: `ip ttl {facts.ttl}`: push would remove it")
    for text, at in facts.other:
        note(
            f"pseudowire-class {facts.name}: `{redact(text)}`: push would remove it",
            at,
        )


def _static_cookie(facts: PwFacts, manual: list[Circuit], note: _Note) -> int:
    """The cookie size the static sessions use most (the model's default when none says)."""
    static = facts.static
    sizes = Counter(c.xconnect.cookie_local.size if c.xconnect.cookie_local else 0 for c in manual)
    cookie = sizes.most_common(1)[0][0] if static and sizes else (4 if static else 0)
    if len(sizes) > 1:
        note(
            f"the static sessions using pseudowire-class {facts.name} have different cookie "
            f"sizes; l2tpgen uses {cookie} bytes for all"
        )
    return cookie


def _pw(router: Router, facts: PwFacts, circuits: list[Circuit], notes: list[Note]) -> PwSettings:
    file = router.file

    def note(message: str, at: At | None = facts.at) -> None:
        notes.append(Note.at(file, at, "unexpressed", message))

    static = facts.static
    dialect = _pw_protocol(facts, note)
    manual = _pw_sessions(facts, circuits, note)
    pmtu = facts.pmtu
    if static and pmtu:
        note(
            f"`ip pmtu` in the static pseudowire-class {facts.name}: IOS does not support it "
            "with static sessions; push would remove it",
            facts.pmtu_at,
        )
        pmtu = False
    sequencing = facts.sequencing if facts.sequencing in SEQUENCING else "none"
    _pw_removed(facts, note)
    cookie = _static_cookie(facts, manual, note)
    hello = any(c.xconnect.hello for c in circuits) if circuits else True  # unknown: default
    return PwSettings(
        name=facts.name,
        signaling="static" if static else "dynamic",
        dialect=dialect,
        cookie=cookie if cookie in (0, 4, 8) else 4,
        pmtu=pmtu,
        df_bit=facts.df_bit,
        tos_reflect=facts.tos_reflect,
        sequencing=sequencing,
        static_hello=hello,
    )


def _l2tp_secret(
    facts: L2tpFacts, authentication: str, file: str, note: _Note
) -> tuple[str, str] | None:
    """The identity of the class's secret (never the secret); a note when it has none."""
    kind = "digest secret" if facts.digest else "password"
    lines = [s for s in facts.secrets if s.kind == kind]
    if lines and lines[0].variable is not None:
        return ("variable", lines[0].variable)
    if lines and lines[0].fingerprint is not None:
        return ("fingerprint", lines[0].fingerprint)
    if authentication == "none":
        return None
    if not lines:
        note(
            f"l2tp-class {facts.name} has {authentication} authentication without a secret: "
            "push would add the one in its secret_env"
        )
    return ("own", f"{file}:{facts.name}")


def _l2tp_hash(facts: L2tpFacts, note: _Note) -> str | None:
    """The digest hash the model writes (None: its default, sha)."""
    if not facts.digest:
        return None
    if facts.digest_hash not in (None, "md5", "sha"):
        note(
            f"l2tp-class {facts.name}: digest hash {facts.digest_hash} is not md5 or sha; "
            "l2tpgen uses sha"
        )
    return "md5" if facts.digest_hash in (None, "md5") else None


def _l2tp(
    router: Router, facts: L2tpFacts | None, name: str | None, notes: list[Note]
) -> L2tpSettings:
    file = router.file
    if facts is None:
        return L2tpSettings(name=name or "l2tpgen")

    def note(message: str, at: At | None = facts.at) -> None:
        notes.append(Note.at(file, at, "unexpressed", message))

    authentication = "digest" if facts.digest else "password" if facts.authentication else "none"
    if facts.digest and facts.authentication:
        note(
            f"l2tp-class {facts.name} has both `authentication` and `digest` (a migration "
            "step): l2tpgen keeps digest, push would remove `authentication`"
        )
    hash_ = _l2tp_hash(facts, note)
    secret = _l2tp_secret(facts, authentication, file, note)
    hello = facts.hello if facts.hello not in (None, IOS_DEFAULT_HELLO) else None
    if facts.cookie_size is not None:
        note(
            f"l2tp-class {facts.name}: `cookie size {facts.cookie_size}` (dynamic sessions): "
            "push would remove it"
        )
    for text, at in facts.other:
        if text.split()[0].lower() != "authentication":
            note(
                f"l2tp-class {facts.name}: `{redact(text)}`: push would remove it",
                at,
            )
    return L2tpSettings(facts.name, authentication, hash_, hello, secret)


def peer_classes(router: Router, circuits: list[Circuit]) -> PeerClasses:
    """The classes of ``circuits`` (all to one peer)."""
    notes: list[Note] = []
    used = Counter(c.xconnect.pw_class for c in circuits)
    name = max(used, key=lambda n: (used[n], n is not None, n or ""))
    for circuit in circuits:
        if circuit.xconnect.pw_class != name:
            notes.append(  # noqa: PERF401 - a note per circuit, clearer as a loop
                Note.at(
                    router.file,
                    circuit.xconnect.at,
                    "unexpressed",
                    f"the xconnect on {circuit.interface.name} uses pw-class "
                    f"{circuit.xconnect.pw_class}, its peer's others {name}: one class per "
                    f"peer, push would move it to {name}",
                )
            )
    facts = router.facts.pw_classes.get(name or "")
    if facts is None:
        notes.append(
            Note.at(
                router.file,
                circuits[0].xconnect.at,
                "unexpressed",
                f"pw-class {name} is not defined here: read as l2tpgen's defaults"
                if name
                else "the xconnect names no pw-class: read as l2tpgen's defaults",
            )
        )

        facts = PseudowireClass(name or "l2tpgen", circuits[0].xconnect.at, "l2tpv3")
        facts = _defaults(facts)
    chosen = class_settings(router, facts, [c for c in circuits if c.xconnect.pw_class == name])
    return PeerClasses(chosen.pw, chosen.l2tp, (*notes, *chosen.notes))


def class_settings(router: Router, facts: PwFacts, circuits: list[Circuit]) -> PeerClasses:
    """The settings of one pseudowire-class and its l2tp-class, as ``circuits`` use them."""
    notes: list[Note] = []
    pw = _pw(router, facts, circuits, notes)
    if pw.signaling == "dynamic":
        l2tp_name = facts.protocol_class
        if l2tp_name is None:
            notes.append(
                Note.at(
                    router.file,
                    facts.protocol_at or facts.at,
                    "unexpressed",
                    f"pseudowire-class {facts.name} names no l2tp-class: l2tpgen "
                    "writes `protocol l2tpv3 l2tpgen` with an l2tp-class l2tpgen "
                    "without authentication",
                )
            )
    else:
        l2tp_name = next((c.xconnect.hello for c in circuits if c.xconnect.hello), None)
    l2tp = _l2tp(router, router.facts.l2tp_classes.get(l2tp_name or ""), l2tp_name, notes)
    return PeerClasses(pw, l2tp, tuple(notes))


def _defaults(facts: PwFacts) -> PwFacts:
    return replace(facts, pmtu=True, df_bit=True)


_NAME = re.compile(NAME_PATTERN)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe_form(name: str) -> str | None:
    """A name l2tpgen takes that reads like ``name`` (``PW:ETH`` -> ``PW_ETH``), if there is one."""
    candidate = _UNSAFE.sub("_", name).lstrip("._-")[:63]
    return candidate if candidate and _NAME.match(candidate) else None


def name_refusals(router: Router, classes: PeerClasses, fallback: At | None = None) -> list[Note]:
    """Refusals for class names IOS accepts but site files cannot hold (``PW:ETH``, ``a$b``).

    Such a name reaches file names, shell commands and lab scripts: l2tpgen does not take it,
    and does not rename the class on its own either (push would then replace the class the
    router's xconnects use). Each refusal is at the class's line (or ``fallback``, the
    xconnect that names an undefined class) and says how to go on.
    """
    found = []
    facts = router.facts
    for kind, name, defined in (
        ("pseudowire-class", classes.pw.name, facts.pw_classes.get(classes.pw.name)),
        ("l2tp-class", classes.l2tp.name, facts.l2tp_classes.get(classes.l2tp.name)),
    ):
        if _NAME.match(name):
            continue
        safe = _safe_form(name)
        example = f" (e.g. {safe})" if safe else ""
        found.append(
            Note.at(
                router.file,
                defined.at if defined is not None else fallback,
                "refused",
                f"{kind} `{redact(name)}`: l2tpgen cannot take this name: "
                f"{NAME_RULES[NAME_PATTERN]}. Rename the class{example} on the router, or in "
                "this copy of its config, and import again",
            )
        )
    return found
