"""Connections to routers: host keys always verified, credentials (``credentials``) read first.

Credentials are read (and their absence reported) before any connection. The known_hosts file is
checked line by line first (``known_hosts``); host keys are then checked against it with paramiko's
reject policy, during the key exchange, so an unknown or changed key refuses the connection before
credentials are sent. A connection is handed out at the privileged prompt only. Every way a login
can fail is one line (``explain``): the phase that failed, its timeout if it timed out, what to do.
"""

from __future__ import annotations

import contextlib
import errno
import re
import socket
import time
from typing import TYPE_CHECKING, Any

import paramiko
from netmiko import ConnectHandler
from netmiko.exceptions import NetmikoTimeoutException, ReadTimeout
from paramiko.ssh_exception import NoValidConnectionsError

from l2tpgen.device.accept_new import ACCEPT_NEW_OPTION, AcceptNew, known_hosts_name
from l2tpgen.device.credentials import (
    ENABLE_SECRET,
    PASSWORD,
    USERNAME,
    Credentials,
    install_redaction,
)
from l2tpgen.device.known_hosts import check_known_hosts
from l2tpgen.errors import DeviceError, HostKeyError
from l2tpgen.files import kind_of

if TYPE_CHECKING:
    from l2tpgen.device.inventory import Target

# Seconds each phase of a login may take (TCP, SSH banner, authentication, first prompt, enable).
CONNECT_TIMEOUT = 10.0


def _trust_hint(target: Target) -> str:
    host = known_hosts_name(target.host, target.port)
    return (
        f"if the router was replaced on purpose, check its key out of band, then run "
        f"`ssh-keygen -R '{host}' -f {target.known_hosts}` and "
        f"`ssh-keyscan -p {target.port} {target.host} >> {target.known_hosts}`"
    )


def _first_contact_hint(target: Target) -> str:
    return (
        f"to trust the key it offers now, run again with {ACCEPT_NEW_OPTION} (as ssh's "
        f"accept-new), or check the key out of band and add it: "
        f"`ssh-keyscan -p {target.port} {target.host} >> {target.known_hosts}`"
    )


def require_known_hosts(target: Target) -> None:
    """Check ``target``'s known_hosts file before connecting (a missing one is first contact).

    Raises:
        HostKeyError: no file (and no ``accept_new_host_keys``), or a line paramiko cannot use.
    """
    if not target.known_hosts.exists() and target.accept_new_host_keys:
        return  # created when the first key is learned
    if target.known_hosts.exists() and not target.known_hosts.is_file():
        raise HostKeyError(
            f"known_hosts path {target.known_hosts} is {kind_of(target.known_hosts.stat().st_mode)}"
            ", not a file: no host key can be read from it or learned into it (nothing was "
            "sent); point the inventory entry's known_hosts at a file, or move it aside"
        )
    if not target.known_hosts.is_file():
        raise HostKeyError(
            f"no known_hosts file at {target.known_hosts}, so the host key cannot be verified "
            f"(first contact; nothing was sent); {_first_contact_hint(target)}"
        )
    check_known_hosts(target.known_hosts)


def connect(
    target: Target,
    credentials: Credentials,
    *,
    timeout: float | None = None,
) -> Any:  # noqa: ANN401 - netmiko's connection classes are untyped
    """An open netmiko connection to ``target`` at the privileged (``#``) prompt, host key verified.

    ``timeout`` (default ``CONNECT_TIMEOUT``) bounds each phase of the login: the TCP connection,
    the SSH banner, authentication, the first prompt, ``enable``.

    Raises:
        DeviceError: one line saying what failed and what to do, without naming the router
            (the caller knows it: ``str(target)``) and never quoting a secret.
    """
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    if not 1 <= target.port <= 65535:  # noqa: PLR2004
        raise DeviceError(
            f"port {target.port} is not a TCP port (1 to 65535); fix it (nothing was contacted)"
        )
    require_known_hosts(target)
    params: dict[str, Any] = {
        "device_type": target.device_type,
        "host": target.host,
        "port": target.port,
        "username": credentials.username,
        "password": credentials.password,
        **default_options(wait),
        **enforced_options(target, credentials),
    }
    install_redaction(credentials.password, credentials.enable_secret)
    return log_in(ConnectHandler(**params), target, credentials, wait)


