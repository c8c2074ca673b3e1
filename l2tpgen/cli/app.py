"""Shared pieces of the command line: the app, consoles, common options, error reporting.

Exit codes: 0 success; 1 the input has errors or findings (nothing was changed); 2 usage error;
push adds 3 (refused and rolled back) and 4 (rollback failed: check the router by hand).

Start-up stays cheap: command modules import typer, rich and the standard library at the top, and
everything else (the model, the renderer, the linter, netmiko, Nornir, the simulator) inside the
commands that use it, so ``--version`` and ``--help`` import none of it.
"""

from __future__ import annotations

import json
import os
import re
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from l2tpgen import __version__
from l2tpgen.errors import FleetValidationError, L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from typer._click import Command, Context, HelpFormatter

    from l2tpgen.model import Fleet, Problem

EXIT_FINDINGS = 1


class _Option(TyperOption):
    """An option whose help shows a value's kind, never Python's (``<bool>``, ``<list[str]>``)."""

    def display_type_rich(self, ctx: Context) -> str | None:
        """Nothing for a flag; the element's kind for a repeatable option."""
        if self.is_flag or self.count:
            return None  # a flag takes no value
        shown = super().display_type_rich(ctx)
        if shown and shown.startswith("<list[") and shown.endswith("]>"):
            return f"<{shown[6:-2]}>"  # a repeatable option takes one value each time
        return shown


class _Argument(TyperArgument):
    """An argument shown by its metavar (``SITE...``), as the usage line writes it."""

    def display_type_rich(self, ctx: Context) -> str | None:
        """Nothing when the metavar names the argument; never a Python list type."""
        if self.metavar is not None:
            return None  # the name says it already: CONFIG..., [SITE]...
        shown = super().display_type_rich(ctx)
        return None if shown and shown.startswith("<list[") else shown

    def _usage_display_name(self) -> str:
        if self.metavar is not None:
            return self.metavar
        name = (self.name or "").upper()
        name = name if self.required else f"[{name}]"
        return f"{name}..." if self.nargs != 1 else name


_LITERAL = re.compile(r"``([^`]+)``")  # reStructuredText's inline literal, from docstrings
_LIST_ITEM = re.compile(r"^\s*(?:[-*] |\d+[.)] )")


def plain_help(text: str) -> str:
    """Docstring text as help: reST literals as `x`, each paragraph one line for the terminal.

    A docstring is wrapped at 100 columns in the source; the terminal wraps it again at its own
    width, so a line break kept from the source would cut a sentence in two. List items and
    indented lines keep their own lines.
    """
    text = _LITERAL.sub(r"`\1`", text)
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in block.splitlines():
            if lines and not _LIST_ITEM.match(line) and not line.startswith("    "):
                lines[-1] = f"{lines[-1]} {line.strip()}"
            else:
                lines.append(line.rstrip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _tidy(command: Command, ctx: Context) -> None:
    """Give a command's parameters the help display above (typer creates them itself)."""
    if command.help and not getattr(command, "_l2tpgen_tidy", False):
        command.help = escape(plain_help(command.help))
        command._l2tpgen_tidy = True  # type: ignore[attr-defined]  # noqa: SLF001 - once only
    for param in command.get_params(ctx):
        if type(param) is TyperOption:
            param.__class__ = _Option
        elif type(param) is TyperArgument:
            param.__class__ = _Argument
        text = getattr(param, "help", None)
        if text and not getattr(param, "_l2tpgen_tidy", False):
            # rich would read `[default: ...]` in a help text as a markup tag and drop it
            setattr(param, "help", escape(_LITERAL.sub(r"`\1`", str(text))))  # noqa: B010
            setattr(param, "_l2tpgen_tidy", True)  # noqa: B010 - typer's objects, our mark


class _Command(TyperCommand):
    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        _tidy(self, ctx)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        _tidy(self, ctx)
        super().format_usage(ctx, formatter)


COMMAND_ORDER = (
    "validate",
    "render",
    "schema",
    "secrets",
    "mtu",
    "lint",
    "rules",
    "rule",
    "hosts",
    "docs",
    "import",
    "netbox",
    "push",
    "diff",
    "rollback",
    "confirm",
    "verify",
    "sim",
    "lab",
)


class HelpGroup(TyperGroup):
    """The command group of l2tpgen: its commands' help reads well (see ``_Option``)."""

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """The command, its help made to read well (sub-groups too)."""
        command = super().get_command(ctx, cmd_name)
        if type(command) is TyperCommand:
            command.__class__ = _Command
        elif type(command) is TyperGroup:
            command.__class__ = HelpGroup
        return command

    def list_commands(self, ctx: Context) -> list[str]:
        """The commands in the order of the work: sites, lint, import, routers, rehearsal."""
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else 99)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The group's help, without Python types."""
        _tidy(self, ctx)
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=HelpGroup,
    name="l2tpgen",
    help="Build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites.",
    epilog=(
        "Not listed: `l2tpgen hook lint-configs`, the entry point of the pre-commit hooks and the "
        "GitHub Action (docs/lint.md). Every command's guide is in docs/."
    ),
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (README: Install)
    pretty_exceptions_enable=False,
)
# No markup: user strings (paths, site names, config text) may hold `[/]` and such. NO_COLOR
# (no-color.org: set and not empty) means no escape sequence at all: rich's own NO_COLOR handling
# drops colours but keeps dim and bold.
_COLOR_SYSTEM: Literal["auto"] | None = None if os.environ.get("NO_COLOR") else "auto"
# No emoji codes either: an IPv6 address such as 2001:db8:0:a::2 holds `:a:`, which rich would
# print as an emoji.
out = Console(
    highlight=False, soft_wrap=True, markup=False, emoji=False, color_system=_COLOR_SYSTEM
)
err = Console(
    stderr=True,
    highlight=False,
    soft_wrap=True,
    markup=False,
    emoji=False,
    color_system=_COLOR_SYSTEM,
)

