"""Connections to routers: credentials from the environment, host keys always verified.

Credentials are read (and their absence reported) before any connection. Host keys are checked
against the target's known_hosts file with paramiko's reject policy, during the key exchange, so an
unknown or changed key refuses the connection before credentials are sent.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import paramiko
from netmiko import ConnectHandler
from netmiko.exceptions import NetmikoAuthenticationException, NetmikoTimeoutException

from l2tpgen.errors import CredentialsError, DeviceError, HostKeyError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.device.inventory import Target

USERNAME = "L2TPGEN_USERNAME"
PASSWORD = "L2TPGEN_PASSWORD"  # noqa: S105 - the name of a variable, not a password
ENABLE_SECRET = "L2TPGEN_ENABLE_SECRET"  # noqa: S105 - same
# IOS error lines start with "% " (Invalid input, Incomplete command, Ambiguous command, ...).
ERROR_PATTERN = r"^% "


_TYPE7 = re.compile(r"((?:password|digest secret) 7 )\S+")


class RedactingFilter(logging.Filter):
    """Masks secrets in netmiko's and paramiko's log records (netmiko logs every byte it sends)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record with secrets masked; never drops it."""
        message = record.getMessage()
        masked = _TYPE7.sub(r"\1<masked>", message)
        for secret in self.secrets:
            masked = masked.replace(secret, "<masked>")
        if masked != message:
            record.msg, record.args = masked, ()
        return True


_REDACTION = RedactingFilter()


def install_redaction(*secrets: str) -> None:
    """Mask these (and every type 7 secret) in netmiko's and paramiko's logs from now on."""
    _REDACTION.secrets.update(s for s in secrets if s)
    for name in ("netmiko", "paramiko"):
        logger = logging.getLogger(name)
        if _REDACTION not in logger.filters:
            logger.addFilter(_REDACTION)


@dataclass(frozen=True)
class Credentials:
    """Login credentials; ``repr`` never shows the secrets."""

    username: str
    password: str = field(repr=False)
    enable_secret: str = field(default="", repr=False)


def credentials_from_env(environ: Mapping[str, str] | None = None) -> Credentials:
    """Read credentials; raise ``CredentialsError`` naming every missing variable."""
    env = os.environ if environ is None else environ
    missing = [name for name in (USERNAME, PASSWORD) if not env.get(name)]
    if missing:
        raise CredentialsError(
            f"set {' and '.join(missing)} in the environment (nothing was contacted); "
            f"{ENABLE_SECRET} too if the routers need `enable`"
        )
    return Credentials(env[USERNAME], env[PASSWORD], env.get(ENABLE_SECRET, ""))


def _trust_hint(target: Target) -> str:
    host = f"[{target.host}]:{target.port}" if target.port != 22 else target.host  # noqa: PLR2004
    return (
        f"if the router was replaced on purpose, check its key out of band, then run "
        f"`ssh-keygen -R '{host}' -f {target.known_hosts}` and "
        f"`ssh-keyscan -p {target.port} {target.host} >> {target.known_hosts}`"
    )


def connect(target: Target, credentials: Credentials, *, timeout: float = 10) -> Any:  # noqa: ANN401 - netmiko's connection classes are untyped
    """An open netmiko connection to ``target``, its host key verified."""
    if not target.known_hosts.is_file():
        raise HostKeyError(
            f"{target}: no known_hosts file at {target.known_hosts}, so the host key cannot be "
            f"verified; {_trust_hint(target)}"
        )
    params: dict[str, Any] = {
        "device_type": target.device_type,
        "host": target.host,
        "port": target.port,
        "username": credentials.username,
        "password": credentials.password,
        "secret": credentials.enable_secret,
        "ssh_strict": True,
        "system_host_keys": False,
        "alt_host_keys": True,
        "alt_key_file": str(target.known_hosts),
        "use_keys": False,
        "allow_agent": False,
        "conn_timeout": timeout,
        "auth_timeout": timeout,
        "banner_timeout": timeout,
        "fast_cli": False,
    }
    install_redaction(credentials.password, credentials.enable_secret)
    try:
        connection = ConnectHandler(**params)
        if credentials.enable_secret and not connection.check_enable_mode():
            connection.enable()
    except NetmikoAuthenticationException as exc:
        message = f"{target}: authentication failed for user {credentials.username}"
        raise DeviceError(message) from exc
    except (NetmikoTimeoutException, paramiko.SSHException, OSError) as exc:
        raise _explain(target, exc, timeout) from exc
    return connection


def _chain(exc: BaseException) -> list[BaseException]:
    """An exception and the ones it was raised from (netmiko wraps paramiko's)."""
    found: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in found:
        found.append(current)
        current = current.__cause__ or current.__context__
    return found


def _explain(target: Target, exc: BaseException, timeout: float) -> DeviceError:
    for cause in _chain(exc):
        if isinstance(cause, paramiko.BadHostKeyException):
            return HostKeyError(
                f"{target}: the SSH host key CHANGED since it was trusted; refusing to connect "
                f"(credentials were not sent). {_trust_hint(target)}"
            )
        if isinstance(cause, paramiko.SSHException) and "not found in known_hosts" in str(cause):
            return HostKeyError(
                f"{target}: unknown SSH host key; refusing to connect (credentials were not "
                f"sent). {_trust_hint(target)}"
            )
    if isinstance(exc, NetmikoTimeoutException):
        return DeviceError(f"{target}: no answer within {timeout:g} s")
    return DeviceError(f"{target}: cannot connect: {exc}")
