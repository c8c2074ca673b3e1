"""A fleet of simulated routers: one per site, pseudowire state shared, inventory written out."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.sim import type7
from l2tpgen.sim.faults import Faults
from l2tpgen.sim.flavor import IOS, Flavor
from l2tpgen.sim.pseudowires import show_factory
from l2tpgen.sim.router import Router
from l2tpgen.sim.server import Credentials, SimDevice, SimServers

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class SimSpec:
    """What to simulate: a site name, its router's hostname and initial config, what it is.

    ``salt``: the type 7 salt the router stores clear-text secrets with (None: the fleet picks
    one at random per router).
    """

    name: str
    hostname: str
    config: str
    enable_secret: str | None = None
    flavor: Flavor = IOS
    salt: int | None = None
    # Seconds in a minute of the revert timer (``l2tpgen.sim.revert``): shorter to rehearse it.
    minute: float = 60.0


class SimFleet:
    """Simulated routers that see each other's pseudowires, served over SSH on 127.0.0.1.

    ``seed`` makes the routers' random choices (their type 7 salts) repeatable.
    """

    def __init__(self, credentials: Credentials, seed: int | None = None) -> None:
        self.servers = SimServers(credentials)
        self.devices: dict[str, SimDevice] = {}
        self.random = random.Random(seed)  # noqa: S311 - a salt for obfuscation, not a secret

    def add(self, spec: SimSpec, faults: Faults | None = None, port: int = 0) -> SimDevice:
        """Start one router with its initial config; its hardware is the ports that config has.

        Raises:
            ValueError: the simulator refused a line of the initial config.
        """
        faults = faults or Faults()
        router = Router(
            spec.hostname,
            enable_secret=spec.enable_secret,
            show_pseudowires=show_factory(lambda: [d.router for d in self.devices.values()]),
            flavor=spec.flavor,
            salt=self.random.randrange(type7.MAX_SALT + 1) if spec.salt is None else spec.salt,
            minute=spec.minute,
        )
        refused = router.load(spec.config)
        if refused:
            raise ValueError(f"{spec.name}: the simulator refused: {refused[0]}")
        router.startup = router.running.copy()
        router.hardware = {
            line.text.split(" ", 1)[1]
            for line in router.running.lines
            if line.text.startswith("interface ") and "." not in line.text
        }
        router.refuse, router.save_fails = faults.refusing(), faults.refuse_save
        device = SimDevice(spec.name, router, faults=faults)
        self.devices[spec.name] = device
        return self.servers.add(device, port)

    def write_inventory(self, path: Path) -> Path:
        """Write ``path`` (JSON: site -> host, port, device_type, known_hosts) and its known_hosts.

        The known_hosts file sits next to the inventory, named ``<inventory>.known_hosts``; each
        router's device_type is its flavor's (``cisco_ios``, ``cisco_xe``).
        """
        known = path.with_name(path.name + ".known_hosts")
        known.write_text(self.servers.known_hosts(), encoding="utf-8")
        inventory = {
            "sites": {
                name: {
                    "host": self.servers.host,
                    "port": device.port,
                    "device_type": device.router.flavor.device_type,
                    "known_hosts": os.fspath(known.resolve()),
                }
                for name, device in self.devices.items()
            }
        }
        path.write_text(json.dumps(inventory, indent=2) + "\n", encoding="utf-8")
        return known

    def close(self) -> None:
        """Stop every simulated router."""
        self.servers.close()


@dataclass(frozen=True)
class StartConfig:
    """A real running config to start a simulated router from (``sim up --config SITE=FILE``).

    ``text``: the config without the lines the simulator does not take; ``skipped``: those lines,
    each (line number in the text given, the line); a skipped section header takes its lines
    with it.
    """

    text: str
    skipped: tuple[tuple[int, str], ...] = ()


def start_config(text: str) -> StartConfig:
    """Keep what a simulated router takes of ``text`` (IOS-indented, as ``show running-config``).

    The simulator reads it with its own code only: cleaning a pasted or prompted file up (as
    ``import`` does) is the caller's part.
    """
    lines = text.split("\n")
    refused = Router("scratch").load(text)
    kept: list[str] = []
    skipped: list[tuple[int, str]] = []
    in_skipped_section = False
    for number, line in enumerate(lines, 1):
        child = line.startswith(" ")
        is_refused = bool(refused) and line.strip() == refused[0]
        if is_refused:
            refused.pop(0)
        if child and in_skipped_section:
            continue
        in_skipped_section = False
        if is_refused:
            skipped.append((number, line.strip()))
            in_skipped_section = not child
            continue
        kept.append(line)
    return StartConfig("\n".join(kept).rstrip("\n") + "\n", tuple(skipped))
