"""Many routers at once: Nornir's threaded runner over an inventory built in memory.

One router's failure never stops or corrupts the others: each push is independent and returns its
result. When both ends of a pseudowire were pushed in the same run, both ends are verified
afterwards and pseudowires that are up on one side only are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from nornir.core import Nornir
from nornir.core.inventory import Defaults, Groups, Host, Hosts, Inventory
from nornir.plugins.runners import ThreadedRunner

from l2tpgen.device.config_replace import restore
from l2tpgen.device.exclusive import touched
from l2tpgen.device.outage import pair_outage
from l2tpgen.device.push import lint_gate, read_rendering
from l2tpgen.device.result import PushResult, Status
from l2tpgen.errors import L2tpgenError
from l2tpgen.ios.parsed import Readings
from l2tpgen.nornir import l2tpgen_push, l2tpgen_verify
from l2tpgen.platforms.render import render_site
from l2tpgen.traits import driver

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from l2tpgen.device.credentials import Credentials
    from l2tpgen.device.inventory import Target
    from l2tpgen.device.options import PushOptions
    from l2tpgen.device.verify import PseudowireState
    from l2tpgen.model import Fleet

# SSH work is mostly waiting on the network: more workers than cores is right, but each one holds
# an SSH session (and routers limit their vty lines), so stay modest.
DEFAULT_WORKERS = 20


def build_nornir(targets: Mapping[str, Target], credentials: Credentials, workers: int) -> Nornir:
    """A Nornir object whose hosts are the sites' routers."""
    hosts = Hosts(
        {
            name: Host(
                name=name,
                hostname=target.host,
                port=target.port,
                platform=target.device_type,
                username=credentials.username,
                password=credentials.password,
                data={
                    "known_hosts": str(target.known_hosts),
                    "accept_new_host_keys": target.accept_new_host_keys,
                    "enable_secret": credentials.enable_secret,
                },
            )
            for name, target in targets.items()
        }
    )
    inventory = Inventory(hosts=hosts, groups=Groups(), defaults=Defaults())
    return Nornir(inventory=inventory, runner=ThreadedRunner(num_workers=max(1, workers)))


@dataclass(frozen=True)
class PairState:
    """Both ends of one pseudowire after a push of both."""

    site: str
    peer: str
    vlan: int
    vc_id: int
    here: str
    there: str
    port: bool = False  # the kept port-mode xconnect of the LAN trunk (vlan 0)

    @property
    def up_both(self) -> bool:
        """Up at both ends."""
        return self.here == "UP" and self.there == "UP"

    @property
    def one_sided(self) -> bool:
        """Up at exactly one end."""
        return (self.here == "UP") != (self.there == "UP")


@dataclass(frozen=True)
class FleetReport:
    """Every router's push result, and the pairs verified afterwards."""

    results: tuple[PushResult, ...]
    pairs: tuple[PairState, ...] = ()
    verify_errors: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """The worst result; 1 at least when a pushed pair is not up at both ends."""
        worst = max((r.status.exit_code for r in self.results), default=0)
        if any(not p.up_both for p in self.pairs) or self.verify_errors:
            worst = max(worst, 1)
        return worst


def verify_fleet(
    fleet: Fleet, targets: Mapping[str, Target], credentials: Credentials, workers: int
) -> tuple[list[PseudowireState], list[str]]:
    """Pseudowire states of every target, read in parallel; and the routers that failed."""
    if not targets:
        return [], []
    runner = build_nornir(targets, credentials, workers)
    outcome = runner.run(task=l2tpgen_verify, fleet=fleet, credentials=credentials, on_failed=True)
    states: list[PseudowireState] = []
    errors: list[str] = []
    for name, target in targets.items():
        result = outcome[name][0]
        if result.exception is not None:
            errors.append(f"{target}: {_one_line(result.exception)}")
        elif isinstance(result.result, list):
            states.extend(result.result)
    return states, errors


def _one_line(exception: BaseException) -> str:
    """What to print of a task's exception: ours as they are, anything else by its type only.

    Anything but an ``L2tpgenError`` is a bug; its text (netmiko's runs to several lines and may
    quote what the router printed) stays out.
    """
    if isinstance(exception, L2tpgenError):
        return str(exception)
    return f"unexpected error ({type(exception).__name__}); this is a bug in l2tpgen"


