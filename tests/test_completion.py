"""Shell completion of site names, platforms and rule codes, through the shells' own protocol.

Typer's completion script runs ``l2tpgen`` with ``_L2TPGEN_COMPLETE=complete_bash`` and the line
in ``COMP_WORDS``/``COMP_CWORD`` (bash), or ``complete_zsh``/``complete_fish`` and the line in
``_TYPER_COMPLETE_ARGS``; the candidates come back on stdout (typer's ``_completion_classes.py``,
and its tests ``tests/test_completion``, which call the program the same way). Before issue 36
completion stopped at command names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from l2tpgen.traits import NAMES

L2TPGEN = Path(sys.executable).parent / "l2tpgen"  # the console script the shells call


def _bash(line: str, cwd: Path = ROOT) -> list[str]:
    """The candidates bash gets for the last word of ``line`` (empty: a new word)."""
    words = line.split(" ")
    env = {
        **os.environ,
        "_L2TPGEN_COMPLETE": "complete_bash",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
    }
    done = subprocess.run(
        [str(L2TPGEN)], env=env, cwd=cwd, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.split()


def _shell(shell: str, line: str) -> str:
    env = {**os.environ, "_L2TPGEN_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line}
    if shell == "fish":
        env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    done = subprocess.run(
        [str(L2TPGEN)], env=env, cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout


def test_site_names_complete_from_the_sites_directory_here(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "hub", tmp_path / "sites")
    assert _bash("l2tpgen render ", cwd=tmp_path) == ["branch", "hub", "linux-edge"]
    assert _bash("l2tpgen render li", cwd=tmp_path) == ["linux-edge"]


def test_site_names_complete_from_the_sites_directory_the_line_names() -> None:
    assert _bash("l2tpgen render --sites examples/hub ") == ["branch", "hub", "linux-edge"]
    assert _bash("l2tpgen hosts --sites examples/field dc-") == ["dc-a", "dc-b"]


def test_push_completes_the_sites_not_named_yet() -> None:
    assert _bash("l2tpgen push --sites examples/hub hub ") == ["branch", "linux-edge"]


def test_no_sites_directory_completes_nothing_and_says_nothing(tmp_path: Path) -> None:
    assert _bash("l2tpgen render ", cwd=tmp_path) == []


def test_platforms_complete_from_the_registry() -> None:
    assert _bash("l2tpgen render site-a --platform ") == list(NAMES)
    assert _bash("l2tpgen render site-a --platform ios") == ["ios", "iosxe"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_rule_codes_complete_with_their_names(shell: str) -> None:
    text = _shell(shell, "l2tpgen rule L2T00")
    assert "L2T001" in text
    assert "single-trunk-xconnect" in text  # shown beside its code
    assert "L2T010" not in text


def test_a_rule_name_completes_when_the_word_is_no_code() -> None:
    assert _bash("l2tpgen rule single") == ["single-trunk-xconnect"]
