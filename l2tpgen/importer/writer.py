"""Site files as people write them: short mappings inline, comments for what the model lacks.

The layout follows ``sites/``: one key per line at the top, ``wan`` and ``lan`` as blocks, classes
and VLANs as inline mappings. A value is written plain when l2tpgen's own YAML reader reads it
back as the same text, else quoted; a test loads every written file with that reader.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING

from l2tpgen.model.yamlparse import parse

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

_BLOCKS = frozenset({"wan", "lan"})
_LISTS = frozenset({"vlans"})


@lru_cache(maxsize=65536)
def _text(value: str) -> str:
    """``value`` plain if it reads back as itself, else double-quoted (JSON is YAML)."""
    if value and value == value.strip() and not any(c in value for c in ":#{}[],&*!|>'\"%@`"):
        try:
            parsed = parse(f"k: {value}\n")
        except Exception:  # noqa: BLE001 - anything the reader refuses gets quoted
            parsed = None
        if parsed is not None and isinstance(parsed[0], dict) and parsed[0].get("k") == value:
            return value
    return json.dumps(value)


def scalar(value: object) -> str:
    """One scalar in YAML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _text(str(value))


def flow(value: object) -> str:
    """A value inline: ``{a: 1, b: [x, y]}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def comment(text: str) -> str:
    """A comment line (or lines) for ``text``; newlines cannot end a comment early."""
    return "".join(f"# {line}".rstrip() + "\n" for line in text.splitlines() or [""])


def site_yaml(data: Mapping[str, object], header: Iterable[str] = ()) -> str:
    """The text of a site file: ``header`` lines as comments, then the site."""
    out = [comment(line) for line in header]
    for key, value in data.items():
        if key in _BLOCKS and isinstance(value, dict):
            out.append(f"{key}:\n")
            out += [f"  {k}: {flow(v)}\n" for k, v in value.items()]
        elif (key in _LISTS or _has_mapping(value)) and isinstance(value, (list, tuple)):
            out.append(f"{key}:\n" if value else f"{key}: []\n")
            out += [f"  - {flow(item)}\n" for item in value]
        else:
            out.append(f"{key}: {flow(value)}\n")
    return "".join(out)


def _has_mapping(value: object) -> bool:
    return isinstance(value, (list, tuple)) and any(isinstance(v, dict) for v in value)
