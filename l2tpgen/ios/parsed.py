"""A config text read once: cleaned, built into a tree, its facts extracted on first use.

A push reads the same texts in many places (the plan, ownership, the claims on marked objects,
the other VPNs' peers): each of them gets this one object instead of the text, so the text is
cleaned and nested once and its facts (``l2tpgen.ios.extract``) are extracted at most once,
however many checks read them (issue 35). ``ParsedText`` is a ``Config``: whatever reads a tree
reads it unchanged; what needs the facts asks ``facts_of``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from l2tpgen.ios.extract import extract
from l2tpgen.ios.text import clean
from l2tpgen.ios.tree import Config, build

if TYPE_CHECKING:
    from l2tpgen.ios.facts import DeviceFacts


@dataclass(frozen=True)
class ParsedText(Config):
    """One config's tree (a ``Config``), its name, and its facts, read once when first asked."""

    name: str = "config"

    @cached_property
    def facts(self) -> DeviceFacts:
        """The config's facts, extracted on first use and kept."""
        return extract(self.name, self)


def parsed(text: str, name: str = "config", *, rendered: bool = False) -> ParsedText:
    """Clean and build ``text`` once (``rendered``: l2tpgen's own output, see ``tree.build``)."""
    tree = build(clean(text), name, rendered=rendered)
    return ParsedText(tree.roots, tree.text, name)


class Readings:
    """Texts read in one run, by text: a text met again is not read again (thread-safe).

    A push keeps the renderings here (masked, and with their secrets), shared by the lint gate,
    the dry run that shows the diff, the pre-flight and the push itself.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read: dict[tuple[str, str, bool], ParsedText] = {}

    def read(self, text: str, name: str = "config", *, rendered: bool = False) -> ParsedText:
        """``text`` read (``parsed``), or its reading made earlier in this run."""
        key = (text, name, rendered)
        with self._lock:
            found = self._read.get(key)
        if found is None:  # read outside the lock: other threads read their own texts meanwhile
            found = parsed(text, name, rendered=rendered)
            with self._lock:
                found = self._read.setdefault(key, found)
        return found


def as_parsed(config: str | Config, name: str = "config", *, rendered: bool = False) -> ParsedText:
    """``config`` as a ``ParsedText``: read now if it is a text, kept if it is one already."""
    if isinstance(config, ParsedText):
        return config
    if isinstance(config, str):
        return parsed(config, name, rendered=rendered)
    return ParsedText(config.roots, config.text, name)


def facts_of(config: Config, name: str = "config") -> DeviceFacts:
    """The facts of ``config``: a ``ParsedText``'s own (its name), else extracted under ``name``."""
    return config.facts if isinstance(config, ParsedText) else extract(name, config)
