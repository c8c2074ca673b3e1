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
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from l2tpgen import __version__
from l2tpgen.errors import FleetValidationError, L2tpgenError, SitesDirectoryError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from typer._click import Command, Context, HelpFormatter

    from l2tpgen.model import Fleet, Problem

EXIT_FINDINGS = 1
EXIT_USAGE = 2


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
if _COLOR_SYSTEM is None:
    # typer draws help and usage errors with a console of its own: the same rule for it (its
    # module is imported here only then: it loads a Markdown parser, 120 modules, at start-up).
    import typer.rich_utils

    typer.rich_utils.COLOR_SYSTEM = None


class _Console(Console):
    r"""rich's console, its JSON written with every non-ASCII character as a ``\uNNNN`` escape.

    rich writes JSON with ``ensure_ascii=False``: a site-file key holding U+202E (right-to-left
    override) or U+0085 (next line) reached the terminal raw in ``validate --format json``.
    """

    def print_json(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - rich's own
        """``Console.print_json``, ASCII only unless asked otherwise."""
        kwargs.setdefault("ensure_ascii", True)
        super().print_json(*args, **kwargs)


# No emoji codes either: an IPv6 address such as 2001:db8:0:a::2 holds `:a:`, which rich would
# print as an emoji.
out = _Console(
    highlight=False, soft_wrap=True, markup=False, emoji=False, color_system=_COLOR_SYSTEM
)
err = _Console(
    stderr=True,
    highlight=False,
    soft_wrap=True,
    markup=False,
    emoji=False,
    color_system=_COLOR_SYSTEM,
)

LATIN1 = 0xFF
# Every control character but the tab, the bidirectional overrides, and the line and paragraph
# separators some terminals and log viewers break lines at.
_UNSAFE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _visible(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) <= LATIN1 else f"\\u{ord(char):04x}"


# What GitHub Actions reads as a workflow command at the start of a log line (leading blanks
# allowed): `::command::`, `::command key=value::` and the older `##[command]` (an IPv6 address
# such as `::1` or `::ffff:192.0.2.1` is none).
_COMMAND = re.compile(r"^(\s*)([:#])(?=:[A-Za-z][\w-]*(?:::|\s)|#\[)", re.MULTILINE)


def _no_command(text: str) -> str:
    return _COMMAND.sub(lambda m: m.group(1) + _visible(m.group(2)), text)


def safe(text: str) -> str:
    r"""One line of text from users and configs, made safe for a terminal and a CI log.

    Control characters (escape sequences among them), line breaks and bidirectional overrides
    are shown as ``\n``, ``\r``, ``\xNN`` / ``\uNNNN`` instead of acting on the terminal or
    starting a line of their own: a site-file key ``"a\n::add-mask::x"`` must not put a GitHub
    Actions workflow command at the start of a log line, and a string that starts with one (a
    file named `::add-mask::x.yaml`) shows its first character escaped (``\x3a``). Text of several
    lines is printed line by line (``safe_lines``).
    """
    return _no_command(_UNSAFE.sub(lambda m: _visible(m.group()), text))


def safe_lines(text: str) -> str:
    """Text of several lines (a message l2tpgen wrote so): each line ``safe``, the breaks kept.

    Whatever a line holds, none starts with a workflow command.
    """
    return "\n".join(safe(line) for line in text.split("\n"))


class OutputFormat(str, Enum):
    """Output for people or for scripts."""

    text = "text"
    json = "json"


def fail(message: str, code: int = EXIT_FINDINGS) -> NoReturn:
    """Print an error and exit 1 (or ``code``)."""
    err.print(Text.assemble(("error:", "bold red"), " ", safe_lines(message)))
    raise typer.Exit(code)


def exit_code(exc: L2tpgenError) -> int:
    """1 for an error of the input; 2 (usage) for a sites directory that is not one."""
    return EXIT_USAGE if isinstance(exc, SitesDirectoryError) else EXIT_FINDINGS


def report_problems(exc: FleetValidationError, fmt: OutputFormat) -> NoReturn:
    """Print every site-file problem and exit 1."""
    if fmt is OutputFormat.json:
        out.print_json(
            json.dumps({"ok": False, "problems": [problem_dict(p) for p in exc.problems]})
        )
        raise typer.Exit(EXIT_FINDINGS)
    print_lines(err, (line for problem in exc.problems for line in problem_lines(problem)))
    errors = [p for p in exc.problems if p.level == "error"]
    warned = len(exc.problems) - len(errors)
    noted = f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""
    err.print(f"{FleetValidationError(errors)}{noted}")
    raise typer.Exit(EXIT_FINDINGS)


def problem_lines(problem: Problem) -> Iterator[Text]:
    """``file:line:column: error: message [code]`` and, under it, its hint (if any)."""
    level = problem.level
    yield Text.assemble(
        (f"{safe(problem.where)}:", "bold"),
        " ",
        (f"{level}:", "red" if level == "error" else "yellow"),
        " ",
        safe(problem.message),
        *coded(problem),
    )
    if problem.hint:
        yield Text.assemble("  ", ("hint:", "cyan"), " ", safe(problem.hint))


# Lines printed at once: rich spends about a millisecond on each call to ``print``, whatever its
# length, so 16,000 problems printed one by one took longer than finding them.
BATCH = 512


def print_lines(console: Console, lines: Iterable[Text], batch: int = BATCH) -> None:
    """Print ``lines`` as ``console.print`` of each would, ``batch`` lines a call."""
    chunk: list[Text] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= batch:
            console.print(Text("\n").join(chunk))
            chunk = []
    if chunk:
        console.print(Text("\n").join(chunk))


def coded(problem: Problem) -> tuple[tuple[str, str], ...]:
    """`` [V013]`` after a problem's message (mypy's place for an error code), if it has a code."""
    return ((f" [{problem.code}]", "dim"),) if problem.code else ()


def problem_dict(problem: Problem) -> dict[str, object]:
    """A problem as JSON (``l2tpgen.api.problem_dict``)."""
    from l2tpgen.api import problem_dict as as_json  # noqa: PLC0415 - start-up stays cheap

    return as_json(problem)


def load(sites: Path, fmt: OutputFormat = OutputFormat.text, names: Sequence[str] = ()) -> Fleet:
    """Load the fleet (or only ``names`` and their peers) or exit 1 with every problem."""
    from l2tpgen.model import load_fleet, load_sites  # noqa: PLC0415 - start-up stays cheap

    try:
        return load_sites(sites, names) if names else load_fleet(sites)
    except FleetValidationError as exc:
        report_problems(exc, fmt)
    except L2tpgenError as exc:
        fail(str(exc), exit_code(exc))


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


def _sites(ctx: typer.Context, param: typer.CallbackParam, value: Path) -> Path:
    """``--sites`` as given, else discovered (a missing directory is reported when it is read)."""
    from l2tpgen.discovery import DiscoveryError, find_sites  # noqa: PLC0415 - start-up

    # click's ParameterSource (typer vendors click; its enum is compared by name)
    source = ctx.get_parameter_source(param.name or "sites")
    given = source is not None and source.name != "DEFAULT"
    try:
        return find_sites(value if given else None).path
    except DiscoveryError as exc:
        raise typer.BadParameter(str(exc)) from None


SitesOption = Annotated[
    Path,
    typer.Option(
        "--sites",
        metavar="DIR",
        callback=_sites,
        show_default=False,
        help="Directory of site files [default: $L2TPGEN_SITES, else `sites` of "
        "[tool.l2tpgen] in the nearest pyproject.toml, else ./sites here or in a parent "
        "directory up to the repository root (docs/site-files.md#where-l2tpgen-finds-the-sites)].",
    ),
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
