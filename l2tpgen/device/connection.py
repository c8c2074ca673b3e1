"""Connections to routers: credentials from the environment, host keys always verified.

Credentials are read (and their absence reported) before any connection. Host keys are checked
against the target's known_hosts file with paramiko's reject policy, during the key exchange, so an
unknown or changed key refuses the connection before credentials are sent.
"""

from __future__ import annotations

import os
import socket
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
    try:
        connection = ConnectHandler(**params)
        if credentials.enable_secret and not connection.check_enable_mode():
            connection.enable()
    except paramiko.BadHostKeyException as exc:
        raise HostKeyError(
            f"{target}: the SSH host key CHANGED since it was trusted; refusing to connect "
            f"(credentials were not sent). {_trust_hint(target)}"
        ) from exc
    except NetmikoAuthenticationException as exc:
        raise DeviceError(f"{target}: authentication failed for user {credentials.username}") from exc
    except NetmikoTimeoutException as exc:
        raise DeviceError(f"{target}: no answer within {timeout:g} s") from exc
    except paramiko.SSHException as exc:
        if "not found in known_hosts" in str(exc):
            raise HostKeyError(
                f"{target}: unknown SSH host key; refusing to connect (credentials were not "
                f"sent). {_trust_hint(target)}"
            ) from exc
        raise DeviceError(f"{target}: SSH failed: {exc}") from exc
    except (OSError, socket.error) as exc:
        raise DeviceError(f"{target}: cannot connect: {exc}") from exc
    return connection
