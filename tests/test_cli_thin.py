"""The command line holds no library logic: no ``cli/`` module writes a file or builds a model.

Issue 35: "the CLI modules hold option parsing and printing only: a test fails when a cli/ module
defines logic the library lacks (for instance, writes a file or builds a model object itself)".
Every ``l2tpgen/cli/*.py`` is parsed with ``ast`` and each call is judged:

- a file written, moved or removed other than through ``l2tpgen/files.py``'s writers
  (``write_output``, ``write_files``, ``make_directory``): ``Path.write_text``/``write_bytes``/
  ``mkdir``/``unlink``/``rename``/``touch``, a one-argument ``replace`` (``str.replace`` takes
  two), ``open`` or ``Path.open`` with a mode that writes, ``os.replace``/``rename``/``remove``/
  ``write``/``makedirs``..., anything of ``shutil`` or ``tempfile``;
- a model object built: a call of a class imported from ``l2tpgen.model`` (``Site(...)``,
  ``Fleet(...)``), of its ``build`` (``Fleet.build(...)``), or pydantic's ``model_validate``,
  ``model_validate_json``, ``model_construct`` and ``model_copy``.

``ALLOWED`` lists what is left, each with its reason; it may only shrink: an entry no longer
found fails the test too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT

if TYPE_CHECKING:
    from pathlib import Path

CLI = ROOT / "l2tpgen" / "cli"

PATH_WRITERS = {"write_text", "write_bytes", "mkdir", "unlink", "rename", "rmdir", "touch"}
PATH_WRITERS |= {"chmod", "symlink_to", "hardlink_to"}
OS_WRITERS = {"replace", "rename", "renames", "remove", "unlink", "write", "makedirs", "mkdir"}
OS_WRITERS |= {"rmdir", "removedirs", "chmod", "fdopen", "truncate", "ftruncate", "link"}
WHOLE_MODULES = {"shutil", "tempfile"}
PYDANTIC_BUILDERS = {"model_validate", "model_validate_json", "model_construct", "model_copy"}

# (module file, what it does): why it is still in the CLI. Only shrinks.
ALLOWED: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Found:
    """One call of a ``cli/`` module that the library should make."""

    file: str
    line: int
    what: str


def _model_names(tree: ast.AST) -> set[str]:
    """Classes imported from ``l2tpgen.model`` (anywhere in the module)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("l2tpgen.model"):
            names |= {a.asname or a.name for a in node.names if a.name[:1].isupper()}
    return names


def _writes_mode(mode: ast.expr | None) -> bool:
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(c in mode.value for c in "wax+")
    return True  # a mode the source does not spell out: judged as writing


def _mode(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def _write(call: ast.Call) -> str | None:  # noqa: PLR0911 - one return per kind of write
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open" and _writes_mode(_mode(call, 1)):
        return "open(..., 'w')"
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if owner in WHOLE_MODULES:
        return f"{owner}.{func.attr}"
    if owner == "os":
        return f"os.{func.attr}" if func.attr in OS_WRITERS else None
    if func.attr in PATH_WRITERS:
        return func.attr
    if func.attr == "replace" and len(call.args) == 1 and not call.keywords:
        return "replace"  # Path.replace(target); str.replace takes two arguments
    if func.attr == "open" and _writes_mode(_mode(call, 0)):
        return "open(..., 'w')"
    return None


def _build(call: ast.Call, models: set[str]) -> str | None:
    func = call.func
    if isinstance(func, ast.Name) and func.id in models:
        return f"{func.id}(...)"
    if isinstance(func, ast.Attribute):
        if func.attr in PYDANTIC_BUILDERS:
            return func.attr
        if func.attr == "build" and isinstance(func.value, ast.Name) and func.value.id in models:
            return f"{func.value.id}.build"
    return None


def logic_in(path: Path) -> list[Found]:
    """Every call of ``path`` that writes a file or builds a model object."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    models = _model_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        write = _write(node)
        if write is not None:
            found.append(Found(path.name, node.lineno, f"writes: {write}"))
        build = _build(node, models)
        if build is not None:
            found.append(Found(path.name, node.lineno, f"builds a model: {build}"))
    return found


def _all_found() -> list[Found]:
    return [f for path in sorted(CLI.glob("*.py")) for f in logic_in(path)]


def test_no_cli_module_writes_a_file_or_builds_a_model_but_through_the_library() -> None:
    found = [f for f in _all_found() if (f.file, f.what) not in ALLOWED]
    lines = [f"l2tpgen/cli/{f.file}:{f.line}: {f.what}" for f in found]
    assert not found, (
        "move it into the library (files: l2tpgen/files.py's writers; models: the model or "
        "l2tpgen/api/), or, if it cannot move yet, list it in ALLOWED with why:\n"
        + "\n".join(lines)
    )


def test_every_allowed_exception_is_still_needed() -> None:
    seen = {(f.file, f.what) for f in _all_found()}
    stale = sorted(set(ALLOWED) - seen)
    assert not stale, f"no longer found, remove them from ALLOWED: {stale}"


# The checker itself, on sources written here: each kind of logic it must see, and what it must
# not mistake for it.

CAUGHT = {
    "path.write_text('x')": "writes: write_text",
    "Path(p).write_bytes(b'x')": "writes: write_bytes",
    "out.mkdir(parents=True)": "writes: mkdir",
    "tmp.replace(target)": "writes: replace",
    "open(p, 'w')": "writes: open(..., 'w')",
    "open(p, mode='a')": "writes: open(..., 'w')",
    "p.open('wb')": "writes: open(..., 'w')",
    "os.replace(a, b)": "writes: os.replace",
    "os.remove(a)": "writes: os.remove",
    "shutil.copy(a, b)": "writes: shutil.copy",
    "tempfile.mkstemp()": "writes: tempfile.mkstemp",
    "Site(name='a')": "builds a model: Site(...)",
    "Fleet.build({})": "builds a model: Fleet.build",
    "Whatever.model_validate({})": "builds a model: model_validate",
    "fleet.model_copy(update={})": "builds a model: model_copy",
}


@pytest.mark.parametrize(("line", "what"), sorted(CAUGHT.items()), ids=sorted(CAUGHT))
def test_the_checker_sees_each_kind_of_write_and_model_building(
    tmp_path: Path, line: str, what: str
) -> None:
    source = tmp_path / "bad.py"
    source.write_text(
        "import os, shutil, tempfile\n"
        "from pathlib import Path\n"
        "def command(p, path, out, tmp, target, a, b, fleet):\n"
        "    from l2tpgen.model import Fleet, Site  # noqa: PLC0415\n"
        f"    {line}\n",
        encoding="utf-8",
    )
    assert [(f.line, f.what) for f in logic_in(source)] == [(5, what)]


def test_the_checker_leaves_reading_string_replace_and_library_writers_alone(
    tmp_path: Path,
) -> None:
    source = tmp_path / "fine.py"
    source.write_text(
        "from l2tpgen.files import write_files, write_output\n"
        "from l2tpgen.model import load_fleet\n"
        "def command(p, text, out):\n"
        "    open(p).read()\n"
        "    p.open(encoding='utf-8')\n"
        "    text.replace('a', 'b')\n"
        "    write_output(p, text)\n"
        "    write_files(out, {'': text}, private=False)\n"
        "    load_fleet(p)\n",
        encoding="utf-8",
    )
    assert logic_in(source) == []
