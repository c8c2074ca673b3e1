"""docs/api.md's examples run: every ```python block of the page, in order, as a user would.

The page is a session: each block builds on the ones above it (the fleet loaded, the simulated
routers started on 127.0.0.1). It runs in a process of its own, from the repository's root, with
none of l2tpgen's secret variables set (the page sets throwaway ones, as it says). A block that
fails names its line of docs/api.md in the traceback. The block fenced ```python lab boots QEMU and
runs only with the lab tests (``pytest -m lab``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT
from conftest_lab import requires_vm

import l2tpgen.api

PAGE = ROOT / "docs" / "api.md"
TEXT = PAGE.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```python( lab)?\n(.*?)^```", re.DOTALL | re.MULTILINE)

# Runs the page's blocks in one namespace; each compiled at its own line of the page.
RUNNER = """
import re, sys
from pathlib import Path
text = Path("docs/api.md").read_text(encoding="utf-8")
wanted = set(sys.argv[1].split(","))
namespace = {}
for match in re.finditer(BLOCK, text, re.DOTALL | re.MULTILINE):
    if (match.group(1) or "").strip() not in wanted:
        continue
    line = text[: match.start()].count("\\n") + 2
    exec(compile("\\n" * (line - 1) + match.group(2), "docs/api.md", "exec"), namespace)
    print(f"ran docs/api.md:{line}", flush=True)
""".replace("BLOCK", repr(BLOCK.pattern), 1)


def _blocks(kind: str = "") -> list[int]:
    """The line where each block of ``kind`` ("" or "lab") starts."""
    return [
        TEXT[: m.start()].count("\n") + 2
        for m in BLOCK.finditer(TEXT)
        if (m.group(1) or "").strip() == kind
    ]


def _run(kinds: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("L2TPGEN_")}
    return subprocess.run(
        [sys.executable, "-c", RUNNER, kinds],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_every_example_of_the_api_page_runs_in_order() -> None:
    result = _run("")
    assert result.returncode == 0, result.stderr[-3000:]
    ran = re.findall(r"^ran docs/api.md:(\d+)$", result.stdout, re.MULTILINE)
    assert [int(line) for line in ran] == _blocks()


FUNCTIONS = sorted(
    name
    for name in l2tpgen.api.__all__
    if callable(getattr(l2tpgen.api, name))
    and not isinstance(getattr(l2tpgen.api, name), type)
    and name
    not in {
        "problem_dict",
        "targets",
        "lab_of",
        "rollback_options",
    }  # helpers, shown through the others
)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_each_api_function_has_a_section_whose_example_calls_it(name: str) -> None:
    sections = dict(re.findall(r"^## (\S+)\n(.*?)(?=^## |\Z)", TEXT, re.DOTALL | re.MULTILINE))
    assert name in sections, f"docs/api.md has no section ## {name}"
    code = "".join(m.group(2) for m in BLOCK.finditer(sections[name]))
    assert f"api.{name}(" in code, f"the example of ## {name} does not call api.{name}"


@pytest.mark.lab
@requires_vm
def test_the_lab_run_example_runs_in_qemu() -> None:
    result = _run(",lab")
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"ran docs/api.md:{_blocks('lab')[0]}" in result.stdout
