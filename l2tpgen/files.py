"""Files a user names on the command line: read within a size limit, written without surprises.

Reading takes at most ``MAX_INPUT_BYTES`` (64 MiB) and one byte more: a router config or a site
file is a few hundred kilobytes, and ``/dev/zero``, a FIFO fed by an endless program or a
mistaken path to a disk image stops with a message instead of filling memory.

Writing (``render -o``, ``lab build -o``, ``import -o``):

- ``-`` is standard output (the caller prints; ``is_stdout`` says when).
- Several files go into a directory; a path that names one file (``names_a_file``: it is one,
  or has a suffix) is refused for them, with ``several_files_refusal``'s reason.
- A regular file, or a path that does not exist yet, is written whole or not at all: a temporary
  file beside it, then a rename.
- A character device or a FIFO (``/dev/null``, ``/dev/full``, a pipe another program reads) is
  written into, as a shell's ``>`` would; it is never replaced by a regular file.
- A symbolic link is refused, never followed or replaced: the message names its target, so
  the user can write there on purpose. A link left in a shared directory (``/tmp``) would
  otherwise send a root-run render's output, secrets included, wherever it points.
- A directory, a socket, or an error while writing (``ENOSPC``, ``EACCES``) is a
  ``UserFileError`` naming the path and the reason.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from l2tpgen.errors import L2tpgenError

if TYPE_CHECKING:
    from collections.abc import Mapping

MIB = 1024 * 1024
# Far above any config or site file (the largest third-party configs l2tpgen has met are under
# 2 MiB), far below what would hurt a laptop.
MAX_INPUT_BYTES = 64 * MIB
STDIO = "-"
_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
    stat.S_IFLNK: "a symbolic link",
}


class UserFileError(L2tpgenError):
    """A file the user named cannot be read or written as asked (names it and says why).

    ``reason`` is the why alone, for messages that name the file already (``file:1:1: ...``).
    """

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


class NotTextError(UserFileError):
    """A file the user named holds bytes that are not UTF-8 text (``reason``: ``not_text``'s)."""


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    """``-o -``: the output goes to standard output."""
    return path is not None and os.fspath(path) == STDIO


def names_a_file(path: Path) -> bool:
    """``-o PATH`` names one file, not a directory for several.

    A path that exists and is not a directory names a file; so does a new path whose last part
    has a suffix (``branch.sh``, ``site-a.yaml``): a file name as people write one. A directory,
    or a new path without a suffix (``branch``, ``out/``), is a directory to make.
    """
    if path.is_dir():
        return False
    return path.exists() or path.is_symlink() or bool(path.suffix)


def several_files_refusal(output: Path, what: str, names: list[str]) -> str:
    """Why ``output`` cannot take ``names`` (several files): name a directory instead."""
    stem = output.with_suffix("") if output.suffix else output.with_name(output.name + ".d")
    listed = ", ".join(names)
    count = f"{len(names)} files" if len(names) > 1 else "written into a directory"
    return (
        f"{what} is {count} ({listed}), and {output} names one file: name a directory "
        f"for them, e.g. -o {stem}/ (made if missing)"
    )


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words (``a FIFO``)."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def too_large(limit: int = MAX_INPUT_BYTES) -> str:
    """Why an input past ``limit`` is refused."""
    return (
        f"larger than {limit // MIB} MiB, the limit for an input file (a router config or a "
        "site file is far smaller): check that the path names the right file"
    )


def not_text(exc: UnicodeDecodeError, what: str) -> str:
    """Why bytes that are not UTF-8 are refused (the offset, never the bytes around it)."""
    return (
        f"not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}): {what} is "
        "text; check that the path names the right file"
    )


def read_limited(
    path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES, stdin: BinaryIO | None = None
) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most ``limit`` of them.

    Raises:
        UserFileError: the file cannot be read (the reason from the system) or holds more than
            ``limit`` bytes (an endless device included: reading stops one byte past it).
    """
    name = os.fspath(path)
    if name == STDIO:
        data = (stdin or sys.stdin.buffer).read(limit + 1)
        shown = "standard input"
    else:
        try:
            with Path(name).open("rb") as stream:
                data = stream.read(limit + 1)
        except OSError as exc:
            reason = _reason(exc)
            raise UserFileError(f"cannot read {name}: {reason}", reason) from exc
        shown = name
    if len(data) > limit:
        raise UserFileError(f"cannot read {shown}: {too_large(limit)}", too_large(limit))
    return data


def read_text(path: str | os.PathLike[str], what: str) -> str:
    """The UTF-8 text of ``path`` (``read_limited``); ``what`` names it in the refusal.

    Raises:
        UserFileError: the file cannot be read or is too large (``read_limited``); ``NotTextError``
            (a subclass) when its bytes are not UTF-8 (``not_text``: the offset, never the bytes).
    """
    data = read_limited(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = not_text(exc, what)
        raise NotTextError(f"cannot read {os.fspath(path)}: {reason}", reason) from None


def write_output(path: Path, text: str, *, mode: int = 0o644) -> None:
    """Write ``text`` to ``path`` (see the module's docstring for what each kind of path gets).

    Raises:
        UserFileError: the path is a link, a directory or a socket, or the write failed.
    """
    try:
        found = path.lstat()
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise UserFileError(f"cannot write {path}: {_reason(exc)}") from exc
    kind = stat.S_IFMT(found.st_mode) if found is not None else stat.S_IFREG
    try:
        if kind == stat.S_IFLNK:
            target = path.readlink()
            raise UserFileError(
                f"cannot write {path}: it is a symbolic link (to {target}); l2tpgen neither "
                f"follows nor replaces links: write to {target} itself, or remove the link"
            )
        if kind in {stat.S_IFCHR, stat.S_IFIFO}:
            with path.open("w", encoding="utf-8") as stream:  # into it, never replacing it
                stream.write(text)
        elif kind == stat.S_IFREG:
            if found is None:  # a new file: its directory is made too, as `mkdir -p` would
                path.parent.mkdir(parents=True, exist_ok=True)
            _replace(path, text, mode)
        else:
            raise UserFileError(f"cannot write {path}: it is {kind_of(kind)}, not a file")
    except OSError as exc:
        raise UserFileError(f"cannot write {path}: {_reason(exc)}") from exc


def make_directory(path: Path, what: str = "cannot make directory") -> None:
    """``mkdir -p path``.

    Raises:
        UserFileError: ``what`` and the path, and why it cannot be made.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserFileError(f"{what} {path}: {exc.strerror}") from exc


def write_files(output: Path, files: Mapping[str, str], *, private: bool) -> list[Path]:
    """Write one text to ``output`` (``files`` is ``{"": text}``), or several into a directory.

    Each file goes through ``write_output``: a regular file is written whole or not at all (a
    temporary file, then a rename), with mode 0600 when it holds secrets (``private``); a device
    or FIFO is written into; a symbolic link is refused. The one writer of the command line:
    ``tests/test_cli_thin.py`` fails when a ``cli/`` module writes a file another way.

    Raises:
        UserFileError: a path cannot be written (names it and says why).
    """
    if list(files) == [""]:
        targets = [(output, files[""])]
    else:
        make_directory(output)
        targets = [(output / file, text) for file, text in files.items()]
    for path, text in targets:
        write_output(path, text, mode=0o600 if private else 0o644)
    return [path for path, _ in targets]


def _replace(path: Path, text: str, mode: int) -> None:
    """A temporary file beside ``path``, then a rename: whole or not at all."""
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as exc:
        raise UserFileError(
            f"cannot write {path}: no file can be created in {path.parent} ({_reason(exc)}); "
            "choose a directory you can write to"
        ) from exc
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
