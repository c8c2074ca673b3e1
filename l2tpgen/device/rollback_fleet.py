"""``l2tpgen rollback`` on several routers: both ends of a pair (or a fleet) back, or none.

Push works on the sites it is given together (both ends of their pseudowires); rollback takes the
same selection. One end rolled back and the other not leaves the pair's pseudowires down, so a
rollback of several routers goes as push does (``l2tpgen.device.fleet``):

1. a preflight reads every router under its lock (``manual_rollback.rollback_site`` with an approval
   that declines: running config, copies, another session's lock, a revert timer) and makes each
   diff; if any router would be refused or cannot be reached, none is changed;
2. the diffs are approved together (``approve``);
3. each router is rolled back under its lock, one after another, only if its diff is still the
   one approved (a router changed since is not rolled back to a state nobody saw); right before
   its replace, a copy of its running config is made (``rollback_forward``: the way forward
   again); nothing is saved yet;
4. when every router is rolled back, each is saved. When one is refused (changed since its diff
   was shown, another session's lock, not reached) or its replace fails, or a stop (Ctrl-C,
   SIGTERM) comes between two routers, the routers rolled back before it are put back as they
   were from their forward copies (as push rolls the other end of a pair back), and so is the
   failed one when its replace changed it: the run ends with every router rolled back or every
   router as it was, nothing saved. Only a router that cannot be put back is left apart, and its
   result says so, with the copy to restore by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from l2tpgen.device import rollback_forward
from l2tpgen.device.connection import connect
from l2tpgen.device.manual_rollback import rollback_site, save_rolled_back
from l2tpgen.device.result import PushResult, Status

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.manual_rollback import RollbackOptions

NOTHING = "nothing was changed"


def _preflight(
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    connector: Callable[[Target, Credentials], Any],
) -> dict[str, PushResult]:
    """Every router read and its diff made, nothing changed (each approval declines)."""
    return {
        name: rollback_site(
            target, credentials, name, options[name], lambda _diff: False, connector=connector
        )
        for name, target in targets.items()
    }


def _held(name: str, refused: Mapping[str, PushResult]) -> PushResult:
    """A router left alone because another of the run would be refused."""
    others = ", ".join(sorted(refused))
    return PushResult(
        name,
        Status.REFUSED,
        f"not rolled back: {others} would be refused (see {'its' if len(refused) == 1 else 'their'}"
        " result), and a rollback of several routers changes every one or none; fix that, then "
        "roll them back together again",
    )


def waiting(preflight: Mapping[str, PushResult]) -> dict[str, str]:
    """The diffs to approve: the routers the preflight found a change for."""
    return {
        name: r.diff
        for name, r in preflight.items()
        if r.status is Status.UNCHANGED and r.message == NOTHING and r.diff
    }


@dataclass(frozen=True)
class Prepared:
    """What the preflight found: each router's result, and the diffs waiting for approval.

    ``final``: the run ends here (a router would be refused, or nothing is to change).
    """

    preflight: Mapping[str, PushResult]
    shown: Mapping[str, str]
    final: tuple[PushResult, ...] | None = None


def prepare(
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> Prepared:
    """Read every router (nothing changed); the diffs to approve, or the run's final results."""
    preflight = _preflight(targets, credentials, options, connector)
    refused = {n: r for n, r in preflight.items() if r.status.exit_code}
    if refused:
        final = tuple(refused.get(n) or _held(n, refused) for n in targets)
        return Prepared(preflight, {}, final)
    shown = waiting(preflight)
    if not shown:
        return Prepared(preflight, shown, tuple(preflight[n] for n in targets))
    return Prepared(preflight, shown)


def rollback_fleet(
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    approve: Callable[[Mapping[str, str]], bool],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
    stop: Callable[[], bool] = lambda: False,
) -> tuple[PushResult, ...]:
    """Roll every target back to its copy, or none (one result per router, in target order).

    ``approve`` is shown each router's diff (by site) and says whether to go ahead; ``stop`` is
    asked between routers. Never raises for a router problem.
    """
    prepared = prepare(targets, credentials, options, connector=connector)
    if prepared.final is not None:
        return prepared.final
    if not approve(prepared.shown):
        return tuple(prepared.preflight[n] for n in targets)
    return apply(prepared, targets, credentials, options, connector=connector, stop=stop)


@dataclass
class _Run:
    """The change phase so far: routers rolled back (unsaved), forward copies, the first failure."""

    done: dict[str, PushResult] = field(default_factory=dict)
    forward: dict[str, str] = field(default_factory=dict)  # site -> FS:NAME
    results: dict[str, PushResult] = field(default_factory=dict)
    why: str = ""  # why the run goes back (empty: it did not)
    keep: set[str] = field(default_factory=set)  # forward copies still needed (by site)
    stopped: bool = False


