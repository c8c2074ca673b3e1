"""What a first visit finds: the README's commands, its links, the licence, the hooks it shows."""

from __future__ import annotations

import re

import yaml
from conftest import ROOT

from l2tpgen import __version__

README = (ROOT / "README.md").read_text()
MAIN_JOB = (
    "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/l2tpgen validate --sites "
    "sites && .venv/bin/l2tpgen lint --sites sites && .venv/bin/l2tpgen render site-a --sites sites"
)


def test_the_readme_keeps_the_two_commands_exactly_as_ci_uses_them() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.DOTALL)
    assert f"{MAIN_JOB}\n" in blocks
    assert "bash .ci/run\n" in blocks


def test_every_local_link_of_the_readme_and_the_docs_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if target.startswith("http"):
                continue
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_readme_links_a_page_per_command_family() -> None:
    for page in ("site-files", "lint", "import", "push", "lab"):
        assert f"(docs/{page}.md)" in README


def test_the_licence_file_is_the_apache_2_licence_pyproject_declares() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^license = "Apache-2.0"$', pyproject, re.MULTILINE)
    text = (ROOT / "LICENSE").read_text()
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text


def test_the_changelog_has_the_packages_version() -> None:
    assert f"## [{__version__}]" in (ROOT / "CHANGELOG.md").read_text()


def test_the_readmes_pre_commit_example_names_the_hooks_this_repository_has() -> None:
    hooks = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    shown = set(re.findall(r"- id: (\S+)", README))
    assert shown == hooks
