"""``l2tpgen hook``: entry points for pre-commit and the GitHub Action (hidden from --help).

pre-commit passes the changed files as arguments; ``l2tpgen lint --config`` takes one file per
option, so ``hook lint-configs FILE...`` lints them all together (the cross-device rules need
both ends).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from l2tpgen.cli.app import app
from l2tpgen.cli.lint import FailOn, LintFormat, lint

hook_app = typer.Typer(
    name="hook", help="Entry points for pre-commit and CI.", no_args_is_help=True, hidden=True
)
app.add_typer(hook_app, name="hook")


@hook_app.command("lint-configs")
def lint_configs(
    files: Annotated[
        list[Path] | None, typer.Argument(metavar="CONFIG...", help="IOS config files.")
    ] = None,
    fmt: Annotated[LintFormat, typer.Option("--format", help="Output format.")] = LintFormat.text,
    fail_on: Annotated[
        FailOn | None,
        typer.Option("--fail-on", help="Lowest severity that fails.", show_default=False),
    ] = None,
) -> None:
    """Lint IOS config files together (what pre-commit passes); no file: nothing to do."""
    if not files:
        return
    lint(None, files, Path("sites"), fmt, None, None, fail_on)
