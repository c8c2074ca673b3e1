"""Push one site: read, plan, copy, apply, check, save; roll back on any failure.

The site is rendered once (secrets masked); that one text is linted, has its secrets filled in and
is planned against the router. On the router, four round trips after the login:

1. ``show running-config``, ``show startup-config`` and ``dir`` in one write (the dry run stops
   here, never entering config mode); a router whose running config holds the model but whose
   startup config does not (an earlier push not saved) is saved, not called unchanged;
2. old rollback copies deleted (the newest ``keep_rollbacks`` stay), ``copy running-config
   FS:l2tpgen-...`` with its filename prompt answered ahead (a local copy is kept too, mode
   0600), ``configure terminal`` (``... lock`` on a router in manual exclusive mode) and ``do show
   running-config``, which must still be the config the plan was made from
   (``l2tpgen.device.exclusive``);
3. the change, in chunks (``session.send_batch``), each opening with ``do show running-config``
   (the router must still hold what push last read: else someone else is changing it, and push
   sends no more, rolls nothing back and saves nothing), its last chunk carrying ``end`` and
   ``show running-config``, which must leave nothing to change;
4. ``write memory``, whose output must say ``[OK]`` (else the push is ``unsaved``, exit 1); with
   ``confirm_within``, configuration mode was entered with a revert timer and nothing is saved
   until ``l2tpgen confirm`` (``l2tpgen.device.confirm``).

On a refused line, a lost connection, a failed check or a stop (SIGINT, SIGTERM) before the save:
``configure replace`` the copy (reconnecting if needed) and check the router is back to its
pre-push config (exit 3), or say exactly what may be left (exit 4). Before that, the router must
still hold what push last saw there: a change someone else made meanwhile is never rolled back
over (exit 4, naming it). A stop that comes once the save has begun changes nothing: the result
says what happened. A lock per router keeps two pushes from this machine apart.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from l2tpgen.device import confirm, exclusive, steps
from l2tpgen.device.config_replace import Guard, Link, close
from l2tpgen.device.connection import connect
from l2tpgen.device.options import PushOptions
from l2tpgen.device.plan import plan_change
from l2tpgen.device.refusals import running_config_checked
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.scope import OwnershipError
from l2tpgen.device.session import exec_batch, send_batch
from l2tpgen.device.state_dir import private_dir, router_lock
from l2tpgen.device.steps import Clock, Job, copy_and_enter, unsaved
from l2tpgen.errors import L2tpgenError
from l2tpgen.ios.parsed import Readings, parsed
from l2tpgen.ios.tree import parse
from l2tpgen.lint import Severity, lint_sites
from l2tpgen.lint.origins import rendered_name
from l2tpgen.model import pair_keys
from l2tpgen.platforms.render import render_site
from l2tpgen.render.classes import reveal
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.plan import Plan
    from l2tpgen.device.session import Batch
    from l2tpgen.ios.parsed import ParsedText
    from l2tpgen.ios.tree import Config
    from l2tpgen.lint import Finding
    from l2tpgen.model import Fleet

# PushOptions lives in l2tpgen.device.options (steps needs it too); named here for callers.
__all__ = ["PushOptions", "lint_gate", "masked_rendering", "push_site", "read_rendering"]


def lint_gate(
    fleet: Fleet,
    names: Sequence[str],
    rendered: Mapping[str, str] | None = None,
    trees: Mapping[str, ParsedText] | None = None,
) -> dict[str, str]:
    """Why each of ``names`` must not be pushed (error-level lint findings), linting once.

    ``trees``: ``rendered``'s texts read already (``read_rendering``), linted as they are.
    """
    site_of = {rendered_name(name): name for name in names}
    errors: dict[str, list[Finding]] = {}
    for finding in lint_sites(fleet, names, rendered=rendered, trees=trees):
        if finding.severity is Severity.ERROR and finding.file in site_of:
            errors.setdefault(site_of[finding.file], []).append(finding)
    return {
        name: f"{len(found)} error-level lint findings, first: {found[0].code} {found[0].message}"
        for name, found in errors.items()
    }


def masked_rendering(fleet: Fleet, name: str, options: PushOptions) -> str:
    """The site's one rendering (secrets masked): the caller's, or made now."""
    given = options.rendered.get(name) if options.rendered is not None else None
    return given if given is not None else render_site(fleet, name)


def read_rendering(readings: Readings, name: str, text: str) -> ParsedText:
    """A rendering of ``name`` (masked or with its secrets) read once in this run."""
    return readings.read(text, rendered_name(name), rendered=True)


def push_site(  # noqa: PLR0911 - one return per way a push ends early
    fleet: Fleet,
    name: str,
    target: Target,
    credentials: Credentials,
    options: PushOptions,
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> PushResult:
    """Push one site; never raises for a router problem (it is in the result)."""
    clock = Clock(name)
    options = _with_readings(options)
    platform = driver(fleet.site(name).effective_platform)
    if options.confirm_within is not None and not platform.timed_confirm:
        return clock.result(Status.REFUSED, confirm.unsupported(name, platform.title))
    if not platform.pushable:
        return clock.result(
            Status.REFUSED, f"{name} is a {platform.name} PE: push handles Cisco IOS and IOS-XE"
        )
    try:
        masked = masked_rendering(fleet, name, options)
        keys = pair_keys.refusal(fleet.sites, name, options.environ)
        if keys is not None:  # IKE or the cookies would fail after a push that says ok
            return clock.result(Status.REFUSED, f"not pushed: {keys}")
        intended = _gated_intended(fleet, name, masked, options)
        if isinstance(intended, str):
            return clock.result(Status.REFUSED, intended)
    except L2tpgenError as exc:
        return clock.result(Status.REFUSED, str(exc))
    if options.stopping():
        return clock.result(Status.STOPPED, "stopped before connecting; nothing was changed")
    job = Job(fleet, name, Link(target, credentials, connector), intended, options, clock)
    if options.dry_run:
        return _session(job)
    try:
        private_dir(options.state_dir.expanduser())
        with router_lock(options.state_dir, target.host, target.port):
            return _session(job)
    except L2tpgenError as exc:  # the lock is held by another push, or the state directory
        return clock.result(Status.REFUSED, str(exc))


def _with_readings(options: PushOptions) -> PushOptions:
    """``options`` with somewhere to keep the texts read (the caller's, else this push's own)."""
    return options if options.readings is not None else replace(options, readings=Readings())


def _gated_intended(fleet: Fleet, name: str, masked: str, options: PushOptions) -> Config | str:
    """The intended config (secrets filled in) read, or why it must not be pushed (lint errors).

    The masked text is read once, for the lint gate and, when no secret is filled in (a dry run
    without the variables), for the plan; a text with its secrets is another text, read once.
    """
    readings = options.readings if options.readings is not None else Readings()
    if options.lint_gate:
        options.tell(name, "linting")
        tree = read_rendering(readings, name, masked)
        blocked = lint_gate(fleet, [name], {name: masked}, {name: tree}).get(name)
        if blocked:
            return f"not pushed: {blocked}"
    return read_rendering(readings, name, _revealed(masked, options))


def _revealed(masked: str, options: PushOptions) -> str:
    """The rendering with real secrets; masked still for a dry run without the variables."""
    try:
        return reveal(masked, options.environ)
    except L2tpgenError:
        if not options.dry_run:
            raise
        return masked


def _session(job: Job) -> PushResult:
    try:
        job.options.tell(job.name, "connecting")
        connection = job.link.connector(job.link.target, job.link.credentials)
    except L2tpgenError as exc:
        return job.clock.result(Status.REFUSED, str(exc), reached=False)
    try:
        prepared = _prepare(job, connection)
        if isinstance(prepared, PushResult):
            return prepared
        return _apply(job, connection, prepared)
    finally:
        close(connection)


@dataclass(frozen=True)
class _Prepared:
    before: str
    plan: Plan
    rollback: str  # FS:NAME on the router
    seen: str  # the running config as read inside configuration mode
    entered_at: float = 0.0  # when configuration mode was entered (a revert timer counts from it)


def _prepare(job: Job, connection: Any) -> _Prepared | PushResult:  # noqa: ANN401, C901, PLR0911 - netmiko; one return per way it ends
    """Read the router and plan; stop here for no change or a dry run; else copy for rollback."""
    fleet, name, options, clock = job.fleet, job.name, job.options, job.clock
    site = fleet.site(name)
    try:
        options.tell(name, "reading the running config")
        read = [
            "show running-config",
            "show startup-config",
            "dir",
            confirm.SHOW_TIMER,
            exclusive.SHOW_LOCK,
        ]
        before, startup, listing, timer, lock = exec_batch(connection, read)
        running_config_checked(before)
        login = job.link.credentials.username
        busy = None if options.dry_run else steps.busy(name, timer, lock, login)
        if busy is not None:
            return clock.result(Status.REFUSED, busy)
        hc = job.platform.hier_config or ""
        running = parsed(before, "running")
        plan = plan_change(site, running, job.intended, platform=hc, readings=options.readings)
        shown = {
            "diff": plan.diff(name),
            "commands": plan.commands,
            "migration": plan.migration,
            "notes": plan.notes,
        }
        if plan.empty:
            if options.preflight:
                return clock.result(Status.UNCHANGED, "no change needed", **shown)
            return unsaved(job, connection, before, startup, shown)
        if options.dry_run:
            return clock.result(
                Status.WOULD_CHANGE, f"{len(plan.send)} lines would be sent", **shown
            )
        held = _held_back(fleet, name, plan, options)
        if held:
            return clock.result(Status.REFUSED, held, **shown)
        if options.stopping():
            return clock.result(Status.STOPPED, "stopped before any change", **shown)
        lacking = confirm.lacking(before, options.confirm_within)
        if lacking is not None:
            return clock.result(Status.REFUSED, lacking, **shown)
        if options.preflight:
            return clock.result(Status.WOULD_CHANGE, "passed the checks before any change", **shown)
        options.tell(name, "saving a rollback copy")
        entered_at = time.time()
        entered = copy_and_enter(job, connection, before, listing)
        if isinstance(entered, str):
            return clock.result(Status.REFUSED, entered, **shown)
        return _Prepared(before, plan, entered[0], entered[1], entered_at)
    except OwnershipError as exc:  # the model asks for what l2tpgen does not own: not pushed
        return clock.result(Status.REFUSED, f"not pushed: {exc}")
    except L2tpgenError as exc:
        return clock.result(Status.FAILED, f"nothing was changed: {exc}")


def _held_back(fleet: Fleet, name: str, plan: Plan, options: PushOptions) -> str | None:
    """Why this change must not go ahead now, or None.

    Not the change the user approved (the router changed since the diff), or a single-trunk
    migration without its peers in the run (and no ``--one-end``).
    """
    approved = options.approved.get(name) if options.approved is not None else None
    if approved is not None and approved != plan.commands:
        return (
            "not pushed: the router's config changed since the diff was shown, so the change "
            "is not the one approved; run push again to see the new diff"
        )
    if not plan.migration or options.one_end:
        return None
    peers = sorted({pw.peer.name for pw in fleet.pseudowires(name)} - set(options.together))
    if not peers:
        return None
    return (
        f"not pushed: this removes the single-trunk xconnect, so every VLAN it carries is down "
        f"until {', '.join(peers)} is migrated too; push both ends in one run "
        f"(`l2tpgen push {name} {' '.join(peers)}`), or give --one-end to change this end alone"
    )


def _apply(job: Job, connection: Any, prepared: _Prepared) -> PushResult:  # noqa: ANN401 - netmiko
    """Send the change, check it, save it; roll back if anything goes wrong before the save."""
    name, options, clock = job.name, job.options, job.clock
    plan = prepared.plan
    details: dict[str, Any] = {
        "diff": plan.diff(name),
        "commands": plan.commands,
        "rollback_file": prepared.rollback,
        "migration": plan.migration,
        "notes": plan.notes,
    }
    problem: str | None = None
    refused: tuple[str, ...] = ()
    sent = 0
    seen: str | None = prepared.seen
    site = job.fleet.site(name)
    try:
        options.tell(name, f"sending {len(plan.send)} lines")
        batch = send_batch(
            connection,
            plan.send,
            stop=options.stopping,
            then=("show running-config",),
            entered=True,
            seen=prepared.seen,
        )
        sent = batch.sent
        seen = batch.observed
        if batch.foreign is not None:
            return _foreign(job, prepared, batch, details)
        details["notices"] = tuple(f"{n.line}: {n.error}" for n in batch.notices)
        refused = tuple(f"{e.line}: {e.error}" for e in batch.refused)
        if batch.interrupted and not sent and not batch.refused:
            return steps.stopped(job, connection, details)
        problem = steps.problem_after(job, site, plan, batch)
    except L2tpgenError as exc:
        problem, seen = str(exc), None
    details["lines_sent"] = sent
    applied = f"{len(plan.send)} lines applied and verified"
    if problem is None and options.save and options.confirm_within is None:
        options.tell(name, "saving")
    if problem is None and options.stopping():  # a stop before the save began is honoured
        problem = f"{applied}, but stopped before the save"
    if problem is not None:
        options.tell(name, "rolling back")
        guard = Guard(seen, exclusive.touched(plan.send))
        status, outcome = steps.roll_back_timed(
            job, connection, prepared.rollback, guard, prepared.before, prepared.entered_at
        )
        return clock.result(status, f"{problem}; {outcome}", errors=refused, **details)
    if options.confirm_within is not None:
        when = confirm.reverts_at(prepared.entered_at, options.confirm_within)
        run = " ".join(sorted({name, *options.together}))  # a pair is confirmed as a pair
        return clock.result(Status.CHANGED, confirm.unconfirmed(run, applied, when), **details)
    if not options.save:
        return clock.result(Status.CHANGED, f"{applied}, not saved (--no-save)", **details)
    return steps.save(job, connection, applied, details)


def _foreign(
    job: Job,
    prepared: _Prepared,
    batch: Batch,
    details: dict[str, Any],
) -> PushResult:
    """Someone else changed the router while push was sending its change.

    Push stopped sending. It does not roll back (that would undo their change too), and does
    not save (their change may be half done): a complete, verified change is ``unsaved``
    (exit 1), anything else is left for a check by hand (exit 4).
    """
    plan, clock = prepared.plan, job.clock
    assert batch.foreign is not None  # noqa: S101 - the caller's condition
    changed = exclusive.what_changed(*batch.foreign)
    details["lines_sent"] = batch.sent
    errors = tuple(f"{e.line}: {e.error}" for e in batch.refused)
    saying = f"someone else changed the router while push was sending its change ({changed})"
    done = batch.sent == len(plan.send) and not batch.refused and batch.after
    if done:
        remaining = plan_change(
            job.fleet.site(job.name),
            parse(batch.after[0]),
            job.intended,
            platform=job.platform.hier_config or "",
            readings=job.options.readings,
        )
        if remaining.empty:
            return clock.result(
                Status.UNSAVED,
                f"{len(plan.send)} lines applied and verified, but NOT saved: {saying}; save "
                "(`write memory`) when they have finished",
                errors=errors,
                **details,
            )
    return clock.result(
        Status.ROLLBACK_FAILED,
        f"{saying}; push stopped after {batch.sent} of {len(plan.send)} lines and did NOT roll "
        f"back (that would undo their change too): check the router by hand (the pre-push "
        f"config is in {prepared.rollback} and in the local state directory)",
        errors=errors,
        **details,
    )
