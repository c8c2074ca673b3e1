"""The lab builds its initramfs and its packet tool once per set of inputs (``engines/cache.py``).

Under load here building them took 5-10 s (the initramfs: programs, libraries and kernel modules
decompressed and gzipped) and 3 s (gcc -static) on every run; a cached entry is read instead.
"""

from __future__ import annotations

import gzip
from typing import TYPE_CHECKING

from l2tpgen.lab.engines import qemu as vm
from l2tpgen.lab.engines.cache import CACHE_DIR, cached, digest
from l2tpgen.lab.engines.qemu import Extras, Kernel, build_initramfs

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def _kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Kernel, list[Extras]]:
    image = tmp_path / "vmlinuz"
    image.write_bytes(b"kernel")
    program = tmp_path / "program"
    program.write_bytes(b"program")
    built: list[Extras] = []

    def base(_: Kernel, extras: Extras) -> bytes:
        built.append(extras)
        return gzip.compress(b"BASE")

    monkeypatch.setattr(vm, "_need", lambda *_: str(program))
    monkeypatch.setattr(vm, "_base_initramfs", base)
    monkeypatch.setenv(CACHE_DIR, str(tmp_path / "cache"))
    return Kernel(image, tmp_path), built


def test_the_initramfs_is_built_once_and_the_script_rides_in_a_second_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel, built = _kernel(tmp_path, monkeypatch)
    first = build_initramfs(kernel, "echo one\n")
    second = build_initramfs(kernel, "echo two\n")
    assert len(built) == 1  # the second run read the cached base
    assert gzip.decompress(first).startswith(b"BASE")  # the kernel unpacks both archives
    assert b"lab.sh" in gzip.decompress(second)
    assert b"echo two" in gzip.decompress(second)
    build_initramfs(kernel, "echo one\n", Extras(modules=("esp4",)))  # another input
    assert len(built) == 2
    (tmp_path / "program").write_bytes(b"program, upgraded")  # a program changed
    build_initramfs(kernel, "echo one\n")
    assert len(built) == 3


def test_an_unwritable_cache_only_means_building_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_DIR, str(blocker / "cache"))
    calls: list[int] = []

    def build() -> bytes:
        calls.append(1)
        return b"data"

    for _ in range(2):
        assert cached("x", digest(["a"]), build) == b"data"
    assert len(calls) == 2


def test_keys_do_not_collide_when_parts_shift() -> None:
    assert digest(["ab", "c"]) != digest(["a", "bc"])
