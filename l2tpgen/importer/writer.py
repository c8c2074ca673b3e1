"""Site files as people write them: short mappings inline, comments for what the model lacks.

The layout follows ``sites/``: one key per line at the top, ``wan`` and ``lan`` as blocks, classes
and VLANs as inline mappings. A value is written plain when l2tpgen's own YAML reader reads it
back as the same text, else quoted; a test loads every written file with that reader.

The files pass a stock ``yamllint`` (its default configuration) as a repository's pre-commit hook
runs it: a ``---`` document start, lines of at most 80 characters (an inline mapping that would
be longer is written as a block; a comment is wrapped), no trailing spaces, one final newline.
"""

from __future__ import annotations

import json
import re
import textwrap
from functools import lru_cache
from typing import TYPE_CHECKING

from l2tpgen.model.yamlparse import parse

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

_BLOCKS = frozenset({"wan", "lan"})
_LISTS = frozenset({"vlans"})
WIDTH = 80  # yamllint's default line-length


def _printable(text: str) -> str:
    """``text`` with each control character (line breaks aside) written as its escape."""
    return "".join(
        ch if ch.isprintable() or ch == "\n" else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def _wrap(line: str) -> list[str]:
    """A comment's line in lines of 78 characters, its indent kept (2 more on the lines after).

    A long word (a path, a URL) stays whole on its own line: yamllint allows non-breakable words.
    """
    indent = line[: len(line) - len(line.lstrip())]
    wrapper = textwrap.TextWrapper(
        WIDTH - 2,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    return wrapper.wrap(line.strip())


@lru_cache(maxsize=65536)
def _text(value: str) -> str:
    """``value`` plain if it reads back as itself, else double-quoted (JSON is YAML).

    Plain only where it reads back the same both in a block and inside a flow mapping (the
    writer puts VLANs in ``{...}``, where `?` and others end a plain scalar early).
    """
    if value and value == value.strip() and not any(c in value for c in ":#{}[],&*!|>'\"%@`?"):
        try:
            parsed = parse(f"k: {value}\nf: {{k: {value}}}\n")
        except Exception:  # noqa: BLE001 - anything the reader refuses gets quoted
            parsed = None
        if parsed is not None and parsed[0] == {"k": value, "f": {"k": value}}:
            return value
    return json.dumps(value).replace("\x7f", "\\u007f")  # DEL: ASCII, but no YAML character


def scalar(value: object) -> str:
    """One scalar in YAML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _text(str(value))


def flow(value: object) -> str:
    """A value inline: ``{a: 1, b: [x, y]}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def comment(text: str) -> str:
    """A comment line (or lines) for ``text``, wrapped at 80 columns (newlines cannot end it)."""
    lines = [
        wrapped
        for line in _printable(text).splitlines() or [""]
        for wrapped in textwrap.wrap(
            line, WIDTH - 2, break_on_hyphens=False, break_long_words=False
        )
        or [""]
    ]
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)


def _entry(key: str, value: object, indent: str) -> list[str]:
    """``key: value`` inline when it fits in 80 columns, else a block of its own entries."""
    inline = f"{indent}{key}: {flow(value)}\n" if not _empty_list(value) else f"{indent}{key}: []\n"
    if len(inline) <= WIDTH + 1:
        return [inline]
    if isinstance(value, str):
        return _folded(f"{indent}{key}: ", value, indent + "  ")
    if not isinstance(value, (dict, list, tuple)) or not value:
        return [inline]
    if isinstance(value, dict):
        return [f"{indent}{key}:\n", *_mapping(value, indent + "  ")]
    return [f"{indent}{key}:\n", *(line for item in value for line in _item(item, indent + "  "))]


def _folded(lead: str, value: str, indent: str) -> list[str]:
    r"""A long text as a double-quoted scalar over several lines of at most 80 characters.

    YAML folds a line break inside a double-quoted scalar into one space and drops the next
    line's indentation; a line ending in an escaped break (``\\``) joins the next with nothing
    between (YAML 1.2.2, section 7.3.1), so the text reads back unchanged. Broken at single
    spaces where that fits, else anywhere outside an escape sequence.
    """
    quoted = json.dumps(value)
    lines, line = [], lead
    words = quoted.split(" ")
    for index, word in enumerate(words):
        joined = f"{line} {word}" if index and line.strip() else line + word
        breakable = index and word and words[index - 1] and len(joined) > WIDTH
        if breakable and line.strip():
            lines.append(line + "\n")
            line = indent + word
        else:
            line = joined
    folded = [*lines, line + "\n"]
    if all(len(text) <= WIDTH + 1 for text in folded):
        return folded
    return _escaped(lead, quoted, indent)


_TOKEN = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|.", re.DOTALL)


def _escaped(lead: str, quoted: str, indent: str) -> list[str]:
    """``quoted`` over lines that end in an escaped line break, none longer than 80."""
    lines, line = [], lead
    for piece in _TOKEN.findall(quoted):
        if len(line) + len(piece) + 1 > WIDTH:  # room for the `\`
            lines.append(line + "\\\n")
            # the next line's leading spaces are dropped: an escaped space keeps one
            line = indent + ("\\ " if piece == " " else piece)
        else:
            line += piece
    return [*lines, line + "\n"]


def _mapping(value: Mapping[str, object], indent: str) -> list[str]:
    return [line for k, v in value.items() for line in _entry(k, v, indent)]


def _item(item: object, indent: str) -> list[str]:
    """One list item: ``- {...}`` when it fits, else its mapping as a block under the dash."""
    inline = f"{indent}- {flow(item)}\n"
    if len(inline) <= WIDTH + 1 or not isinstance(item, dict) or not item:
        return [inline]
    lines = _mapping(item, indent + "  ")
    return [f"{indent}- {lines[0].lstrip()}", *lines[1:]]


def _empty_list(value: object) -> bool:
    return isinstance(value, (list, tuple)) and not value


def site_yaml(data: Mapping[str, object], header: Iterable[str] = ()) -> str:
    """The text of a site file: ``---``, ``header`` lines as comments, then the site."""
    out = ["---\n", *(comment(line) for line in header)]
    for key, value in data.items():
        if key in _BLOCKS and isinstance(value, dict):
            out.append(f"{key}:\n")
            out += _mapping(value, "  ")
        elif (key in _LISTS or _has_mapping(value)) and isinstance(value, (list, tuple)):
            out.append(f"{key}:\n" if value else f"{key}: []\n")
            out += [line for item in value for line in _item(item, "  ")]
        else:
            out += _entry(key, value, "")
    return "".join(out)


def _has_mapping(value: object) -> bool:
    return isinstance(value, (list, tuple)) and any(isinstance(v, dict) for v in value)
