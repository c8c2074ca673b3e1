"""A config file's bytes as text: the encoding they were written in, and its lines."""

from __future__ import annotations

import codecs
import re

_LINE_END = re.compile(r"\r\n|\r|\n")


def decode(data: bytes) -> tuple[str, str]:
    """Text of a config file and the encoding it was read as.

    A byte order mark decides (UTF-8, UTF-16, UTF-32); without one, UTF-16 is recognised by its NUL
    bytes (PowerShell's ``>`` writes UTF-16); else UTF-8, and Latin-1 when that fails (a banner
    typed on a Windows console). Never raises.
    """
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    sample = data[:4096]
    half = len(sample) // 2
    if half >= 2:  # noqa: PLR2004 - two characters at least
        odd_nuls, even_nuls = sample[1::2].count(0), sample[0::2].count(0)
        if odd_nuls > half // 2 and even_nuls < half // 8:
            return data.decode("utf-16-le", errors="replace"), "utf-16-le"
        if even_nuls > half // 2 and odd_nuls < half // 8:
            return data.decode("utf-16-be", errors="replace"), "utf-16-be"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def split_lines(text: str) -> list[str]:
    """Lines as editors count them: LF, CRLF and CR end a line, nothing else does.

    (``str.splitlines`` also splits at form feeds and Unicode separators, which would shift every
    line number after them.) NUL characters are dropped; a leading byte order mark too.
    """
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        text = text.replace("\x00", "")
    lines = _LINE_END.split(text) if "\r" in text else text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines
