"""Shared pieces of the command line: the app, consoles, common options, error reporting.

Exit codes: 0 success; 1 the input has errors or findings (nothing was changed); 2 usage error;
push adds 3 (refused and rolled back) and 4 (rollback failed: check the router by hand).

Start-up stays cheap: this module, which every command imports, imports typer, rich and light
parts of l2tpgen; each command's module (loaded only when the command runs: ``groups.py``)
imports what the command uses, so ``--version`` and ``--help`` import none of it.
"""

from __future__ import annotations

import re
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from l2tpgen import __version__
from l2tpgen.cli.consoles import COLOR_SYSTEM, LazyConsole
from l2tpgen.cli.groups import LazyGroup
from l2tpgen.discovery import DiscoveryError, find_sites
from l2tpgen.errors import L2tpgenError, SitesDirectoryError
from l2tpgen.files import is_stdout, names_a_file, several_files_refusal, write_files

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from rich.console import Console
    from rich.text import Text

    from l2tpgen.model import Problem

EXIT_FINDINGS = 1
EXIT_USAGE = 2


app = typer.Typer(
    cls=LazyGroup,
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
LazyGroup.source = app  # the commands' modules register on it
if COLOR_SYSTEM is None:
    # typer draws help and usage errors with a console of its own: the same rule for it (its
    # module is imported here only then: it loads a Markdown parser, 120 modules, at start-up).
    import typer.rich_utils

    typer.rich_utils.COLOR_SYSTEM = None

# Made when first used (``consoles.py``): a fleet that validates prints with ``print_plain``.
out = LazyConsole()
err = LazyConsole(stderr=True)


def print_plain(line: str) -> None:
    """``out.print(line)``, without loading rich for a line it would print unchanged.

    ``out`` adds nothing to plain text (no highlighting, markup, emoji, style or wrapping), and a
    line of printable ASCII is written byte for byte as rich writes it, then flushed as rich
    flushes; rich drops some control characters and expands tabs, so any other line is printed
    by rich itself.
    """
    if line.isascii() and line.isprintable():
        sys.stdout.write(f"{line}\n")
        sys.stdout.flush()
    else:
        out.print(line)


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
    from rich.text import Text  # noqa: PLC0415 - startup: rich, for what validate prints when all is well

    err.print(Text.assemble(("error:", "bold red"), " ", safe_lines(message)))
    raise typer.Exit(code)


def exit_code(exc: L2tpgenError) -> int:
    """1 for an error of the input; 2 (usage) for a sites directory that is not one."""
    return EXIT_USAGE if isinstance(exc, SitesDirectoryError) else EXIT_FINDINGS


def problem_lines(problem: Problem) -> Iterator[Text]:
    """``file:line:column: error: message [code]`` and, under it, its hint (if any)."""
    from rich.text import Text  # noqa: PLC0415 - startup: rich, for what validate prints when all is well

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


def print_lines(console: Console | LazyConsole, lines: Iterable[Text], batch: int = BATCH) -> None:
    """Print ``lines`` as ``console.print`` of each would, ``batch`` lines a call."""
    chunk: list[Text] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= batch:
            _print_chunk(console, chunk)
            chunk = []
    if chunk:
        _print_chunk(console, chunk)


def _print_chunk(console: Console | LazyConsole, chunk: list[Text]) -> None:
    from rich.text import Text  # noqa: PLC0415 - startup: rich, for what validate prints when all is well

    console.print(Text("\n").join(chunk))


def coded(problem: Problem) -> tuple[tuple[str, str], ...]:
    """`` [V013]`` after a problem's message (mypy's place for an error code), if it has a code."""
    return ((f" [{problem.code}]", "dim"),) if problem.code else ()


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


def emit_text(output: Path | None, text: str, what: str, example: str) -> None:
    """One generated text (``what``) to stdout (no ``-o``, or ``-o -``) or the file ``-o`` names.

    A directory is refused, suggesting ``example`` in it (``check_output_path``).
    """
    check_output_path(output, what, [example], example=example)
    if output is None or is_stdout(output):
        sys.stdout.write(text)
        return
    try:
        write_files(output, {"": text}, private=False)
    except L2tpgenError as exc:
        fail(str(exc))
    err.print(f"wrote {output}")
