"""What can still be checked of a site file with schema errors, so one run reports every problem.

A site file whose schema errors all lie in some ``vlans`` entries, or are unknown keys, is
checked without those entries: its other VLANs, its own rules and the pairs with its peers
(``validate`` reports the schema errors and every other problem in one run). A misspelt key with
a near known key is read as that key (``vc-id`` as ``vc_id``), an unknown key without one is left
out: the schema problem is reported either way. Any other schema error (a missing ``wan``, a
wrong ``pseudowire_class``) leaves the site out of the checks: its file fails entirely.

A VLAN left out must not make its peer look wrong: the peer's VLANs that could be its other end
are left out of the pair checks too (``paired_view``). Problems found on a site with VLANs left
out point at the VLAN's place in the file (``restore``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pydantic import ValidationError

from l2tpgen.model.schema_errors import misspelt, suggestion
from l2tpgen.model.site import Site

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantic_core import ErrorDetails

    from l2tpgen.model.problems import PathItem, Problem

# A repair can uncover errors the first ones hid (a key read under its right name, then out of
# range); a few rounds cover those, and a file that needs more is left out.
MAX_ROUNDS = 3


@dataclass(frozen=True)
class Salvaged:
    """A site built from a file with schema errors: which VLANs of the file it kept, and lost.

    ``kept`` is the file's index of each VLAN of ``site``; ``dropped`` the ``(id, peer)`` of each
    VLAN left out, ``None`` where the file's value is not readable as one.
    """

    site: Site
    kept: tuple[int, ...]
    dropped: tuple[tuple[int | None, str | None], ...]


def salvage(data: object, errors: Sequence[ErrorDetails]) -> Salvaged | None:
    """The site ``data`` describes, less what its schema ``errors`` make unreadable; or None."""
    if not isinstance(data, dict):
        return None
    repair = _Repair(copy.deepcopy(data))
    for _ in range(MAX_ROUNDS):
        if not repair.round(errors):
            return None
        try:
            site = Site.model_validate(repair.data)
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_input=False)
            continue
        return repair.salvaged(site)
    return None


class _Repair:
    """A site file's data, repaired round after round: broken VLANs and unknown keys taken out."""

    def __init__(self, data: dict[str, object]) -> None:
        self.data = data
        vlans = data.get("vlans")
        self.vlans = isinstance(vlans, list)
        self.entries: list[object] = list(vlans) if isinstance(vlans, list) else []
        self.kept = list(range(len(self.entries)))  # the file's index of each VLAN kept
        self.refused: set[tuple[int, PathItem]] = set()  # (file index, key) of VLAN values refused
        self.renamed: set[tuple[PathItem, ...]] = set()  # keys read under their near known name

    def round(self, errors: Sequence[ErrorDetails]) -> bool:
        """Take out what ``errors`` name; False if one of them is not a VLAN's or a key's."""
        meant = misspelt(errors)
        stood_for = {(*path[:-1], key) for path, key in meant.items()}
        broken: set[int] = set()
        for error in errors:
            path = tuple(error["loc"])
            if len(path) > 1 and path[0] == "vlans" and isinstance(path[1], int):
                broken.add(self.kept[path[1]])
                if len(path) > 2:  # noqa: PLR2004 - a key of the VLAN
                    self.refused.add((self.kept[path[1]], path[2]))
            elif error["type"] == "extra_forbidden":
                self._rename_or_drop(path)
            elif renamed := next((r for r in self.renamed if path[: len(r)] == r), None):
                self._drop(renamed)  # the near known key does not fit either: left out
            elif not (error["type"] == "missing" and path in stood_for):
                return False
        self.kept = [i for i in self.kept if i not in broken]
        if self.vlans:
            self.data["vlans"] = [self.entries[i] for i in self.kept]
        return True

    def salvaged(self, site: Site) -> Salvaged:
        lost = sorted(set(range(len(self.entries))) - set(self.kept))
        refused: dict[int, set[PathItem]] = {}  # by file index: one pass, not one per VLAN lost
        for index, key in self.refused:
            refused.setdefault(index, set()).add(key)
        dropped = tuple(_id_and_peer(self.entries[i], refused.get(i, set())) for i in lost)
        return Salvaged(site, tuple(self.kept), dropped)

    def _holder(self, path: tuple[PathItem, ...]) -> dict[str, object]:
        holder: object = self.data
        for step in path[:-1]:
            holder = holder[step]  # type: ignore[index]  # pydantic walked this path: it exists
        assert isinstance(holder, dict)  # noqa: S101 - a key is a key of a mapping
        return holder

    def _rename_or_drop(self, path: tuple[PathItem, ...]) -> None:
        """The unknown key at ``path`` read as the known key it is near to, or left out."""
        holder = self._holder(path)
        value = holder.pop(str(path[-1]))
        meant = suggestion(path)
        if meant is not None and meant not in holder:
            holder[meant] = value
            self.renamed.add((*path[:-1], meant))

    def _drop(self, path: tuple[PathItem, ...]) -> None:
        self._holder(path).pop(str(path[-1]), None)
        self.renamed.discard(path)


