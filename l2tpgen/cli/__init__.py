"""The ``l2tpgen`` command line: a thin layer that parses options, calls the library and prints.

Only this package prints, prompts or exits. Each module registers its commands on the one app.
"""

import os
import sys

from l2tpgen.cli import (
    device,
    fleetdoc,
    hooks,
    hosts,
    importer,
    lab,
    lab_live,
    lint,
    netbox,
    push,
    rollback,
    schema,
    secrets_cmd,
    sim,
    sites,
)
from l2tpgen.cli.app import app, err, out

app.add_typer(sim.sim_app, name="sim")
app.add_typer(lab.lab_app, name="lab")
app.add_typer(hooks.hook_app, name="hook")
app.add_typer(netbox.netbox_app, name="netbox")

__all__ = [
    "app",
    "device",
    "err",
    "fleetdoc",
    "hooks",
    "hosts",
    "importer",
    "lab",
    "lab_live",
    "lint",
    "main",
    "netbox",
    "out",
    "push",
    "rollback",
    "schema",
    "secrets_cmd",
    "sim",
    "sites",
]


DEBUG = "L2TPGEN_DEBUG"


def main() -> None:
    """Console-script entry point: never a traceback, unless L2TPGEN_DEBUG is set.

    Errors l2tpgen expects are reported by each command; this catches the rest (a bug), whose
    message may hold config text or secrets, so only its type is printed.
    """
    try:
        app()
    except Exception as exc:
        if os.environ.get(DEBUG):
            raise
        err.print(
            f"error: internal error ({type(exc).__name__}); this is a bug in l2tpgen. Run again "
            f"with {DEBUG}=1 to see where it happened (the traceback may show config text)."
        )
        sys.exit(1)
