"""The state directory on this machine: owner-only folders, and one push per router.

``private_dir``: the state directory (and its folders) readable by its owner only: it holds the
rollback copies, with the routers' secrets.

``router_lock``: an exclusive ``flock`` on a file per router (host and port) in the state
directory's ``locks``, so two l2tpgen runs on one machine never change one router at once (the
second is refused at once, naming the first's process). The lock goes with the process: a killed
run leaves nothing to clean up.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import stat
from typing import TYPE_CHECKING

from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


class LockedError(DeviceError):
    """Another push to the same router is running on this machine."""


@contextlib.contextmanager
def router_lock(state_dir: Path, host: str, port: int) -> Iterator[None]:
    """Hold the router's lock for the block.

    Raises:
        LockedError: another process holds it (named by its pid).
    """
    folder = private_dir(private_dir(state_dir.expanduser()) / "locks", link=False)
    path = folder / (re.sub(r"[^A-Za-z0-9_.-]", "_", f"{host}_{port}") + ".lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another process"
            raise LockedError(
                f"another l2tpgen push to {host}:{port} is running (pid {holder}); wait for it "
                f"to finish (the lock is {path})"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def private_dir(path: Path, *, link: bool = True) -> Path:
    """``path`` as a directory only its owner can enter (made if missing, mode 0700).

    A directory of ours that others may read or write (a pre-existing 0777 one, say) is made
    0700; one that belongs to someone else is refused (its owner could read the rollback copies'
    secrets, or plant files). A shared sticky directory (``/tmp``, mode 1777) is refused and never
    chmod-ed, even when it is ours (as root, /tmp is: making it 0700 would break it for everyone).
    ``link``: whether ``path`` may be a symbolic link (the state directory may, and is judged by
    what it points to; its ``rollback`` and ``locks`` folders may not: a link planted there would
    have push chmod and write into whatever it points to).

    Raises:
        DeviceError: ``path`` is not a directory, a link where none may be, shared, or belongs
            to another user.
    """
    if not link and path.is_symlink():
        raise DeviceError(
            f"state directory folder {path} is a symbolic link (to {path.readlink()}); "
            "l2tpgen never follows it: remove the link (l2tpgen makes the folder itself)"
        )
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = path.stat() if link else path.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise DeviceError(f"state directory {path} is not a directory; set L2TPGEN_STATE_DIR")
    if info.st_mode & stat.S_ISVTX:  # sticky: a directory made for sharing, like /tmp
        raise DeviceError(
            f"state directory {path} is a shared directory (mode "
            f"{stat.S_IMODE(info.st_mode):04o}); it is left as it is: set L2TPGEN_STATE_DIR to "
            "a directory of your own (it holds rollback copies with the routers' secrets)"
        )
    if info.st_uid != os.getuid():
        raise DeviceError(
            f"state directory {path} belongs to user id {info.st_uid}, not to you: it holds "
            "rollback copies with the routers' secrets; set L2TPGEN_STATE_DIR to a directory "
            "of your own"
        )
    if stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(0o700)
    return path
