"""The pre-commit hooks of this repository, tried on a sample repository of site files and configs.

The README's `.pre-commit-config.yaml`, with this checkout for `L2TPGEN_REPO` and its HEAD for
`L2TPGEN_REV`: real pre-commit installs this repository into a hook environment (with pip, from
PyPI as a user's pre-commit would), once for the test, then runs the hooks on a clean sample and on
a broken one. About half a minute. The README's local-hook form runs the installed l2tpgen.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SITES, TESTS

from l2tpgen.model import load_fleet
from l2tpgen.platforms.render import render_site

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
HOOKS = ("l2tpgen validate", "l2tpgen lint (sites)", "l2tpgen lint (IOS configs)")
README_CONFIGS = [
    block
    for block in re.findall(r"```yaml\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    if block.startswith("repos:")
]


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


def _head() -> str:
    return subprocess.run(
        [shutil.which("git") or "git", "rev-parse", "HEAD"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def _run(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "PRE_COMMIT_COLOR": "never",
        "PATH": f"{PRE_COMMIT.parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    return subprocess.run(
        [str(PRE_COMMIT), "run", "--all-files"],
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
    config = README_CONFIGS[0].replace("L2TPGEN_REPO", str(ROOT)).replace("L2TPGEN_REV", _head())
    (repo / ".pre-commit-config.yaml").write_text(config)
    shutil.copytree(SITES, repo / "sites")
    (repo / "site-a.cfg").write_text(render_site(load_fleet(SITES), "site-a"))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "clean")
    clean = _run(repo, tmp_path / "pre-commit-home")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _status(clean.stdout) == dict.fromkeys(HOOKS, "Passed")

    site_b = repo / "sites" / "site-b.yaml"
    lines = site_b.read_text().splitlines(keepends=True)
    site_b.write_text("".join(line for line in lines if "2998" not in line))
    shutil.copy(TESTS / "lint" / "reference" / "before.conf", repo / "old-router.cfg")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "broken")
    broken = _run(repo, tmp_path / "pre-commit-home")
    assert broken.returncode == 1
    assert _status(broken.stdout) == dict.fromkeys(HOOKS, "Failed")
    assert "sites/site-a.yaml:26:5: error: VLAN 2998 is stretched to site-b" in broken.stdout
    assert "old-router.cfg:17:2: L2T001 warning" in broken.stdout


@pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is in the test extra")
def test_the_readmes_local_hook_runs_the_installed_l2tpgen_and_fails_a_broken_fleet(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "network"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(README_CONFIGS[1])
    shutil.copytree(SITES, repo / "sites")
    _git(repo, "add", ".")
    assert _run(repo, tmp_path / "home").returncode == 0
    site_b = repo / "sites" / "site-b.yaml"
    lines = site_b.read_text().splitlines(keepends=True)
    site_b.write_text("".join(line for line in lines if "2998" not in line))
    _git(repo, "add", ".")
    broken = _run(repo, tmp_path / "home")
    assert broken.returncode == 1
    assert "sites/site-a.yaml:26:5: error: VLAN 2998 is stretched to site-b" in broken.stdout


def test_the_readme_names_no_owner_or_tag_that_does_not_exist() -> None:
    # Issue 20: the snippets named `OWNER` and a `v0.1.0` tag that does not exist.
    readme = (ROOT / "README.md").read_text()
    assert len(README_CONFIGS) == 2
    assert "OWNER/" not in readme
    tags = subprocess.run(
        [shutil.which("git") or "git", "tag"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    # the refs of l2tpgen itself (actions/checkout@v4 is not ours)
    for ref in re.findall(r"(?:rev: |l2tpgen@)(v\d[\w.]*)", readme):
        assert ref in tags, ref
