"""The command line's groups: help that reads well, and commands loaded when they are needed.

``l2tpgen`` is a ``LazyGroup``: ``COMMANDS`` names every command of the top level, the module
that defines it and the first line of its help, so ``l2tpgen --help`` and shell completion list
every command without importing one, and ``l2tpgen validate`` imports and builds ``validate``
alone (issue 35: a cold ``validate`` pays for no other command's modules or options).
``tests/test_cli_lazy.py`` checks the table against the commands themselves.
"""

from __future__ import annotations

import difflib
import importlib
import re
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple

import typer
import typer.main
from typer._click.exceptions import UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from l2tpgen.startup import resume

if TYPE_CHECKING:
    from collections.abc import Iterator

    from typer._click import Command, Context, HelpFormatter
    from typer._click.shell_completion import CompletionItem


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
    from rich.markup import escape  # noqa: PLC0415 - startup: rich, for help (typer's own loads it)

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
        return sorted(super().list_commands(ctx), key=_place)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The group's help, without Python types."""
        _tidy(self, ctx)
        super().format_help(ctx, formatter)


class Entry(NamedTuple):
    """A command of the top level: the module that registers it, and its help's first line."""

    module: str
    help: str
    hidden: bool = False


# Every command of the top level, in the order of the work (`--help` lists them so): sites, lint,
# import, routers, rehearsal. A command's module is imported when the command runs or shows its
# own help; `help` is what `l2tpgen --help` and completion show meanwhile, the first paragraph of
# the command's docstring (tests/test_cli_lazy.py fails when they differ).
COMMANDS: dict[str, Entry] = {
    "validate": Entry("l2tpgen.cli.sites", "Load every site file and check the fleet as a whole."),
    "render": Entry(
        "l2tpgen.cli.render",
        "Print (or write) the configuration of one site, for its platform (or --platform).",
    ),
    "schema": Entry(
        "l2tpgen.cli.schema",
        "Print the JSON Schema (draft 7) of a site file, generated from l2tpgen's models.",
    ),
    "secrets": Entry(
        "l2tpgen.cli.secrets_cmd",
        "List every environment variable the sites' secrets come from, and whether it is set.",
    ),
    "mtu": Entry(
        "l2tpgen.cli.mtu",
        "Show the L2TPv3 overhead budget: the largest CE MTU that crosses without fragmentation.",
    ),
    "lint": Entry(
        "l2tpgen.cli.lint", "Lint sites (model and rendered configs) or raw IOS config files."
    ),
    "rules": Entry("l2tpgen.cli.lint", "List every lint rule: code, name, severity, scope."),
    "rule": Entry(
        "l2tpgen.cli.lint",
        "Explain one lint rule: what it does, why it matters, an example and the fix.",
    ),
    "hosts": Entry(
        "l2tpgen.cli.hosts",
        "What the hosts on each stretched VLAN need: MTU and MSS, buffers, congestion control.",
    ),
    "docs": Entry(
        "l2tpgen.cli.fleetdoc",
        "Write the fleet's documentation: a Mermaid diagram of sites and pseudowires, and tables.",
    ),
    "import": Entry(
        "l2tpgen.cli.importer",
        "Write one site file per router from its running config (brownfield).",
    ),
    "netbox": Entry("l2tpgen.cli.netbox", "NetBox as the source of truth."),
    "push": Entry(
        "l2tpgen.cli.push",
        "Push sites to their routers: diff, ask, apply, check, save; roll back on failure.",
    ),
    "diff": Entry(
        "l2tpgen.cli.push",
        "Show what `push` would change on each router (the same as `push --dry-run`).",
    ),
    "rollback": Entry(
        "l2tpgen.cli.rollback",
        "Take sites' routers back to the rollback copies push made before a change.",
    ),
    "confirm": Entry(
        "l2tpgen.cli.rollback",
        "Keep a change pushed with --confirm-within: `configure confirm`, then save.",
    ),
    "verify": Entry(
        "l2tpgen.cli.verify",
        "Read pseudowire state from the routers (in parallel); exit 1 if any is not up.",
    ),
    "sim": Entry("l2tpgen.cli.sim", "Simulated IOS routers for rehearsal and tests."),
    "lab": Entry(
        "l2tpgen.cli.lab_live", "Labs: containerlab topologies and a real L2TPv3 data plane."
    ),
    "hook": Entry("l2tpgen.cli.hooks", "Entry points for pre-commit and CI.", hidden=True),
}
ORDER = tuple(COMMANDS)


def _place(name: str) -> int:
    return ORDER.index(name) if name in ORDER else len(ORDER)


class LazyGroup(HelpGroup):
    """``l2tpgen`` itself: each command built from ``source`` when it is first needed."""

    source: typer.Typer | None = None  # the app whose commands the modules register (app.py)
    _listing = False  # listing commands (help, completion): their names and help are enough

    def list_commands(self, ctx: Context) -> list[str]:
        """Every command, loaded or not, in the order of the work."""
        return sorted({*super().list_commands(ctx), *COMMANDS}, key=_place)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """The command, its module imported and the command built on first use.

        While commands are only listed, a command not loaded yet is a stand-in that has its
        name and help.
        """
        entry = COMMANDS.get(cmd_name)
        if entry is not None and cmd_name not in self.commands:
            if self._listing:
                return TyperCommand(cmd_name, help=entry.help, hidden=entry.hidden)
            self.add_command(self._build(cmd_name, entry), cmd_name)
        return super().get_command(ctx, cmd_name)

    def _build(self, name: str, entry: Entry) -> Command:
        """Import ``entry.module`` and build the command it registered as ``name``."""
        importlib.import_module(entry.module)
        source = self.source
        assert source is not None  # noqa: S101 - app.py sets it where it makes the app
        for info in source.registered_commands:
            callback = info.callback
            called = info.name or (callback and typer.main.get_command_name(callback.__name__))
            if called == name:
                return typer.main.get_command_from_info(
                    info,
                    pretty_exceptions_short=source.pretty_exceptions_short,
                    rich_markup_mode=source.rich_markup_mode,
                )
        for group in source.registered_groups:
            if group.name == name:
                return typer.main.get_group_from_info(
                    group,
                    pretty_exceptions_short=source.pretty_exceptions_short,
                    rich_markup_mode=source.rich_markup_mode,
                    suggest_commands=source.suggest_commands,
                )
        raise LookupError(f"{entry.module} registers no command {name!r}")  # a bug: the table

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        """The command; a misspelt one's error says "Did you mean", from every command's name.

        (typer suggests from the commands built only, which are none here.) The start-up ends
        with the command found: the collector the entry point paused runs again (``startup``).
        """
        try:
            found = super().resolve_command(ctx, args)
        except UsageError as exc:
            matches = difflib.get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches and "Did you mean" not in exc.message:
                suggestions = ", ".join(f"{m!r}" for m in matches)
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {suggestions}?"
            raise
        resume()
        return found

    @contextmanager
    def _listed(self) -> Iterator[None]:
        self._listing = True
        try:
            yield
        finally:
            self._listing = False

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The list of commands, none of them imported."""
        with self._listed():
            super().format_help(ctx, formatter)

    def shell_complete(self, ctx: Context, incomplete: str) -> list[CompletionItem]:
        """Command names and their help, none of them imported."""
        with self._listed():
            return super().shell_complete(ctx, incomplete)


def load_all() -> None:
    """Import every command's module, as walking the whole tree of commands needs (docs, tests)."""
    for entry in COMMANDS.values():
        importlib.import_module(entry.module)
