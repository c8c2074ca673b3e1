"""Which secrets a fleet needs, and which of them the environment holds: ``l2tpgen secrets``.

Each selected site is rendered masked, for its own platform, exactly as ``render`` and ``push``
render it; every placeholder the rendering holds names a variable the revealed rendering will read:

* ``<VAR/psk/A/B>``: the IKEv2 master key (each pair's key is derived from it, ``keys``);
* ``<VAR/cookie/...>``: the cookie key (keyed cookies are derived from it);
* ``<VAR>``: an l2tp-class secret, typed into IOS as type 7.

A variable is *set* when the environment holds a value that would be accepted, *refused* when
it holds one that would not (too short, IOS-unsafe, too long for type 7: the reason, never the
value), *missing* when unset or empty. Nothing here reads more than the variables named.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from l2tpgen.errors import SecretError
from l2tpgen.ios import type7
from l2tpgen.model.keys import PSK_PLACEHOLDER, check_literal, check_master
from l2tpgen.model.protection import COOKIE_PLACEHOLDER
from l2tpgen.model.secret_names import in_namespace

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping


Purpose = Literal["ike-master-key", "cookie-key", "l2tp-secret"]
PURPOSES: dict[str, str] = {
    "ike-master-key": "IKEv2 master key (each pair's pre-shared key is derived from it)",
    "cookie-key": "cookie key (keyed L2TPv3 cookies are derived from it)",
    "l2tp-secret": "l2tp-class secret (control-channel authentication, type 7 on IOS)",
}
State = Literal["set", "missing", "refused"]
_PLAIN = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")


@dataclass(frozen=True)
class SecretNeed:
    """One variable the fleet needs, what for, by which sites, and whether it is usable."""

    variable: str
    purposes: tuple[Purpose, ...]
    sites: tuple[str, ...]
    state: State
    problem: str | None = None  # why a set value is refused (never the value)

    def as_dict(self) -> dict[str, object]:
        """The JSON form (``secrets --format json``): never a value."""
        return {
            "variable": self.variable,
            "purposes": list(self.purposes),
            "sites": list(self.sites),
            "state": self.state,
            "problem": self.problem,
        }


def _placeholders(text: str) -> Iterable[tuple[str, Purpose]]:
    for match in PSK_PLACEHOLDER.finditer(text):
        yield match.group("var"), "ike-master-key"
    for match in COOKIE_PLACEHOLDER.finditer(text):
        yield match.group("var"), "cookie-key"
    for match in _PLAIN.finditer(text):
        if in_namespace(match.group(1)):  # only what a site file may name is a secret's variable
            yield match.group(1), "l2tp-secret"


def _literal(variable: str, value: str) -> None:
    try:
        type7.check_carried(value)  # what encode refuses, without loading its cipher
    except type7.Type7Error as exc:
        raise SecretError(
            f"environment variable {variable} holds a secret type 7 cannot carry ({exc})"
        ) from None
    check_literal(variable, value)


_CHECKS: dict[Purpose, Callable[[str, str], None]] = {
    "ike-master-key": check_master,
    "cookie-key": check_master,
    "l2tp-secret": _literal,
}


def text_needs(text: str) -> dict[str, set[Purpose]]:
    """The variables a masked rendering reads, and what for."""
    found: dict[str, set[Purpose]] = {}
    for variable, purpose in _placeholders(text):
        found.setdefault(variable, set()).add(purpose)
    return found


def require_all(text: str, environ: Mapping[str, str] | None = None) -> None:
    """Every variable ``text`` reads is set and usable, else one error naming all of them.

    Raises:
        SecretError: each missing or refused variable, at once (never a value).
    """
    env = os.environ if environ is None else environ
    problems = []
    for variable, purposes in sorted(text_needs(text).items()):
        state, problem = _state(variable, env.get(variable, ""), purposes)
        if state == "missing":
            problems.append(f"environment variable {variable} is not set or is empty")
        elif problem is not None:
            problems.append(problem)
    if problems:
        raise SecretError(
            "; ".join(problems) + "; export each (for example `read -rs NAME && export NAME`); "
            "`l2tpgen secrets` lists every variable the sites need"
        )


def secret_needs_in(
    rendered: Mapping[str, Iterable[str]], environ: Mapping[str, str] | None = None
) -> list[SecretNeed]:
    """Every variable the rendered texts (site -> its files' texts) need, sorted by name.

    ``l2tpgen.platforms.render.secret_needs`` renders the sites and asks this.
    """
    found: dict[str, dict[str, set[Purpose]]] = {}
    for name in sorted(rendered):
        for text in rendered[name]:
            for variable, purpose in _placeholders(text):
                found.setdefault(name, {}).setdefault(variable, set()).add(purpose)
    return needs_of(found, environ)


def needs_of(
    reads: Mapping[str, Mapping[str, Iterable[Purpose]]], environ: Mapping[str, str] | None = None
) -> list[SecretNeed]:
    """Every variable the sites read (site -> variable -> what for), sorted by name, with its state.

    ``l2tpgen.platforms.needs`` asks this with what the model says each rendering reads.
    """
    env = os.environ if environ is None else environ
    found: dict[str, tuple[set[Purpose], set[str]]] = {}
    for name, variables in reads.items():
        for variable, uses in variables.items():
            purposes, sites = found.setdefault(variable, (set(), set()))
            purposes.update(uses)
            sites.add(name)
    needs = []
    for variable in sorted(found):
        purposes, sites = found[variable]
        state, problem = _state(variable, env.get(variable, ""), purposes)
        needs.append(
            SecretNeed(variable, tuple(sorted(purposes)), tuple(sorted(sites)), state, problem)
        )
    return needs


def _state(variable: str, value: str, purposes: set[Purpose]) -> tuple[State, str | None]:
    """Whether a value is usable for every purpose it serves (the reason when not)."""
    if not value:
        return "missing", None
    try:
        for purpose in sorted(purposes):
            _CHECKS[purpose](variable, value)
    except SecretError as exc:
        return "refused", str(exc)
    return "set", None
