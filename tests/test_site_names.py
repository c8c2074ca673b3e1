"""Completion and validate name a directory's sites alike: one function, ``site_names``.

The command line's completion and the library's ``validate`` (for a fleet that does not load,
its JSON's ``sites``) each listed a directory's site files their own way: validate named a site
twice when it had two files (``site-a.yaml`` and ``site-a.yml``, which the loader refuses: V007)
and listed a directory named like a site file; completion did neither (issue 35: each fact in
one home, ``l2tpgen.discovery.site_names``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FLEETS
from typer.testing import CliRunner

from l2tpgen.cli import app

L2TPGEN = Path(sys.executable).parent / "l2tpgen"  # the console script the shells call


def _untidy(tmp_path: Path) -> Path:
    """The valid pair, plus a second file for site-a, a directory and a text file."""
    sites = tmp_path / "sites"
    shutil.copytree(FLEETS / "valid", sites)
    shutil.copy(sites / "site-a.yaml", sites / "site-a.yml")
    (sites / "archive.yaml").mkdir()
    (sites / "README.txt").write_text("notes\n")
    return sites


def _completed(sites: Path, line: str) -> list[str]:
    """What bash completes for the last word of ``line`` (typer's protocol, as a shell runs it)."""
    env = {
        **os.environ,
        "_L2TPGEN_COMPLETE": "complete_bash",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(line.split(" ")) - 1),
    }
    done = subprocess.run(
        [str(L2TPGEN)], env=env, cwd=sites, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.split()


def test_validate_of_a_fleet_that_does_not_load_lists_each_site_once_as_completion_does(
    tmp_path: Path,
) -> None:
    sites = _untidy(tmp_path)
    result = CliRunner().invoke(app, ["validate", "--sites", str(sites), "--format", "json"])
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert "V007" in {p["code"] for p in summary["problems"]}  # two files for site-a
    assert summary["sites"] == ["site-a", "site-b"]
    assert _completed(sites, f"l2tpgen render --sites {sites} ") == ["site-a", "site-b"]
