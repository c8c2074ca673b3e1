"""The VLANs a single-trunk router carries, as ``--vlans`` gives them.

``2996-2999,3000`` for every such router, or ``SITE=LIST`` for one (by site name, hostname or
config file).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.model.vlan_list import vlan_ranges

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

MAX_VLAN = 4094


class VlanListError(L2tpgenError):
    """A ``--vlans`` value that is not a VLAN list."""


@dataclass(frozen=True)
class VlanChoice:
    """VLANs for every single-trunk router, and per site."""

    every: tuple[int, ...] = ()
    per_site: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def for_site(self, *keys: str) -> tuple[int, ...]:
        """The VLANs of the router known by any of ``keys`` (its own list first)."""
        return next((self.per_site[k] for k in keys if k in self.per_site), self.every)


def _ids(text: str, given: str) -> tuple[int, ...]:
    found: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if not (low.isdigit() and (not dash or high.isdigit())) or len(part) > 20:  # noqa: PLR2004
            raise VlanListError(
                f"--vlans {given}: {part or 'an empty item'} is not a VLAN or a range; write "
                "e.g. 2996-2999,3000"
            )
        first, last = int(low), int(high or low)
        if not 1 <= first <= last <= MAX_VLAN:
            raise VlanListError(f"--vlans {given}: {part} is not within 1-{MAX_VLAN} (low to high)")
        found += [v for v in range(first, last + 1) if v not in found]
    return tuple(found)


def parse_vlans(values: Iterable[str]) -> VlanChoice:
    """Read ``--vlans`` values.

    Raises:
        VlanListError: a value is not a list of VLANs (the message says how to write one).
    """
    every: tuple[int, ...] = ()
    per_site: dict[str, tuple[int, ...]] = {}
    for value in values:
        site, sep, listed = value.rpartition("=")
        if sep:
            per_site[site.strip()] = _ids(listed, value)
        else:
            every = (*every, *(v for v in _ids(value, value) if v not in every))
    return VlanChoice(every, per_site)


__all__ = ["MAX_VLAN", "VlanChoice", "VlanListError", "parse_vlans", "vlan_ranges"]