def _id_and_peer(entry: object, refused: set[PathItem]) -> tuple[int | None, str | None]:
    """A VLAN's ID and peer as the file has them; None where refused (5000 may mean any VLAN)."""
    if not isinstance(entry, dict):
        return None, None
    vlan_id, peer = entry.get("id"), entry.get("peer")
    return (
        vlan_id if "id" not in refused and isinstance(vlan_id, int) else None,
        peer if "peer" not in refused and isinstance(peer, str) else None,
    )


def paired_view(
    sites: Mapping[str, Site], salvaged: Mapping[str, Salvaged]
) -> tuple[dict[str, Site], dict[str, tuple[int, ...]]]:
    """The sites as the pair checks see them, and each changed site's file index of its VLANs.

    A peer's VLAN without its other end at a salvaged site, where a VLAN left out could have been
    that end, is left out as well: whether it has its other end is not known.
    """
    view = dict(sites)
    kept = {name: s.kept for name, s in salvaged.items() if name in sites}
    ends = {name: {(v.id, v.peer) for v in s.site.vlans} for name, s in salvaged.items()}
    for name, site in sites.items():
        unsure = [
            index
            for index, vlan in enumerate(site.vlans)
            if vlan.peer in salvaged
            and (vlan.id, name) not in ends[vlan.peer]  # its other end is there: checked as ever
            and any(
                vlan_id in {None, vlan.id} and peer in {None, name}
                for vlan_id, peer in salvaged[vlan.peer].dropped
            )
        ]
        if not unsure:
            continue
        indices = kept.get(name, tuple(range(len(site.vlans))))
        left = [i for i in range(len(site.vlans)) if i not in set(unsure)]
        view[name] = site.model_copy(update={"vlans": tuple(site.vlans[i] for i in left)})
        kept[name] = tuple(indices[i] for i in left)
    return view, kept


def doubtful(problem: Problem, salvaged: Salvaged) -> bool:
    """Whether a problem of a salvaged site is one the VLANs left out may have answered.

    One rule of a site alone asks for a VLAN that could be among them: V069, a port-mode
    xconnect to migrate with no VLAN to its peer.
    """
    port = salvaged.site.lan.port_xconnect
    return (
        problem.code == "V069"
        and port is not None
        and any(peer in {None, port.peer} for _, peer in salvaged.dropped)
    )


def restore(problem: Problem, kept: Mapping[str, tuple[int, ...]]) -> Problem:
    """``problem`` pointing at its VLAN's place in the file, when VLANs were left out before it."""
    indices = kept.get(problem.site)
    path = problem.path
    if indices is None or len(path) < 2 or path[0] != "vlans" or not isinstance(path[1], int):  # noqa: PLR2004
        return problem
    return replace(problem, path=("vlans", indices[path[1]], *path[2:]))
