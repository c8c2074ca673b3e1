"""The config tree: IOS text in, ``Node`` values with file line numbers out.

ciscoconfparse (1.7.x) builds the parent/child structure and numbers the lines; this module is the
only place that imports it, so the rest of l2tpgen sees ``Node`` alone. Only configuration lines
reach it (fillers, comments and banner text stay out), with braces masked: ciscoconfparse treats a
line starting with ``}`` as a closing brace and raises when nothing opened one (an ASCII-art
banner). Node texts come from l2tpgen's own cleaned lines, never from the parser.

ciscoconfparse configures loguru when it is imported (it removes loguru's default handler and adds
one that prints DEBUG records, tracebacks with local variables included, to standard output).
``_import_parser`` keeps that from happening: l2tpgen never prints through loguru, and a user's own
loguru set-up (even one without handler 0) is left as it was.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import threading
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from l2tpgen.errors import ConfigTextError
from l2tpgen.ios.text import FILLER, SECTION, CleanText, clean

if TYPE_CHECKING:
    from collections.abc import Iterator


@dataclass(slots=True)
class Node:
    """One config line: its text (clean, single-spaced), 1-based line and column, its children."""

    text: str
    line: int
    column: int
    children: list[Node] = field(default_factory=list)

    def child(self, prefix: str) -> Node | None:
        """The first child whose text starts with ``prefix``."""
        return next((c for c in self.children if c.text.startswith(prefix)), None)

    def walk(self) -> Iterator[Node]:
        """This node and every descendant, in file order (iteratively: no recursion limit)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass(frozen=True)
class Config:
    """A parsed config: its top-level nodes and the cleaned text they came from."""

    roots: tuple[Node, ...]
    text: CleanText

    def sections(self, prefix: str) -> Iterator[Node]:
        """Top-level nodes whose text starts with ``prefix``."""
        return (node for node in self.roots if node.text.startswith(prefix))

    def find(self, text: str) -> Node | None:
        """The top-level node with exactly this text."""
        return next((node for node in self.roots if node.text == text), None)


_IMPORT_LOCK = threading.Lock()
_PARSER_PACKAGE = "ciscoconfparse"


def _no_loguru_set_up(*_args: object, **_options: object) -> None:
    """Stands in for ciscoconfparse's ``configure_loguru`` while it is imported."""


def _import_without_loguru_set_up() -> Any:  # noqa: ANN401 - ciscoconfparse ships no types
    """Import ciscoconfparse with its import-time ``configure_loguru`` made a no-op.

    That call removes loguru's handler 0, which a program that called ``logger.remove()`` before
    importing l2tpgen no longer has (``ValueError: There is no existing handler with id 0``
    from inside the import). The package's ``__init__`` imports ``ccp_util`` first and then
    ``ciscoconfparse.ciscoconfparse``, which calls it: the package module is created without
    running ``__init__``, ``ccp_util`` is imported and its function replaced, then ``__init__``
    runs. ``ccp_util.configure_loguru`` is put back afterwards for anyone who calls it.
    """
    spec = importlib.util.find_spec(_PARSER_PACKAGE)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {_PARSER_PACKAGE!r}", name=_PARSER_PACKAGE)
    package = importlib.util.module_from_spec(spec)
    sys.modules[_PARSER_PACKAGE] = package
    try:
        util = importlib.import_module(f"{_PARSER_PACKAGE}.ccp_util")
        original = getattr(util, "configure_loguru", None)
        setattr(util, "configure_loguru", _no_loguru_set_up)  # noqa: B010 - untyped module
        try:
            spec.loader.exec_module(package)
        finally:
            if original is not None:
                setattr(util, "configure_loguru", original)  # noqa: B010 - untyped module
    except BaseException:
        for name in [n for n in sys.modules if n.partition(".")[0] == _PARSER_PACKAGE]:
            del sys.modules[name]
        raise
    return package.CiscoConfParse


