"""Each platform's Jinja environment: its ``templates/`` inside the package, strict about names."""

from __future__ import annotations

import contextlib
import hashlib
from functools import cache
from typing import TYPE_CHECKING

import jinja2

from l2tpgen import __version__

if TYPE_CHECKING:
    from jinja2.bccache import Bucket


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs, in Jinja's private per-user directory.

    Compiling the templates is most of a one-site render; Jinja checks each cached entry against
    the template's source, and its name holds l2tpgen's version and the compile options, so an
    upgrade never uses a stale one. A cache that cannot be read or written is simply not used.
    """

    def load_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # Jinja itself skips a corrupt entry
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


# How the templates are compiled (trim_blocks, lstrip_blocks, keep_trailing_newline, autoescape);
# part of each cache entry's name, with l2tpgen's version: Jinja checks an entry against the
# template's source only, not against these.
_TRIM, _LSTRIP, _KEEP_NEWLINE, _AUTOESCAPE = True, True, True, False


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    options = (_TRIM, _LSTRIP, _KEEP_NEWLINE, _AUTOESCAPE)
    key = hashlib.sha256(f"{__version__} {options}".encode()).hexdigest()[:12]
    try:  # Jinja refuses a directory that is not the user's own, mode 0700: no cache then
        return _TemplateCache(pattern=f"l2tpgen-{key}-%s.cache")
    except (OSError, RuntimeError):
        return None


@cache
def environment(package: str) -> jinja2.Environment:
    """The cached environment of ``package`` (a platform's): its ``templates/*.j2``, installed."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=_TRIM,
        lstrip_blocks=_LSTRIP,
        keep_trailing_newline=_KEEP_NEWLINE,
        autoescape=_AUTOESCAPE,  # noqa: S701 - router configs are plain text, not HTML
        bytecode_cache=_bytecode_cache(),
    )
