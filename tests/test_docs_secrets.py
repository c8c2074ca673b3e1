"""docs/security.md lists every row of the one table of IOS's secret-bearing commands."""

from __future__ import annotations

import pytest
from conftest import ROOT

from l2tpgen.ios.secret_commands import SECRET_COMMANDS

SECURITY = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("row", SECRET_COMMANDS, ids=lambda row: row.command)
def test_each_row_of_the_table_is_in_the_docs_with_its_source(row: object) -> None:
    cells = (row.command, row.source, row.no_form)  # type: ignore[attr-defined]
    command, source, no_form = (
        cell.replace("|", "\\|") for cell in cells
    )  # GFM: a `|` splits cells
    assert f"| `{command}` | {source} | {no_form} |" in SECURITY
