"""Lab input values checked one by one: numbers, workloads, the WAN's shaping, names, paths.

``inputs.py`` reads a topology with these; ``lab build`` and the CLI check their options and
output paths with them before any work.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, cast

from l2tpgen.errors import L2tpgenError
from l2tpgen.hosts import WORKLOADS, Workload
from l2tpgen.lab.shaping import WAN_DELAY, WAN_LOSS, WAN_RATE, Shaping

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

VLANS = "l2tpgen.vlans"  # a CE's VLANs, ``2996,2997`` (a workload's VLAN must be one)
# A Linux or VyOS PE's frames checks: the file beside the topology that holds them (framefile.py).
FRAMES_FILE = "l2tpgen.frames"
# A PE's kept port-mode xconnect (kept_ports.py): its label and why the lab does not run it.
KEPT_PORT = "l2tpgen.port_xconnect"  # a PE's label: "PEER:VC ID" of its kept port-mode xconnect
WHY = (
    "N/A: the lab does not run a kept port-mode pseudowire: its PEs run Linux's static L2TPv3 "
    "sessions, built VLAN by VLAN from the site files, and a kept port lists no VLAN, so there is "
    "no session to build and nothing for the CEs to send. To rehearse this trunk in the lab, list "
    "its VLANs and migrate (`lan.port_xconnect.action: migrate`)"
)
# Names that end up in shell commands, file names and container names: no room for surprises.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


class LabInputError(L2tpgenError):
    """The topology or another lab input is unusable; ``problems`` lists every reason."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem(s):\n{lines}")


def parse_number(
    text: str | None, what: str, problems: list[str], low: float, high: float
) -> float | None:
    """``text`` as a number from ``low`` to ``high``; None (and a problem) when it is not."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        problems.append(f"{what} must be a number, not {text!r}")
        return None
    if not low <= value <= high:
        problems.append(f"{what} must be between {low:g} and {high:g}, not {text}")
        return None
    return value


def parse_int(text: str | None, what: str, problems: list[str], low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``; None (and a problem) when it is not."""
    if text is None or not re.fullmatch(r"\d+", text):
        problems.append(f"{what} must be a whole number, not {text!r}")
        return None
    value = int(text)
    if not low <= value <= high:
        problems.append(f"{what} must be between {low} and {high}, not {value}")
        return None
    return value


def parse_shaping(labels: Mapping[str, str], where: str, problems: list[str]) -> Shaping:
    """The WAN shaping labels of a node."""
    delay = parse_number(labels.get(WAN_DELAY), f"{where} label {WAN_DELAY}", problems, 0, 10_000)
    loss = parse_number(labels.get(WAN_LOSS), f"{where} label {WAN_LOSS}", problems, 0, 100)
    rate = parse_number(labels.get(WAN_RATE), f"{where} label {WAN_RATE}", problems, 0.001, 1e6)
    return Shaping(delay or 0.0, loss or 0.0, rate)


def parse_workloads(
    text: str, vlans: tuple[int, ...], where: str, problems: list[str]
) -> tuple[tuple[int, Workload], ...]:
    """``2997=cluster-heartbeat,2998=live-migration``."""
    found: list[tuple[int, Workload]] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        vlan_text, _, workload = item.partition("=")
        vlan = parse_int(vlan_text.strip(), f"{where}: VLAN in {item!r}", problems, 1, 4094)
        if workload.strip() not in WORKLOADS:
            problems.append(
                f"{where}: workload {workload.strip()!r} is none of: {', '.join(WORKLOADS)}"
            )
        elif vlan is not None and vlan not in vlans:
            problems.append(f"{where}: VLAN {vlan} has a workload but is not in {VLANS}")
        elif vlan is not None:
            found.append((vlan, cast("Workload", workload.strip())))
    return tuple(found)


LAB_NAME_RULE = (
    "name: 1-40 letters, digits, '-' or '_', starting with a letter or digit (it names the "
    "containers)"
)


def check_lab_name(name: str) -> None:
    """Refuse a lab name ``lab run`` would refuse (the rule of ``parse_lab``), at build time.

    Raises:
        LabInputError: the name breaks the rule; the message shows it escaped.
    """
    if not NAME.fullmatch(name):
        raise LabInputError(f"--name {name!r}", [LAB_NAME_RULE])


def check_writable(path: Path, what: str) -> None:
    """Refuse, before any work, an output path that cannot be written.

    Raises:
        LabInputError: the directory is missing or read-only, or the path is a directory.
    """
    parent = path.parent
    if path.is_dir():
        raise LabInputError(str(path), [f"{what} is a directory, not a file"])
    if not parent.is_dir():
        raise LabInputError(str(path), [f"{what}: directory {parent} does not exist"])
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise LabInputError(str(path), [f"{what}: cannot write there (permissions)"])