@cache
def _import_parser() -> Any:  # noqa: ANN401 - ciscoconfparse ships no types
    """Import ciscoconfparse once, leaving loguru's handlers as the program set them.

    Under a lock: a fleet push parses in many threads at once, and two of them must not both
    import it (``functools.cache`` alone does not make the body run once).
    """
    with _IMPORT_LOCK:
        if _PARSER_PACKAGE in sys.modules:
            from ciscoconfparse import CiscoConfParse  # noqa: PLC0415 - heavy: ciscoconfparse, the reference

            return CiscoConfParse
        from loguru import logger  # noqa: PLC0415 - heavy: loguru, the parser's logger

        core = getattr(logger, "_core", None)
        before = dict(getattr(core, "handlers", {}))
        parser = _import_without_loguru_set_up()
        logger.disable("ciscoconfparse")
        # Its `logger.catch` wrappers log a failure as a record of the caller (this module),
        # with a traceback whose variables hold the config: l2tpgen never logs through loguru.
        logger.disable("l2tpgen")
        # Another ciscoconfparse release may add handlers elsewhere at import: take them away.
        after = dict(getattr(core, "handlers", {}))
        for handler_id in set(after) - set(before):
            logger.remove(handler_id)
        return parser


def _mask(line: str) -> str:
    if line.startswith("banner "):
        # Its text was left out already; ciscoconfparse would look for the closing delimiter in the
        # lines that follow and swallow them.
        return "l2tpgen-banner"
    if line.startswith("macro name "):  # the same for a macro's body (up to a line `@`)
        return "l2tpgen-macro"
    # Braces mean nothing to IOS; ciscoconfparse would pair them as a brace-delimited syntax.
    return line.replace("{", "(").replace("}", ")") if "{" in line or "}" in line else line


def _merge_repeated(roots: list[Node]) -> list[Node]:
    """One node per section: a repeated ``interface X`` adds to the first, as IOS does.

    Running configs pasted from several ``show`` commands repeat sections; entering a section twice
    on a router edits the same section.
    """
    first: dict[str, Node] = {}
    merged: list[Node] = []
    for node in roots:
        earlier = first.get(node.text)
        if earlier is not None:
            earlier.children.extend(node.children)
            continue
        if node.children or SECTION.match(node.text):
            first[node.text] = node
        merged.append(node)
    return merged


def _release(parsed: Any, objects: list[Any]) -> None:  # noqa: ANN401 - untyped parser
    """Let reference counting free ciscoconfparse's objects now, not the cyclic collector later.

    Each line object refers to its parent, its children and the list that holds it, and the list
    to the parser: all of it is one reference cycle, which only the collector frees. Parsing runs
    with the collector paused (``l2tpgen.lint.engine``), so it would find all of them at its next
    run and walk every one; with their references dropped here they are freed as the last reference
    to each goes.
    """
    for obj in objects:
        obj.__dict__.clear()
    parsed.__dict__.clear()


# What ciscoconfparse reads otherwise than by indentation: braces (as a brace-delimited syntax),
# banners and ``aaa authentication fail-message`` (text up to a delimiter), macros (up to ``@``),
# comments (``!``: a comment under a deeper line is nobody's child). Cleaned text without any of
# them is nested by ciscoconfparse exactly as by its indentation (``nest``): a test checks both
# trees on every config text of the tests, and ciscoconfparse stays the reference for the rest.
# Plain substring tests, lower-cased once: one regex of them all took a tenth of a 50k-line lint.
_QUIRK_WORDS = ("{", "}", "banner", "macro", "fail-message")
_COMMENT = re.compile(r"![^\n]")  # a `!` that is not a filler line's (`!` alone): any comment


def _quirky(lines: list[str]) -> bool:
    """Whether ciscoconfparse may nest these lines otherwise than by their indentation."""
    joined = "\n".join(lines)
    lowered = joined.lower()
    return any(word in lowered for word in _QUIRK_WORDS) or _COMMENT.search(joined) is not None


