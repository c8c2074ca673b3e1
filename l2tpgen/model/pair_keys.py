"""Both ends of a pair derive the same keys, even when they name different master-key variables.

Each end of a pair reads its master keys from the variables its own site file names
(``protection.psk_env``, ``protection.cookie_key_env``, or the peer entry's). When the two ends
name the same variable they derive the same pair key by construction. When they name different
variables (``K1`` at the hub, ``K2`` at a spoke), the pair keys match only if the two variables
hold the same value: otherwise IKE fails (the IKEv2 keys differ) or every frame is dropped (the
keyed cookies differ), after validate and push said nothing.

So the two ends are compared wherever both variables are set: each end's pair key is derived
(``keys.pair_psk``, or the cookie derivation) and reduced to a fingerprint, a keyed hash of the
pair key under a fixed label, and the fingerprints are compared in memory. Neither a value, nor a
pair key, nor a fingerprint is ever printed, logged or returned: a comparison only says *same*,
*differ*, or *unknown* (a variable is unset or refused, and names which).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from l2tpgen.errors import SecretError
from l2tpgen.model.keys import check_master, pair_psk
from l2tpgen.model.problems import Problem
from l2tpgen.model.pseudowire import Pseudowire

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from l2tpgen.model.problems import PathItem
    from l2tpgen.model.site import Site

Purpose = Literal["ike-master-key", "cookie-key"]
Outcome = Literal["same", "differ", "unknown"]
_FIELD: dict[Purpose, str] = {"ike-master-key": "psk_env", "cookie-key": "cookie_key_env"}
_WHAT: dict[Purpose, str] = {
    "ike-master-key": "IKEv2 pre-shared key",
    "cookie-key": "keyed L2TPv3 cookies",
}


@dataclass(frozen=True)
class KeyComparison:
    """The two ends of a pair (``a`` < ``b``) naming different variables for one master key.

    ``variables`` are (a's, b's); ``outcome`` says whether the pair keys derived from them are
    the same; ``unusable`` names the variables that are unset, empty or refused (``unknown``).
    Holds names only, never a value or anything derived from one.
    """

    a: str
    b: str
    purpose: Purpose
    variables: tuple[str, str]
    outcome: Outcome
    unusable: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The JSON form (``validate`` and ``secrets`` with ``--format json``)."""
        return {
            "pair": [self.a, self.b],
            "purpose": self.purpose,
            "variables": {self.a: self.variables[0], self.b: self.variables[1]},
            "outcome": self.outcome,
            "unusable": list(self.unusable),
        }

    def describe(self) -> str:
        """One line in words: which variables, what for, and what the comparison found."""
        (va, vb), what = self.variables, _WHAT[self.purpose]
        names = f"{self.a} names {va} and {self.b} names {vb} for the {what} of their pair"
        if self.outcome == "differ":
            return f"{names}, and the keys derived from them differ: {_FAILS[self.purpose]}"
        if self.outcome == "same":
            return f"{names}; the keys derived from them match"
        return (
            f"{names}; the comparison could not be made: {' and '.join(self.unusable)} "
            f"{'is' if len(self.unusable) == 1 else 'are'} unset, empty or refused"
        )


_FAILS: dict[Purpose, str] = {
    "ike-master-key": "IKE between them will fail",
    "cookie-key": "each end will drop the other's frames",
}


def fingerprint(pair_key: bytes) -> bytes:
    """A keyed hash of a pair key under a fixed label: compared in memory, never shown."""
    return hmac.new(pair_key, b"l2tpgen-pair-key-fingerprint/v1", hashlib.sha256).digest()


def _pair_key(purpose: Purpose, master: bytes, pair: tuple[str, str]) -> bytes:
    a, b = sorted(pair)
    if purpose == "ike-master-key":
        return pair_psk(master, pair).encode()
    return hmac.new(master, f"l2tpgen-cookie/v1/{a}/{b}".encode(), hashlib.sha256).digest()


def _usable(variable: str, env: Mapping[str, str]) -> bytes | None:
    value = env.get(variable, "")
    if not value:
        return None
    try:
        check_master(variable, value)
    except SecretError:
        return None
    return value.encode()


