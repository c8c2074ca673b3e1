"""What ``lab up`` records about a lab that stays up, and how it is found, checked and forgotten.

Each lab has a private directory (mode 0700) under ``<state dir>/lab/<name>``: ``lab.json`` (the
QEMU pid, when it started, where the lab came from, its nodes), the console log, QEMU's own log
and pid file, the control socket. Never in the working tree. A record whose QEMU process is gone
(killed, a reboot) is stale: ``status`` says so and removes it, as ``down`` does. The pid is
checked against the process's command line (it names the lab's control socket), so a pid reused
by another program is not taken for the lab. ``live.py`` starts a lab.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import stat
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from l2tpgen.errors import L2tpgenError
from l2tpgen.sim.lifecycle import alive  # the same liveness test as `sim status`

STATE_FILE = "lab.json"
CONSOLE = "console.log"
QEMU_LOG = "qemu.log"
PIDFILE = "qemu.pid"
STARTING = "starting.lock"
CONTROL = "control.sock"


class LiveLabError(L2tpgenError):
    """A lab that stays up could not be started, found or used (the message says why)."""


def labs_dir(state_dir: Path) -> Path:
    """Where the labs that are up keep their files: ``<state dir>/lab``, private (0700) if new.

    Run as root, a lab's files decide what ``lab status`` and ``lab down`` open, signal and
    delete: the state directory must be the user's and not writable by others, and ``lab`` must
    be a real directory of the user's (never a symbolic link, which would be followed).

    Raises:
        LiveLabError: either is another user's, writable by others, or a link.
    """
    root = state_dir.expanduser().absolute()
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    _owned(root, root.stat(), "the labs' state directory")
    path = root / "lab"
    path.mkdir(mode=0o700, exist_ok=True)
    if path.is_symlink():
        raise LiveLabError(
            f"{path} is a symbolic link (to {path.readlink()}); l2tpgen never follows it: remove "
            "the link (l2tpgen makes the folder itself)"
        )
    _owned(path, path.lstat(), "the labs' folder")
    return path


def _owned(path: Path, info: os.stat_result, what: str) -> None:
    """Refuse a directory that is another user's or that others may write into."""
    if info.st_uid != os.getuid():
        raise LiveLabError(
            f"{what} {path} belongs to user id {info.st_uid}, not to you; set L2TPGEN_STATE_DIR "
            "to a directory of your own"
        )
    if stat.S_IMODE(info.st_mode) & 0o022:
        raise LiveLabError(
            f"{what} {path} may be written by others (mode {stat.S_IMODE(info.st_mode):04o}); "
            f"make it private (`chmod 700 {path}`) or set L2TPGEN_STATE_DIR to a directory of "
            "your own"
        )


@dataclass(frozen=True)
class LiveLab:
    """What ``lab up`` recorded about a lab it started."""

    name: str
    pid: int
    started: float  # seconds since the epoch
    source: str  # the topology file or the sites directory it came from
    directory: str
    nodes: tuple[str, ...]
    pes: tuple[str, ...]
    ready: bool = False

    @property
    def control(self) -> Path:
        """The unix socket of its control channel."""
        return Path(self.directory) / CONTROL

    @property
    def running(self) -> bool:
        """Its QEMU process is alive (and is QEMU serving this lab, not a reused pid)."""
        if not alive(self.pid):
            return False
        try:
            cmdline = Path(f"/proc/{self.pid}/cmdline").read_bytes()
        except OSError:
            return True  # no /proc to ask: trust the pid
        return str(self.control).encode() in cmdline

    def uptime(self, now: float | None = None) -> float:
        """Seconds since ``lab up`` started it."""
        return (time.time() if now is None else now) - self.started

    def write(self) -> None:
        """Write the record whole or not at all (status may read it any time)."""
        path = Path(self.directory) / STATE_FILE
        temporary = path.with_name(f".{STATE_FILE}.{os.getpid()}.tmp")
        where = Path(self.directory)
        document = {
            **asdict(self),
            "control": str(self.control),
            "console": str(where / CONSOLE),
            "pidfile": str(where / PIDFILE),
        }
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)

    @classmethod
    def read(cls, directory: Path) -> LiveLab | None:
        """The record in ``directory``; None when there is none or it is not one of ours."""
        try:
            data = json.loads((directory / STATE_FILE).read_text(encoding="utf-8"))
            return cls(
                str(data["name"]),
                int(data["pid"]),
                float(data["started"]),
                str(data["source"]),
                str(directory),
                tuple(str(n) for n in data["nodes"]),
                tuple(str(n) for n in data["pes"]),
                bool(data.get("ready", False)),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None


def starting(directory: Path) -> bool:
    """Whether a ``lab up`` is setting this lab up now (it holds the directory's lock)."""
    try:  # never through a link: it would create the lock file wherever the link points
        fd = os.open(
            directory / STARTING, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600
        )
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


def recorded(state_dir: Path) -> list[tuple[Path, LiveLab | None]]:
    """Every lab directory, with its record (None: unreadable, left by a crash)."""
    root = labs_dir(state_dir)
    entries = sorted(root.iterdir())
    links = [d for d in entries if d.is_symlink()]
    if links:
        raise LiveLabError(
            f"{links[0]} is a symbolic link (to {links[0].readlink()}), not a lab l2tpgen "
            "started; l2tpgen never follows it: remove it"
        )
    return [(d, LiveLab.read(d)) for d in entries if d.is_dir()]


def remove(directory: Path) -> bool:
    """Forget a lab: its directory and everything in it. True when it is gone."""
    if not directory.is_symlink():
        shutil.rmtree(directory, ignore_errors=True)
    return not directory.exists() and not directory.is_symlink()


def stop(live: LiveLab, timeout: float = 15.0) -> bool:
    """Stop its QEMU (SIGTERM: QEMU exits cleanly; SIGKILL after ``timeout``) and forget it.

    The guest holds nothing on disk (an initramfs in RAM), so nothing is lost by not powering
    it off from inside. True once the process is gone.
    """
    if live.running:
        os.kill(live.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while live.running and time.monotonic() < deadline:
            time.sleep(0.05)
        if live.running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(live.pid, signal.SIGKILL)
            time.sleep(0.2)
    if live.running:
        return False
    remove(Path(live.directory))
    return True
