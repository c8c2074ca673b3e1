"""l2tpgen push vs what a competent engineer would write with netmiko, and vs the physical floor.

Usage: python bench/push_bench.py [--latency-ms 50] [--runs 5] [--vlans 1]

Simulated routers run in their own process (``l2tpgen sim up``); every CLI response is delayed by
the latency (the SSH handshake is not). The change is one VLAN added to a site (its subinterface
and xconnect). Measured side by side, alternating, on the same router brought back to the same
state before each run (untimed):

  A. competent netmiko: ``ConnectHandler`` (netmiko's defaults), ``show running-config``,
     hier_config's remediation from running to the rendered config (only the sections the
     rendered config holds: nothing else is removed), ``send_config_set`` of it, ``save_config``,
     ``disconnect``. No rollback copy, no check after: less work than l2tpgen does.
  B. ``push_site``: read, rollback copy, change, check, save (and the lint gate, the plan).

The floor is four round trips (read; copy; change and read back; save) at the latency: no tool
doing that work can beat it. Goals (issue 11): A / B at least 3x; B / floor at most 2x.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from common import ENV, simulators
from hier_config import Platform, WorkflowRemediation, get_hconfig
from netmiko import ConnectHandler

from l2tpgen import load_fleet, render_site
from l2tpgen.device import Credentials, PushOptions, load_inventory, push_site, target_for
from l2tpgen.model.generate import write_fleet

SITE = "site-0"


def _competent(entry: dict[str, object], credentials: Credentials, rendered: str) -> int:
    """What a competent engineer writes: diff with hier_config, send the diff, save."""
    connection = ConnectHandler(
        device_type="cisco_ios",
        host=entry["host"],
        port=entry["port"],
        username=credentials.username,
        password=credentials.password,
    )
    running = str(connection.send_command("show running-config"))
    intended = get_hconfig(Platform.CISCO_IOS, rendered)
    remediation = WorkflowRemediation(
        get_hconfig(Platform.CISCO_IOS, running), intended
    ).remediation_config
    # Only what the rendered config holds: a competent engineer does not let the diff remove
    # everything else on the router.
    lines = _lines(remediation, {child.text for child in intended.children})
    if lines:
        connection.send_config_set(lines)
        connection.save_config()
    connection.disconnect()
    return len(lines)


def _lines(remediation: object, wanted: set[str]) -> list[str]:
    out: list[str] = []

    def walk(node: object, depth: int) -> None:
        for child in node.children:  # type: ignore[attr-defined]
            out.append(" " * depth + child.text)
            walk(child, depth + 1)

    for child in remediation.children:  # type: ignore[attr-defined]
        if child.text in wanted:
            out.append(child.text)
            walk(child, 1)
    return out


def main() -> None:
    """Measure A and B alternately and print their medians and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vlans", type=int, default=1, help="VLANs the site has before")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    before_dir, after_dir = work / "before", work / "after"
    write_fleet(before_dir, 2, args.vlans)
    write_fleet(after_dir, 2, args.vlans + 1)
    inventory = work / "inventory.json"
    credentials = Credentials(ENV["L2TPGEN_USERNAME"], ENV["L2TPGEN_PASSWORD"])
    options = PushOptions(state_dir=work / "state")
    latency = args.latency_ms / 1000
    floor = 4 * latency
    print(f"one VLAN added to a {args.vlans}-VLAN site, {args.latency_ms:g} ms per CLI response")
    with simulators(before_dir, inventory, args.latency_ms):
        before, after = load_fleet(before_dir), load_fleet(after_dir)
        table = load_inventory(inventory)
        target = target_for(before.site(SITE), table)
        entry = json.loads(inventory.read_text())["sites"][SITE]
        rendered = render_site(after, SITE, reveal_secrets=True)
        competent: list[float] = []
        ours: list[float] = []
        for _ in range(args.runs):
            for label, runs in (("A", competent), ("B", ours)):
                reset = push_site(before, SITE, target, credentials, options)
                if reset.status.value not in {"changed", "unchanged"}:
                    raise SystemExit(f"could not reset the router: {reset.message}")
                start = time.perf_counter()
                if label == "A":
                    sent = _competent(entry, credentials, rendered)
                    status = f"{sent} lines"
                else:
                    result = push_site(after, SITE, target, credentials, options)
                    status = f"{result.lines_sent} lines, {result.status.value}"
                runs.append(time.perf_counter() - start)
                print(f"  {label}: {runs[-1]:6.3f} s ({status})", flush=True)
    a, b = statistics.median(competent), statistics.median(ours)
    print(f"A. competent netmiko (hier_config diff, send_config_set, save): median {a:.3f} s")
    print(f"B. l2tpgen push (copy, change, check, save):                    median {b:.3f} s")
    print(f"floor: 4 round trips at {args.latency_ms:g} ms:                        {floor:.3f} s")
    print(f"ratio competent netmiko / l2tpgen: {a / b:.2f}x   (goal: at least 3x)")
    if floor:
        print(f"ratio l2tpgen / floor: {b / floor:.2f}x   (goal: at most 2x)")


if __name__ == "__main__":
    main()
