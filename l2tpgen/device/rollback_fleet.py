"""``l2tpgen rollback`` on several routers: both ends of a pair (or a fleet) back, or none.

Push works on the sites it is given together (both ends of their pseudowires); rollback takes the
same selection. One end rolled back and the other not leaves the pair's pseudowires down, so a
rollback of several routers goes as push does (``l2tpgen.device.fleet``):

1. a preflight reads every router under its lock (``manual_rollback.rollback_site`` with an approval
   that declines: running config, copies, another session's lock, a revert timer) and makes each
   diff; if any router would be refused or cannot be reached, none is changed;
2. the diffs are approved together (``approve``);
3. each router is rolled back under its lock, only if its diff is still the one approved (a router
   changed since is not rolled back to a state nobody saw).

Routers are rolled back one after another, each reported on its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from l2tpgen.device.connection import connect
from l2tpgen.device.manual_rollback import rollback_site
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


def rollback_fleet(
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: Mapping[str, RollbackOptions],
    approve: Callable[[Mapping[str, str]], bool],
    *,
    connector: Callable[[Target, Credentials], Any] = connect,
) -> tuple[PushResult, ...]:
    """Roll every target back to its copy, or none (one result per router, in target order).

    ``approve`` is shown each router's diff (by site) and says whether to go ahead. Never raises
    for a router problem.
    """
    preflight = _preflight(targets, credentials, options, connector)
    refused = {n: r for n, r in preflight.items() if r.status.exit_code}
    if refused:
        return tuple(refused.get(n) or _held(n, refused) for n in targets)
    shown = waiting(preflight)
    if not shown or not approve(shown):
        return tuple(preflight[n] for n in targets)
    results = []
    for name, target in targets.items():
        if name not in shown:
            results.append(preflight[name])  # already at its copy
            continue
        result = rollback_site(
            target,
            credentials,
            name,
            options[name],
            lambda diff, name=name: diff == shown[name],  # type: ignore[misc]
            connector=connector,
        )
        if result.status is Status.UNCHANGED and result.diff != shown[name]:
            result = replace(
                result,
                status=Status.REFUSED,
                message="not rolled back: the router changed since its diff was shown; run "
                "the rollback again to see the new diff",
            )
        results.append(result)
    return tuple(results)
