"""l2tpgen push vs a plain netmiko push, on a 200-VLAN site, 50 ms per round trip.

Usage: python bench/push_bench.py [--vlans 200] [--latency-ms 50]

Measured side by side in one run against simulated routers (their own process) whose every CLI
response is delayed by the latency (the SSH handshake is not):
  A. plain netmiko: ConnectHandler + send_config_set(full rendered config), default settings;
  B. l2tpgen push of the same config to a fresh router (first-time push);
  C. l2tpgen push after one VLAN changed in the model.
Goal: A / C at least 20x. Plain netmiko has no diff, so A is its cost for any change.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from common import ENV, simulators, timed
from netmiko import ConnectHandler

from l2tpgen import load_fleet, render_site
from l2tpgen.device import Credentials, PushOptions, load_inventory, push_site, target_for
from l2tpgen.model.generate import write_fleet


def main() -> None:
    """Run A, B and C and print their times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vlans", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    sites = work / "sites"
    write_fleet(sites, 2, args.vlans)
    inventory = work / "inventory.json"
    credentials = Credentials(ENV["L2TPGEN_USERNAME"], ENV["L2TPGEN_PASSWORD"])
    options = PushOptions(state_dir=work / "state")
    print(f"{args.vlans}-VLAN site, {args.latency_ms:g} ms per CLI round trip")
    with simulators(sites, inventory, args.latency_ms):
        fleet = load_fleet(sites)
        table = load_inventory(inventory)
        rendered = render_site(fleet, "site-0", reveal_secrets=True)
        lines = [line for line in rendered.splitlines() if line and not line.startswith("!")]
        entry = json.loads(inventory.read_text())["sites"]["site-0"]

        def plain_netmiko() -> str:
            connection = ConnectHandler(
                device_type="cisco_ios",
                host=entry["host"],
                port=entry["port"],
                username=credentials.username,
                password=credentials.password,
            )
            output = str(connection.send_config_set(lines))
            connection.disconnect()
            return output

        a, _ = timed(f"A. plain netmiko send_config_set, {len(lines)} lines", plain_netmiko)
        target = target_for(fleet.site("site-1"), table)
        b, first = timed(
            "B. l2tpgen push, first time (fresh router)",
            lambda: push_site(fleet, "site-1", target, credentials, options),
        )
        (sites / "site-0.yaml").write_text(
            (sites / "site-0.yaml")
            .read_text()
            .replace("{id: 150, name: v150,", "{id: 150, name: v150, vc_id: 9150,")
        )
        (sites / "site-1.yaml").write_text(
            (sites / "site-1.yaml")
            .read_text()
            .replace("{id: 150, name: v150,", "{id: 150, name: v150, vc_id: 9150,")
        )
        changed_fleet = load_fleet(sites)
        c, again = timed(
            "C. l2tpgen push, one VLAN's VC ID changed",
            lambda: push_site(changed_fleet, "site-1", target, credentials, options),
        )
    print(
        f"  B sent {first.lines_sent} lines ({first.status.value}); "
        f"C sent {again.lines_sent} lines ({again.status.value})"
    )
    print(f"ratio A / C (one VLAN changed): {a / c:6.1f}x   (goal: at least 20x)")
    print(f"ratio A / B (first-time push):  {a / b:6.1f}x")


if __name__ == "__main__":
    main()
