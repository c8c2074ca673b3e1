"""Nornir tasks for your own Nornir scripts: push and verify l2tpgen sites.

**Which site a host is.** Its ``l2tpgen_site`` (host, group or defaults data), else its name:
``router-17.example.net`` with ``data: {l2tpgen_site: site-a}`` pushes ``site-a``.
``in_fleet(fleet)`` is a filter for the hosts that map to a site of the fleet.

**How it is reached: your inventory's connection options**, as Nornir's netmiko plugin reads
them: ``hostname``, ``port``, ``username``, ``password`` and ``platform`` (host values, overridden
by ``connection_options: {netmiko: ...}``), and its ``extras`` passed to netmiko (``secret``,
``conn_timeout``, ``use_keys``, ``key_file``, ...). When nornir-netmiko is installed, its
connection plugin opens the connection. Host keys are verified whatever the extras say (l2tpgen's
rule): against ``alt_key_file`` from the extras, else ``known_hosts`` from the host data, else
``~/.ssh/known_hosts``. With ``accept_new_host_keys: true`` in the host data, a router that file
has no entry for gets the key it offers learned into it (ssh's ``accept-new``; a changed key is
refused all the same; see ``l2tpgen.device.accept_new``). The plugin (or netmiko) only makes the
connection object: l2tpgen then logs in itself, in one round trip after the SSH login
(``auto_connect`` is always false). Without a username and password in the inventory, the
``L2TPGEN_*`` environment variables are used. The L2TP secret comes from the variable named in the
site file.

Example::

    from nornir import InitNornir
    from l2tpgen import load_fleet
    from l2tpgen.nornir import in_fleet, l2tpgen_push, l2tpgen_verify

    nr = InitNornir(config_file="config.yaml")
    fleet = load_fleet("sites")
    pushed = nr.filter(filter_func=in_fleet(fleet)).run(
        task=l2tpgen_push, fleet=fleet, dry_run=True
    )
    for host, result in pushed.items():
        print(host, result[0].result.status.value, result[0].result.diff)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netmiko import ConnectHandler
from nornir.core.task import Result, Task

from l2tpgen.device import connection as login
from l2tpgen.device.config_replace import close
from l2tpgen.device.connection import explain, require_known_hosts
from l2tpgen.device.credentials import Credentials, credentials_from_env, install_redaction
from l2tpgen.device.inventory import USER_KNOWN_HOSTS, Target
from l2tpgen.device.options import PushOptions
from l2tpgen.device.push import push_site
from l2tpgen.device.result import Status
from l2tpgen.device.verify import verify_site
from l2tpgen.errors import L2tpgenError
from l2tpgen.traits import DEFAULT, DRIVERS

if TYPE_CHECKING:
    from collections.abc import Callable

    from nornir.core.inventory import Host

    from l2tpgen.model import Fleet

SITE_KEY = "l2tpgen_site"
ACCEPT_NEW_KEY = "accept_new_host_keys"
CONNECTION = "netmiko"


def site_of(host: Host) -> str:
    """The site a Nornir host is: its ``l2tpgen_site`` data, else its name."""
    value = host.get(SITE_KEY)
    return str(value) if value else str(host.name)


def in_fleet(fleet: Fleet) -> Callable[[Host], bool]:
    """A ``filter_func`` keeping the hosts that map to a site of ``fleet``."""
    return lambda host: site_of(host) in fleet.sites


def _options(host: Host) -> tuple[Any, dict[str, Any]]:
    options = host.get_connection_parameters(CONNECTION)
    return options, dict(options.extras or {})


def target_of(task: Task) -> Target:
    """The router of a Nornir host, from its netmiko connection options."""
    options, extras = _options(task.host)
    known = extras.get("alt_key_file") or task.host.get("known_hosts", USER_KNOWN_HOSTS)
    return Target(
        site=site_of(task.host),
        host=str(options.hostname),
        port=int(options.port or 22),
        device_type=str(options.platform or DRIVERS[DEFAULT].device_type),
        known_hosts=Path(str(known)).expanduser(),
        accept_new_host_keys=task.host.get(ACCEPT_NEW_KEY) is True,
    )


def credentials_of(task: Task) -> Credentials:
    """The host's username and password, else the L2TPGEN_* environment variables."""
    options, extras = _options(task.host)
    if options.username and options.password:
        enable = extras.get("secret") or task.host.get("enable_secret", "")
        return Credentials(str(options.username), str(options.password), str(enable))
    return credentials_from_env()


