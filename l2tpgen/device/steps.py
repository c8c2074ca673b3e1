"""Steps of a push, with what every step needs (``Job``) and how results are made (``Clock``).

``copy_and_enter``: round trip 2 (old copies deleted, the rollback copy made, configuration mode
entered and the config read again there: ``l2tpgen.device.exclusive``). ``unsaved``: a router
whose running config already holds the model, but whose startup config does not. ``problem_after``:
what keeps a sent change from being saved; ``save``: the save of a verified change.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from l2tpgen.device import confirm, exclusive, rollback_copy
from l2tpgen.device.config_replace import roll_back
from l2tpgen.device.plan import plan_change
from l2tpgen.device.refusals import refusal
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.save import save_config
from l2tpgen.errors import DeviceError, L2tpgenError
from l2tpgen.ios.tree import parse
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from l2tpgen.device.config_replace import Guard, Link
    from l2tpgen.device.options import PushOptions
    from l2tpgen.device.plan import Plan
    from l2tpgen.device.session import Batch
    from l2tpgen.ios.tree import Config
    from l2tpgen.model import Fleet, Site
    from l2tpgen.traits import Traits


@dataclass(frozen=True)
class Clock:
    """Builds results that carry the site name and the time since the push started."""

    site: str
    started: float = field(default_factory=time.monotonic)

    def result(self, status: Status, message: str = "", **kwargs: Any) -> PushResult:  # noqa: ANN401
        """A result for this site, timed."""
        return PushResult(
            self.site, status, message, seconds=time.monotonic() - self.started, **kwargs
        )


@dataclass(frozen=True)
class Job:
    """One site's push: what it needs at every step."""

    fleet: Fleet
    name: str
    link: Link
    intended: Config
    options: PushOptions
    clock: Clock

    @property
    def platform(self) -> Traits:
        """The site's platform driver."""
        return driver(self.fleet.site(self.name).effective_platform)


def copy_and_enter(
    job: Job,
    connection: Any,  # noqa: ANN401 - netmiko
    before: str,
    listing: str,
) -> tuple[str, str] | str:
    """Round trip 2: prune, copy, enter configuration mode, read the config again.

    Returns the copy (``FS:NAME``) and the config read in configuration mode, or why nothing
    is sent (the lock is another session's, or the config changed since it was read).

    Raises:
        DeviceError: no room or no copy (nothing was changed).
    """
    name, options = job.name, job.options
    fs = rollback_copy.file_system(listing, job.platform.file_systems)
    old = rollback_copy.to_prune(rollback_copy.listed_copies(listing, name), options.keep_rollbacks)
    sizes = rollback_copy.listed_sizes(listing)
    rollback_copy.check_space(fs, before, freed=sum(sizes.get(copy, 0) for copy in old))
    file = rollback_copy.rollback_name(name)
    enter = confirm.enter_command(before, options.confirm_within)
    step = exclusive.copy_and_enter(
        connection,
        [rollback_copy.delete_command(fs, copy) for copy in old],
        rollback_copy.copy_command(fs, file),
        enter,
    )
    timed = options.confirm_within is not None
    if not step.entered and step.locked_by:
        return exclusive.lock_refusal(step.locked_by, "push again")
    if not step.entered:
        return _not_entered(job, enter, step.answer)
    try:
        rollback_copy.check_copy(step.copy, fs, file)
    except L2tpgenError as exc:
        exclusive.leave(connection)
        if timed:
            raise DeviceError(f"{exc}{_timer_ended(connection)}") from exc
        raise
    if not exclusive.same_config(step.seen, before):
        exclusive.leave(connection)
        ended = _timer_ended(connection) if timed else ""
        return (
            "nothing was changed: the router's config changed after push read it "
            f"({exclusive.what_changed(before, step.seen)}): someone else is changing this "
            f"router; push again when they have finished{ended}"
        )
    rollback_copy.keep_locally(options.state_dir / "rollback", file, before)
    rollback_copy.prune_locally(options.state_dir / "rollback", name, options.keep_rollbacks)
    return f"{fs.name}{file}", step.seen


def _not_entered(job: Job, enter: str, answer: str) -> str:
    """Why configuration mode was not entered, in the router's words."""
    said = answer or "no answer"
    if confirm.ALREADY_PENDING in answer:
        return (
            f"nothing was changed: the router refused `{enter}` ({said}): a change on the "
            "router waits for confirmation already (another timed push or session started a "
            f"revert timer after push read the router); run `l2tpgen confirm {job.name}` to keep "
            "it, or let it revert, then push again"
        )
    if confirm.ARCHIVE_OFF in answer:
        return (
            f"nothing was changed: the router refused `{enter}` ({said}): --confirm-within "
            "needs the router's configuration archive (`archive` with ` path flash:NAME`)"
        )
    return (
        f"nothing was changed: the router did not enter configuration mode at `{enter}` "
        f"({said}); check this login may configure the router"
    )


def _timer_ended(connection: Any) -> str:  # noqa: ANN401 - netmiko
    """End the revert timer push started before changing anything; what to add to the message."""
    problem = confirm.end_timer(connection)
    if problem is None:
        return "; the revert timer push started was ended (`configure confirm`)"
    return (
        f"; the revert timer push started could not be ended ({problem}): run `configure "
        "confirm` on the router, or it goes back to the config at the timer's start when the "
        "timer runs out"
    )


