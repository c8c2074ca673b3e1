"""Nornir tasks for your own Nornir scripts: push and verify l2tpgen sites.

Each host's name is a site name of the fleet; ``hostname``, ``port``, ``username``, ``password``
and ``platform`` (netmiko device type) come from your inventory as usual, ``known_hosts`` (host or
group data) names the file of trusted host keys (default ``~/.ssh/known_hosts``), and
``enable_secret`` (data) the enable secret if the router needs one. The L2TP secret comes from the
environment variable named in the site file.

Example::

    from nornir import InitNornir
    from l2tpgen import load_fleet
    from l2tpgen.nornir import l2tpgen_push, l2tpgen_verify

    nr = InitNornir(config_file="config.yaml")
    fleet = load_fleet("sites")
    pushed = nr.filter(filter_func=lambda h: h.name in fleet.sites).run(
        task=l2tpgen_push, fleet=fleet, dry_run=True
    )
    for host, result in pushed.items():
        print(host, result[0].result.status.value, result[0].result.diff)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from nornir.core.task import Result, Task

from l2tpgen.device.connection import Credentials, connect, credentials_from_env
from l2tpgen.device.inventory import USER_KNOWN_HOSTS, Target
from l2tpgen.device.push import PushOptions, Status, push_site
from l2tpgen.device.verify import verify_site
from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from l2tpgen.model import Fleet


def target_of(task: Task) -> Target:
    """The router of a Nornir host."""
    host = task.host
    return Target(
        site=host.name,
        host=str(host.hostname),
        port=int(host.port or 22),
        device_type=str(host.platform or "cisco_ios"),
        known_hosts=Path(str(host.get("known_hosts", USER_KNOWN_HOSTS))).expanduser(),
    )


def credentials_of(task: Task) -> Credentials:
    """The host's username and password, else the L2TPGEN_* environment variables."""
    host = task.host
    if host.username and host.password:
        return Credentials(
            str(host.username), str(host.password), str(host.get("enable_secret", ""))
        )
    return credentials_from_env()


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
    outcome = push_site(
        fleet, task.host.name, target_of(task), credentials or credentials_of(task), chosen
    )
    return Result(
        host=task.host,
        result=outcome,
        changed=outcome.status is Status.CHANGED,
        failed=outcome.status.exit_code != 0,
    )


def l2tpgen_verify(task: Task, fleet: Fleet, *, credentials: Credentials | None = None) -> Result:
    """Read the host's pseudowire states; ``failed`` unless all are UP."""
    try:
        connection = connect(target_of(task), credentials or credentials_of(task))
    except L2tpgenError as exc:
        return Result(host=task.host, result=[], failed=True, exception=exc)
    try:
        states = verify_site(fleet, task.host.name, connection)
    except L2tpgenError as exc:
        return Result(host=task.host, result=[], failed=True, exception=exc)
    finally:
        connection.disconnect()
    return Result(host=task.host, result=states, failed=not all(s.up for s in states))
