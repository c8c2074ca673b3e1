"""The control channel of a lab that stays up: a shell loop in the guest on its second serial port.

``lab run`` boots a VM that runs its script and powers off. ``lab up`` boots one that sets the lab
up, prints a ready marker on its console (the first serial port, a log file on the host) and then
serves requests on its second serial port, which QEMU connects to a unix socket in the lab's
state directory (``-chardev socket``). Nothing else is needed in the guest (the kernel's 8250
driver is built in): no network device, no guest agent package, no shared directory.

One request, one line: ``RUN <id> <script, base64>``. The guest runs the script with ``sh``
(stdin from /dev/null, stdout and stderr together) and answers ``BEGIN <id>``, the output in
base64, ``END <id> <exit status>``. The port is in raw mode (no echo, no line length limit);
base64 keeps binary output and stray bytes out of the framing. The id lets the host skip what an
earlier client left unread. One client at a time (QEMU accepts one connection on the socket):
the host holds a lock file around each request.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import re
import secrets
import socket
import time
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

READY = "L2TPGEN-LAB-READY"
PORT = "/dev/ttyS1"
WORK = "/tmp/l2tpgen-agent"  # noqa: S108 - inside the guest


class AgentError(L2tpgenError):
    """The running lab's VM did not answer on its control channel."""


def agent_script() -> str:
    """The guest's loop: read a request line, run it, answer on the same port."""
    return "\n".join(
        [
            f"mkdir -p {WORK}",
            f"exec 3<>{PORT}",
            f"stty -F {PORT} raw -echo clocal",
            f"echo {READY}",
            "while :; do",
            "  read -r verb id data <&3 || { sleep 1; continue; }",
            '  [ "$verb" = RUN ] || continue',
            f'  echo "$data" | base64 -d >{WORK}/request',
            f"  sh {WORK}/request </dev/null >{WORK}/reply 2>&1 3>&-; rc=$?",
            f'  {{ echo "BEGIN $id"; base64 {WORK}/reply; echo "END $id $rc"; }} >&3',
            "done",
            "",
        ]
    )


@contextlib.contextmanager
def _locked(path: Path, timeout: float) -> Iterator[None]:
    """One request at a time; another waits for it at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with path.open("a") as lock:
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise AgentError(
                        f"the lab VM is busy with another request (still after {timeout:g} s)"
                    ) from None
                time.sleep(0.1)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _answer(connection: socket.socket, request_id: str) -> tuple[int, bytes]:
    """Read lines until this request's END; what came before its BEGIN is an earlier answer."""
    buffer = b""
    body: list[bytes] | None = None
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            raise AgentError("the lab VM closed its control channel (has it stopped?)")
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.strip(b"\r")
            if line == f"BEGIN {request_id}".encode():
                body = []
            elif body is not None and (end := re.fullmatch(rb"END (\S+) (\d+)", line)):
                if end.group(1).decode() == request_id:
                    return int(end.group(2)), base64.b64decode(b"".join(body))
            elif body is not None:
                body.append(line)


def request(control: Path, script: str, *, timeout: float) -> tuple[int, bytes]:
    """Run ``script`` in the guest; its exit status and output (stdout and stderr together).

    Raises:
        AgentError: no VM listens on ``control``, or it did not answer within ``timeout`` s.
    """
    request_id = secrets.token_hex(6)
    line = f"RUN {request_id} {base64.b64encode(script.encode()).decode()}\n"
    with _locked(control.with_suffix(".lock"), timeout):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.settimeout(timeout)
                connection.connect(str(control))
                connection.sendall(line.encode())
                return _answer(connection, request_id)
        except TimeoutError as exc:
            raise AgentError(f"the lab VM did not answer within {timeout:g} s") from exc
        except OSError as exc:
            raise AgentError(
                f"cannot reach the lab VM's control channel {control}: {exc.strerror or exc}"
            ) from exc
