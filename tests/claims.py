"""The claims table (issue 34): every sentence of README.md, docs/*.md and the CLI's help that
promises with every/never/all/always/only/exactly/at once, and what holds it.

The rows live in ``tests/claims/<doc>.yaml`` (one file per document, ``cli.yaml`` for the help),
keyed by the sentence as written (whitespace collapsed). A row holds a claim in one of three ways:

- ``tests``: the tests that fail when the claim stops being true (``tests/test_x.py::test_name``,
  ``tests/test_x.py::TestClass::test_name``);
- ``source``: a fact about another system (Cisco IOS, the kernel, NetBox...) that l2tpgen does not
  promise but reports, held by the published source named;
- ``advice``: an instruction to the reader (what to do, not what l2tpgen does), with why it is not
  a promise.

``docs/claims.md`` is generated from the rows (``pytest tests/test_claims.py --update-golden``).
``python tests/claims.py`` appends a row with no test for every claim sentence that has none, for
a writer to fill in (the freshness test fails until each names what holds it).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
import yaml

from l2tpgen.cli import app

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "tests" / "claims"
TABLE = ROOT / "docs" / "claims.md"
# A promise word, but not the end of a hyphenated name (rule ``ipsec-at-one-end-only``).
PROMISE = re.compile(r"(?<![-\w])(every|never|all|always|only|exactly|at once)\b", re.IGNORECASE)
_CODE = re.compile(r"`[^`]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "no.", " p.", " pp.", "(p.", "(pp.")
_INITIAL = re.compile(r"(^|[\s(])[A-Z]\.$")  # "R. W. Stevens": an initial ends no sentence


def _abbreviated(so_far: str) -> bool:
    return so_far.lower().endswith(_ABBREVIATIONS) or bool(_INITIAL.search(so_far))


_KINDS = ("tests", "source", "advice")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a document, as written (whitespace collapsed), and where it starts."""

    doc: str
    line: int
    text: str


@dataclass
class Row:
    claim: str
    tests: list[str] = field(default_factory=list)
    source: str = ""
    advice: str = ""


def documents() -> list[Path]:
    """README.md and docs/*.md, but not the table itself (it quotes every claim)."""
    docs = sorted(p for p in (ROOT / "docs").glob("*.md") if p != TABLE)
    return [ROOT / "README.md", *docs]


def doc_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def rows_file(doc: str) -> Path:
    """``README.md`` -> tests/claims/README.yaml, ``docs/push.md`` -> tests/claims/push.yaml."""
    return CLAIMS / f"{Path(doc).stem}.yaml"