def unsaved(  # noqa: PLR0911 - one return per outcome
    job: Job,
    connection: Any,  # noqa: ANN401 - netmiko
    before: str,
    startup: str,
    shown: dict[str, Any],
) -> PushResult:
    """The running config holds the model: is the startup config holding it too?

    When it does not (an earlier change was not saved: a reload would lose it), a dry run says
    ``would-change`` (so ``diff --exit-code`` fails), a push saves it; ``--no-save`` says so.
    """
    name, options, clock = job.name, job.options, job.clock
    saved = _startup(startup)
    if refusal(startup) is not None or exclusive.same_config(saved, before):
        return clock.result(Status.UNCHANGED, "no change needed", **shown)
    hc = job.platform.hier_config or ""
    lacking = plan_change(
        job.fleet.site(name), parse(saved), job.intended, platform=hc, readings=options.readings
    )
    if lacking.empty:
        return clock.result(Status.UNCHANGED, "no change needed", **shown)
    command = job.platform.save_command or "write memory"
    live = (
        f"the running config holds the model but the startup config does not (an earlier "
        f"change was not saved; a reload loses it: `{lacking.commands[0]}` and "
        f"{len(lacking.commands) - 1} more lines)"
    )
    if options.dry_run:
        return clock.result(Status.WOULD_CHANGE, f"{live}; push saves it (`{command}`)", **shown)
    if not options.save:
        return clock.result(Status.UNCHANGED, f"no change needed, but {live} (--no-save)", **shown)
    if options.stopping():
        return clock.result(Status.STOPPED, f"stopped before saving; {live}", **shown)
    options.tell(name, "saving")
    why = save_config(connection, command)
    if why is not None:
        return clock.result(
            Status.UNSAVED, f"{live}, and `{command}` said {why!r}: still NOT saved", **shown
        )
    return clock.result(Status.CHANGED, f"no line to send, but {live}: saved now", **shown)


def _startup(output: str) -> str:
    """``show startup-config`` as a config (IOS's `startup-config is not present`: empty)."""
    return "" if "startup-config is not present" in output else output


def busy(name: str, timer: str, lock: str, username: str = "") -> str | None:
    """Why nothing may change now: a change waiting for confirmation, another session's lock.

    ``timer``: ``show archive config rollback timer``; ``lock``: ``show configuration lock``;
    ``username``: this login (another's waiting change is named as theirs).
    """
    waits = confirm.pending(timer)
    if waits is not None:
        user = confirm.foreign_user(timer, username)
        return confirm.waiting(name, waits, "not pushed", user)
    holder = exclusive.held_by(lock)
    return exclusive.lock_refusal(holder, "push again") if holder else None


def roll_back_timed(  # noqa: PLR0917 - the rollback's pieces, as push has them
    job: Job,
    connection: Any,  # noqa: ANN401 - netmiko
    rollback_file: str,
    guard: Guard,
    before: str,
    entered_at: float,
) -> tuple[Status, str]:
    """``config_replace.roll_back`` to the copy; a timed push then ends its revert timer."""
    status, outcome = roll_back(connection, job.link, rollback_file, before, guard)
    if status is Status.REFUSED:  # another session's lock: the change stays, check by hand
        status = Status.ROLLBACK_FAILED
    return status, outcome + _timer_outcome(job, connection, status, entered_at)


def stopped(job: Job, connection: Any, details: dict[str, Any]) -> PushResult:  # noqa: ANN401
    """Stopped in configuration mode before any line: a timer push started is ended too."""
    ended = _timer_outcome(job, connection, Status.ROLLED_BACK)
    return job.clock.result(Status.STOPPED, f"stopped before any change{ended}", **details)


def _timer_outcome(
    job: Job,
    connection: Any,  # noqa: ANN401 - netmiko
    status: Status,
    entered_at: float | None = None,
) -> str:
    """A failed timed push ends the revert timer it started (``confirm.after_failure``)."""
    minutes = job.options.confirm_within
    if minutes is None:
        return ""
    return confirm.after_failure(job.link, connection, status, minutes, entered_at)


def problem_after(job: Job, site: Site, plan: Plan, batch: Batch) -> str | None:
    """What keeps a sent change from being saved (None: the router holds the intended config)."""
    options, sent = job.options, batch.sent
    if batch.refused:
        return f"the router refused `{batch.refused[0].line}`: {batch.refused[0].error}"
    if batch.interrupted or not batch.after:
        return f"stopped after {sent} of {len(plan.send)} lines"
    if options.stopping():  # the stop came while the (last) chunk was in flight
        return f"stopped after all {sent} lines were sent, before the save"
    options.tell(job.name, "checking")
    after = parse(batch.after[0])
    remaining = plan_change(
        site,
        after,
        job.intended,
        platform=job.platform.hier_config or "",
        readings=options.readings,
    )
    if not remaining.empty:
        return f"the router does not hold the intended config; still to do: {remaining.commands[0]}"
    return None


def save(job: Job, connection: Any, applied: str, details: dict[str, Any]) -> PushResult:  # noqa: ANN401 - netmiko
    """Save a verified change; a save the router refuses leaves it live but unsaved."""
    command = job.platform.save_command or "write memory"
    unsaved = save_config(connection, command)
    stopping = job.options.stopping()
    late = "; a stop came once the save had begun: the change stays" if stopping else ""
    if unsaved is not None:
        message = (
            f"{applied}, but NOT saved: `{command}` said {unsaved!r}; the change is live and "
            f"is lost at the next reload unless you run `{command}` on the router{late}"
        )
        return job.clock.result(Status.UNSAVED, message, **details)
    return job.clock.result(Status.CHANGED, f"{applied}, saved{late}", **details)
