"""The lab boots the kernel uncompressed at its PVH entry when it can (``engines/bootimage.py``).

The ELF files here are built by hand: a 64-bit header whose program headers hold one PT_NOTE
segment, with the note Linux's ``arch/x86/platform/pvh/head.S`` emits (owner ``Xen``, type
``XEN_ELFNOTE_PHYS32_ENTRY`` = 18, ``include/xen/interface/elfnote.h``) or another one.
"""

from __future__ import annotations

import gzip
import lzma
from typing import TYPE_CHECKING

from l2tpgen.lab.engines.bootimage import XEN_ELFNOTE_PHYS32_ENTRY, boot_image, pvh_kernel
from l2tpgen.lab.engines.cache import CACHE_DIR, cached_file

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

SETUP = b"MZ" + b"\0" * 510 + b"HdrS" + b"\x90" * 1000  # a bzImage's set-up code, roughly


def _elf(note_type: int, owner: bytes = b"Xen") -> bytes:
    name = owner + b"\0"
    note = len(name).to_bytes(4, "little") + (4).to_bytes(4, "little")
    note += note_type.to_bytes(4, "little") + name.ljust((len(name) + 3) // 4 * 4, b"\0")
    note += (0x1000000).to_bytes(4, "little")
    phoff, phentsize = 64, 56
    offset = phoff + phentsize
    header = bytearray(64)
    header[0:6] = b"\x7fELF\x02\x01"
    header[0x20:0x28] = phoff.to_bytes(8, "little")
    header[0x36:0x38] = phentsize.to_bytes(2, "little")
    header[0x38:0x3A] = (1).to_bytes(2, "little")
    program = bytearray(phentsize)
    program[0:4] = (4).to_bytes(4, "little")  # PT_NOTE
    program[8:16] = offset.to_bytes(8, "little")
    program[32:40] = len(note).to_bytes(8, "little")
    return bytes(header + program + note) + b"kernel text"


def test_a_pvh_kernel_is_found_inside_an_xz_bzimage() -> None:
    elf = _elf(XEN_ELFNOTE_PHYS32_ENTRY)
    image = SETUP + lzma.compress(elf, format=lzma.FORMAT_XZ) + b"\0" * 64
    assert pvh_kernel(image) == elf


def test_a_pvh_kernel_is_found_inside_a_gzip_bzimage() -> None:
    elf = _elf(XEN_ELFNOTE_PHYS32_ENTRY)
    assert pvh_kernel(SETUP + gzip.compress(elf) + b"trailer") == elf


def test_a_kernel_without_the_pvh_note_is_booted_as_it_is() -> None:
    for elf in (_elf(XEN_ELFNOTE_PHYS32_ENTRY - 1), _elf(XEN_ELFNOTE_PHYS32_ENTRY, b"Linux")):
        assert pvh_kernel(SETUP + lzma.compress(elf, format=lzma.FORMAT_XZ)) is None
    assert pvh_kernel(SETUP + b"no compressed payload") is None


def test_the_uncompressed_kernel_is_cached_and_a_failure_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_DIR, str(tmp_path / "cache"))
    elf = _elf(XEN_ELFNOTE_PHYS32_ENTRY)
    image = tmp_path / "vmlinuz"
    image.write_bytes(SETUP + lzma.compress(elf, format=lzma.FORMAT_XZ))
    booted = boot_image(image)
    assert booted != image
    assert booted.read_bytes() == elf
    assert boot_image(image) == booted  # read from the cache
    other = tmp_path / "vmlinuz-old"
    other.write_bytes(SETUP + gzip.compress(_elf(0)))
    assert boot_image(other) == other  # no PVH entry: the bzImage
    assert len(list((tmp_path / "cache").glob("vmlinux-*"))) == 2  # the failure is recorded
    assert boot_image(tmp_path / "missing") == tmp_path / "missing"


def test_an_unwritable_cache_boots_the_bzimage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_DIR, str(blocker / "cache"))
    image = tmp_path / "vmlinuz"
    image.write_bytes(SETUP + lzma.compress(_elf(XEN_ELFNOTE_PHYS32_ENTRY), format=lzma.FORMAT_XZ))
    built: list[bytes] = []

    def build() -> bytes:
        built.append(b"kernel")
        return b"kernel"

    assert cached_file("vmlinux", "key", build) is None
    assert built == []  # nothing decompressed that could not be kept
    assert boot_image(image) == image
