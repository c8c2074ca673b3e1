"""Endless and odd inputs give one clear error (the file, what is wrong, what to do) and exit 1.

Before: `lint --config /dev/zero` and `import /dev/zero` ended in MemoryError; a site file
linked to /dev/zero was skipped without a word; a link loop in the sites directory was
`internal error (OSError)`; a binary topology was `internal error (UnicodeDecodeError)`.
"""

from __future__ import annotations

import errno
import os
import shutil
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.files import MAX_INPUT_BYTES, UserFileError, read_limited

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
TOO_LARGE = (
    "larger than 64 MiB, the limit for an input file (a router config or a site file is far "
    "smaller): check that the path names the right file"
)
NOT_A_SITE_FILE = (
    "  hint: a site file is a regular YAML file: put the site's YAML there, or remove it"
)
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")  # noqa: PTH110


def _sites(tmp_path: Path) -> Path:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    return sites


def test_the_input_limit_is_64_mib_read_no_further(tmp_path: Path) -> None:
    exact, over = tmp_path / "exact", tmp_path / "over"
    for path, size in ((exact, MAX_INPUT_BYTES), (over, MAX_INPUT_BYTES + 1)):
        with path.open("wb") as stream:
            stream.truncate(size)  # sparse: no disk used
    assert len(read_limited(exact)) == 64 * 1024 * 1024
    with pytest.raises(UserFileError) as caught:
        read_limited(over)
    assert str(caught.value) == f"cannot read {over}: {TOO_LARGE}"


@needs_dev_zero
def test_lint_of_an_endless_device_is_refused_with_the_limit() -> None:
    result = runner.invoke(app, ["lint", "--config", "/dev/zero"])
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot read /dev/zero: {TOO_LARGE}\n"


@needs_dev_zero
def test_import_of_an_endless_device_is_refused_with_the_limit(tmp_path: Path) -> None:
    result = runner.invoke(app, ["import", "/dev/zero", "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot read /dev/zero: {TOO_LARGE}\n"
    assert not (tmp_path / "out").exists()


@needs_dev_zero
def test_a_site_file_linked_to_a_device_is_an_error_at_that_file(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    (sites / "site-z.yaml").symlink_to("/dev/zero")
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        (
            f"{sites / 'site-z.yaml'}:1:1: error: site-z.yaml is a symbolic link to a character "
            "device, not a site file [V008]"
        ),
        NOT_A_SITE_FILE,
        "1 problem in the site files",
    ]


def test_a_link_loop_in_the_sites_directory_is_an_error_at_each_link(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    (sites / "loop-a.yaml").symlink_to(sites / "loop-b.yaml")
    (sites / "loop-b.yaml").symlink_to(sites / "loop-a.yaml")
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    loop = os.strerror(errno.ELOOP)  # "Too many levels of symbolic links"
    assert result.stderr.splitlines() == [
        (
            f"{sites / 'loop-a.yaml'}:1:1: error: loop-a.yaml is a symbolic link that leads "
            f"nowhere ({loop}), not a site file [V008]"
        ),
        NOT_A_SITE_FILE,
        (
            f"{sites / 'loop-b.yaml'}:1:1: error: loop-b.yaml is a symbolic link that leads "
            f"nowhere ({loop}), not a site file [V008]"
        ),
        NOT_A_SITE_FILE,
        "2 problems in the site files",
    ]


def test_rendering_a_site_whose_file_is_a_fifo_says_so_instead_of_waiting(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    os.mkfifo(sites / "site-f.yaml")
    result = runner.invoke(app, ["render", "site-f", "--sites", str(sites)])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"{sites / 'site-f.yaml'}:1:1: error: site-f.yaml is a FIFO, not a site file [V008]\n"
    )


def test_a_binary_site_file_names_the_first_bad_byte(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    (sites / "site-a.yaml").write_bytes(b"name\xff\xfe")
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    assert result.exit_code == 1
    assert (
        f"{sites / 'site-a.yaml'}:1:1: error: cannot read file: not UTF-8 text (byte 0xff at "
        "offset 4): a site file is text; check that the path names the right file [V004]"
    ) in result.stderr.splitlines()


def test_a_binary_topology_is_refused_by_lab_run_with_the_reason(tmp_path: Path) -> None:
    topology = tmp_path / "x.clab.yml"
    topology.write_bytes(b"name: x\n\x89PNG\r\n")
    result = runner.invoke(app, ["lab", "run", str(topology)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {topology}: 1 problem(s):\n  cannot read it: not UTF-8 text (byte 0x89 at "
        "offset 8): a topology is text; check that the path names the right file\n"
    )
