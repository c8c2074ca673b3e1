"""A site file with thousands of problems: each reported at its line, printed in batches (issue 35).

16,000 bad VLANs took 85 s, mostly printing (rich spends about a millisecond a ``print`` call)
and matching each VLAN left out against every refused value; printed 512 lines a call, the output
is what one call a line wrote, byte for byte (bench/cost_bench.py measures the time).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.app import BATCH, print_lines
from l2tpgen.model.generate import write_fleet

if TYPE_CHECKING:
    from pathlib import Path

BAD = BATCH * 2 + 7  # three batches, the last one short


def _console(out: io.StringIO) -> Console:
    """A colour terminal 40 columns wide, set as l2tpgen's consoles are (no wrapping)."""
    return Console(
        file=out,
        force_terminal=True,
        color_system="truecolor",
        width=40,
        soft_wrap=True,
        highlight=False,
        markup=False,
        emoji=False,
    )


def test_lines_printed_in_batches_are_the_bytes_printed_one_call_a_line() -> None:
    lines = [
        Text.assemble((f"site-{i}.yaml:{i}:1:", "bold"), " ", ("error:", "red"), " x" * (i % 50))
        for i in range(11)
    ]
    one_by_one, batched = io.StringIO(), io.StringIO()
    for line in lines:
        _console(one_by_one).print(line)
    print_lines(_console(batched), lines, batch=4)
    assert batched.getvalue() == one_by_one.getvalue()
    assert "\x1b[" in batched.getvalue()  # the colours are compared too


def test_every_bad_vlan_of_a_large_file_is_reported_at_its_line_in_order(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 4)
    site = tmp_path / "site-0.yaml"
    head = site.read_text(encoding="utf-8").split("vlans:")[0] + "vlans:\n"
    first = head.count("\n") + 1  # the line of the first VLAN
    bad = "".join(f"  - {{id: {5000 + i}, name: v{i}, peer: site-1}}\n" for i in range(BAD))
    site.write_text(head + bad, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", "--sites", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[:-1] == [
        f"{site}:{first + i}:10: error: vlans[{i}].id: a VLAN ID is a whole number from 1 to "
        "4094 [V114]"
        for i in range(BAD)
    ]
    assert lines[-1] == f"{BAD} problems in the site files"
