"""Lint settings from ``pyproject.toml``, as ruff reads its own.

The nearest ``pyproject.toml`` (the current directory, then its parents) with a
``[tool.l2tpgen.lint]`` table gives the defaults; command-line options win over it::

    [tool.l2tpgen.lint]
    select = ["L2T0", "L2T1"]          # codes, prefixes or rule names
    ignore = ["default-hold-queue"]
    fail-on = "error"                  # error, warning (the default) or info
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from pathlib import Path

from l2tpgen.errors import LintConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

KEYS = frozenset({"select", "ignore", "fail-on"})
SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class LintSettings:
    """What ``[tool.l2tpgen.lint]`` says, and the file that said it (None: no such file)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    source: Path | None = None


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` that has ``[tool.l2tpgen.lint]``."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "l2tpgen" in candidate.read_text(
            encoding="utf-8", errors="replace"
        ):
            return candidate
    return None


def _codes(value: object, key: str, file: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LintConfigError(
            f"{file}: [tool.l2tpgen.lint] {key} must be a list of rule codes or names, "
            'e.g. ["L2T001", "default-hold-queue"]'
        )
    return tuple(v for item in value for v in item.split(",") if v.strip())


def load_settings(start: Path | None = None) -> LintSettings:
    """Read the settings that apply in ``start`` (default: the current directory).

    Raises:
        LintConfigError: the file is not valid TOML or the table has unknown keys or bad values.
    """
    file = find_pyproject((start or Path.cwd()).resolve())
    if file is None:
        return LintSettings()
    try:
        document = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LintConfigError(f"{file}: cannot read it as TOML ({exc})") from None
    table = document.get("tool", {}).get("l2tpgen", {}).get("lint")
    if table is None:
        return LintSettings()
    if not isinstance(table, dict):
        raise LintConfigError(f"{file}: [tool.l2tpgen.lint] must be a table")
    unknown = sorted(set(table) - KEYS)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(KEYS), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise LintConfigError(
            f"{file}: [tool.l2tpgen.lint] has unknown key {unknown[0]}; {hint}known: "
            + ", ".join(sorted(KEYS))
        )
    fail_on = table.get("fail-on")
    if fail_on is not None and fail_on not in SEVERITIES:
        raise LintConfigError(
            f"{file}: [tool.l2tpgen.lint] fail-on must be one of {', '.join(SEVERITIES)}"
        )
    return LintSettings(
        select=_codes(table.get("select", []), "select", file),
        ignore=_codes(table.get("ignore", []), "ignore", file),
        fail_on=fail_on,
        source=file,
    )
