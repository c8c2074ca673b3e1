"""Files a topology's nodes name, read from beside the topology: binds and frames files.

A protected PE binds the swanctl.conf l2tpgen renders for it (containerlab ``binds``); a Linux or
VyOS PE with a Cisco peer names its frames checks' file in its ``l2tpgen.frames`` label
(``framefile.py``). ``lab build`` writes both next to the topology. Only plain file names beside
the topology are accepted: nothing is read from elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.files import UserFileError, read_text
from l2tpgen.lab.fields import FRAMES_FILE

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

BIND_SOURCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


@dataclass(frozen=True)
class Unreadable:
    """A file beside the topology that is there but cannot be read, and why."""

    reason: str


def parse_binds(
    raw: object, where: str, files: Mapping[str, str | Unreadable] | None, problems: list[str]
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
            text = files[source]
            if isinstance(text, Unreadable):
                problems.append(f"{where}: bind {bind!r}: cannot read {source}: {text.reason}")
            else:
                texts.append((target, text))
    return tuple(raw), tuple(texts)


def _named(node: object) -> list[str]:
    """The files beside the topology a node names: its binds' sources, its frames file."""
    if not isinstance(node, dict):
        return []
    binds = node.get("binds")
    names = [str(b).partition(":")[0] for b in binds] if isinstance(binds, list) else []
    labels = node.get("labels")
    frames = labels.get(FRAMES_FILE) if isinstance(labels, dict) else None
    return [*names, *([frames] if isinstance(frames, str) else [])]


def _read(path: Path) -> str | Unreadable:
    try:
        return read_text(path, "it")
    except UserFileError as exc:
        return Unreadable(exc.reason)


def side_files(data: object, directory: Path) -> dict[str, str | Unreadable]:
    """The files beside the topology that its nodes name (absent: not there), by name."""
    topology = data.get("topology") if isinstance(data, dict) else None
    nodes = topology.get("nodes") if isinstance(topology, dict) else None
    named = (
        n for node in (nodes.values() if isinstance(nodes, dict) else ()) for n in _named(node)
    )
    return {
        name: _read(directory / name)
        for name in dict.fromkeys(named)
        if BIND_SOURCE.fullmatch(name) and (directory / name).is_file()
    }