def default_options(wait: float) -> dict[str, Any]:
    """The netmiko options l2tpgen logs in with, which a Nornir host's extras may change.

    ``wait`` bounds each phase of the login: TCP, the SSH banner, authentication, and each read
    of the login itself (``read_timeout_override``; commands have their own timeouts after it).
    """
    return {
        "use_keys": False,
        "allow_agent": False,
        "conn_timeout": wait,
        "auth_timeout": wait,
        "banner_timeout": wait,
        "read_timeout_override": wait,
        "fast_cli": True,
    }


def enforced_options(target: Target, credentials: Credentials) -> dict[str, Any]:
    """The netmiko options no inventory changes.

    The host key is checked against ``target``'s known_hosts only, and l2tpgen logs in itself
    (``log_in``: one round trip, not netmiko's four and its 0.1 s sleeps), so the connection is
    made with ``auto_connect`` off.
    """
    return {
        "secret": credentials.enable_secret,
        "ssh_strict": True,
        "system_host_keys": False,
        "alt_host_keys": True,
        "alt_key_file": str(target.known_hosts),
        "auto_connect": False,
    }


def log_in(connection: Any, target: Target, credentials: Credentials, wait: float) -> Any:  # noqa: ANN401 - netmiko
    """Log a netmiko connection made with ``auto_connect=False`` in, and reach the ``#`` prompt.

    One round trip after the SSH login (``_log_in``), where netmiko's own session preparation
    costs four and its sleeps. ``connect`` and the Nornir connector (with the host's own
    connection options) both log in here.

    Raises:
        DeviceError: one line saying what failed (``explain``); the connection is abandoned.
    """
    if target.accept_new_host_keys:
        connection.key_policy = AcceptNew(target.known_hosts)  # used when the session opens
    try:
        terminator = _log_in(connection, wait)
    except Exception as exc:  # every way a login fails becomes one clear line
        _abandon(connection)
        raise explain(target, credentials, exc, wait) from exc
    try:
        become_privileged(connection, credentials, wait, terminator=terminator)
    except DeviceError:
        _abandon(connection)
        raise
    connection.read_timeout_override = None  # commands have their own timeouts
    return connection


# What the login types before anything else: no paging, no wrapping (netmiko's own settings).
SESSION_SETUP = ("terminal length 0", "terminal width 511")
_SET_UP = re.compile(
    r"^(?P<host>[^\s#>]+)(?P<mark>[>#])\s*" + re.escape(SESSION_SETUP[-1]) + r"\s*\n"
    r"(?P=host)(?P=mark)\s*$",
    re.MULTILINE,
)


def _log_in(connection: Any, wait: float) -> str:  # noqa: ANN401 - netmiko
    """Open the shell, set the terminal up, learn the prompt: one round trip after the SSH login.

    The terminal commands are typed at once (IOS reads them after its banner and first prompt);
    the prompt is read off their echo (``HOST#terminal width 511`` then ``HOST#``), so a banner
    full of ``#`` never passes for it. Returns the prompt's mark: ``#`` or ``>``.

    Raises:
        ReadTimeout: no such echo within ``wait``.
    """
    connection._modify_connection_params()  # noqa: SLF001 - netmiko's own open sequence, split
    connection.establish_connection()
    connection.write_channel("".join(command + "\n" for command in SESSION_SETUP))
    deadline = time.monotonic() + wait
    output = ""
    while True:
        output += str(connection.read_channel()).replace("\r", "")
        found = _SET_UP.search(output)
        if found is not None:
            connection.base_prompt = found.group("host")
            return found.group("mark")
        if time.monotonic() > deadline:
            raise ReadTimeout(f"no prompt after the login within {wait:g} s")
        time.sleep(0.002)


