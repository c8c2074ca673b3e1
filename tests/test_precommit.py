"""The pre-commit hooks of this repository, tried on a sample repository of site files and configs.

`pre-commit try-repo` installs this repository into a hook environment (with pip, from PyPI as a
user's pre-commit would), once for the test, then runs the hooks on a clean sample and on a broken
one. About half a minute.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SITES, TESTS

from l2tpgen.model import load_fleet
from l2tpgen.render import render_site

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
HOOKS = ("l2tpgen validate", "l2tpgen lint (sites)", "l2tpgen lint (IOS configs)")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        [
            shutil.which("git") or "git",
            "-c",
            "user.email=test@example.invalid",
            "-c",
            "user.name=test",
            *args,
        ],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def _try_repo(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(ROOT), "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def _status(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        for hook in HOOKS:
            if line.startswith(hook + "."):
                found[hook] = line.rsplit(".", 1)[-1].strip()
    return found


@pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is in the test extra")
def test_the_hooks_pass_a_clean_repository_and_fail_a_broken_one(tmp_path: Path) -> None:
    repo = tmp_path / "network"
    repo.mkdir()
    _git(repo, "init", "-q")
    shutil.copytree(SITES, repo / "sites")
    (repo / "site-a.cfg").write_text(render_site(load_fleet(SITES), "site-a"))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "clean")
    clean = _try_repo(repo, tmp_path / "pre-commit-home")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _status(clean.stdout) == dict.fromkeys(HOOKS, "Passed")

    site_b = repo / "sites" / "site-b.yaml"
    lines = site_b.read_text().splitlines(keepends=True)
    site_b.write_text("".join(line for line in lines if "2998" not in line))
    shutil.copy(TESTS / "lint" / "reference" / "before.conf", repo / "old-router.cfg")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "broken")
    broken = _try_repo(repo, tmp_path / "pre-commit-home")
    assert broken.returncode == 1
    assert _status(broken.stdout) == dict.fromkeys(HOOKS, "Failed")
    assert "sites/site-a.yaml:26:5: error: VLAN 2998 is stretched to site-b" in broken.stdout
    assert "old-router.cfg:17:2: L2T001 warning" in broken.stdout
