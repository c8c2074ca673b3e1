"""The rollback copy: where it goes on the router, its name, writing it, and restoring from it.

The file system is found, not assumed: ``dir`` prints ``Directory of flash0:/`` on IOSv,
``bootflash:/`` on ASR1000 and CSR1000v, ``flash:/`` on a Catalyst 3850 (real captures in
``tests/realworld/show/``); netmiko's ``_autodetect_fs`` reads the same line. When ``dir`` says
nothing usable, the platform driver's list is the fallback. Its free space, when ``dir`` gives it,
must hold the copy.

Names carry the time to the microsecond and a random part, so two pushes in one second (or two
runs from two machines) never overwrite each other's copy.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.device.messages import Kind, classify
from l2tpgen.device.state_dir import private_dir
from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from pathlib import Path

_DIRECTORY = re.compile(r"^Directory of (\S+?:)", re.MULTILINE)
_FREE = re.compile(r"\((\d+) bytes free\)")
_COPIED = re.compile(r"\d+ bytes copied")
# Failure markers of a copy (napalm, netmiko's scp handler, RANCID): see the research notes.
_COPY_FAILED = re.compile(r"(?i)error opening|open device \S+ failed|%error|no space|not enough")
NAME_SITE_CHARS = 20  # IOS file names are short on some file systems: keep the whole name < 64


@dataclass(frozen=True)
class FileSystem:
    """Where rollback copies go, and its free bytes when known."""

    name: str
    free: int | None = None


def file_system(dir_output: str, fallbacks: tuple[str, ...]) -> FileSystem:
    """The default file system from ``dir`` output, else the first fallback.

    Raises:
        DeviceError: neither ``dir`` nor the driver names one.
    """
    found = _DIRECTORY.search(dir_output)
    if found is not None:
        free = _FREE.search(dir_output)
        return FileSystem(found.group(1), int(free.group(1)) if free else None)
    if fallbacks:
        return FileSystem(fallbacks[0])
    raise DeviceError("cannot find the router's file system for a rollback copy (`dir` said no)")


def rollback_name(site: str, now: float | None = None) -> str:
    """``l2tpgen-SITE-YYYYmmddTHHMMSSffffff-xxxx.cfg``: unique to the microsecond, and random."""
    stamp = time.time() if now is None else now
    seconds = time.strftime("%Y%m%dT%H%M%S", time.gmtime(stamp))
    micro = int((stamp % 1) * 1_000_000)
    short = re.sub(r"[^A-Za-z0-9_.-]", "_", site)[:NAME_SITE_CHARS]
    return f"l2tpgen-{short}-{seconds}{micro:06d}-{secrets.token_hex(2)}.cfg"


def copy_command(fs: FileSystem, name: str) -> str:
    """The exec command that writes the rollback copy."""
    return f"copy running-config {fs.name}{name}"


def check_copy(output: str, fs: FileSystem, name: str) -> None:
    """Raise unless ``copy`` output says the bytes were written.

    Raises:
        DeviceError: naming the file and the router's first error line.
    """
    if _COPIED.search(output) and not _COPY_FAILED.search(output):
        return
    error = next(
        (
            line.strip()
            for line in output.splitlines()
            if classify(line) is Kind.REFUSAL or _COPY_FAILED.search(line)
        ),
        "no `bytes copied` in its answer",
    )
    raise DeviceError(f"could not save a rollback copy to {fs.name}{name}: {error}")


def check_space(fs: FileSystem, running: str, freed: int = 0) -> None:
    """Raise when ``dir`` says the file system cannot hold the copy (twice its size, to be safe).

    ``freed``: the bytes of the old copies deleted in the same write, before the copy is made.

    Raises:
        DeviceError: with the figures and what to do.
    """
    needed = 2 * len(running.encode())
    if fs.free is not None and fs.free + freed < needed:
        raise DeviceError(
            f"{fs.name} has {fs.free} bytes free, too few for a rollback copy of the running "
            f"config ({len(running.encode())} bytes); free some space (old l2tpgen-*.cfg copies "
            f"can go: `dir {fs.name}l2tpgen-*`)"
        )


def keep_locally(state_dir: Path, name: str, running: str) -> Path:
    """A local copy of the pre-push config, readable by the user only (mode 0600).

    It holds the router's secrets as it shows them: the l2tp-class secret as type 7, each pair's
    IKEv2 pre-shared key and keyed cookies in clear (docs/push.md says so).
    """
    local = private_dir(state_dir.expanduser(), link=False)
    path = local / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(running)
    return path


def replace_failed(output: str) -> bool:
    """Whether ``configure replace`` output says it did not restore the file.

    The markers napalm checks (its IOS driver, and napalm issue #135's real outputs): "Rollback
    aborted", "failed", "not a valid config file", an error line.
    """
    lowered = output.lower()
    return (
        "rollback aborted" in lowered
        or "failed" in lowered
        or "not a valid config file" in lowered
        or "error" in lowered
        or any(classify(line) is Kind.REFUSAL for line in output.splitlines())
    )


# Keep this many rollback copies per site (on the router and in the state directory): the newest.
KEEP = 10
_STAMP = re.compile(r"^\d{8}T\d{12}-[0-9a-f]{4}\.cfg$")


def _prefix(site: str) -> str:
    return "l2tpgen-" + re.sub(r"[^A-Za-z0-9_.-]", "_", site)[:NAME_SITE_CHARS] + "-"


def is_copy_of(name: str, site: str) -> bool:
    """Whether ``name`` is a rollback copy l2tpgen made for ``site`` (``rollback_name``'s form)."""
    prefix = _prefix(site)
    return name.startswith(prefix) and _STAMP.match(name[len(prefix) :]) is not None


def listed_sizes(dir_output: str) -> dict[str, int]:
    """Each file ``dir`` lists and its size in bytes (``N  -rw-  SIZE  date  NAME`` rows)."""
    sizes: dict[str, int] = {}
    for line in dir_output.splitlines():
        row = line.split()
        if len(row) > 3 and row[0].isdigit() and row[2].isdigit():  # noqa: PLR2004 - the columns
            sizes[row[-1]] = int(row[2])
    return sizes


def listed_copies(dir_output: str, site: str) -> list[str]:
    """The site's rollback copies that ``dir`` lists (the last word of each row), oldest first."""
    rows = (line.split() for line in dir_output.splitlines())
    return sorted({row[-1] for row in rows if row and is_copy_of(row[-1], site)})


def to_prune(copies: list[str], keep: int) -> list[str]:
    """The copies to delete so that ``keep`` remain with the one about to be made (oldest go)."""
    ordered = sorted(copies)  # the name carries the time, to the microsecond
    return ordered[: max(0, len(ordered) - max(keep - 1, 0))]


def delete_command(fs: FileSystem, name: str) -> str:
    """The exec command that deletes one old copy without asking."""
    return f"delete /force {fs.name}{name}"


def prune_locally(state_dir: Path, site: str, keep: int) -> list[str]:
    """Delete all but the newest ``keep`` local copies of ``site``; the names deleted.

    Only regular files named as ``rollback_name`` names them are touched.
    """
    local = state_dir.expanduser()
    if not local.is_dir():
        return []
    mine = sorted(
        p.name
        for p in local.iterdir()
        if is_copy_of(p.name, site) and p.is_file() and not p.is_symlink()
    )
    gone = mine[: max(0, len(mine) - keep)]
    for name in gone:
        (local / name).unlink(missing_ok=True)
    return gone