# ``enable``'s answers: the secret's question, or a prompt (``>`` refused, ``#`` granted).
_QUESTION = r"ssword:\s*$"
_ENABLE_ANSWER = rf"(?:{_QUESTION})|(?:[>#]\s*$)"


def become_privileged(
    connection: Any,  # noqa: ANN401 - netmiko
    credentials: Credentials,
    wait: float,
    *,
    terminator: str | None = None,
) -> None:
    """Reach the ``#`` prompt: there already, or through ``enable`` with the enable secret.

    netmiko's own ``enable`` waits for the echo of ``enable`` and, on a wrong secret, for a prompt
    that IOS does not print (it asks for the secret again, twice): a long timeout, a vague error.
    Here each answer is read up to the question or a prompt, and the final prompt decides.
    """
    user, secret = credentials.username, credentials.enable_secret
    try:
        privileged = terminator == "#" if terminator is not None else connection.check_enable_mode()
        if privileged:
            return
        granted = bool(secret) and _enable(connection, secret, wait)
    except Exception as exc:  # netmiko's read errors, a dropped session
        raise _enable_failure(exc, wait) from exc
    if not secret:
        raise DeviceError(
            f"user {user} is logged in at user level (`>` prompt) and {ENABLE_SECRET} is not "
            f"set; set {ENABLE_SECRET} to the router's enable secret, or give {user} "
            "privilege 15 on the router (nothing was changed)"
        )
    if not granted:
        raise DeviceError(
            f"`enable` was refused: {ENABLE_SECRET} is not this router's enable secret (user "
            f"{user} stays at the `>` prompt); set the right secret, or give {user} privilege 15 "
            "(nothing was changed)"
        )


def _enable(connection: Any, secret: str, wait: float) -> bool:  # noqa: ANN401 - netmiko
    """Type ``enable`` and the secret; whether the router then shows the ``#`` prompt."""
    connection.write_channel("enable" + connection.RETURN)
    answer = str(connection.read_until_pattern(pattern=_ENABLE_ANSWER, read_timeout=wait))
    if re.search(_QUESTION, answer):
        connection.write_channel(secret + connection.RETURN)
        connection.read_until_pattern(pattern=_ENABLE_ANSWER, read_timeout=wait)
    return str(connection.find_prompt()).endswith("#")


def _enable_failure(exc: BaseException, wait: float) -> DeviceError:
    if isinstance(exc, ReadTimeout):
        return DeviceError(
            f"no answer within {wait:g} s while reaching the privileged prompt (`enable`); "
            "try again (nothing was changed)"
        )
    return DeviceError(
        f"the router closed the session while reaching the privileged prompt (`enable`, "
        f"{type(exc).__name__}); try again (nothing was changed)"
    )


def _abandon(connection: Any) -> None:  # noqa: ANN401 - netmiko
    """Drop a session without typing into it (at the secret's question, typing is a guess)."""
    with contextlib.suppress(Exception):  # closing a half-open session is not an error
        connection.paramiko_cleanup()


def _chain(exc: BaseException) -> list[BaseException]:
    """An exception and the ones it was raised from (netmiko wraps paramiko's)."""
    found: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in found:
        found.append(current)
        current = current.__cause__ or current.__context__
    return found


def _has(chain: list[BaseException], kind: type[BaseException], text: str = "") -> bool:
    return any(isinstance(e, kind) and text in str(e) for e in chain)


def _socket_errors(chain: list[BaseException]) -> list[OSError]:
    """The socket errors of the chain, those paramiko gathered per address included."""
    found: list[OSError] = []
    for cause in chain:
        if isinstance(cause, NoValidConnectionsError):
            found.extend(e for e in cause.errors.values() if isinstance(e, OSError))
        elif isinstance(cause, OSError):
            found.append(cause)
    return found


