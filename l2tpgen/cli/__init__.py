"""The ``l2tpgen`` command line: a thin layer that parses options, calls the library and prints.

Only this package prints, prompts or exits. Each module registers its commands on the one app.
"""

from l2tpgen.cli import device, lab, lint, sim, sites
from l2tpgen.cli.app import app, err, out

app.add_typer(sim.sim_app, name="sim")
app.add_typer(lab.lab_app, name="lab")

__all__ = ["app", "device", "err", "lab", "lint", "main", "out", "sim", "sites"]


def main() -> None:
    """Console-script entry point."""
    app()