def _blocks(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Paragraphs, list items, table rows and headings of markdown, outside code fences and HTML
    comments, each joined into one line, with its first line number."""
    fence = False
    comment = False
    start = 0
    parts: list[str] = []

    def flush() -> Iterator[tuple[int, str]]:
        if parts:
            yield start, " ".join(parts)
        parts.clear()

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        skip = fence or comment or not line or line.startswith(("```", "~~~", "<!--"))
        if line.startswith(("```", "~~~")) and not comment:
            fence = not fence
        elif not fence and (comment or line.startswith("<!--")):
            comment = "-->" not in line
        if skip:
            yield from flush()
            continue
        new_block = line.startswith(("#", "|", "- ", "* ", "> ")) or bool(re.match(r"\d+\. ", line))
        if new_block:
            yield from flush()
        if not parts:
            start = number
        parts.append(line)
        if line.startswith(("#", "|")):
            yield from flush()
    yield from flush()


def split_sentences(text: str) -> list[str]:
    """Split at ``. ``, ``? ``, ``! `` (and ``.`` + ``)``), never inside inline code and never after
    a common abbreviation."""
    sentences: list[str] = []
    current: list[str] = []
    code = quoted = False
    quotes = text.count('"') % 2 == 0  # balanced: a quotation is never split
    for i, char in enumerate(text):
        current.append(char)
        if char == "`":
            code = not code
        elif char == '"' and quotes and not code:
            quoted = not quoted
        elif (
            not (code or quoted)
            and char in ".?!"
            and (i + 1 == len(text) or text[i + 1] == " ")
            and not _abbreviated("".join(current))
        ):
            sentences.append("".join(current).strip())
            current = []
    rest = "".join(current).strip()
    if rest:
        sentences.append(rest)
    return [s for s in sentences if s]


def promises(sentence: str) -> bool:
    """A promise word outside inline code and link targets (``--all`` is an option, not a claim)."""
    prose = _LINK_TARGET.sub("]", _CODE.sub("", sentence))
    return bool(PROMISE.search(prose))


def doc_sentences(doc: str, text: str) -> list[Sentence]:
    return [
        Sentence(doc, line, " ".join(sentence.split()))
        for line, block in _blocks(text.splitlines())
        for sentence in split_sentences(block)
        if promises(sentence)
    ]


def cli_sentences() -> list[Sentence]:
    """The help of every command and option of ``l2tpgen``, as ``--help`` shows it."""
    root = typer.main.get_command(app)
    found: list[Sentence] = []

    # typer vendors click (typer._click): no public type to annotate a command or context with.
    def walk(command: Any, path: str, ctx: Any) -> None:  # noqa: ANN401
        texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
        for text in texts:
            found.extend(
                Sentence("cli", 0, f"{path}: {sentence}")
                for sentence in split_sentences(" ".join(text.replace("\b", " ").split()))
                if promises(sentence)
            )
        if hasattr(command, "list_commands"):  # a group (typer vendors click: no isinstance)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    walk(sub, f"{path} {name}", sub.context_class(sub, parent=ctx, info_name=name))

    walk(root, "l2tpgen", root.context_class(root, info_name="l2tpgen"))
    return found


def all_sentences() -> list[Sentence]:
    found: list[Sentence] = []
    for path in documents():
        found.extend(doc_sentences(doc_name(path), path.read_text(encoding="utf-8")))
    found.extend(cli_sentences())
    return found


def load_rows(doc: str) -> list[Row]:
    path = rows_file(doc)
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    rows = []
    for item in data:
        unknown = set(item) - {"claim", *_KINDS}
        assert not unknown, f"{path}: unknown keys {sorted(unknown)} in row {item.get('claim')!r}"
        rows.append(
            Row(
                claim=" ".join(str(item["claim"]).split()),
                tests=list(item.get("tests") or []),
                source=str(item.get("source") or ""),
                advice=str(item.get("advice") or ""),
            )
        )
    return rows


def all_docs() -> list[str]:
    return [doc_name(p) for p in documents()] + ["cli"]


def problems(sentences: Iterable[Sentence], rows: dict[str, list[Row]]) -> list[str]:
    """Everything wrong with the table: a claim with no row or an empty row, a row with no claim
    left (stale), a named test that does not exist."""
    found: list[str] = []
    by_doc: dict[str, set[str]] = {}
    for sentence in sentences:
        by_doc.setdefault(sentence.doc, set()).add(sentence.text)
    for doc in sorted(set(by_doc) | set(rows)):
        claimed = {row.claim: row for row in rows.get(doc, [])}
        where = rows_file(doc).relative_to(ROOT)
        for text in sorted(by_doc.get(doc, set())):
            row = claimed.get(text)
            if row is None:
                found.append(f"{doc}: no row in {where} for: {text}")
            elif not (row.tests or row.source or row.advice):
                found.append(
                    f"{doc}: the row in {where} names no test, source or advice for: {text}"
                )
        found.extend(
            f"{where}: stale row, no such claim in {doc}: {text}"
            for text in sorted(set(claimed) - by_doc.get(doc, set()))
        )
        for row in rows.get(doc, []):
            found.extend(f"{where}: {problem}" for problem in _missing_tests(row))
    return found


def _missing_tests(row: Row) -> list[str]:
    return [
        f"no such test {test} (named for: {row.claim})"
        for test in row.tests
        if not test_exists(test)
    ]


_DEFINED: dict[Path, set[str]] = {}


def test_exists(test: str) -> bool:
    """``tests/test_x.py::test_name`` or ``tests/test_x.py::Class::test_name`` is defined."""
    path_text, _, name = test.partition("::")
    path = ROOT / path_text
    if not name or not path.is_file():
        return False
    if path not in _DEFINED:
        _DEFINED[path] = _names(ast.parse(path.read_text(encoding="utf-8")))
    return name in _DEFINED[path]


def _names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}::{item.name}")
    return names


def table_markdown(rows: dict[str, list[Row]]) -> str:
    counts = dict.fromkeys(_KINDS, 0)
    for doc_rows in rows.values():
        for row in doc_rows:
            for kind in _KINDS:
                counts[kind] += bool(getattr(row, kind))
    lines = [
        "# Claims and what holds them",
        "",
        "<!-- Generated from tests/claims/*.yaml: pytest tests/test_claims.py --update-golden -->",
        "",
        "Each sentence of README.md, docs/*.md and the command line's help that promises with",
        "*every*, *never*, *all*, *always*, *only*, *exactly* or *at once*, and what holds it: the",
        "tests that fail when it stops being true, or, for a fact about another system, its",
        "published source, or, for an instruction to the reader, why it is advice and not a",
        "promise. `tests/test_claims.py` fails when such a sentence has no row here or a named",
        "test does not exist.",
        "",
        (
            f"{sum(len(r) for r in rows.values())} claims: {counts['tests']} held by tests, "
            f"{counts['source']} by a source, {counts['advice']} advice."
        ),
        "",
    ]
    for doc in all_docs():
        doc_rows = rows.get(doc, [])
        if not doc_rows:
            continue
        title = "The command line's help" if doc == "cli" else doc
        lines += [f"## {title}", "", "| Claim | Held by |", "| --- | --- |"]
        for row in doc_rows:
            lines.append(f"| {_cell(row.claim)} | {_cell(_held_by(row))} |")
        lines.append("")
    return "\n".join(lines)


def _held_by(row: Row) -> str:
    parts = [f"`{t}`" for t in row.tests]
    if row.source:
        parts.append(f"source: {row.source}")
    if row.advice:
        parts.append(f"advice: {row.advice}")
    return "<br>".join(parts)


def _cell(text: str) -> str:
    """A table cell: links shown as their text (their targets are relative to the page quoted)."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("|", "\\|")


