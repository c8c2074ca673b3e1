"""Simulated routers that outlive the command: ``sim up -d``, ``sim status``, ``sim down``.

A detached ``sim up`` is the same process as a foreground one, started in its own session with
its output in a log file. Once its routers listen it writes a status file (its pid, the
inventory, each router's port) into the state directory, and removes it when it stops; ``sim
status`` and ``sim down`` read that file. A status file whose process is gone (a crash, a
reboot) is stale: status says so and down removes it.

Simulators are scoped by name (``sim up --name``, default ``default``): each name has its own
directory, ``<state dir>/sim/<name>/`` (status file, log, inventory, known_hosts), and ``sim
status`` / ``sim down`` act on one name only, so another shell's simulators are neither shown nor
stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

STATUS_FILE = "sim.json"
LOG_FILE = "sim.log"
INVENTORY_FILE = "inventory.json"
DEFAULT_NAME = "default"
# A name is a directory name: a letter or digit, then letters, digits, dots, dashes, underscores.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_name(name: str) -> str:
    """``name`` if it can name a simulator, else ``ValueError`` saying what a name is."""
    if not _NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} cannot name a simulator: use 1 to 64 letters, digits, dots, dashes or "
            "underscores, starting with a letter or digit"
        )
    return name


def sim_dir(state_dir: Path, name: str = DEFAULT_NAME) -> Path:
    """Where simulator ``name`` keeps its files: ``<state dir>/sim/<name>``, 0700 if new."""
    top = state_dir.expanduser() / "sim"
    top.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = top / check_name(name)
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def running_names(state_dir: Path) -> Iterator[str]:
    """The names of the simulators whose process is alive, in name order."""
    top = state_dir.expanduser() / "sim"
    for path in sorted(top.glob(f"*/{STATUS_FILE}")):
        status = SimStatus.read(path)
        if status is not None and alive(status.pid):
            yield path.parent.name


@dataclass(frozen=True)
class Router:
    """One simulated router as status shows it."""

    hostname: str
    port: int
    flavor: str
    faults: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimStatus:
    """What a running ``sim up`` wrote about itself."""

    pid: int
    inventory: str
    known_hosts: str
    sites_dir: str
    routers: dict[str, Router] = field(default_factory=dict)

    def write(self, path: Path) -> None:
        """Write the status file whole or not at all (another process may read it any time)."""
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)

    @classmethod
    def read(cls, path: Path) -> SimStatus | None:
        """The status in ``path``; None when there is none or it is not one of ours."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            routers = {
                name: Router(r["hostname"], int(r["port"]), r["flavor"], tuple(r["faults"]))
                for name, r in data["routers"].items()
            }
            return cls(
                int(data["pid"]),
                str(data["inventory"]),
                str(data["known_hosts"]),
                str(data["sites_dir"]),
                routers,
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None


def forget(status_file: Path) -> None:
    """Remove a status file (a stale one before a start; ours when the simulator stops)."""
    status_file.unlink(missing_ok=True)


def start_detached(command: list[str], status_file: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` (a ``sim up``) in its own session, its output in the log file.

    The log file is beside ``status_file``; a stale status file is removed first.
    """
    forget(status_file)
    log = status_file.with_name(LOG_FILE)
    with log.open("w", encoding="utf-8") as stream:
        return subprocess.Popen(  # noqa: S603 - our own CLI, arguments from our own options
            command, stdin=subprocess.DEVNULL, stdout=stream, stderr=stream, start_new_session=True
        )


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (and is not a zombie of ours)."""
    if pid <= 0:
        return False
    with contextlib.suppress(ChildProcessError):
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process holds the pid: not ours, but alive
    return True


def stop(status: SimStatus, timeout: float = 15.0) -> bool:
    """SIGTERM the simulator and wait for it to end; True once it has (SIGKILL after timeout)."""
    if not alive(status.pid):
        return True
    os.kill(status.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(status.pid):
            return True
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(status.pid, signal.SIGKILL)
    time.sleep(0.2)
    return not alive(status.pid)
