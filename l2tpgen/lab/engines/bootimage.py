"""The kernel QEMU boots: the distribution's kernel, decompressed once on the host (PVH entry).

A distribution's ``vmlinuz`` is a bzImage: real-mode set-up code and a compressed kernel that
decompresses itself in the guest. Debian compresses it with XZ (``CONFIG_KERNEL_XZ``), and under
software emulation (TCG) that decompression was the lab's largest single cost: the kernel's first
line came 5.8 s after SeaBIOS's "Booting from ROM" here, 7.7-7.8 CPU seconds for a boot that ran
an empty script, against 4.1-4.5 booting the same kernel uncompressed (``bench/lab_goals.py``).

A kernel built with ``CONFIG_PVH`` (Debian's is) carries a Xen ELF note,
``XEN_ELFNOTE_PHYS32_ENTRY`` (18): a 32-bit entry point that QEMU jumps to when ``-kernel`` names
the uncompressed ELF ``vmlinux`` (QEMU's ``load_elfboot`` and ``read_pvh_start_addr`` in
``hw/i386/x86.c``, QEMU 7.2 as installed here; the note: Linux's
``arch/x86/platform/pvh/head.S`` and ``include/xen/interface/elfnote.h``; ``readelf -n`` shows
it in Debian's 6.1 kernel). This module finds the
compressed payload inside the bzImage (XZ or gzip, by its magic, as Linux's
``scripts/extract-vmlinux`` does), decompresses it on the host, checks the ELF and its PVH note,
and keeps it in the lab's cache (``cache.py``, 66 MB for Debian's 6.1 kernel, 1.9 s once). Any
step that does not work (another compression, no PVH note, no writable cache) boots the bzImage
as before.
"""

from __future__ import annotations

import lzma
import zlib
from typing import TYPE_CHECKING

from l2tpgen.lab.engines.cache import cached_file, digest, stamp

if TYPE_CHECKING:
    from pathlib import Path

XZ_MAGIC = b"\xfd7zXZ\x00"
GZIP_MAGIC = b"\x1f\x8b\x08"
ELF_MAGIC = b"\x7fELF\x02\x01"  # 64-bit, little-endian
PT_NOTE = 4
XEN_ELFNOTE_PHYS32_ENTRY = 18


def _decompress(image: bytes) -> bytes | None:
    """The first payload in ``image`` that decompresses to a 64-bit ELF (None: none does)."""
    for magic, decompressor in (
        (XZ_MAGIC, lzma.LZMADecompressor),
        (GZIP_MAGIC, lambda: zlib.decompressobj(16 + zlib.MAX_WBITS)),
    ):
        start = image.find(magic)
        while start >= 0:
            try:
                data = decompressor().decompress(image[start:])
            except (lzma.LZMAError, zlib.error):
                data = b""
            if data.startswith(ELF_MAGIC):
                return data
            start = image.find(magic, start + 1)
    return None


def _notes(elf: bytes) -> list[tuple[bytes, int]]:
    """(owner, type) of every note in the ELF's PT_NOTE segments."""
    phoff = int.from_bytes(elf[0x20:0x28], "little")
    size, count = (int.from_bytes(elf[o : o + 2], "little") for o in (0x36, 0x38))
    found = []
    for header in range(phoff, phoff + size * count, size):
        if int.from_bytes(elf[header : header + 4], "little") != PT_NOTE:
            continue
        offset = int.from_bytes(elf[header + 8 : header + 16], "little")
        end = offset + int.from_bytes(elf[header + 32 : header + 40], "little")
        while offset + 12 <= end:
            name, desc, kind = (
                int.from_bytes(elf[offset + i : offset + i + 4], "little") for i in (0, 4, 8)
            )
            found.append((elf[offset + 12 : offset + 12 + name].rstrip(b"\0"), kind))
            offset += 12 + (name + 3) // 4 * 4 + (desc + 3) // 4 * 4
    return found


def pvh_kernel(image: bytes) -> bytes | None:
    """The uncompressed kernel inside a bzImage when it has a PVH entry (None otherwise)."""
    elf = _decompress(image)
    if elf is None or (b"Xen", XEN_ELFNOTE_PHYS32_ENTRY) not in _notes(elf):
        return None
    return elf


def boot_image(image: Path) -> Path:
    """What QEMU's ``-kernel`` gets: the cached PVH ``vmlinux`` of ``image``, else ``image``."""
    try:
        key = digest(["pvh-vmlinux", stamp(image)])
    except OSError:
        return image
    found = cached_file("vmlinux", key, lambda: pvh_kernel(image.read_bytes()))
    return found or image