LATIN1 = 0xFF
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def safe(text: str) -> str:
    r"""Text from users and configs made safe for a terminal.

    Control characters (escape sequences among them) and bidirectional overrides are shown as
    ``\xNN`` / ``\uNNNN`` instead of acting on the terminal.
    """
    return _UNSAFE.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) <= LATIN1 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


class OutputFormat(str, Enum):
    """Output for people or for scripts."""

    text = "text"
    json = "json"


def fail(message: str) -> NoReturn:
    """Print an error and exit 1."""
    err.print(Text.assemble(("error:", "bold red"), " ", safe(message)))
    raise typer.Exit(EXIT_FINDINGS)


def report_problems(exc: FleetValidationError, fmt: OutputFormat) -> NoReturn:
    """Print every site-file problem and exit 1."""
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps({"ok": False, "problems": [problem_dict(p) for p in exc.problems]})
        )
        raise typer.Exit(EXIT_FINDINGS)
    for problem in exc.problems:
        err.print(
            Text.assemble(
                (f"{safe(problem.where)}:", "bold"),
                " ",
                ("error:", "red"),
                " ",
                safe(problem.message),
                *coded(problem),
            )
        )
        if problem.hint:
            err.print(Text.assemble("  ", ("hint:", "cyan"), " ", safe(problem.hint)))
    err.print(str(exc))
    raise typer.Exit(EXIT_FINDINGS)


def coded(problem: Problem) -> tuple[tuple[str, str], ...]:
    """`` [V013]`` after a problem's message (mypy's place for an error code), if it has a code."""
    return ((f" [{problem.code}]", "dim"),) if problem.code else ()


def problem_dict(problem: Problem) -> dict[str, object]:
    """A problem as JSON."""
    loc = problem.location
    return {
        "file": loc.file if loc else None,
        "line": loc.line if loc else None,
        "column": loc.column if loc else None,
        "site": problem.site,
        "path": list(problem.path),
        "message": problem.message,
        "hint": problem.hint,
        "code": problem.code,
    }


def load(sites: Path, fmt: OutputFormat = OutputFormat.text, names: Sequence[str] = ()) -> Fleet:
    """Load the fleet (or only ``names`` and their peers) or exit 1 with every problem."""
    from l2tpgen.model import load_fleet, load_sites  # noqa: PLC0415 - start-up stays cheap

    try:
        return load_sites(sites, names) if names else load_fleet(sites)
    except FleetValidationError as exc:
        report_problems(exc, fmt)
    except L2tpgenError as exc:
        fail(str(exc))


def _version(value: bool) -> None:
    if value:
        out.print(f"l2tpgen {__version__}")
        raise typer.Exit


@app.callback()
def main_callback(
    _version_flag: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Build, check and deploy Cisco L2TPv3 pseudowires that stretch VLANs between sites."""


SitesOption = Annotated[
    Path,
    typer.Option("--sites", help="Directory of site files.", show_default=True),
]


def check_output_path(
    output: Path | None,
    what: str,
    names: list[str],
    *,
    flag: str = "-o",
    example: str = "",
    directory: bool = False,
) -> None:
    """Every command's ``-o`` rule (docs/site-files.md#output-files), checked before writing.

    Several files (``names``), or a command that always writes into a ``directory`` (import,
    netbox pull): a directory, made if missing; a path that names a file (it exists as one, or
    has a suffix) is refused. One file: a file; an existing directory is refused. Both refusals
    are usage errors (exit 2) that say what to name instead. ``-`` and no ``-o`` (stdout) pass.
    ``example``: the file name suggested inside a directory given for one file.
    """
    from l2tpgen.files import is_stdout, names_a_file, several_files_refusal  # noqa: PLC0415

    if output is None or is_stdout(output):
        return
    if (directory or len(names) > 1) and names_a_file(output):
        raise typer.BadParameter(several_files_refusal(output, what, names), param_hint=flag)
    if not directory and len(names) == 1 and output.is_dir():
        inside = output / (example or names[0])
        raise typer.BadParameter(
            f"{what} is one file, and {output} is a directory: name the file, e.g. {flag} {inside}",
            param_hint=flag,
        )