def explain(
    target: Target, credentials: Credentials, exc: BaseException, wait: float
) -> DeviceError:
    """One line for a failed login: which phase failed, the timeout if it timed out, what to do."""
    chain = _chain(exc)
    return (
        _host_key_failure(target, chain)
        or _ssh_failure(target, credentials, chain, wait)
        or _network_failure(target, _socket_errors(chain), wait)
        or DeviceError(
            f"the SSH login failed ({type(exc).__name__}); check the address and port, and that "
            "the router accepts SSH from this machine"
        )
    )


def _host_key_failure(target: Target, chain: list[BaseException]) -> DeviceError | None:
    learning = [e for e in chain if isinstance(e, HostKeyError)]
    if learning:
        return learning[0]  # refused (or not written) while learning a new key
    if _has(chain, paramiko.BadHostKeyException):
        return HostKeyError(
            "the SSH host key CHANGED since it was trusted; refusing to connect (credentials "
            f"were not sent). {_trust_hint(target)}"
        )
    if _has(chain, paramiko.SSHException, "not found in known_hosts"):
        host = known_hosts_name(target.host, target.port)
        return HostKeyError(
            f"unknown SSH host key: {target.known_hosts} has no entry for {host} (first "
            f"contact); refusing to connect (credentials were not sent); "
            f"{_first_contact_hint(target)}"
        )
    return None


def _ssh_failure(
    target: Target, credentials: Credentials, chain: list[BaseException], wait: float
) -> DeviceError | None:
    """The SSH phases: banner, authentication, the first prompt."""
    # Which of the two comes first is a race: paramiko's banner timeout, or the end of its wait
    # for the whole handshake (then netmiko says "No existing session"); both mean the same.
    banner = _has(chain, paramiko.SSHException, "protocol banner")
    if _has(chain, paramiko.SSHException, "No existing session") or (
        banner and _has(chain, TimeoutError)
    ):
        return DeviceError(
            f"no SSH handshake within {wait:g} s: port {target.port} accepted the TCP "
            "connection but no SSH banner or key exchange followed; check that this is the "
            "router's SSH port and that the router is not overloaded"
        )
    if banner:
        return DeviceError(
            f"the connection on port {target.port} closed before SSH started; check that this "
            "is the router's SSH port and that it accepts SSH from this machine"
        )
    if _has(chain, paramiko.AuthenticationException, "Authentication timeout"):
        return DeviceError(
            f"no answer to the login (authentication) within {wait:g} s; check the router's "
            "AAA servers, or try again when it is less busy"
        )
    if _has(chain, paramiko.AuthenticationException):
        return DeviceError(
            f"authentication failed for user {credentials.username}; check {USERNAME} and "
            f"{PASSWORD} (nothing was changed)"
        )
    if _has(chain, ReadTimeout) or _has(chain, NetmikoTimeoutException, "waiting for data"):
        return DeviceError(
            f"logged in, but no CLI prompt within {wait:g} s; check that the router is not "
            "overloaded and that no login banner waits for input"
        )
    return None


def _network_failure(target: Target, sockets: list[OSError], wait: float) -> DeviceError | None:
    """Before SSH: the TCP connection, the name."""
    if any(e.errno == errno.ECONNREFUSED for e in sockets):
        return DeviceError(
            f"connection refused: nothing listens on port {target.port}; check the port (in "
            "the inventory or the site file) and that SSH is enabled on the router"
        )
    if any(isinstance(e, socket.gaierror) for e in sockets):
        return DeviceError(
            f"the name {target.host} does not resolve; check the host in the inventory or the "
            "site file"
        )
    if any(isinstance(e, TimeoutError) for e in sockets):
        return DeviceError(
            f"no answer to the TCP connection on port {target.port} within {wait:g} s; check "
            "that the router is up and that no firewall drops SSH on the way"
        )
    if sockets:
        return DeviceError(
            f"cannot reach port {target.port}: {sockets[0].strerror or 'network error'}"
        )
    return None
