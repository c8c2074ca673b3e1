"""A stop (SIGINT, SIGTERM) at any point of a push leaves the router exactly as before or exactly
as intended, and the status, message and exit code say which. Over real SSH against simulated
routers (netmiko unmodified, no mocks).

The stops come at deterministic points: when push reports a phase, when the router has received
its Nth configuration line, when the router has received ``write memory``. A one-chunk change (a
site's first push) and a change over three chunks are stopped at each. Then real signals to a
real process, many of them, from the save on: its exit code is always its report's.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME, Lab, SimUp, cli_env
from push_runs import config_lines, exec_lines

from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.push import PushOptions, push_site
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.session import CHUNK_LINES
from l2tpgen.model.generate import write_fleet

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


@dataclass
class StopAt:
    """A stop request that turns on at one point: a phase, the Nth config line, an exec command."""

    lab: Lab
    site: str
    phase: str | None = None
    lines: int | None = None
    command: str | None = None
    requested: bool = field(default=False, init=False)

    def progress(self, _site: str, phase: str) -> None:
        # a phase is named whole, or by its start when it ends in a space ("sending ")
        wanted = self.phase or "\0"
        if wanted in {phase, *((phase[: len(wanted)],) if wanted[-1:] == " " else ())}:
            self.requested = True

    def __call__(self) -> bool:
        if self.lines is not None and len(config_lines(self.lab, self.site)) >= self.lines:
            self.requested = True
        if self.command is not None and self.command in exec_lines(self.lab, self.site):
            self.requested = True
        return self.requested


def _target(lab: Lab, name: str) -> Target:
    device = lab.device(name)
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    return Target(name, "127.0.0.1", device.port, device.router.flavor.device_type, known)


def _push(lab: Lab, name: str, state: Path, **options: object) -> PushResult:
    return push_site(
        lab.fleet,
        name,
        _target(lab, name),
        Credentials(USERNAME, PASSWORD),
        PushOptions(state_dir=state, environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET}, **options),  # type: ignore[arg-type]
    )


# Where the stop comes, and how the push must end: nothing changed (stopped, exit 1), rolled back
# (exit 3), or changed and saved (exit 0; the save had begun).
ONE_CHUNK = [
    ({"phase": "connecting"}, Status.STOPPED),
    ({"phase": "reading the running config"}, Status.STOPPED),
    ({"phase": "saving a rollback copy"}, Status.STOPPED),
    ({"phase": "sending "}, Status.STOPPED),
    ({"lines": 1}, Status.ROLLED_BACK),
    ({"lines": 12}, Status.ROLLED_BACK),
    ({"lines": 35}, Status.ROLLED_BACK),  # every line of the change (site-a's first push)
    ({"phase": "checking"}, Status.ROLLED_BACK),
    ({"phase": "saving"}, Status.ROLLED_BACK),  # told just before `write memory` is sent
    ({"command": "write memory"}, Status.CHANGED),
]
MANY_CHUNKS = [
    ({"phase": "sending "}, Status.STOPPED),
    ({"lines": 1}, Status.ROLLED_BACK),
    ({"lines": CHUNK_LINES}, Status.ROLLED_BACK),
    ({"lines": CHUNK_LINES + 50}, Status.ROLLED_BACK),
    ({"lines": 2 * CHUNK_LINES + 1}, Status.ROLLED_BACK),
    ({"phase": "checking"}, Status.ROLLED_BACK),
    ({"phase": "saving"}, Status.ROLLED_BACK),
    ({"command": "write memory"}, Status.CHANGED),
]
WORDS = {
    Status.STOPPED: "stopped before any change",
    Status.ROLLED_BACK: "the router is as before",
    Status.CHANGED: "saved; a stop came once the save had begun",
}


def _check(lab: Lab, name: str, state: Path, at: dict[str, object], expected: Status) -> None:
    router = lab.device(name).router
    running, startup = router.running.body(), router.startup.body()
    stop = StopAt(lab, name, **at)  # type: ignore[arg-type]
    result = _push(lab, name, state, stop=stop, progress=stop.progress)
    assert (result.status, result.status.exit_code) == (expected, expected.exit_code), (
        result.message
    )
    assert WORDS[expected] in result.message
    if expected is Status.CHANGED:  # exactly as intended, and saved
        assert router.startup.body() == router.running.body() != running
        again = _push(lab, name, state, dry_run=True)
        assert (again.status, again.message) == (Status.UNCHANGED, "no change needed")
    else:  # exactly as before, running and startup
        assert (router.running.body(), router.startup.body()) == (running, startup)


@pytest.mark.parametrize(("at", "expected"), ONE_CHUNK, ids=[str(a) for a, _ in ONE_CHUNK])
def test_a_stop_during_a_one_chunk_push_leaves_the_router_as_before_or_as_intended(
    new_lab: Callable[..., Lab], tmp_path: Path, at: dict[str, object], expected: Status
) -> None:
    lab = new_lab()
    _check(lab, "site-a", tmp_path / "state", at, expected)


@pytest.mark.parametrize(("at", "expected"), MANY_CHUNKS, ids=[str(a) for a, _ in MANY_CHUNKS])
def test_a_stop_during_a_three_chunk_push_leaves_the_router_as_before_or_as_intended(
    new_lab: Callable[..., Lab], tmp_path: Path, at: dict[str, object], expected: Status
) -> None:
    sites = tmp_path / "big"
    write_fleet(sites, 2, 45)
    lab = new_lab(sites=sites)
    _check(lab, "site-0", tmp_path / "state", at, expected)


# -- real signals to a real process ---------------------------------------------------------------


def _pushing(sites: Path, inventory: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "l2tpgen", "push", "site-a", "--sites", str(sites)),
            *("--inventory", str(inventory), "--yes", "--format", "json"),
        ],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@pytest.mark.parametrize(
    ("phase", "signals", "allowed"),
    [
        # one signal while the only chunk is on its way: never `changed`
        ("site-a: sending ", (signal.SIGINT,), {"rolled-back"}),
        # signals from the save to the exit, every 20 ms: whatever the result, the exit code is
        # the report's (never 130 or 143)
        ("site-a: saving", (signal.SIGTERM,) * 200, {"changed", "rolled-back"}),
        ("site-a: saving", (signal.SIGINT,) * 200, {"changed", "rolled-back"}),
    ],
)
def test_signals_to_a_push_process_end_it_with_the_exit_code_its_report_gives(
    tmp_path: Path, phase: str, signals: tuple[signal.Signals, ...], allowed: set[str]
) -> None:
    inventory = tmp_path / "inventory.json"
    env = cli_env(tmp_path)
    with SimUp("--sites", str(SITES), "--latency-ms", "300", inventory=inventory, env=env):
        pushing = _pushing(SITES, inventory, env)
        assert pushing.stderr is not None
        for line in pushing.stderr:
            if line.strip() == phase or (phase.endswith(" ") and line.startswith(phase)):
                break
        for sig in signals:
            if pushing.poll() is not None:
                break
            pushing.send_signal(sig)
            time.sleep(0.02)
        out, err = pushing.communicate(timeout=120)
    assert out.strip(), f"no report (exit {pushing.returncode}): {err[-2000:]}"
    document = json.loads(out)
    (result,) = document["results"]
    assert result["status"] in allowed, result
    assert pushing.returncode == document["exit_code"] == result["exit_code"], err[-2000:]
