"""Every import inside a function of the library says why it is not at the top (issue 35).

A function-level import hides a call route from a reader and from tools (the layer contract sees
it, ``grep`` of a module's head does not). It stays only where it has a reason, written as a
comment on its line (after ``noqa: PLC0415``) or on a comment line just above it, of one kind:

- ``extra [name]: what``: an optional extra of ``pyproject.toml`` (``[name]`` must be one) or an
  optional package, which a user without it must still be able to import the module without;
- ``heavy: what``: a heavy library (ciscoconfparse, netutils...) that only one code path needs;
- ``startup: what``: ``l2tpgen validate`` (the start-up path, ``bench/cost_bench.py --only start``)
  does not load ``what``, and importing it at the top would;
- ``cycle: a -> b -> a``: the import closes a circle (named with arrows).

Each ``Import``/``ImportFrom`` node inside a ``def`` of ``l2tpgen/`` is found with ``ast``, its
comments with ``tokenize``. ``l2tpgen/cli/`` and ``__main__`` are checked by the command line's
own test.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PACKAGE = ROOT / "l2tpgen"
EXEMPT = ("cli/", "__main__.py")  # the command line's own test covers them
KINDS = ("extra", "heavy", "startup", "cycle")
_REASON = re.compile(r"(?P<kind>[a-z]+)(?: \[(?P<extra>[a-z-]+)\])?: (?P<what>\S.*)")
_NOQA = re.compile(r"#\s*noqa(?::\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?")


def extras() -> set[str]:
    """The optional extras ``pyproject.toml`` declares."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return set(tomllib.load(file)["project"]["optional-dependencies"])


def _comments(source: str) -> dict[int, str]:
    """Each line's comment text (``#`` included), by line number."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0]: t.string for t in tokens if t.type == tokenize.COMMENT}


def _reason_text(comment: str) -> str:
    """A comment without its ``noqa`` and the dash after it: what is left is the reason."""
    text = _NOQA.sub("", comment).strip()
    return text.lstrip("#").strip().lstrip("-").strip()


def function_imports(source: str) -> Iterator[tuple[int, str]]:
    """(line, reason) of each import inside a function of ``source``; reason ``""`` if none.

    The reason is the import's own comment (beyond ``noqa``), else that of a comment-only line
    just above it.
    """
    tree = ast.parse(source)
    comments = _comments(source)
    lines = source.splitlines()
    seen: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom) or node.lineno in seen:
                continue
            seen.add(node.lineno)  # a nested function's import is walked from its outer one too
            reason = _reason_text(comments.get(node.lineno, ""))
            above = node.lineno - 1
            if not reason and above >= 1 and lines[above - 1].strip().startswith("#"):
                reason = _reason_text(comments.get(above, ""))
            yield node.lineno, reason


def problem(reason: str, known_extras: set[str]) -> str | None:
    """What is wrong with ``reason`` (``None``: a reason of a known kind, well formed)."""
    if not reason:
        return "no reason: move it to the top, or say why not (extra, heavy, startup, cycle)"
    match = _REASON.fullmatch(reason)
    if match is None or match["kind"] not in KINDS:
        return f"{reason!r} is not 'KIND: why' with KIND one of {', '.join(KINDS)}"
    if match["extra"] is not None and match["extra"] not in known_extras:
        known = ", ".join(sorted(known_extras))
        return f"[{match['extra']}] is no extra of pyproject.toml ({known})"
    if match["kind"] == "cycle" and "->" not in match["what"]:
        return "a cycle names its circle: 'cycle: a -> b -> a'"
    return None


def library_modules() -> list[Path]:
    """The modules of ``l2tpgen/`` this test checks (not the command line's)."""
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith(EXEMPT)
    ]


def library_imports() -> Iterator[tuple[str, int, str]]:
    """(module path, line, reason) of every function-level import the library has."""
    for path in library_modules():
        for line, reason in function_imports(path.read_text(encoding="utf-8")):
            yield path.relative_to(ROOT).as_posix(), line, reason


def test_every_function_level_import_of_the_library_says_why_it_is_not_at_the_top() -> None:
    known = extras()
    wrong = [
        f"{path}:{line}: {found}"
        for path, line, reason in library_imports()
        if (found := problem(reason, known)) is not None
    ]
    assert wrong == [], "function-level imports without a reason:\n" + "\n".join(wrong)


def test_the_check_reads_the_library_and_leaves_the_command_line_to_its_own_test() -> None:
    checked = {path.relative_to(PACKAGE).as_posix() for path in library_modules()}
    assert "api/sites.py" in checked
    assert "device/plan.py" in checked
    assert not [path for path in checked if path.startswith("cli/")]
    assert "__main__.py" not in checked


SAMPLE = """\
import os


def top_level_is_fine() -> None:
    return os.sep


def bare_noqa() -> None:
    import json  # noqa: PLC0415


def on_its_line() -> None:
    import json  # noqa: PLC0415 - heavy: json, only here


def on_the_line_above() -> None:
    # startup: validate does not need json
    import json  # noqa: PLC0415


def no_comment_at_all() -> None:
    def inner() -> None:
        from json import dumps


def above_is_code_not_a_comment() -> None:
    x = 1  # heavy: not a comment line
    import json  # noqa: PLC0415
"""


def test_an_import_inside_a_function_is_found_with_its_reason_on_its_line_or_above() -> None:
    assert list(function_imports(SAMPLE)) == [
        (9, ""),
        (13, "heavy: json, only here"),
        (18, "startup: validate does not need json"),
        (23, ""),
        (28, ""),
    ]


@pytest.mark.parametrize(
    ("reason", "wrong"),
    [
        ("", "no reason"),
        ("on demand", "is not 'KIND: why'"),
        ("lazy: on demand", "is not 'KIND: why'"),
        ("extra [nope]: netmiko", "no extra of pyproject.toml"),
        ("cycle: import cycle", "names its circle"),
    ],
    ids=["bare-noqa", "no-kind", "unknown-kind", "unknown-extra", "cycle-without-circle"],
)
def test_a_missing_or_vague_reason_is_refused(reason: str, wrong: str) -> None:
    assert wrong in (problem(reason, {"push", "netbox"}) or "")


@pytest.mark.parametrize(
    "reason",
    [
        "extra [push]: netmiko",
        "extra: nornir-netmiko, if installed",
        "heavy: ciscoconfparse, the reference parser",
        "startup: the linter",
        "cycle: l2tpgen.a -> l2tpgen.b -> l2tpgen.a",
    ],
)
def test_a_reason_of_each_kind_is_accepted(reason: str) -> None:
    assert problem(reason, {"push", "netbox"}) is None


def test_the_noqa_code_alone_is_no_reason() -> None:
    assert _reason_text("# noqa: PLC0415") == ""
    assert _reason_text("# noqa: PLC0415, F401 - extra [netbox]: pynetbox") == (
        "extra [netbox]: pynetbox"
    )
