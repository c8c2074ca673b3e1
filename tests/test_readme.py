"""The README's console examples are what l2tpgen prints, run from the repository's root."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```console\n(.*?)```", README, re.DOTALL)


def _examples() -> list[tuple[str, list[str]]]:
    examples: list[tuple[str, list[str]]] = []
    for block in BLOCKS:
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, *shown = chunk.rstrip("\n").split("\n")
            examples.append((command, [line for line in shown if line.strip()]))
    return examples


EXAMPLES = _examples()


def test_the_readme_has_console_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_prints_what_the_readme_shows(command: str, shown: list[str]) -> None:
    argv = shlex.split(command)
    assert argv[0] == "l2tpgen"
    env = {k: v for k, v in os.environ.items() if not k.startswith("L2TPGEN_")}
    result = subprocess.run(
        [sys.executable, "-m", "l2tpgen", *argv[1:]],
        cwd=ROOT,
        env={**env, "COLUMNS": "200", "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    printed = result.stdout.splitlines()
    # Shown lines appear in the output in the README's order; "..." stands for lines left out.
    position = 0
    for line in shown:
        if line.startswith("..."):
            continue
        assert line in printed[position:], f"the README shows {line!r}; l2tpgen printed:\n" + (
            result.stdout
        )
        position = printed.index(line, position) + 1
