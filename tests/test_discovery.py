"""Where l2tpgen finds the sites and the running simulator when the command line does not say.

The order is the one docs/site-files.md gives (``l2tpgen.discovery``): ``--sites``, then
``L2TPGEN_SITES``, then ``[tool.l2tpgen] sites`` in the nearest pyproject.toml, then ``./sites``
here or in a parent up to the repository root; the inventory from ``--inventory``, else the one
simulator running for those sites. Each case is run from the user's side: a directory of their
own, a shell inside ``sites/``, a simulator started with ``sim up -d``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import cli_env, run_cli

from l2tpgen.discovery import DiscoveryError, find_inventory, find_sites

if TYPE_CHECKING:
    from collections.abc import Iterator


def _repository(tmp_path: Path) -> Path:
    """A user's repository: `.git`, the example sites in `sites/`, a nested `configs/a/b`."""
    root = tmp_path / "network"
    (root / ".git").mkdir(parents=True)
    shutil.copytree(SITES, root / "sites")
    (root / "configs" / "a" / "b").mkdir(parents=True)
    return root


def test_given_sites_win_over_everything(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    found = find_sites(tmp_path / "x", cwd=root, environ={"L2TPGEN_SITES": "elsewhere"})
    assert (found.path, found.source) == (tmp_path / "x", "--sites")


def test_the_environment_variable_comes_next(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    found = find_sites(None, cwd=root, environ={"L2TPGEN_SITES": "fleet"})
    assert found.path.as_posix() == "fleet"


def test_pyproject_names_the_sites_relative_to_itself(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (root / "pyproject.toml").write_text('[tool.l2tpgen]\nsites = "inventory/sites"\n')
    found = find_sites(None, cwd=root / "configs" / "a" / "b", environ={})
    assert found.path == root / "inventory" / "sites"
    assert "pyproject.toml" in found.source


def test_a_pyproject_without_the_key_is_passed_over(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (root / "pyproject.toml").write_text('[tool.l2tpgen.lint]\nfail-on = "error"\n')
    assert find_sites(None, cwd=root, environ={}).path == root / "sites"


def test_a_pyproject_sites_that_is_no_name_is_an_error_naming_the_file(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (root / "pyproject.toml").write_text("[tool.l2tpgen]\nsites = 3\n")
    with pytest.raises(DiscoveryError, match=r"pyproject.toml: \[tool.l2tpgen\] sites must be"):
        find_sites(None, cwd=root, environ={})


@pytest.mark.parametrize("where", [".", "configs/a/b", "sites"])
def test_sites_are_found_here_above_or_from_inside(tmp_path: Path, where: str) -> None:
    root = _repository(tmp_path)
    assert find_sites(None, cwd=root / where, environ={}).path == root / "sites"


def test_the_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    shutil.copytree(SITES, tmp_path / "sites")  # above the repository: not its sites
    root = tmp_path / "network"
    (root / ".git").mkdir(parents=True)
    found = find_sites(None, cwd=root, environ={})
    assert found.path.as_posix() == "sites"  # the default, which `load` reports as missing


def test_validate_and_a_dry_run_work_from_inside_sites_with_no_option(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    env = cli_env(tmp_path)
    validated = run_cli("validate", env=env, cwd=root / "sites")
    assert validated.returncode == 0, validated.stderr
    assert validated.stdout.startswith("ok: 2 sites")


def test_a_sites_option_naming_no_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("validate", "--sites", str(tmp_path / "nosuch"), env=cli_env(tmp_path))
    assert result.returncode == 2
    assert "does not exist; pass --sites DIR" in result.stderr


def test_no_sites_anywhere_says_where_it_looked(tmp_path: Path) -> None:
    (tmp_path / "empty" / ".git").mkdir(parents=True)
    result = run_cli("validate", env=cli_env(tmp_path), cwd=tmp_path / "empty")
    assert result.returncode == 2
    assert "L2TPGEN_SITES" in result.stderr
    assert "[tool.l2tpgen]" in result.stderr


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A user's repository and shell; the simulators started in it are stopped afterwards."""
    root = _repository(tmp_path)
    env = cli_env(tmp_path) | {"L2TPGEN_USERNAME": "admin", "L2TPGEN_PASSWORD": "lab-only"}
    env.pop("L2TPGEN_SIM_NAME", None)
    yield root, env
    for name in ("default", "second"):
        run_cli("sim", "down", "--name", name, env=env, cwd=root / "sites")


def test_the_running_simulator_is_found_by_push_from_inside_sites(
    fleet: tuple[Path, dict[str, str]],
) -> None:
    root, env = fleet
    started = run_cli("sim", "up", "-d", env=env, cwd=root / "sites")
    assert started.returncode == 0, started.stderr
    pushed = run_cli("push", "site-a", "--dry-run", env=env, cwd=root / "sites")
    assert pushed.returncode == 0, pushed.stderr
    assert "using the simulator default (pid " in pushed.stderr
    assert "site-a" in pushed.stdout
    # From another fleet, this simulator is not its routers: nothing is found (the site files'
    # management addresses would be used; no test reaches them).
    other = root.parent / "other" / "sites"
    shutil.copytree(SITES, other)
    state = Path(env["L2TPGEN_STATE_DIR"])
    assert find_inventory(None, other, state=state) is None
    found = find_inventory(None, root / "sites", state=state)
    assert found is not None
    assert found.path == state / "sim" / "default" / "inventory.json"


def test_two_simulators_are_listed_until_one_is_named(fleet: tuple[Path, dict[str, str]]) -> None:
    root, env = fleet
    for name in ("default", "second"):
        started = run_cli("sim", "up", "-d", "--name", name, env=env, cwd=root / "sites")
        assert started.returncode == 0, started.stderr
    ambiguous = run_cli("push", "site-a", "--dry-run", env=env, cwd=root / "sites")
    assert ambiguous.returncode == 1
    assert "2 simulators run for" in ambiguous.stderr
    assert "default (pid " in ambiguous.stderr
    assert "second (pid " in ambiguous.stderr
    assert "name one with L2TPGEN_SIM_NAME=NAME, or give --inventory FILE" in ambiguous.stderr
    # `--inventory FILE` always wins: no list, no simulator chosen for it (issue 34).
    given = Path(env["L2TPGEN_STATE_DIR"]) / "sim" / "second" / "inventory.json"
    chosen = run_cli(
        "push", "site-a", "--dry-run", "--inventory", str(given), env=env, cwd=root / "sites"
    )
    assert chosen.returncode == 0, chosen.stderr
    assert "simulators run for" not in chosen.stderr
    assert "using the simulator" not in chosen.stderr
    named = env | {"L2TPGEN_SIM_NAME": "second"}
    pushed = run_cli("push", "site-a", "--dry-run", env=named, cwd=root / "sites")
    assert pushed.returncode == 0, pushed.stderr
    assert "using the simulator second (pid " in pushed.stderr
