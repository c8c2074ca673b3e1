"""The routers' half of the API: plan, push, verify, rollback (``l2tpgen.api``).

netmiko, Nornir and hier_config are imported by the functions that talk to routers or plan a
change, never by ``import l2tpgen.api``: a script that only validates does not pay for them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.fleet import FleetReport
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.manual_rollback import RollbackOptions
    from l2tpgen.device.result import PushResult
    from l2tpgen.device.verify import PseudowireState
    from l2tpgen.model import Fleet

STATE_DIR = "L2TPGEN_STATE_DIR"  # where push keeps its rollback copies and locks


def _state_dir(state_dir: Path | None) -> Path:
    return state_dir or Path(os.environ.get(STATE_DIR, "~/.local/state/l2tpgen"))


@dataclass(frozen=True)
class PlanResult:
    """What push would send to one router, from its running config (``push --dry-run``).

    ``status``: ``would-change``, ``unchanged`` or ``refused`` (``message`` says why: a lint
    error in the rendered config, a subinterface l2tpgen does not own). ``commands`` and
    ``diff`` are masked: never a secret.
    """

    site: str
    status: str
    message: str
    diff: str = ""
    commands: tuple[str, ...] = ()
    migration: bool = False
    notes: tuple[str, ...] = ()


def plan(
    fleet: Fleet, site: str, running: str, *, environ: Mapping[str, str] | None = None
) -> PlanResult:
    """The change push would make on ``site``'s router, given its running config's text.

    The site is rendered once, linted (an error-level finding refuses it, as push does), its
    secrets filled in from ``environ`` (the process's by default; masked when unset, as a dry run
    does) and planned against ``running``. Nothing connects to anything.
    """
    # hier_config and the rest of push's planning load on demand: heavy, and not for validate.
    from l2tpgen.device.plan import plan_change  # noqa: PLC0415 - extra [push]: hier_config
    from l2tpgen.device.push import lint_gate  # noqa: PLC0415 - extra [push]: netmiko
    from l2tpgen.device.scope import OwnershipError  # noqa: PLC0415 - extra [push]: netmiko
    from l2tpgen.ios.tree import parse, parse_rendered  # noqa: PLC0415 - startup: the config tree
    from l2tpgen.platforms.render import render_site  # noqa: PLC0415 - startup: jinja2 (the renderers)
    from l2tpgen.render.classes import reveal  # noqa: PLC0415 - startup: jinja2 (the renderers)

    platform = driver(fleet.site(site).effective_platform)
    if not platform.pushable:
        return PlanResult(
            site, "refused", f"{site} is a {platform.name} PE: push handles Cisco IOS and IOS-XE"
        )
    masked = render_site(fleet, site)
    blocked = lint_gate(fleet, [site], {site: masked}).get(site)
    if blocked:
        return PlanResult(site, "refused", f"not pushed: {blocked}")
    try:
        intended = reveal(masked, environ)
    except L2tpgenError:
        intended = masked  # a dry run without the variables plans with the masks
    try:
        change = plan_change(
            fleet.site(site),
            parse(running),
            parse_rendered(intended),
            platform=platform.hier_config or "",
        )
    except OwnershipError as exc:
        return PlanResult(site, "refused", f"not pushed: {exc}")
    status = "unchanged" if change.empty else "would-change"
    message = "no change needed" if change.empty else f"{len(change.send)} lines would be sent"
    return PlanResult(
        site, status, message, change.diff(site), change.commands, change.migration, change.notes
    )


def targets(
    fleet: Fleet,
    names: Sequence[str],
    inventory: Path | None = None,
    where: Mapping[str, Target] | None = None,
) -> dict[str, Target]:
    """Where each site's router is: ``where``'s entry, else the inventory's or the site file's.

    ``where``: targets the caller found already (``--inventory netbox``, learned host keys).

    Raises:
        L2tpgenError: the inventory cannot be read, or lacks a site.
    """
    from l2tpgen.device import load_inventory, target_for  # noqa: PLC0415 - extra [push]: netmiko

    if where is not None:
        return {name: where[name] for name in names}
    table = load_inventory(inventory) if inventory is not None else None
    return {name: target_for(fleet.site(name), table) for name in names}


def _credentials(credentials: Credentials | None) -> Credentials:
    from l2tpgen.device import credentials_from_env  # noqa: PLC0415 - extra [push]: netmiko

    return credentials if credentials is not None else credentials_from_env()


def push(
    fleet: Fleet,
    names: Sequence[str],
    inventory: Path | None = None,
    *,
    dry_run: bool = True,
    save: bool = True,
    credentials: Credentials | None = None,
    state_dir: Path | None = None,
    workers: int | None = None,
    where: Mapping[str, Target] | None = None,
) -> FleetReport:
    """Push the sites ``names`` to their routers, ``workers`` at once (``push --yes``).

    A dry run (the default) reads each router and plans, never entering configuration mode.
    Each site is rendered once; credentials come from the environment unless given. Never
    raises for a router's problem: each result says what happened (``.status``).
    """
    from l2tpgen.device import PushOptions  # noqa: PLC0415 - extra [push]: netmiko
    from l2tpgen.device.fleet import DEFAULT_WORKERS, push_fleet  # noqa: PLC0415 - extra [push]: netmiko
    from l2tpgen.platforms.render import render_site  # noqa: PLC0415 - startup: jinja2 (the renderers)

    found = targets(fleet, names, inventory, where)
    login = _credentials(credentials)
    options = PushOptions(
        dry_run=True,
        save=save,
        state_dir=_state_dir(state_dir),
        rendered={name: render_site(fleet, name) for name in names},
    )
    if not dry_run:
        options = replace(options, dry_run=False)
    return push_fleet(fleet, found, login, options, workers or DEFAULT_WORKERS)


@dataclass(frozen=True)
class Verification:
    """Every pseudowire's state as its routers report it, and the routers that could not say."""

    states: tuple[PseudowireState, ...]
    errors: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Every router answered and every pseudowire is up."""
        return not self.errors and all(s.up for s in self.states)


def verify(
    fleet: Fleet,
    names: Sequence[str],
    inventory: Path | None = None,
    *,
    credentials: Credentials | None = None,
    workers: int | None = None,
    where: Mapping[str, Target] | None = None,
) -> Verification:
    """Read the pseudowires' state from the routers of ``names``: ``l2tpgen verify``.

    The states come sorted by site (in the order of ``names``), then VLAN.
    """
    from l2tpgen.device.fleet import DEFAULT_WORKERS, verify_fleet  # noqa: PLC0415 - extra [push]: netmiko

    found = targets(fleet, names, inventory, where)
    login = _credentials(credentials)
    states, problems = verify_fleet(fleet, found, login, workers or DEFAULT_WORKERS)
    order = {name: index for index, name in enumerate(names)}
    states.sort(key=lambda s: (order[s.site], s.vlan))
    return Verification(tuple(states), tuple(problems))


def rollback_options(
    fleet: Fleet,
    site: str,
    *,
    to: str | None = None,
    save: bool = True,
    state_dir: Path | None = None,
) -> RollbackOptions:
    """How ``site``'s router is rolled back: the copy, the state directory, its save command."""
    from l2tpgen.device.manual_rollback import RollbackOptions  # noqa: PLC0415 - extra [push]: netmiko

    platform = driver(fleet.site(site).effective_platform)
    return RollbackOptions(
        _state_dir(state_dir),
        to=to,
        save=save,
        save_command=platform.save_command or "write memory",
        file_systems=platform.file_systems,
    )


def rollback(
    fleet: Fleet,
    site: str,
    inventory: Path | None = None,
    *,
    to: str | None = None,
    save: bool = True,
    approve: Callable[[str], bool] | None = None,
    credentials: Credentials | None = None,
    state_dir: Path | None = None,
    where: Mapping[str, Target] | None = None,
) -> PushResult:
    """Take ``site``'s router back to a rollback copy push made (the newest, or ``to``).

    ``approve`` is shown the diff and says whether to go ahead (by default: yes, as ``--yes``).
    Never raises for a router's problem: the result says what happened.
    """
    from l2tpgen.device.manual_rollback import rollback_site  # noqa: PLC0415 - extra [push]: netmiko

    options = rollback_options(fleet, site, to=to, save=save, state_dir=state_dir)
    target = targets(fleet, [site], inventory, where)[site]
    return rollback_site(
        target, _credentials(credentials), site, options, approve or (lambda _diff: True)
    )
