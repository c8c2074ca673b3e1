"""Files a topology's nodes bind (containerlab ``binds``), read from beside the topology.

A protected PE binds the swanctl.conf l2tpgen renders for it (``lab build`` writes it next to the
topology). Only plain file names beside the topology are accepted: nothing is read from elsewhere.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

BIND_SOURCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def parse_binds(
    raw: object, where: str, files: Mapping[str, str] | None, problems: list[str]
) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``SOURCE:TARGET[:ro]`` binds of files beside the topology, and the texts read."""
    if raw is None:
        return (), ()
    if not isinstance(raw, list) or not all(isinstance(b, str) for b in raw):
        problems.append(f"{where}: binds must be a list of SOURCE:TARGET")
        return (), ()
    texts: list[tuple[str, str]] = []
    for bind in raw:
        source, _, rest = bind.partition(":")
        target = rest.removesuffix(":ro")
        if not BIND_SOURCE.fullmatch(source) or not target.startswith("/"):
            problems.append(
                f"{where}: bind {bind!r} must be FILE:/PATH[:ro], FILE a file beside the topology"
            )
        elif files is not None and source not in files:
            problems.append(f"{where}: bind {bind!r}: {source} not found beside the topology")
        elif files is not None:
            texts.append((target, files[source]))
    return tuple(raw), tuple(texts)


def bound_files(data: object, directory: Path) -> dict[str, str]:
    """The files beside the topology that its nodes bind (those that can be read)."""
    found: dict[str, str] = {}
    nodes = data.get("topology", {}).get("nodes") if isinstance(data, dict) else None
    for node in (nodes or {}).values() if isinstance(nodes, dict) else ():
        binds = node.get("binds") if isinstance(node, dict) else None
        for bind in binds if isinstance(binds, list) else ():
            source = str(bind).partition(":")[0]
            if BIND_SOURCE.fullmatch(source) and (directory / source).is_file():
                found[source] = (directory / source).read_text(encoding="utf-8")
    return found