def push_fleet(
    fleet: Fleet,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: PushOptions,
    workers: int = DEFAULT_WORKERS,
) -> FleetReport:
    """Push every target's site in parallel, then verify pairs pushed together.

    Each site is rendered once (unless ``options.rendered`` has it already); the lint gate runs
    once for all sites on those texts, not per router. Sites in the run are ``together``: a
    single-trunk migration may go ahead when its peers are among them.
    """
    rendered = dict(options.rendered or {})
    for name in targets:
        if name not in rendered:
            rendered[name] = render_site(fleet, name)
    readings = options.readings if options.readings is not None else Readings()
    blocked: dict[str, str] = {}
    if options.lint_gate:  # each text read once: for the gate, and the plan when it has no secret
        trees = {name: read_rendering(readings, name, rendered[name]) for name in targets}
        blocked = lint_gate(fleet, list(targets), rendered, trees)
    allowed = {name: target for name, target in targets.items() if name not in blocked}
    per_router = replace(
        options,
        lint_gate=False,
        rendered=rendered,
        readings=readings,
        together=frozenset(targets) | frozenset(options.together),
    )
    if not options.dry_run and len(targets) > 1:
        refused = _preflight(fleet, allowed, credentials, per_router, workers)
        refused.update(
            {
                name: PushResult(name, Status.REFUSED, f"not pushed: {why}")
                for name, why in blocked.items()
            }
        )
        if refused:
            return FleetReport(tuple(_held(name, refused) for name in targets))
    outcome = _run(allowed, fleet, credentials, per_router, workers)
    results = tuple(
        PushResult(name, Status.REFUSED, f"not pushed: {blocked[name]}")
        if name in blocked
        else _result_of(name, outcome[name])
        for name in targets
    )
    if options.dry_run:
        return FleetReport(results)
    report = _verified(FleetReport(results), fleet, targets, credentials, options, workers)
    return _protect_pairs(fleet, report, targets, credentials, options, workers)


def _run(
    targets: Mapping[str, Target],
    fleet: Fleet,
    credentials: Credentials,
    options: PushOptions,
    workers: int,
) -> Mapping[str, Sequence[object]]:
    """``l2tpgen_push`` on every target in parallel (Nornir's threaded runner)."""
    if not targets:
        return {}
    return build_nornir(targets, credentials, workers).run(
        task=l2tpgen_push, fleet=fleet, options=options, credentials=credentials, on_failed=True
    )


def _preflight(
    fleet: Fleet,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: PushOptions,
    workers: int,
) -> dict[str, PushResult]:
    """Every router read, planned and checked before any changes: the ones that would not go.

    A fleet push is all-or-nothing before its first line: a router refused here (ownership, a
    foreign crypto map, a lone migration, a pending revert timer, another session's lock, not
    reached) keeps every other router of the run unchanged too, so a pair is never half changed
    because one end could not be.
    """
    checked = replace(options, preflight=True)
    outcome = _run(targets, fleet, credentials, checked, workers)
    results = [_result_of(name, outcome[name]) for name in targets]
    return {r.site: r for r in results if r.status not in {Status.WOULD_CHANGE, Status.UNCHANGED}}


def _held(name: str, refused: Mapping[str, PushResult]) -> PushResult:
    """This router's result when the run ended before any change (its own, or the others')."""
    if name in refused:
        return refused[name]
    if any(r.status is Status.STOPPED for r in refused.values()):
        return PushResult(name, Status.STOPPED, "stopped before any change")
    others = ", ".join(sorted(refused))
    return PushResult(
        name,
        Status.REFUSED,
        f"not pushed: {others} would be refused (see {'its' if len(refused) == 1 else 'their'} "
        "result), and a fleet push changes every router or none before its first line; fix "
        "that, then push them together again",
    )


def _verified(  # noqa: PLR0917 - the run's pieces, as push_fleet has them
    report: FleetReport,
    fleet: Fleet,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: PushOptions,
    workers: int,
) -> FleetReport:
    """The report with the pairs read back now (both ends of each pair pushed together).

    Rolled-back ends are read too: their state is what the user needs.
    """
    to_verify = {name: targets[name] for name in sorted(_paired_sites(fleet, set(targets)))}
    for name in to_verify:
        options.tell(name, "verifying the pair")
    states, errors = verify_fleet(fleet, to_verify, credentials, workers)
    return replace(report, pairs=tuple(_pairs(states, fleet)), verify_errors=tuple(errors))


_NOT_CHANGED = frozenset(
    {Status.ROLLED_BACK, Status.ROLLBACK_FAILED, Status.REFUSED, Status.FAILED, Status.STOPPED}
)


