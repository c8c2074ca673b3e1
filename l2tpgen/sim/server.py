"""SSH servers for simulated routers (asyncssh), run on 127.0.0.1 in a background thread.

Every input line is echoed, the prompt is printed at start and after every line, as IOS does;
netmiko's unmodified ``cisco_ios`` driver drives it. Latency delays every response (responses to
lines sent together overlap, as on a real link). Each session has its own command line (a
``Terminal``) over the router's shared configuration. Faults (``faults``): a connection that drops
after N configuration lines (here), refused commands and saves (the router's), a host key that
changes.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import asyncssh

from l2tpgen.sim.faults import Faults

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.sim.router import Router


@dataclass
class Credentials:
    """The one username and password the simulators accept."""

    username: str
    password: str


@dataclass
class SimDevice:
    """One simulated router and its SSH endpoint."""

    name: str
    router: Router
    port: int = 0
    faults: Faults = field(default_factory=Faults)
    host_key: asyncssh.SSHKey = field(
        default_factory=lambda: asyncssh.generate_private_key("ssh-ed25519")
    )
    auth_attempts: int = 0
    config_lines: int = 0  # over every session
    dropped: bool = False  # a drop-after fault drops one connection, once
    server: Any = None
    connections: set[Any] = field(default_factory=set)

    def public_key_line(self, host: str = "127.0.0.1") -> str:
        """The known_hosts line for this device."""
        key = self.host_key.export_public_key("openssh").decode().split()
        return f"[{host}]:{self.port} {key[0]} {key[1]}"


class _Server(asyncssh.SSHServer):
    def __init__(self, device: SimDevice, credentials: Credentials) -> None:
        self.device = device
        self.credentials = credentials
        self.connection: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        self.device.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:  # noqa: ARG002 - asyncssh's signature
        self.device.connections.discard(self.connection)

    def begin_auth(self, username: str) -> bool:  # noqa: ARG002 - asyncssh's signature
        return True

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        self.device.auth_attempts += 1
        return (username, password) == (self.credentials.username, self.credentials.password)


class _Writer:
    """Writes responses after the configured latency, in order, without blocking input."""

    def __init__(self, process: asyncssh.SSHServerProcess[str], latency: float) -> None:
        self.process = process
        self.latency = latency
        self.queue: asyncio.Queue[tuple[float, str | None]] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self.run())

    def send(self, text: str | None) -> None:
        self.queue.put_nowait((time.monotonic() + self.latency, text))

    async def run(self) -> None:
        while True:
            due, text = await self.queue.get()
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                if text is None:
                    self.process.exit(0)
                    return
                self.process.stdout.write(text)
            except (BrokenPipeError, ConnectionError):
                return  # the client went away with responses still queued


async def _session(device: SimDevice, process: asyncssh.SSHServerProcess[str]) -> None:
    terminal = device.router.open_terminal()
    terminal.user = str(process.get_extra_info("username") or "unknown")
    writer = _Writer(process, device.faults.latency_ms / 1000)
    writer.send(f"\r\n{terminal.prompt()}")
    buffer = ""
    try:
        while not process.stdin.at_eof():
            data = await process.stdin.read(65536)
            if not data:
                break
            buffer += data.replace("\x00", "")  # IOS ignores NUL (netmiko's keepalive)
            while True:
                cut = re.search(r"\r\n|\r|\n", buffer)
                if cut is None:
                    break
                line, buffer = buffer[: cut.start()], buffer[cut.end() :]
                in_config = terminal.in_config
                output = terminal.handle(line)
                echo = "" if terminal.hides_input() else line
                if in_config and _drops(device):
                    process.channel.get_connection().abort()
                    return
                text = echo + "\r\n" + (output.replace("\n", "\r\n") + "\r\n" if output else "")
                writer.send(text + terminal.prompt())
                if terminal.closed:
                    writer.send(None)
                    return
    except (asyncssh.BreakReceived, asyncssh.DisconnectError, ConnectionError):
        return
    finally:
        terminal.closed = True  # its configuration lock, if any, goes with it (sim/config_lock)


def _drops(device: SimDevice) -> bool:
    """Count a configuration line; whether the connection drops now (the drop-after fault)."""
    device.config_lines += 1
    limit = device.faults.drop_after_config_lines
    if limit is None or device.dropped or device.config_lines < limit:
        return False
    device.dropped = True
    return True


class SimServers:
    """Runs simulated routers' SSH servers on 127.0.0.1 in one background event loop."""

    def __init__(self, credentials: Credentials, host: str = "127.0.0.1") -> None:
        self.credentials = credentials
        self.host = host
        self.devices: dict[str, SimDevice] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="l2tpgen-sim", daemon=True
        )
        self.thread.start()

    def _run(self, coroutine: Any) -> Any:  # noqa: ANN401 - whatever the coroutine returns
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    def add(self, device: SimDevice, port: int = 0) -> SimDevice:
        """Start serving ``device`` (on a free port unless ``port`` is given)."""
        self.devices[device.name] = device
        self._run(self._start(device, port))
        return device

    async def _start(self, device: SimDevice, port: int) -> None:
        def handler(process: asyncssh.SSHServerProcess[str]) -> Any:  # noqa: ANN401
            return _session(device, process)

        device.server = await asyncssh.create_server(
            lambda: _Server(device, self.credentials),
            self.host,
            port,
            server_host_keys=[device.host_key],
            process_factory=handler,
            line_editor=False,
            encoding="utf-8",
            keepalive_interval=0,
        )
        device.port = device.server.sockets[0].getsockname()[1]

    def change_host_key(self, name: str) -> None:
        """Restart one device on the same port with a new host key (a replaced router)."""
        device = self.devices[name]
        port = device.port
        self._run(self._stop(device))
        device.host_key = asyncssh.generate_private_key("ssh-ed25519")
        self._run(self._start(device, port))

    def stop(self, name: str) -> None:
        """Stop serving one device and end its sessions: a router that went away (unreachable)."""
        self._run(self._stop(self.devices[name]))

    async def _stop(self, device: SimDevice) -> None:
        if device.server is not None:
            device.server.close()
            await device.server.wait_closed()
        for connection in list(device.connections):
            connection.close()
            await connection.wait_closed()
        device.connections.clear()

    def close(self) -> None:
        """Stop every server, end open sessions, stop the event loop."""
        self._run(self._shutdown())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()

    async def _shutdown(self) -> None:
        for device in self.devices.values():
            await self._stop(device)
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def known_hosts(self) -> str:
        """known_hosts lines for every device."""
        return "".join(d.public_key_line(self.host) + "\n" for d in self.devices.values())


def run_forever(stop: Callable[[], bool]) -> None:
    """Block until ``stop()`` is true (for `l2tpgen sim up`)."""
    while not stop():
        time.sleep(0.2)
