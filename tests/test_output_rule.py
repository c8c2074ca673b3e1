"""One `-o` rule for every command (docs/site-files.md#output-files, issue 36).

Several files (a Linux PE with IPsec: iproute2.sh and swanctl.conf; networkd; import and netbox
pull, which write one site file per router): `-o` is a directory, made if missing, and a path
that names a file (it exists as a file, or has a suffix, `branch.sh`) is refused before anything
is written, exit 2, naming the files and asking for a directory. One file (a Cisco config,
docs, schema, lab build's topology, lab run's report): `-o` is a file; an existing directory is
refused, exit 2, suggesting a file in it. Before: `render SITE -o branch.sh` made a directory
`branch.sh/` for a Linux PE with IPsec, and said nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.files import names_a_file

if TYPE_CHECKING:
    from pathlib import Path

PROTECTED = ROOT / "examples" / "protected"
SINGLE_TRUNK = ROOT / "tests" / "importer" / "single-trunk"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "300", "NO_COLOR": "1"})
    return result.exit_code, " ".join(result.output.replace("│", " ").split())


def _linux(output: Path) -> tuple[int, str]:
    """site-a of examples/protected as a Linux PE: two files (iproute2.sh, swanctl.conf)."""
    return _run(
        "render", "site-a", "--sites", str(PROTECTED), "--platform", "linux", "-o", str(output)
    )


def test_a_path_names_a_file_when_it_is_one_or_has_a_suffix(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert names_a_file(tmp_path / "file")
    assert names_a_file(tmp_path / "branch.sh")
    assert not names_a_file(tmp_path / "branch")
    assert not names_a_file(tmp_path)  # an existing directory, whatever its name
    (tmp_path / "out.d").mkdir()
    assert not names_a_file(tmp_path / "out.d")


def test_render_of_several_files_refuses_a_file_name_and_writes_nothing(tmp_path: Path) -> None:
    code, text = _linux(tmp_path / "branch.sh")
    assert code == 2
    assert "site-a's Linux config is 2 files (iproute2.sh, swanctl.conf)" in text
    assert f"-o {tmp_path / 'branch'}/" in text  # what to write instead
    assert list(tmp_path.iterdir()) == []


def test_render_of_several_files_refuses_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "branch").write_text("kept\n")
    code, text = _linux(tmp_path / "branch")
    assert code == 2
    assert "names one file: name a directory" in text
    assert (tmp_path / "branch").read_text() == "kept\n"


def test_render_of_several_files_into_a_directory_writes_each(tmp_path: Path) -> None:
    code, _ = _linux(tmp_path / "branch")
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "branch").iterdir()) == [
        "iproute2.sh",
        "swanctl.conf",
    ]


def test_render_of_one_file_into_a_directory_is_refused_with_a_file_to_name(
    tmp_path: Path,
) -> None:
    code, text = _run("render", "site-a", "--sites", str(SITES), "-o", str(tmp_path))
    assert code == 2
    assert f"site-a's Cisco IOS config is one file, and {tmp_path} is a directory" in text
    assert f"-o {tmp_path / 'site-a.cfg'}" in text
    code, _ = _run("render", "site-a", "--sites", str(SITES), "-o", str(tmp_path / "a.cfg"))
    assert code == 0


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["docs", "--sites", str(SITES)], "-o"),
        (["schema"], "-o"),
        (["lab", "build", "--sites", str(SITES)], "--output"),
        (["lab", "run", str(SITES), "--report"], "--report"),
    ],
    ids=["docs", "schema", "lab build", "lab run --report"],
)
def test_every_one_file_output_refuses_a_directory(
    tmp_path: Path, args: list[str], flag: str
) -> None:
    target = [str(tmp_path)] if args[-1] == "--report" else ["-o", str(tmp_path)]
    code, text = _run(*args, *target)
    assert code == 2
    assert f"is one file, and {tmp_path} is a directory: name the file, e.g. {flag}" in text


def test_import_refuses_a_file_name_for_its_site_files(tmp_path: Path) -> None:
    configs = [str(p) for p in sorted(SINGLE_TRUNK.glob("*.cfg"))]
    code, text = _run("import", *configs, "-o", str(tmp_path / "sites.yaml"))
    assert code == 2
    assert "the import is 2 files (lab-a-rtr1.yaml, lab-b-rtr1.yaml)" in text
    assert list(tmp_path.iterdir()) == []
