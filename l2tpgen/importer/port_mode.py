"""A port-mode xconnect found by import: kept as it stands, or migrated to one pseudowire per VLAN.

``--port-xconnect keep|migrate`` for every such router, or ``SITE=keep|migrate`` for one (by site
name, hostname or config file). Unsaid, a router is migrated when ``--vlans`` gives its VLANs and
kept otherwise: the config does not say which VLANs the trunk carries, and a first push after an
import should change nothing the user did not ask for (a migration takes every VLAN of the trunk
down at both ends while the subinterfaces replace the port's xconnect). The choice is written into
the site file (``lan.port_xconnect.action``), where the user can change it later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from l2tpgen.errors import L2tpgenError
from l2tpgen.importer.notes import Note
from l2tpgen.importer.vlans import vlan_ranges

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from l2tpgen.importer.pairs import Peering

Action = Literal["keep", "migrate"]
ACTIONS: tuple[Action, ...] = get_args(Action)


class PortChoiceError(L2tpgenError):
    """A ``--port-xconnect`` value that is not ``keep``, ``migrate`` or ``SITE=`` one of them."""


@dataclass(frozen=True)
class PortChoice:
    """What to do with port-mode xconnects: for every router, and per site."""

    every: Action | None = None
    per_site: Mapping[str, Action] = field(default_factory=dict)

    def for_site(self, *keys: str) -> Action | None:
        """The choice for the router known by any of ``keys`` (its own first); None: unsaid."""
        return next((self.per_site[k] for k in keys if k in self.per_site), self.every)


def _action(text: str, given: str) -> Action:
    for action in ACTIONS:
        if text.strip() == action:
            return action
    raise PortChoiceError(
        f"--port-xconnect {given}: write keep or migrate, or SITE=keep|migrate for one router"
    )


def parse_port_choice(values: Iterable[str]) -> PortChoice:
    """Read ``--port-xconnect`` values.

    Raises:
        PortChoiceError: a value is not a choice (the message says how to write one).
    """
    every: Action | None = None
    per_site: dict[str, Action] = {}
    for value in values:
        site, sep, chosen = value.partition("=")
        if sep and "=" in chosen:
            raise PortChoiceError(
                f"--port-xconnect {value}: one `=` only: write keep or migrate, or "
                "SITE=keep|migrate for one router"
            )
        if sep and site.strip():
            per_site[site.strip()] = _action(chosen, value)
        else:
            every = _action(value, value)
    return PortChoice(every, per_site)


def check_sites(choice: PortChoice, known: Iterable[str], sites: Iterable[str]) -> None:
    """Every ``SITE=`` of ``choice`` names a router given (site name, hostname or config file).

    ``known``: every name a router given goes by; ``sites``: their site names, for the message.

    Raises:
        PortChoiceError: one names none (the message names it and lists the routers).
    """
    known = set(known)
    for site, action in choice.per_site.items():
        if site not in known:
            raise PortChoiceError(
                f"--port-xconnect {site}={action}: no router given is {site} (a site name, "
                f"hostname or config file); the routers given: {', '.join(sorted(sites))}"
            )


def decide(chosen: Action | None, vlans: tuple[int, ...]) -> Action:
    """The action for one router: as chosen, else migrate when its VLANs are given, else keep."""
    if chosen is not None:
        return chosen
    return "migrate" if vlans else "keep"


def port_entry(peering: Peering, peer: str, action: Action) -> dict[str, object]:
    """``lan.port_xconnect`` as the site file writes it."""
    return {"peer": peer, "vc_id": peering.circuit.vc_id, "action": action}


def kept_note(peering: Peering) -> Note:
    """What keeping means, at the xconnect's line."""
    circuit = peering.circuit
    return Note.at(
        peering.router.file,
        circuit.xconnect.at,
        "warning",
        f"the port-mode xconnect on {circuit.interface.name} (VC ID {circuit.vc_id}) is kept as "
        "it stands (lan.port_xconnect.action: keep): push owns it and leaves it, and lint warns "
        "(L2T001); to move to one pseudowire per VLAN, import again with --vlans LIST (or "
        "--port-xconnect migrate), or set `action: migrate` and list the VLANs",
    )


def migration_note(peering: Peering, vlans: list[int]) -> Note:
    """What migrating means, at the xconnect's line."""
    circuit = peering.circuit
    return Note.at(
        peering.router.file,
        circuit.xconnect.at,
        "unexpressed",
        f"the single-trunk xconnect on {circuit.interface.name} (VC ID {circuit.vc_id}) becomes "
        f"one subinterface and pseudowire per VLAN ({len(vlans)}: {vlan_ranges(vlans)}), VC ID "
        "= VLAN ID: push migrates the router (lan.port_xconnect.action: migrate)",
    )


def refusal(peering: Peering, name: str, action: Action) -> Note:
    """A port-mode xconnect the options leave undecidable: migrate without VLANs, keep with."""
    circuit = peering.circuit
    if action == "migrate":
        message = (
            f"the xconnect on {circuit.interface.name} takes the whole port (the single-trunk "
            "design), which does not say which VLANs the trunk carries: to migrate it, give them "
            "with --vlans (e.g. --vlans 2996-2999, or --vlans SITE=LIST per site); the import "
            "then writes one subinterface and one pseudowire per VLAN, VC ID = VLAN ID, and push "
            "migrates the router; or keep it as it stands with --port-xconnect keep"
        )
    else:
        message = (
            f"the xconnect on {circuit.interface.name} is to be kept (--port-xconnect keep) but "
            "--vlans gives VLANs to migrate it to: give one or the other for this router"
        )
    return Note.at(peering.router.file, circuit.xconnect.at, "refused", message, name)
