"""20 sites pushed in parallel vs one after another, 50 ms per round trip.

Usage: python bench/fleet_bench.py [--sites 20] [--vlans 20] [--latency-ms 50] [--workers 20]

Two sets of simulated routers (each in its own process) start from the same fresh state; one set
is pushed with one worker, the other with --workers, through the same code path (Nornir, then the
pairs verified). Goal: sequential / parallel at least 8x.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import ENV, simulators, timed

from l2tpgen import load_fleet
from l2tpgen.device import Credentials, PushOptions, load_inventory, target_for
from l2tpgen.device.fleet import push_fleet
from l2tpgen.model.generate import write_fleet


def main() -> None:
    """Push the fleet both ways and print the times and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=20)
    parser.add_argument("--vlans", type=int, default=20)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--workers", type=int, default=20)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    sites = work / "sites"
    write_fleet(sites, args.sites, args.vlans)
    fleet = load_fleet(sites)
    credentials = Credentials(ENV["L2TPGEN_USERNAME"], ENV["L2TPGEN_PASSWORD"])
    options = PushOptions(state_dir=work / "state")
    print(f"{args.sites} sites x {args.vlans} VLANs, {args.latency_ms:g} ms per CLI round trip")
    times = {}
    for label, workers in (
        ("one after another", 1),
        (f"in parallel ({args.workers})", args.workers),
    ):
        inventory = work / f"inventory-{workers}.json"
        with simulators(sites, inventory, args.latency_ms):
            table = load_inventory(inventory)
            targets = {n: target_for(fleet.site(n), table) for n in fleet.sites}
            seconds, report = timed(
                f"push --all, {label}",
                lambda: push_fleet(fleet, targets, credentials, options, workers),  # noqa: B023
            )
            statuses = {r.status.value for r in report.results}
            up = sum(p.up_both for p in report.pairs)
            print(f"    results: {sorted(statuses)}, pseudowires up at both ends: {up}")
            times[workers] = seconds
    print(
        f"ratio sequential / parallel: {times[1] / times[args.workers]:5.1f}x   (goal: at least 8x)"
    )


if __name__ == "__main__":
    main()
