"""The simulator's revert timer: IOS's Configuration Rollback Confirmed Change, as documented.

Cisco, IOS XE 17.x System Management Configuration Guide, "Configuration Rollback Confirmed
Change",
https://www.cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-rollback-confirmed-change.html:
"If no confirmation is entered within the requested time limit, the configuration reverts to its
previous state"; "You must configure a configuration archive before performing this procedure".
The texts ``%Please turn config archive on`` and ``No Rollback Confirmed Change pending`` are the
ones napalm's IOS driver (napalm/ios/ios.py) looks for. The router's clock is driven by the test.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from conftest import SITES
from conftest_sim import SimUp, cli_env, run_cli

from l2tpgen.sim import Credentials, Router, SimFleet, SimSpec

if TYPE_CHECKING:
    from pathlib import Path

BASE = "hostname r1\ninterface GigabitEthernet0/0\n ip address 192.0.2.1 255.255.255.0\n"
ARCHIVE = "archive\n path flash:archived-config\n"


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def router(config: str = BASE + ARCHIVE) -> tuple[Router, Clock]:
    r = Router("r1")
    assert r.load(config) == []
    clock = Clock()
    r.clock = clock
    return r, clock


def change(r: Router, minutes: int = 2) -> str:
    """A change typed under a revert timer; what entering configuration mode printed."""
    said = r.handle(f"configure terminal revert timer {minutes}")
    r.handle("hostname r2")
    r.handle("end")
    return said


def test_an_unconfirmed_change_reverts_when_its_timer_runs_out_and_not_a_moment_before() -> None:
    r, clock = router()
    before = r.running.body()
    change(r, minutes=2)
    changed = r.running.body()
    assert "hostname r2" in changed

    clock.now += 2 * 60 - 1
    r.tick()
    assert r.running.body() == changed

    clock.now += 1
    assert r.prompt() == "r2#"  # nothing fires until the router is asked something
    r.handle("show running-config")
    assert r.running.body() == before
    assert r.handle("show archive config rollback timer") == "%No Rollback Confirmed Change pending"


def test_a_confirmed_change_stays_after_its_timer_would_have_run_out() -> None:
    r, clock = router()
    change(r, minutes=2)
    assert "Timer value: 2 min" in r.handle("show archive config rollback timer")

    clock.now += 60
    assert r.handle("configure confirm") == ""
    clock.now += 3600
    r.tick()

    assert "hostname r2" in r.running.body()
    assert r.handle("show archive config rollback timer") == "%No Rollback Confirmed Change pending"


def test_without_an_archive_path_the_timer_is_refused_and_configuration_mode_not_entered() -> None:
    r, _ = router(BASE)
    said = r.handle("configure terminal revert timer 5")
    assert said == "%Please turn config archive on"
    assert r.prompt() == "r1#"


def test_configure_revert_now_goes_back_at_once() -> None:
    r, _ = router()
    before = r.running.body()
    change(r)
    r.handle("configure revert now")
    assert r.running.body() == before


def test_a_change_made_after_the_timer_started_goes_too_when_it_reverts() -> None:
    """The whole config returns to the state at the timer's start, other sessions' lines too."""
    r, clock = router()
    before = r.running.body()
    change(r, minutes=1)
    r.load("interface Loopback9\n description typed elsewhere\n")
    clock.now += 61
    r.tick()
    assert r.running.body() == before


def test_a_fleet_router_counts_its_revert_minutes_in_the_seconds_its_spec_gives() -> None:
    sim = SimFleet(Credentials("u", "p"))
    try:
        sim.add(SimSpec("r1", "r1", BASE + ARCHIVE, minute=0.001))
        r = sim.devices["r1"].router
        before = r.running.body()
        change(r, minutes=1)  # one minute: a millisecond here
        time.sleep(0.01)  # ten times that: the timer has run out, however slow the machine
        r.tick()
        assert r.running.body() == before
    finally:
        sim.close()


def test_sim_up_archive_gives_routers_what_a_timed_push_needs(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    inventory = tmp_path / "sim.json"
    with SimUp("--sites", str(SITES), "--archive", inventory=inventory, env=env):
        pushed = run_cli(
            "push",
            "site-a",
            "--sites",
            str(SITES),
            "--inventory",
            str(inventory),
            "--confirm-within",
            "30",
            "--yes",
            env=env,
        )
        confirmed = run_cli(
            "confirm", "site-a", "--sites", str(SITES), "--inventory", str(inventory), env=env
        )
    assert pushed.returncode == 0, pushed.stderr
    assert "unconfirmed: reverts at" in pushed.stdout
    assert confirmed.returncode == 0, confirmed.stderr
    assert "confirmed and saved" in confirmed.stdout
