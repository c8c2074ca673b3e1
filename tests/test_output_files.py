"""What `-o` does with each kind of path: `-` is stdout, a device or FIFO is written into, a
symbolic link is refused, and a failed write is one line and exit 1, never a traceback.

Before: `render -o` always wrote a temporary file and renamed it over the path, so a device node
(as root), a FIFO and a symbolic link were replaced by a regular file, `-o -` wrote a file named
`-`, and `lab build -o /proc/x` ended in FileNotFoundError. The device nodes here are made in the
test's directory (same numbers as /dev/full and /dev/null), never the system's.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING

import pytest
from conftest import GOLDEN, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    import io
    from pathlib import Path

runner = CliRunner()
RENDERED = (GOLDEN / "render" / "site-a.ios.conf").read_text()


def _render(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["render", "site-a", "--sites", str(SITES), *args])
    return result.exit_code, result.stdout, result.stderr


def _device(path: Path, minor: int) -> Path:
    """A character device like /dev/full (1, 7) or /dev/null (1, 3), or skip without the right."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    return path


def test_dash_means_standard_output_and_no_file_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, stdout, _ = _render("-o", "-")
    assert code == 0
    assert stdout == RENDERED
    assert list(tmp_path.iterdir()) == []


def test_a_full_device_gives_a_one_line_error_and_stays_a_device(tmp_path: Path) -> None:
    full = _device(tmp_path / "full", 7)
    code, stdout, stderr = _render("-o", str(full))
    assert code == 1
    assert stdout == ""
    assert stderr == f"error: cannot write {full}: {os.strerror(errno.ENOSPC)}\n"
    assert stat.S_ISCHR(full.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["full"]  # no temporary file left behind


def test_a_write_that_fails_half_way_leaves_the_old_file_whole_and_nothing_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The disk fills up after the first 100 characters of the new config (docs/site-files.md,
    # "Output files": a regular file is written whole or not at all).
    old = tmp_path / "site-a.conf"
    old.write_text("! the config of yesterday\n")
    opened = os.fdopen

    class FillsUp:
        def __init__(self, stream: io.TextIOWrapper) -> None:
            self.stream = stream

        def __enter__(self) -> io.TextIOWrapper:
            return self  # type: ignore[return-value]  # stands in for the stream

        def __exit__(self, *_: object) -> None:
            self.stream.close()

        def write(self, text: str) -> int:
            self.stream.write(text[:100])
            self.stream.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fdopen", lambda *a, **k: FillsUp(opened(*a, **k)))
    code, stdout, stderr = _render("-o", str(old))
    assert code == 1
    assert stdout == ""
    assert stderr == f"error: cannot write {old}: {os.strerror(errno.ENOSPC)}\n"
    assert old.read_text() == "! the config of yesterday\n"
    assert [p.name for p in tmp_path.iterdir()] == ["site-a.conf"]


def test_a_null_device_is_written_into_and_stays_a_device(tmp_path: Path) -> None:
    null = _device(tmp_path / "null", 3)
    code, _, stderr = _render("-o", str(null))
    assert code == 0, stderr
    assert stat.S_ISCHR(null.lstat().st_mode)


def test_a_fifo_is_written_into_and_its_reader_gets_the_config(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # A reader already open (non-blocking): render's open does not wait, and the config (a few
    # kilobytes) fits in the pipe's buffer; a FIFO replaced by a file leaves the reader empty.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code, _, stderr = _render("-o", str(fifo))
        received = b""
        while chunk := _read_some(reader):
            received += chunk
    finally:
        os.close(reader)
    assert code == 0, stderr
    assert received.decode() == RENDERED
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def _read_some(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return b""


def test_a_symbolic_link_is_refused_naming_its_target_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.conf"
    link = tmp_path / "site-a.conf"
    link.symlink_to(target)
    code, _, stderr = _render("-o", str(link))
    assert code == 1
    assert stderr.startswith(
        f"error: cannot write {link}: it is a symbolic link (to {target}); l2tpgen neither "
        f"follows nor replaces links: write to {target} itself, or remove the link"
    )
    assert link.is_symlink()
    assert not target.exists()


def test_a_missing_directory_is_made_as_mkdir_p_would(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "deeper" / "site-a.conf"
    code, _, _ = _render("-o", str(target))
    assert code == 0
    assert target.read_text().startswith("! l2tpgen: site-a")


def test_a_directory_that_cannot_hold_files_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "site-a.conf"
    code, _, stderr = _render("-o", str(target))
    assert code == 1
    assert stderr.startswith(f"error: cannot write {target}: ")
    assert "Traceback" not in stderr


def test_lab_build_into_proc_is_a_one_line_error_not_a_traceback() -> None:
    if not os.path.isdir("/proc/self"):  # noqa: PTH112 - a plain existence probe
        pytest.skip("no /proc here")
    result = runner.invoke(
        app, ["lab", "build", "--sites", str(SITES), "--flavor", "cisco_iol", "-o", "/proc/x"]
    )
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("error: cannot write /proc/x: no file can be created in /proc")


def test_lab_build_refuses_a_name_lab_run_would_refuse_before_writing(tmp_path: Path) -> None:
    target = tmp_path / "lab.clab.yml"
    result = runner.invoke(
        app, ["lab", "build", "--sites", str(SITES), "--name", "$(touch x)", "-o", str(target)]
    )
    assert result.exit_code == 1
    assert "--name '$(touch x)'" in result.stderr
    assert "1-40 letters, digits, '-' or '_'" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_lab_build_dash_writes_the_topology_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lab", "build", "--sites", str(SITES), "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("name: l2tpgen\n")
    assert list(tmp_path.iterdir()) == []