def _plugin() -> type[Any] | None:
    """nornir-netmiko's connection plugin, where it is installed."""
    if importlib.util.find_spec("nornir_netmiko") is None:
        return None
    from nornir_netmiko.connections import Netmiko  # noqa: PLC0415 - extra: nornir-netmiko, if installed

    return Netmiko  # type: ignore[no-any-return]


def connector_of(task: Task) -> Callable[[Target, Credentials], Any]:
    """How to open (and, for a rollback, reopen) the host's connection, with its options."""
    _, extras = _options(task.host)
    config = getattr(task.nornir, "config", None) if task.nornir is not None else None

    def open_connection(target: Target, credentials: Credentials) -> Any:  # noqa: ANN401 - netmiko
        require_known_hosts(target)
        enforced = login.enforced_options(target, credentials)
        settings: dict[str, Any] = {
            **login.default_options(login.CONNECT_TIMEOUT),
            **{k: v for k, v in extras.items() if k not in enforced},
            **enforced,
        }
        # Each read of the login waits the user's read_timeout_override, else conn_timeout; the
        # override is theirs again once logged in.
        override = extras.get("read_timeout_override")
        wait = float(override or settings["conn_timeout"])
        settings["read_timeout_override"] = wait
        install_redaction(credentials.password, credentials.enable_secret)
        try:
            connection = _open(target, credentials, settings, config)
        except Exception as exc:  # every way a login fails becomes one clear line
            raise explain(target, credentials, exc, wait) from exc
        connection = login.log_in(connection, target, credentials, wait)
        connection.read_timeout_override = override
        return connection

    return open_connection


def _open(target: Target, credentials: Credentials, settings: dict[str, Any], config: Any) -> Any:  # noqa: ANN401
    plugin = _plugin()
    if plugin is not None:
        opened = plugin()
        opened.open(
            hostname=target.host,
            username=credentials.username,
            password=credentials.password,
            port=target.port,
            platform=target.device_type,
            extras=settings,
            configuration=config,
        )
        return opened.connection

    return ConnectHandler(
        device_type=target.device_type,
        host=target.host,
        port=target.port,
        username=credentials.username,
        password=credentials.password,
        **settings,
    )


def l2tpgen_push(
    task: Task,
    fleet: Fleet,
    *,
    dry_run: bool = False,
    save: bool = True,
    options: PushOptions | None = None,
    credentials: Credentials | None = None,
) -> Result:
    """Push the host's site (see ``l2tpgen.device.push``); the result is a ``PushResult``.

    ``failed`` is set for anything but unchanged / would-change / changed, ``changed`` when the
    router's config changed. ``options``, when given, wins over ``dry_run`` and ``save``.
    """
    chosen = options or PushOptions(dry_run=dry_run, save=save)
    try:
        outcome = push_site(
            fleet,
            site_of(task.host),
            target_of(task),
            credentials or credentials_of(task),
            chosen,
            connector=connector_of(task),
        )
    except Exception as exc:  # noqa: BLE001 - a bug: kept as the result's exception, see _unexpected
        return _unexpected(task, exc)
    return Result(
        host=task.host,
        result=outcome,
        changed=outcome.status is Status.CHANGED,
        failed=outcome.status.exit_code != 0,
    )


def _unexpected(task: Task, exc: Exception) -> Result:
    """A failed result holding an exception l2tpgen did not expect (a bug), its trace unformatted.

    Left to Nornir, the task's exception is formatted with ``traceback.format_exc()`` in the
    worker thread; on Python 3.11 two threads formatting at once can make ``ast.parse`` (which
    3.11's tracebacks call to place their ``^^^`` marks) raise ``SystemError: AST constructor
    recursion depth mismatch`` (CPython gh-106905), which then replaces the real exception.
    """
    return Result(host=task.host, result=None, failed=True, exception=exc)


def l2tpgen_verify(task: Task, fleet: Fleet, *, credentials: Credentials | None = None) -> Result:
    """Read the host's pseudowire states; ``failed`` unless all are UP."""
    try:
        return _verified(task, fleet, credentials)
    except Exception as exc:  # noqa: BLE001 - a bug: kept as the result's exception, see _unexpected
        return _unexpected(task, exc)


def _verified(task: Task, fleet: Fleet, credentials: Credentials | None) -> Result:
    target = target_of(task)
    try:
        connection = connector_of(task)(target, credentials or credentials_of(task))
    except L2tpgenError as exc:
        return Result(host=task.host, result=[], failed=True, exception=exc)
    try:
        states = verify_site(fleet, site_of(task.host), connection)
    except L2tpgenError as exc:
        return Result(host=task.host, result=[], failed=True, exception=exc)
    finally:
        close(connection)
    return Result(host=task.host, result=states, failed=not all(s.up for s in states))
