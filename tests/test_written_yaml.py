"""The site files l2tpgen writes pass the hooks a network repository runs on every commit.

A repository that keeps its site files under pre-commit usually runs yamllint (its default
configuration: `---`, lines of 80 characters, no trailing spaces) and pre-commit-hooks'
trailing-whitespace and end-of-file-fixer. `import` and `netbox pull` write site files through one
writer (``l2tpgen.importer.writer``); here each written file is linted with yamllint's own
default configuration, as the hook runs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import TESTS
from hypothesis import example, given
from hypothesis import strategies as st
from typer.testing import CliRunner
from yamllint import linter
from yamllint.config import YamlLintConfig

from l2tpgen.cli import app
from l2tpgen.importer.writer import site_yaml
from l2tpgen.model.yamlparse import parse

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
DEFAULT = YamlLintConfig("extends: default")
CONFIGS = {
    "reference": sorted((TESTS / "reference").glob("before-router-*.conf")),
    "single-trunk": sorted((TESTS / "importer" / "single-trunk").glob("*.cfg")),
}


def _problems(text: str) -> list[str]:
    """yamllint's errors and warnings, with its default configuration."""
    return [f"{p.line}:{p.column} {p.level} {p.desc}" for p in linter.run(text, DEFAULT)]


def _hooks(text: str) -> list[str]:
    """pre-commit-hooks' trailing-whitespace and end-of-file-fixer: what they would change."""
    found = [
        f"{n}: trailing space"
        for n, line in enumerate(text.split("\n"), 1)
        if line.rstrip() != line
    ]
    if not text.endswith("\n") or text.endswith("\n\n"):
        found.append("the file does not end with exactly one newline")
    return found


@pytest.mark.parametrize("fleet", sorted(CONFIGS))
def test_imported_site_files_pass_a_stock_yamllint(tmp_path: Path, fleet: str) -> None:
    out = tmp_path / "sites"
    result = runner.invoke(app, ["import", *map(str, CONFIGS[fleet]), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    written = sorted(out.glob("*.yaml"))
    assert written
    for path in written:
        text = path.read_text()
        assert _problems(text) == [], path.name
        assert _hooks(text) == [], path.name


words = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), min_size=1, max_size=160)


@example(note="a " * 60, description="word " * 30, vlans=1)  # folded at single spaces
@example(note="x" * 100, description=" x  y " * 20, vlans=1)  # only double spaces: escaped
@example(note="n", description='say "hi" \\ ' * 12, vlans=2)  # escapes kept whole
@given(note=words, description=words, vlans=st.integers(0, 12))
def test_any_site_the_writer_writes_passes_a_stock_yamllint(
    note: str, description: str, vlans: int
) -> None:
    data: dict[str, object] = {
        "name": "a-rather-long-site-name-of-a-datacenter-edge-router",
        "hostname": "dc1-edge-rtr-01.network.example.com",
        "wan": {"interface": "TenGigabitEthernet0/0/0.3001", "address": "192.0.2.1/30"},
        "l2tp_class": {"name": "class1", "authentication": "digest", "secret_env": "VARIABLE"},
        "peers": ["dc2-edge", "branch-one", "branch-two"],
        "vlans": [
            {"id": 100 + n, "name": f"vlan-{n}", "peer": "dc2-edge", "description": description}
            for n in range(vlans)
        ],
    }
    text = site_yaml(data, [note, f"see {note}"])
    assert _problems(text) == []
    assert _hooks(text) == []
    parsed = parse(text)
    assert parsed is not None
    assert parsed[0] == data  # read back by l2tpgen's own reader: the same site