def _protect_pairs(  # noqa: PLR0917 - the run's pieces, as push_fleet has them
    fleet: Fleet,
    report: FleetReport,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: PushOptions,
    workers: int,
) -> FleetReport:
    """Roll back an end whose protection changed while its peer in the run did not change.

    Adding (or removing) IPsec at one end of a pair takes its pseudowires down until the other
    end has the same change (``outage.PAIR_OUTAGE``): a pair is never left half-protected, with or
    without ``--rollback-pairs``. An end whose peer in the run could not be reached (it was at the
    preflight, and went away before its change) is rolled back too: an unreachable router holds
    the other end of its pairs back.
    """
    failed = {r.site for r in report.results if r.status in _NOT_CHANGED}
    half = {
        r.site
        for r in report.results
        if pair_outage(r.notes) and {pw.peer.name for pw in fleet.pseudowires(r.site)} & failed
    }
    if half:
        report = roll_back_pairs(
            fleet,
            report,
            targets,
            credentials,
            options,
            workers=workers,
            failed=failed,
            only=half,
            why="its IPsec would not match its peer's (a pair is never left half-protected)",
        )
    gone = {r.site for r in report.results if not r.reached}
    alone = {
        r.site for r in report.results if {pw.peer.name for pw in fleet.pseudowires(r.site)} & gone
    }
    if not alone:
        return report
    return roll_back_pairs(
        fleet,
        report,
        targets,
        credentials,
        options,
        workers=workers,
        failed=gone,
        only=alone,
        why="a router of the pair could not be reached, and a pair is changed at both ends or "
        "at neither",
    )


def roll_back_pairs(
    fleet: Fleet,
    report: FleetReport,
    targets: Mapping[str, Target],
    credentials: Credentials,
    options: PushOptions,
    *,
    workers: int = DEFAULT_WORKERS,
    failed: Collection[str] | None = None,
    only: Collection[str] | None = None,
    why: str = "--rollback-pairs",
) -> FleetReport:
    """Roll back every changed site whose peer in the same run was rolled back (or failed to be).

    One end rolled back and the other changed leaves both ends' pseudowires down; the copy each
    push saved (on the router and locally) takes the changed end back too. A change that had been
    saved is saved again once rolled back, so a reload does not bring it back. When an end was
    rolled back here, the pairs are read again: the summary shows the state each router is left
    in, not the one before this rollback.
    """
    if failed is None:
        failed = {
            r.site
            for r in report.results
            if r.status in {Status.ROLLED_BACK, Status.ROLLBACK_FAILED}
        }
    results = []
    for result in report.results:
        peers = {pw.peer.name for pw in fleet.pseudowires(result.site)}
        partners = sorted(peers & set(failed))
        changed = result.status in {Status.CHANGED, Status.UNSAVED}
        chosen = only is None or result.site in only
        if not partners or not changed or not chosen or result.rollback_file is None:
            results.append(result)
            continue
        options.tell(result.site, "rolling back (its pair was rolled back)")
        local = options.state_dir.expanduser() / "rollback" / result.rollback_file.split(":", 1)[1]
        saved = result.status is Status.CHANGED and options.save
        command = driver(fleet.site(result.site).effective_platform).save_command
        status, outcome = restore(
            targets[result.site],
            credentials,
            result.rollback_file,
            local,
            save_command=(command or "write memory") if saved else None,
            edits=touched(result.commands),
        )
        reason = (
            f"{', '.join(partners)} rolled back, so this end was too ({why})"
            if only is None
            else f"{', '.join(partners)} did not change, so this end was rolled back: {why}"
        )
        results.append(replace(result, status=status, message=f"{reason}: {outcome}"))
    rolled = replace(report, results=tuple(results))
    if rolled.results == report.results:
        return report
    return _verified(rolled, fleet, targets, credentials, options, workers)


def _result_of(name: str, multi: Sequence[object]) -> PushResult:
    result = multi[0]
    value = getattr(result, "result", None)
    if isinstance(value, PushResult):
        return value
    exception = getattr(result, "exception", None)
    message = _one_line(exception) if exception is not None else "no result"
    return PushResult(name, Status.FAILED, message)


def _paired_sites(fleet: Fleet, pushed: set[str]) -> set[str]:
    """Sites pushed together with at least one of their peers (a kept port's peer too)."""
    return {
        name
        for name in pushed
        if any(pw.peer.name in pushed for pw in fleet.pseudowires(name))
        or ((port := fleet.kept_port(name)) is not None and port.peer.name in pushed)
    }


def _pairs(states: Sequence[PseudowireState], fleet: Fleet) -> list[PairState]:
    by_end = {(s.site, s.vlan, s.port): s for s in states}
    pairs = []
    for state in states:
        kept = fleet.site(state.site).kept_port
        peer = (
            kept.peer
            if state.port and kept is not None
            else next(
                pw.peer.name for pw in fleet.pseudowires(state.site) if pw.vlan.id == state.vlan
            )
        )
        other = by_end.get((peer, state.vlan, state.port))
        if other is None or peer < state.site:
            continue
        pairs.append(
            PairState(
                state.site, peer, state.vlan, state.vc_id, state.state, other.state, state.port
            )
        )
    return pairs