def _compare(
    purpose: Purpose, pair: tuple[str, str], variables: tuple[str, str], env: Mapping[str, str]
) -> KeyComparison:
    masters = [_usable(v, env) for v in variables]
    unusable = tuple(v for v, m in zip(variables, masters, strict=True) if m is None)
    if unusable:
        return KeyComparison(*pair, purpose, variables, "unknown", unusable)
    prints = [fingerprint(_pair_key(purpose, m, pair)) for m in masters if m is not None]
    same = hmac.compare_digest(prints[0], prints[1])
    return KeyComparison(*pair, purpose, variables, "same" if same else "differ")


def _purposes(pw: Pseudowire) -> set[Purpose]:
    found: set[Purpose] = set()
    if pw.protection.ipsec:
        found.add("ike-master-key")
    if pw.keyed_cookies:
        found.add("cookie-key")
    return found


def compare_pair_keys(
    sites: Mapping[str, Site],
    environ: Mapping[str, str] | None = None,
    only: str | None = None,
) -> list[KeyComparison]:
    """Every pair whose ends name different variables for a master key both use, compared.

    Pairs whose ends name the same variable are not listed: they match by construction.
    ``only``: the pairs of that one site (push, router by router).
    """
    env = os.environ if environ is None else environ
    used: dict[tuple[str, str], set[Purpose]] = {}
    for name, site in sites.items() if only is None else [(only, sites[only])]:
        seen: set[str] = set()
        for vlan in site.vlans:
            peer = sites.get(vlan.peer)
            if peer is None or peer.name == name or peer.name in seen:
                continue
            seen.add(peer.name)
            pw = Pseudowire(site, vlan, peer, None, site.protection_for(peer))
            a, b = sorted((name, peer.name))
            used.setdefault((a, b), set()).update(_purposes(pw))
    found = []
    for (a, b), purposes in sorted(used.items()):
        ours, theirs = sites[a].protection_for(sites[b]), sites[b].protection_for(sites[a])
        for purpose in sorted(purposes):
            field = _FIELD[purpose]
            variables = (getattr(ours, field), getattr(theirs, field))
            if variables[0] != variables[1]:
                found.append(_compare(purpose, (a, b), variables, env))
    return found


def _path(site: Site, peer: str, field: str) -> tuple[PathItem, ...]:
    """Where the site names the variable: its peer entry's protection, else its protection."""
    if peer in site.peer_names:
        index = site.peer_names.index(peer)
        entry = site.peers[index]
        if entry.protection is not None and getattr(entry.protection, field) is not None:
            return ("peers", index, "protection", field)
    return ("protection", field)


def check_pair_keys(
    sites: Mapping[str, Site],
    files: Mapping[str, str],
    comparisons: list[KeyComparison] | None = None,
) -> Iterator[Problem]:
    """An error for each pair whose ends would derive different keys (``compare_pair_keys``)."""
    for c in compare_pair_keys(sites) if comparisons is None else comparisons:
        if c.outcome != "differ":
            continue
        field = _FIELD[c.purpose]
        yield Problem(
            c.a,
            _path(sites[c.a], c.b, field),
            f"{c.a} names {c.variables[0]} here and {c.b} names {c.variables[1]} in "
            f"{files.get(c.b, c.b)} for the {_WHAT[c.purpose]} of their pair, and the two "
            f"variables hold different values: {_FAILS[c.purpose]}",
            f"name the same variable at both ends (`{field}`), or give {c.variables[0]} and "
            f"{c.variables[1]} the same value wherever l2tpgen runs",
            code="V100",
        )


def refusal(
    sites: Mapping[str, Site], name: str, environ: Mapping[str, str] | None = None
) -> str | None:
    """Why ``name`` must not be pushed: a pair of it whose ends' keys differ (None: none does)."""
    differ = [c for c in compare_pair_keys(sites, environ, only=name) if c.outcome == "differ"]
    if not differ:
        return None
    return (
        "; ".join(c.describe() for c in differ)
        + ": name the same variable at both ends, or give both variables the same value "
        "(`l2tpgen secrets` compares them)"
    )