def all_rows() -> dict[str, list[Row]]:
    return {doc: rows for doc in all_docs() if (rows := load_rows(doc))}


def add_missing() -> int:
    """Append an empty row for each claim with none; return how many were added."""
    added = 0
    sentences = all_sentences()
    for doc in all_docs():
        have = {row.claim for row in load_rows(doc)}
        new = []
        for sentence in sentences:
            if sentence.doc == doc and sentence.text not in have:
                have.add(sentence.text)
                new.append(sentence.text)
        if not new:
            continue
        path = rows_file(doc)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8") if path.exists() else _header(doc)
        for claim in new:
            text += yaml.safe_dump([{"claim": claim, "tests": []}], allow_unicode=True, width=100)
        path.write_text(text, encoding="utf-8")
        added += len(new)
    return added


def _header(doc: str) -> str:
    return (
        f"# The claims of {doc}: each names the tests that hold it (or a source, or advice).\n"
        "# See tests/claims.py; docs/claims.md is generated from this file.\n"
    )


def main(argv: list[str]) -> int:
    """``python tests/claims.py``: add empty rows; ``--check [DOC...]``: print the problems of those
    documents (``README.md``, ``docs/push.md``, ``cli``), or of all."""
    if argv[:1] != ["--check"]:
        sys.stderr.write(f"{add_missing()} rows added\n")
        return 0
    wanted = set(argv[1:])
    found = [
        p
        for p in problems(all_sentences(), all_rows())
        if not wanted
        or any(p.startswith((f"{d}:", f"{rows_file(d).relative_to(ROOT)}:")) for d in wanted)
    ]
    sys.stdout.write(("\n".join(found) or "ok") + "\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
