"""The fleet: sites together, validated as a whole, and the pseudowires between them.

``load_fleet`` (in ``load.py``) reads a ``sites/`` directory; ``Fleet.build`` validates sites made
in memory. Both raise ``FleetValidationError`` listing every problem found, never just the first.
``load_sites`` reads only some sites and their peers: a fleet that is not ``complete``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.errors import FleetValidationError, ModelError, SiteNotFoundError
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.port_mode import kept_port
from l2tpgen.model.problems import Problem, listed
from l2tpgen.model.pseudowire import Pseudowire

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping, Sequence

    from l2tpgen.model.port_mode import KeptPort
    from l2tpgen.model.protection import PathProtection
    from l2tpgen.model.site import Site, Vlan


def site_not_found(name: str, known: Collection[str]) -> SiteNotFoundError:
    """The error for an unknown site name: the known names (a few) and the nearest one."""
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return SiteNotFoundError(f"no site named {name} (sites: {listed(known)}){hint}")


class FleetCheckError(FleetValidationError):
    """Every problem of the site files, and what of the fleet could still be checked.

    ``checked`` holds the sites that loaded (some without their broken VLANs, see ``salvage.py``),
    for the checks of other layers (``validate`` runs the linter's on it) to report in the same
    run; ``checked.kept`` places their problems in the files. ``notes`` (warnings, V118) name the
    site files that did not load and the sites not checked against them, for ``validate``.
    """

    def __init__(
        self, problems: Sequence[Problem], checked: Fleet, notes: Sequence[Problem] = ()
    ) -> None:
        super().__init__(problems)
        self.checked = checked
        self.notes = tuple(notes)


def _bare(site: Site) -> object:
    """The site's management without a device type (it follows the platform)."""
    return site.management.model_copy(update={"device_type": None})


@dataclass(frozen=True)
class Fleet:
    """Validated sites by name, and the file each came from (for messages).

    ``complete`` is false when only some sites were loaded (``load_sites``): then ``sites`` holds
    the sites asked for and their peers, ``files`` still names every site file. ``kept`` is only
    set on the sites a fleet with problems could check (``FleetCheckError``): for each site that
    lost VLANs there, the file's index of each VLAN it kept.
    """

    sites: Mapping[str, Site]
    files: Mapping[str, str]
    complete: bool = True
    kept: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, sites: Iterable[Site], files: Mapping[str, str] | None = None) -> Fleet:
        """Validate sites made in memory; raise ``FleetValidationError`` with every problem."""
        by_name: dict[str, Site] = {}
        problems: list[Problem] = []
        for site in sites:
            if site.name in by_name:
                problems.append(
                    Problem(
                        site.name,
                        ("name",),
                        f"two sites are named {site.name}",
                        "rename one",
                        code="V011",
                    )
                )
                continue
            by_name[site.name] = site
            problems.extend(check_site(site))
        names = {name: name for name in by_name} | dict(files or {})
        problems.extend(check_fleet(by_name, names))
        if problems:
            raise FleetValidationError(sorted(problems, key=Problem.sort_key))
        return cls(dict(sorted(by_name.items())), names)

    def site(self, name: str) -> Site:
        """The site called ``name``; the error suggests near names."""
        try:
            return self.sites[name]
        except KeyError:
            if not self.complete and name in self.files:
                raise SiteNotFoundError(
                    f"site {name} was not loaded: this fleet holds only the sites asked for and "
                    "their peers"
                ) from None
            raise site_not_found(name, self.sites if self.complete else self.files) from None

    def pseudowires(self, name: str) -> tuple[Pseudowire, ...]:
        """The pseudowires of one site, in VLAN order."""
        site = self.site(name)
        missing = sorted({v.peer for v in site.vlans} - set(self.sites))
        if missing:
            raise ModelError(
                f"{name}'s peer {missing[0]} was not loaded: this fleet holds only the sites "
                f"asked for and their peers, and {name} is only a peer"
            )
        mirrors: dict[str, dict[int, Vlan]] = {}
        for peer in {v.peer for v in site.vlans}:
            found = mirrors[peer] = {}
            for vlan in self.sites[peer].vlans:
                if vlan.peer == name:
                    found.setdefault(vlan.id, vlan)
        protection = {peer: site.protection_for(self.sites[peer]) for peer in mirrors}
        return tuple(
            Pseudowire(
                site,
                vlan,
                self.sites[vlan.peer],
                mirrors[vlan.peer].get(vlan.id),
                protection[vlan.peer],
            )
            for vlan in sorted(site.vlans, key=lambda v: v.id)
        )

    def kept_port(self, name: str) -> KeptPort | None:
        """The site's kept port-mode pseudowire (``lan.port_xconnect``, keep), if it has one."""
        return kept_port(self.site(name), self.sites)

    def kept_ports(self) -> tuple[KeptPort, ...]:
        """Each pair's kept port-mode pseudowire once, seen from the site that sorts first."""
        found = (kept_port(site, self.sites) for name, site in sorted(self.sites.items()))
        return tuple(k for k in found if k is not None and k.site.name < k.peer.name)

    def pairs(self) -> tuple[tuple[str, str, int, PathProtection], ...]:
        """Each pair of sites with pseudowires between them, sorted: (a, b, count, protection).

        The protection is ``a``'s view (validation makes both ends agree).
        """
        found: dict[tuple[str, str], int] = {}
        for name, site in self.sites.items():
            for vlan in site.vlans:
                if name < vlan.peer and vlan.peer in self.sites:
                    found[(name, vlan.peer)] = found.get((name, vlan.peer), 0) + 1
        return tuple(
            (a, b, count, self.sites[a].protection_for(self.sites[b]))
            for (a, b), count in sorted(found.items())
        )

    def on_platform(self, platform: str, names: Collection[str] | None = None) -> Fleet:
        """The same fleet with ``names`` (default: every site) run on ``platform``.

        A lab runs every PE on Linux whatever the model says: their pseudowires are then Linux to
        Linux (no dot1Q tag carried, no hellos). Not validated again: only the platform changes.
        """
        chosen = set(self.sites) if names is None else set(names)
        sites = {
            name: site.model_copy(update={"platform": platform, "management": _bare(site)})
            if name in chosen
            else site
            for name, site in self.sites.items()
        }
        return Fleet(sites, self.files, self.complete)

    def around(self, names: Collection[str]) -> Fleet:
        """The sites ``names`` and their peers, as far as the pseudowires between them.

        The named sites keep every VLAN; a peer keeps only its VLANs towards sites of this view,
        so that both ends of every pseudowire of ``names`` can be rendered and compared without
        the rest of the fleet.
        """
        wanted = {self.site(name).name for name in names}
        view = wanted | {v.peer for name in wanted for v in self.sites[name].vlans}
        view |= {p.peer for name in wanted if (p := self.sites[name].kept_port) is not None}
        sites = {}
        for name in sorted(view & set(self.sites)):
            site = self.sites[name]
            if name not in wanted:
                vlans = tuple(v for v in site.vlans if v.peer in view)
                peers = tuple(p for p in site.peers if p.name in view)
                site = site.model_copy(update={"vlans": vlans, "peers": peers})
            sites[name] = site
        return Fleet(sites, self.files, complete=False)