def build(text: CleanText, name: str = "config", *, rendered: bool = False) -> Config:
    """The tree of cleaned text.

    ``rendered``: the text is l2tpgen's own output (one space per level, no banner, no brace), so
    its lines are nested by their indentation alone (``nest``), without importing ciscoconfparse
    (a sixth of a `render`'s time). So is any text without what ciscoconfparse reads otherwise
    (``_quirky``): its tree took 13x the time of the indentation stack on a 50,000-line config.
    A test checks that both give the same tree for every config l2tpgen renders and every config
    text of the tests.

    Raises:
        ConfigTextError: the parser failed (names the file; nothing of its text is printed).
    """
    if rendered or not _quirky(text.lines):
        return Config(tuple(_merge_repeated(nest(text))), text)
    return build_by_parser(text, name)


def build_by_parser(text: CleanText, name: str = "config") -> Config:
    """The tree of cleaned text as ciscoconfparse nests it: the reference ``nest`` is held to.

    Raises:
        ConfigTextError: the parser failed (names the file; nothing of its text is printed).
    """
    parser = _import_parser()
    lines, columns = text.lines, text.columns
    content = [i for i, line in enumerate(lines) if line.lstrip() != FILLER]
    kept = [_mask(lines[i]) for i in content]
    # Node texts are l2tpgen's own lines; ciscoconfparse tells each line's parent.
    nodes = [Node(lines[i].strip(), i + 1, columns[i], []) for i in content]
    roots: list[Node] = []
    for start, end in _batches(kept):
        roots += _nest_batch(parser, kept[start:end], nodes[start:end], name)
    return Config(tuple(_merge_repeated(roots)), text)


BATCH_LINES = 20_000  # lines per ciscoconfparse call (its objects take ~1 kB per line)


def _batches(kept: list[str]) -> Iterator[tuple[int, int]]:
    """Ranges of ``kept`` of about ``BATCH_LINES`` lines, each cut before a top-level line.

    A top-level line starts a section whatever came before it, so parsing each range alone nests
    every line as parsing the whole would; only one range's parser objects are alive at a time
    (a 600,000-line config held 600,000 of them at once).
    """
    start = 0
    while start < len(kept):
        end = min(start + BATCH_LINES, len(kept))
        while end < len(kept) and kept[end].startswith(" "):
            end += 1
        yield start, end
        start = end


def _nest_batch(parser: Any, batch: list[str], nodes: list[Node], name: str) -> list[Node]:  # noqa: ANN401 - ciscoconfparse ships no types
    """Parse one batch of lines and hang its ``nodes`` on their parents; its top-level nodes."""
    try:
        # No line is blank (clean-up turned blank lines into fillers), so ciscoconfparse's
        # blank-line filter, a second pass over its objects, has nothing to do; without it, an
        # object's linenum is its index in the batch.
        parsed = parser(batch, syntax="ios", ignore_blank_lines=False)
        objects = list(parsed.ConfigObjs)
    except Exception as exc:  # noqa: BLE001 - it raises bare ValueError, AssertionError, ...
        raise ConfigTextError(
            f"{name}: ciscoconfparse cannot parse this config ({type(exc).__name__})"
        ) from None
    roots: list[Node] = []
    for node, obj in zip(nodes, objects, strict=True):
        parent = obj.parent
        if parent is obj or parent is None:  # a parent always comes before its children
            roots.append(node)
        else:
            nodes[parent.linenum].children.append(node)
    _release(parsed, objects)
    return roots


def nest(text: CleanText) -> list[Node]:
    """The top-level nodes of cleaned text, nested by indentation with a plain stack."""
    roots: list[Node] = []
    stack: list[tuple[int, Node]] = []
    columns = text.columns
    for index, line in enumerate(text.lines):
        stripped = line.lstrip()
        if stripped == FILLER:
            continue
        depth = len(line) - len(stripped)
        node = Node(stripped, index + 1, columns[index], [])  # no default factory to call
        while stack and stack[-1][0] >= depth:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((depth, node))
    return roots


def parse(text: str, name: str = "config") -> Config:
    """Clean and parse IOS text (see ``l2tpgen.ios.text`` for what the clean-up accepts)."""
    return build(clean(text), name)


def parse_rendered(text: str, name: str = "config") -> Config:
    """Parse l2tpgen's own output (see ``build``'s ``rendered``): no ciscoconfparse needed."""
    return build(clean(text), name, rendered=True)
