"""VLAN IDs written as a person writes a list of them: ``2996-2999``, ``10, 20``.

Light on purpose (no import beyond the standard library): ``l2tpgen mtu --site`` names a site's
VLANs with it, and importing it through the importer would load the whole importer (issue 35).
``l2tpgen.importer.vlans`` re-exports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


def vlan_ranges(ids: Iterable[int]) -> str:
    """VLAN IDs as a person writes them: ``2996-2999``, ``10, 20``, ``100-102, 200``."""
    ordered = sorted(set(ids))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(parts)
