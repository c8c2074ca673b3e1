"""A changed inbound filter on a router with many other pseudowires: push's time, and a floor.

Usage: python bench/filter_bench.py [--peers 2000] [--latency-ms 0] [--runs 3]

Issue 33: push reads the router's other pseudowire peers and admits them in ``l2tpgen-wan-in``,
editing the applied list by sequence number. The example hub (``examples/hub``) runs on a
simulated router (``l2tpgen sim up --config``) whose running config holds its rendering with the
filter l2tpgen rendered before issue 33 (so the filter changes) and ``--peers`` xconnects of
someone else's, each to its own peer. Measured side by side, alternating, best of ``--runs``:

  P. the plan alone (``plan_change``, in this process, from the running config read once);
  H. the same plan with hier_config also reading the access lists, as before issue 33 (its IOS
     driver numbers every entry of a list as it loads it, quadratically: the hot spot found
     with cProfile, ``_add_acl_sequence_numbers``);
  D. ``push --dry-run`` (``push_site`` with ``dry_run``): connect, read, lint gate, plan;
  F. the floor: connect and read ``show running-config`` (what any tool must do before knowing
     what to change).
  W. ``push`` for real (once, last: copy, change, check, save), with the lines it sent.

Goal (issue 33): W under 60 s with 2000 peers; D / F is what push adds to reading the router.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from common import ENV, best_alternating
from netmiko import ConnectHandler

from l2tpgen import load_fleet, render_site
from l2tpgen.device import Credentials, PushOptions, load_inventory, push_site, target_for
from l2tpgen.device import plan as plan_module
from l2tpgen.device.plan import plan_change

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.device.inventory import Target
    from l2tpgen.model import Fleet

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
SITE = "hub"
HEADER = "ip access-list extended l2tpgen-wan-in"
LEGACY = (
    " permit 115 host 10.255.0.2 host 10.255.0.1\n"
    " permit esp host 10.255.0.2 host 10.255.0.1\n"
    " permit udp host 10.255.0.2 host 10.255.0.1 eq 500\n"
    " permit udp host 10.255.0.2 host 10.255.0.1 eq 4500\n"
    " permit 115 host 10.255.0.3 host 10.255.0.1\n"
    " deny 115 any any\n deny esp any any\n deny udp any any eq 500\n"
    " deny udp any any eq 4500\n permit ip any any\n"
)


def running_config(intended: str, peers: int) -> str:
    """The hub's rendering, the pre-issue-33 filter, and ``peers`` pseudowires of someone else."""
    start = intended.index(f"{HEADER}\n") + len(HEADER) + 1
    end = intended.index("!", start)
    theirs = ["pseudowire-class THEIRS\n encapsulation l2tpv3\n ip local interface Loopback0\n!\n"]
    theirs += [
        f"interface GigabitEthernet0/0/2.{100 + i}\n encapsulation dot1Q {100 + i}\n"
        f" xconnect 198.18.{i // 250}.{i % 250 + 1} {5000 + i} encapsulation l2tpv3"
        " pw-class THEIRS\n!\n"
        for i in range(peers)
    ]
    body = intended[:start] + LEGACY + intended[end:]
    return body.replace("\nend\n", "\n") + "".join(theirs) + "end\n"


@contextmanager
def simulator(sites: Path, config: Path, inventory: Path, latency_ms: float) -> Iterator[None]:
    """``l2tpgen sim up --config`` in a child process (its own interpreter, its own GIL)."""
    child = subprocess.Popen(  # noqa: S603 - our own interpreter running our own module
        [
            *(sys.executable, "-m", "l2tpgen", "sim", "up", "--sites", str(sites)),
            *("--config", f"{SITE}={config}", "--inventory-out", str(inventory)),
            *("--latency-ms", str(latency_ms)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **ENV},
    )
    try:
        deadline = time.monotonic() + 300
        while not inventory.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the simulated router did not start")
            time.sleep(0.2)
        yield
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)


@dataclass(frozen=True)
class Case:
    """What every measured call needs."""

    fleet: Fleet
    running: str
    intended: str
    target: Target
    credentials: Credentials
    entry: dict[str, Any]
    state: Path

    def plan(self) -> object:
        """P: the plan alone."""
        return plan_change(self.fleet.site(SITE), self.running, self.intended)

    def plan_with_acls(self) -> object:
        """H: the plan as before the fix, hier_config reading the lists."""
        keep = plan_module._without_acls  # noqa: SLF001 - the hot spot, undone for a figure
        plan_module._without_acls = lambda text: text  # noqa: SLF001
        try:
            return self.plan()
        finally:
            plan_module._without_acls = keep  # noqa: SLF001

    def dry_run(self) -> object:
        """D: push --dry-run."""
        options = PushOptions(dry_run=True, state_dir=self.state)
        result = push_site(self.fleet, SITE, self.target, self.credentials, options)
        if result.status.value not in {"would-change", "changed"}:
            raise SystemExit(f"dry run: {result.status.value}: {result.message}")
        return result

    def floor(self) -> object:
        """F: connect and read the running config."""
        connection = ConnectHandler(
            device_type="cisco_ios",
            host=self.entry["host"],
            port=self.entry["port"],
            username=self.credentials.username,
            password=self.credentials.password,
        )
        text = connection.send_command("show running-config", read_timeout=120)
        connection.disconnect()
        return text


def main() -> None:
    """Measure P, H, D and F alternately, then W once; print the times and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=int, default=2000)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.update(ENV)
    os.environ.setdefault("L2TPGEN_IKE_PSK", "bench-ike-key-of-some-length-1234")
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    sites = work / "sites"
    shutil.copytree(HUB, sites)
    fleet = load_fleet(sites)
    intended = render_site(fleet, SITE, reveal_secrets=True)
    running = running_config(intended, args.peers)
    config = work / "hub-running.cfg"
    config.write_text(running, encoding="utf-8")
    inventory = work / "inventory.json"
    credentials = Credentials(ENV["L2TPGEN_USERNAME"], ENV["L2TPGEN_PASSWORD"])
    print(
        f"{args.peers} other pseudowires on the hub ({running.count(chr(10))} config lines), "
        f"the filter changed, {args.latency_ms:g} ms per CLI response"
    )
    with simulator(sites, config, inventory, args.latency_ms):
        case = Case(
            fleet,
            running,
            intended,
            target_for(fleet.site(SITE), load_inventory(inventory)),
            credentials,
            json.loads(inventory.read_text())["sites"][SITE],
            work / "state",
        )
        p, h, d, f = best_alternating(
            args.runs, case.plan, case.plan_with_acls, case.dry_run, case.floor
        )
        start = time.perf_counter()
        pushed = push_site(fleet, SITE, case.target, credentials, PushOptions(state_dir=case.state))
        w = time.perf_counter() - start
    print(f"P. plan_change alone:                         {p:8.2f} s")
    print(f"H. the plan, hier_config reading the lists:   {h:8.2f} s   ({h / p:.1f}x P)")
    print(f"D. push --dry-run (connect, read, plan):      {d:8.2f} s")
    print(f"F. floor: connect, show running-config:       {f:8.2f} s")
    print(f"W. push ({pushed.status.value}, {pushed.lines_sent} lines sent):  {w:8.2f} s")
    print(f"ratio D / F: {d / f:.2f}x   W: {w:.1f} s (goal: under 60 s)")


if __name__ == "__main__":
    main()