def apply(
    prepared: Prepared,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
    stop: Callable[[], bool] = lambda: False,
) -> tuple[PushResult, ...]:
    """Roll back every approved router, then save each; or put every one back as it was."""
    run = _Run()
    for name, target in targets.items():
        if name not in prepared.shown:
            run.results[name] = prepared.preflight[name]  # already at its copy
            continue
        if stop():
            run.why, run.stopped = "the rollback was stopped", True
            break
        forward = rollback_forward.forward_name(name)
        each = replace(options[name], forward=forward, defer_save=True)
        result = _one(name, target, credentials, each, prepared.shown[name], connector)
        made = rollback_forward.local(options[name].state_dir, forward).exists()
        if made and result.rollback_file is not None:
            run.forward[name] = result.rollback_file.split(":", 1)[0] + ":" + forward
        if result.status is Status.CHANGED:
            run.done[name] = result
            continue
        run.results[name] = result
        run.why = f"{name} could not be rolled back (see its result)"
        break
    if run.why:
        _go_back(run, targets, credentials, options, connector)
    else:
        for name, result in run.done.items():
            run.results[name] = save_rolled_back(
                targets[name], credentials, options[name], result, connector=connector
            )
    _discard(run, targets, credentials, options, connector)
    return tuple(run.results.get(n) or _not_tried(n, run.why, stopped=run.stopped) for n in targets)


def _one(  # noqa: PLR0917 - one router's pieces
    name: str,
    target: Target,
    credentials: Credentials,
    options: RollbackOptions,
    shown: str,
    connector: Callable[[Target, Credentials], Any],
) -> PushResult:
    """Roll one router back if its diff is still the one approved (not saved yet)."""
    result = rollback_site(
        target, credentials, name, options, lambda diff: diff == shown, connector=connector
    )
    if result.status is Status.UNCHANGED and result.diff != shown:
        return replace(
            result,
            status=Status.REFUSED,
            message="not rolled back: the router changed since its diff was shown; run the "
            "rollback again to see the new diff",
        )
    return result


def _replaced(result: PushResult) -> bool:
    """Whether a failed rollback may have changed the router (its replace ran, or may have).

    ``config_replace.roll_back``'s "NOT rolled back" (someone else changed the router since it
    was read: nothing was replaced) and a refusal changed nothing.
    """
    return result.status is Status.ROLLBACK_FAILED and not result.message.startswith(
        "NOT rolled back"
    )


def _go_back(
    run: _Run,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    connector: Callable[[Target, Credentials], Any],
) -> None:
    """Put every router rolled back so far as it was (and the failed one, if it was changed)."""
    failed = [n for n, r in run.results.items() if _replaced(r) and n in run.forward]
    for name in [*run.done, *failed]:
        path = run.forward.get(name)
        if path is None:  # rolled back without a forward copy: cannot happen; say it plainly
            status, outcome = Status.ROLLBACK_FAILED, "no copy of its config before the rollback"
        else:
            status, outcome = rollback_forward.roll_forward(
                targets[name], credentials, path, options[name].state_dir, connector=connector
            )
        result = run.done.get(name) or run.results[name]
        if status is Status.ROLLED_BACK:
            done = result.message if name in run.done else _failed(result)
            message = f"{done}; then put back as it was, because {run.why}: {outcome}"
            if "`configure confirm` after the replace" in result.message:
                message += (
                    "; its revert timer, ended by the rollback, is not armed again: the change "
                    "it waited for stays until you confirm, push or roll back"
                )
            run.results[name] = replace(
                result, status=Status.ROLLED_BACK, message=message + " (nothing was saved)"
            )
            continue
        run.keep.add(name)
        local = rollback_forward.local(options[name].state_dir, (path or ":").split(":", 1)[1])
        run.results[name] = replace(
            result,
            status=Status.ROLLBACK_FAILED,
            message=f"{result.message}; and it could NOT be put back as it was ({run.why}): "
            f"{outcome}. It may differ from the others of the run (a pair split): check it by "
            f"hand; its config before the rollback is {path} on the router and {local}",
        )


def _failed(result: PushResult) -> str:
    """What a failed replace did, without its advice to check the router (it is put back)."""
    return "not rolled back: " + result.message.split("; check the router", 1)[0]


def _discard(
    run: _Run,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    connector: Callable[[Target, Credentials], Any],
) -> None:
    """Delete the forward copies no longer needed."""
    for name, path in run.forward.items():
        if name not in run.keep:
            rollback_forward.discard(
                targets[name], credentials, path, options[name].state_dir, connector=connector
            )


def _not_tried(name: str, why: str, *, stopped: bool) -> PushResult:
    """A router the run never reached (it went back first)."""
    if stopped:
        return PushResult(name, Status.STOPPED, "not rolled back: the rollback was stopped first")
    return PushResult(
        name,
        Status.REFUSED,
        f"not rolled back: {why}, and a rollback of several routers ends with every router "
        "rolled back or every router as it was",
    )
