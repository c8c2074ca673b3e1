"""The vm engine's console: QEMU's output read as it comes, its progress lines handed over."""

from __future__ import annotations

import os
import select
import subprocess
import time
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.engines.guest import STEP

if TYPE_CHECKING:
    from collections.abc import Callable


def read_console(
    command: list[str], timeout: float, progress: Callable[[str], None] | None, *, begin: str
) -> str:
    """Run QEMU, read its console as it comes, hand each progress line to ``progress``.

    ``begin``: the line the guest prints once booted (reported as "VM booted").
    """
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    pending = b""
    with subprocess.Popen(  # noqa: S603 - our own command line
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as qemu:
        assert qemu.stdout is not None  # noqa: S101 - Popen with stdout=PIPE
        fd = qemu.stdout.fileno()
        booted = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                qemu.kill()
                raise L2tpgenError(f"the lab VM did not finish within {timeout:g} s")
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            data = os.read(fd, 65536)
            if not data:
                break
            chunks.append(data)
            if progress is None:
                continue
            pending += data
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").strip("\r")
                if not booted and line.endswith(begin):  # a kernel message may precede it
                    booted = True
                    progress("VM booted")
                elif line.startswith(STEP + " "):
                    progress(line.removeprefix(STEP + " "))
        qemu.wait()
    return b"".join(chunks).decode("utf-8", "replace")
