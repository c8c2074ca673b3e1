"""What the lab builds again and again, built once: the guest's initramfs, the packet tool.

Each entry is named by a SHA-256 of everything it is built from (content-addressed: a change
of any input is a new entry, and several processes can share the directory: an entry is
written to a temporary name and renamed into place). The directory is ``L2TPGEN_CACHE_DIR``,
else ``$XDG_CACHE_HOME/l2tpgen/lab``, else ``~/.cache/l2tpgen/lab``; one that cannot be written
only means building every time. Entries are never read unless their name matches; delete the
directory to reclaim the space (an initramfs is 8.5-12.5 MB, the uncompressed kernel 66 MB).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

CACHE_DIR = "L2TPGEN_CACHE_DIR"


def cache_dir() -> Path:
    """Where the lab keeps what it built."""
    if os.environ.get(CACHE_DIR):
        return Path(os.environ[CACHE_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path("~/.cache").expanduser())
    return Path(base) / "l2tpgen" / "lab"


def digest(parts: Iterable[bytes | str]) -> str:
    """A SHA-256 of ``parts``, each length-prefixed (no two lists of parts collide)."""
    sha = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        sha.update(len(data).to_bytes(8, "big") + data)
    return sha.hexdigest()


def stamp(path: str | Path) -> str:
    """A file's identity for a key: its path, size and modification time."""
    info = Path(path).stat()
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def cached(kind: str, key: str, build: Callable[[], bytes]) -> bytes:
    """The entry ``kind-key``, built by ``build`` when it is not there yet."""
    path = cache_dir() / f"{kind}-{key}"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as partial:
            partial.write(data)
        Path(partial.name).replace(path)
    except OSError:
        pass  # no cache, built every time
    return data


def cached_file(kind: str, key: str, build: Callable[[], bytes | None]) -> Path | None:
    """The path of the entry ``kind-key``, built when it is not there yet (a program reads it).

    ``build`` returns None when there is nothing to keep: an empty entry records that, so it is
    not tried again. None: nothing to use, or the cache cannot be written.
    """
    path = cache_dir() / f"{kind}-{key}"
    if not path.exists():
        try:  # the place first: nothing is built that could not be kept
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as partial:
                partial.write(build() or b"")
            Path(partial.name).replace(path)
        except OSError:
            return None
    try:
        return path if path.stat().st_size else None
    except OSError:
        return None
