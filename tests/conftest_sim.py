"""A lab of simulated routers for end-to-end tests: real SSH on 127.0.0.1, netmiko unmodified."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, final

import pytest
from conftest import SITES

from l2tpgen import load_fleet
from l2tpgen.device.connection import connect
from l2tpgen.device.credentials import Credentials as Login
from l2tpgen.device.inventory import Target
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim import Credentials, Faults, SimDevice, SimFleet, SimSpec
from l2tpgen.sim.flavor import IOS, Flavor

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from pathlib import Path
    from types import TracebackType

    from l2tpgen.model import Fleet

# Unique per run, so a test can search every output for them.
USERNAME = "l2tpgen-test"
PASSWORD = "pw-" + secrets.token_hex(8)
L2TP_SECRET = "l2tp-" + secrets.token_hex(8)
IKE_PSK = "psk-" + secrets.token_hex(8)
# The routers' random choices, made repeatable: with this seed the first routers' type 7 salts are
# 12 and 13, neither the renderer's (so an unchanged secret must be recognised under another salt).
SEED = 0


@dataclass
class Lab:
    """Simulated routers for the example fleet, and the inventory that reaches them."""

    fleet: Fleet
    sim: SimFleet
    inventory: Path
    directory: Path

    def device(self, name: str) -> SimDevice:
        return self.sim.devices[name]

    def running(self, name: str) -> str:
        return self.device(name).router.running.body()

    def connect(self, name: str) -> Any:  # noqa: ANN401 - netmiko's connection is untyped
        """A netmiko session to one router, as push and verify open them."""
        device = self.device(name)
        known = self.inventory.with_name(self.inventory.name + ".known_hosts")
        flavor = device.router.flavor
        target = Target(name, "127.0.0.1", device.port, flavor.device_type, known)
        return connect(target, Login(USERNAME, PASSWORD))


def start_lab(
    directory: Path,
    faults: dict[str, Faults] | None = None,
    sites: Path = SITES,
    flavor: Flavor = IOS,
    configs: Mapping[str, str] | None = None,
) -> Lab:
    """Start a router per Cisco site of ``sites``, each with its base config or ``configs``'s."""
    fleet = load_fleet(sites)
    sim = SimFleet(Credentials(USERNAME, PASSWORD), seed=SEED)
    for name, site in fleet.sites.items():
        if not site.driver.simulated:
            continue  # as `sim up`: no simulated router for a Linux PE
        config = (configs or {}).get(name) or render_base(fleet, name)
        spec = SimSpec(name, site.hostname, config, flavor=flavor)
        sim.add(spec, (faults or {}).get(name))
    inventory = directory / "inventory.json"
    sim.write_inventory(inventory)
    return Lab(fleet, sim, inventory, directory)


@pytest.fixture
def lab_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", USERNAME)
    monkeypatch.setenv("L2TPGEN_PASSWORD", PASSWORD)
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", L2TP_SECRET)
    monkeypatch.setenv("L2TPGEN_IKE_PSK", IKE_PSK)  # the protected example fleets' IKEv2 key
    monkeypatch.setenv("L2TPGEN_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("L2TPGEN_ENABLE_SECRET", raising=False)


@pytest.fixture
def lab(tmp_path: Path, lab_env: None) -> Iterator[Lab]:  # noqa: ARG001 - needs the environment
    started = start_lab(tmp_path)
    yield started
    started.sim.close()


@pytest.fixture
def new_lab(tmp_path: Path, lab_env: None) -> Iterator[Callable[..., Lab]]:  # noqa: ARG001
    """Start labs (``start_lab``'s arguments, the directory aside); all are stopped afterwards."""
    started: list[Lab] = []

    def start(**kwargs: Any) -> Lab:  # noqa: ANN401 - start_lab's keyword arguments
        directory = tmp_path / f"lab-{len(started)}"
        directory.mkdir()
        started.append(start_lab(directory, **kwargs))
        return started[-1]

    yield start
    for lab in started:
        lab.sim.close()


def cli_env(tmp_path: Path) -> dict[str, str]:
    """What a user's shell gives l2tpgen: the login, the L2TP secret, a state directory."""
    return {
        **os.environ,
        "L2TPGEN_USERNAME": USERNAME,
        "L2TPGEN_PASSWORD": PASSWORD,
        "L2TPGEN_L2TP_SECRET": L2TP_SECRET,
        "L2TPGEN_IKE_PSK": IKE_PSK,
        "L2TPGEN_STATE_DIR": str(tmp_path / "state"),
    }


def run_cli(
    *args: str, env: Mapping[str, str], cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``l2tpgen ARGS`` in its own process (in ``cwd``), as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "l2tpgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def dry_run_results(
    sites: Path, inventory: Path, env: Mapping[str, str], names: Iterable[str]
) -> list[dict[str, Any]]:
    """``push NAMES --dry-run --format json`` against ``inventory``: its per-router results."""
    result = run_cli(
        "push", *names, "--dry-run", "--sites", str(sites), "--inventory", str(inventory),
        "--format", "json", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return list(json.loads(result.stdout)["results"])


def sim_cli(
    state: Path, *args: str, cwd: Path | None = None, name: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``l2tpgen ARGS`` in its own process (in ``cwd``) with ``state`` its state directory, logged
    in as admin / lab-only, for the simulator ``name`` (L2TPGEN_SIM_NAME; unset unless given)."""
    env = {
        **os.environ,
        "L2TPGEN_STATE_DIR": str(state),
        "L2TPGEN_USERNAME": "admin",
        "L2TPGEN_PASSWORD": "lab-only",
        "COLUMNS": "200",
    }
    env.pop("L2TPGEN_SIM_NAME", None)
    if name is not None:
        env["L2TPGEN_SIM_NAME"] = name
    return run_cli(*args, env=env, cwd=cwd, timeout=300)


@final
class SimUp:
    """``l2tpgen sim up --inventory-out INVENTORY ARGS`` in its own process, as a user starts it.

    Entering waits for the whole inventory (``inventory`` then holds it); leaving stops the
    simulator with SIGTERM and keeps its ``returncode``, ``out`` and ``err``.
    """

    def __init__(self, *args: str, inventory: Path, env: Mapping[str, str]) -> None:
        self.path = inventory
        command = ["sim", "up", "--inventory-out", str(inventory), *args]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "l2tpgen", *command],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.inventory: Any = None
        self.returncode: int | None = None
        self.out = self.err = ""

    def __enter__(self) -> SimUp:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                self.inventory = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):  # noqa: PERF203 - not written yet, or not whole yet
                time.sleep(0.1)
            else:
                return self
        self.__exit__(None, None, None)
        pytest.fail(f"sim up wrote no inventory (exit {self.returncode}): {self.err[-2000:]}")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.out, self.err = self.process.communicate(timeout=30)
        self.returncode = self.process.returncode
