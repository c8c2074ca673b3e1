"""A newcomer's first day, end to end: a new directory, three site files, and the documented
commands, from validate to a verified push on simulated routers (issue 36 item 7).

The commands are the README's and docs/push.md's "Rehearse against simulated routers", run in
the new directory as a user would: no --sites (./sites is the default), `sim up -d
--inventory-out sim.json` (the simulator's inventory and known_hosts written there), `push --all
--yes --inventory sim.json`, `verify --all --inventory sim.json`, `sim down`. No option a
newcomer would not find in those two pages; the environment holds the login and the l2tp-class
secret, as docs/push.md's first line exports them (and a state directory of the test's own).
Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from conftest_sim import cli_env, run_cli

if TYPE_CHECKING:
    from pathlib import Path

_SITE = """\
name: {name}
hostname: {name}-rtr1
management: {{host: {management}}}
wan: {{interface: GigabitEthernet0/1, address: {wan}/28, gateway: {gateway}}}
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: fleet, secret_env: L2TPGEN_L2TP_SECRET}}
pseudowire_class: {{name: ethernet}}
peers: [{peers}]
vlans:
{vlans}
"""

# hq stretches VLANs 100 and 101 to branch-1 and VLAN 200 to branch-2 (documentation and private
# addresses: nothing connects to them, the simulator answers for each router on 127.0.0.1).
_FLEET = {
    "hq": (
        "192.0.2.51",
        "10.20.0.2",
        "10.20.0.1",
        {100: "branch-1", 101: "branch-1", 200: "branch-2"},
    ),
    "branch-1": ("192.0.2.52", "10.20.1.2", "10.20.1.1", {100: "hq", 101: "hq"}),
    "branch-2": ("192.0.2.53", "10.20.2.2", "10.20.2.1", {200: "hq"}),
}


def _write_sites(directory: Path) -> None:
    (directory / "sites").mkdir(parents=True)
    for name, (management, wan, gateway, vlans) in _FLEET.items():
        lines = [
            f"  - {{id: {vlan}, name: vlan-{vlan}, peer: {peer}}}" for vlan, peer in vlans.items()
        ]
        text = _SITE.format(
            name=name,
            management=management,
            wan=wan,
            gateway=gateway,
            peers=", ".join(sorted(set(vlans.values()))),
            vlans="\n".join(lines),
        )
        (directory / "sites" / f"{name}.yaml").write_text(text)


def test_a_new_fleet_of_three_sites_validated_rendered_simulated_pushed_and_verified(
    tmp_path: Path,
) -> None:
    fleet = tmp_path / "my-fleet"
    _write_sites(fleet)
    env = cli_env(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        done = run_cli(*args, env=env, cwd=fleet)
        return done.returncode, done.stdout, done.stderr

    code, out, err = run("validate")
    assert code == 0, out + err
    assert out.startswith("ok: 3 sites, 3 pseudowires, no problems")
    code, out, err = run("lint")
    assert code == 0, out + err  # information only (tunnels from the WAN interface)
    code, out, err = run("render", "hq")
    assert code == 0, err
    assert "xconnect 10.20.1.2 100 encapsulation l2tpv3 pw-class ethernet" in out

    code, out, err = run("sim", "up", "-d", "--inventory-out", "sim.json")
    assert code == 0, out + err
    try:
        code, out, err = run("push", "--all", "--yes", "--inventory", "sim.json")
        assert code == 0, out + err
        assert "pairs verified: 3 pseudowires up at both ends" in out
        assert out.strip().splitlines()[-1].startswith("3 ok (3 changed), 0 failed in ")
        code, out, err = run("verify", "--all", "--inventory", "sim.json", "--format", "json")
        assert code == 0, out + err
        rows = json.loads(out)["pseudowires"]
        assert sorted((row["site"], row["vlan"], row["state"]) for row in rows) == [
            ("branch-1", 100, "UP"),
            ("branch-1", 101, "UP"),
            ("branch-2", 200, "UP"),
            ("hq", 100, "UP"),
            ("hq", 101, "UP"),
            ("hq", 200, "UP"),
        ]
        code, out, err = run("push", "--all", "--yes", "--inventory", "sim.json")
        assert code == 0, out + err
        assert out.strip().splitlines()[-1].startswith("3 ok (3 unchanged), 0 failed in ")
    finally:
        code, out, err = run("sim", "down")
    assert code == 0, out + err
    assert "simulated routers stopped" in err
