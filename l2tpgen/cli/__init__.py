"""The ``l2tpgen`` command line: a thin layer that parses options, calls the library and prints.

Only this package prints, prompts or exits. Each module registers its commands on the one app;
``groups.COMMANDS`` names the module of each command, imported when the command is first needed.
"""

import os
import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C

try:
    from l2tpgen.cli.app import app, err, out
except KeyboardInterrupt:  # Ctrl-C while typer and rich load (the first tenth of a second): quiet
    raise SystemExit(EXIT_INTERRUPTED) from None

__all__ = ["app", "err", "main", "out"]


DEBUG = "L2TPGEN_DEBUG"
# The optional packages (pyproject.toml's extras) by the top-level module a command imports.
EXTRAS = {
    "hier_config": "push",
    "netmiko": "push",
    "nornir": "push",
    "nornir_netmiko": "push",
    "paramiko": "push",
    "textfsm": "push",
    "asyncssh": "sim",
    "pynetbox": "netbox",
}


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """What to install when a command's optional package is missing; None: not an extra's."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return (
        f"this command needs {top}, which comes with l2tpgen's {extra} extra: install it with "
        f"`pip install 'l2tpgen[{extra}]'` from where you install l2tpgen (a checkout: "
        f"`pip install '.[{extra}]'`; with pipx: `pipx install --force '.[{extra}]'`, or "
        "`[all]` for every command)"
    )


def main() -> None:
    """Console-script entry point: never a traceback, unless L2TPGEN_DEBUG is set.

    Ctrl-C exits 130 with no traceback, also while the modules load (above) and before app().

    Errors l2tpgen expects are reported by each command; this catches the rest (a bug), whose
    message may hold config text or secrets, so only its type is printed.
    """
    try:
        app()
    except KeyboardInterrupt:  # outside a command (typer stops one with 130 itself): quiet too
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:
        if os.environ.get(DEBUG):
            raise
        hint = missing_extra(exc) if isinstance(exc, ModuleNotFoundError) else None
        if hint is not None:
            err.print(f"error: {hint}", markup=False)
            sys.exit(1)
        err.print(
            f"error: internal error ({type(exc).__name__}); this is a bug in l2tpgen. Run again "
            f"with {DEBUG}=1 to see where it happened (the traceback may show config text)."
        )
        sys.exit(1)
