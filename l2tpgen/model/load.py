"""Reading site files: the whole fleet, or only some sites and their peers.

``load_fleet`` reads every site file of a directory and validates the fleet as a whole (what
``validate`` and ``--all`` need). ``load_sites`` reads the sites asked for and their peers only
(what ``render SITE`` and ``push SITE`` need: the peers' addresses, and both ends of each of the
site's pseudowires): its cost does not grow with the size of the fleet. Both raise
``FleetValidationError`` with every problem, each located at file:line:column: a file with schema
errors is still checked where it can be (``salvage.py``), so that one run reports them all
(``FleetCheckError``, which also holds what could be checked).
"""

from __future__ import annotations

import gc
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from l2tpgen.discovery import SITE_SUFFIXES
from l2tpgen.errors import ModelError, SitesDirectoryError
from l2tpgen.files import kind_of
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.fleet import Fleet, FleetCheckError, site_not_found
from l2tpgen.model.interface_checks import raw_name_problems
from l2tpgen.model.problems import Location, Problem
from l2tpgen.model.salvage import Salvaged, doubtful, paired_view, restore, salvage
from l2tpgen.model.schema_errors import schema_problems
from l2tpgen.model.site import Site
from l2tpgen.model.source import SourceDoc, read_source

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping


def _site_files(root: Path) -> tuple[dict[str, Path], list[Problem], set[str]]:
    """Every site file by site name (its stem); a second file for one site is a problem.

    An entry named like a site file that is not a regular file (a device, a FIFO, a directory,
    a link to one of those, a broken link, a link loop) is a problem at that file, never read:
    ``/dev/zero`` would never end and a FIFO would wait for a writer.
    """
    if not root.is_dir():
        if root.is_file():
            kind = "a site file" if root.suffix in SITE_SUFFIXES else "a file"
            raise SitesDirectoryError(
                f"--sites {root} is {kind}, not a directory: --sites takes the directory that "
                f"holds the fleet's site files (--sites {root.parent})"
            )
        raise SitesDirectoryError(
            f"sites directory {root} does not exist; pass --sites DIR (or set L2TPGEN_SITES, "
            "or `sites` in [tool.l2tpgen] of pyproject.toml; l2tpgen also looks for ./sites in "
            "the parent directories up to the repository root)"
        )
    with os.scandir(root) as entries:  # names and types in one read: no stat per file
        found = sorted(
            (e for e in entries if os.path.splitext(e.name)[1] in SITE_SUFFIXES),  # noqa: PTH122
            key=lambda e: e.name,
        )
    if not found:
        raise ModelError(f"no site files (*.yaml) in {root}")
    files: dict[str, Path] = {}
    problems = []
    unusable_sites = set()
    for entry in found:
        path = root / entry.name
        first = files.setdefault(path.stem, path)
        if first is not path:
            problems.append(
                Problem(
                    path.stem,
                    (),
                    f"{path.name} is a second file for site {path.stem}, besides {first.name}",
                    f"keep one of the two: l2tpgen will not guess which holds {path.stem}",
                    location=Location(str(path), 1, 1),
                    code="V007",
                )
            )
        elif (unusable := _not_a_file(entry)) is not None:
            unusable_sites.add(path.stem)
            problems.append(
                Problem(
                    path.stem,
                    (),
                    f"{path.name} is {unusable}, not a site file",
                    "a site file is a regular YAML file: put the site's YAML there, or remove it",
                    location=Location(str(path), 1, 1),
                    code="V008",
                )
            )
    return files, problems, unusable_sites


def _not_a_file(entry: os.DirEntry[str]) -> str | None:
    """What a directory entry is when it is not a regular file (following links), else None."""
    try:
        mode = entry.stat().st_mode  # follows a link; cached by scandir for a plain entry
    except OSError as exc:
        what = "a symbolic link that leads nowhere" if entry.is_symlink() else "unreadable"
        return f"{what} ({exc.strerror})"
    if stat.S_ISREG(mode):
        return None
    link = "a symbolic link to " if entry.is_symlink() else ""
    return f"{link}{kind_of(mode)}"


class _Reader:
    """Reads site files one by one, collecting sites, their sources and every problem."""

    def __init__(self, root: Path) -> None:
        self.paths, self.problems, self.unusable = _site_files(root)
        # As the user named the directory: sites/site-a.yaml
        self.files = {stem: str(path) for stem, path in self.paths.items()}
        self.docs: dict[str, SourceDoc] = {}
        self.sites: dict[str, Site] = {}
        self.salvaged: dict[str, Salvaged] = {}  # sites checked without their broken VLANs
        self.failed: set[str] = set()  # site files read that gave no site to check

    def read(self, stem: str) -> None:
        path, display = self.paths[stem], self.files[stem]
        if stem in self.unusable:
            return  # not a regular file (see _site_files): never opened
        self.failed.add(stem)
        source = read_source(path, display)
        if isinstance(source, Problem):
            self.problems.append(source)
            return
        self.docs[stem] = source
        found = _validate(stem, source, self.problems)
        if found is None:
            return
        site = found.site if isinstance(found, Salvaged) else found
        if site.name != stem:
            self.problems.append(
                Problem(
                    stem,
                    ("name",),
                    f"site name {site.name} differs from its file name {path.name}",
                    f"rename the file to {site.name}{path.suffix} or set `name: {stem}`",
                    code="V009",
                ).located(source.locate(("name",)))
            )
            return
        self.failed.discard(stem)
        self.sites[stem] = site
        problems = check_site(site)
        if isinstance(found, Salvaged):
            self.salvaged[stem] = found
            kept = {stem: found.kept}
            problems = (restore(p, kept) for p in problems if not doubtful(p, found))
        self.problems.extend(_locate(p, self.docs) for p in problems)

    def fleet(self, *, complete: bool) -> Fleet:
        sites = dict(sorted(self.sites.items()))
        view, kept = paired_view(sites, self.salvaged)
        self.problems.extend(
            _locate(restore(p, kept), self.docs) for p in check_fleet(view, self.files)
        )
        if self.problems:
            checked = Fleet(view, self.files, complete=False, kept=kept)
            problems = sorted(self.problems, key=Problem.sort_key)
            raise FleetCheckError(problems, checked, list(self._unpaired(sites)))
        return Fleet(sites, self.files, complete=complete)

    def _unpaired(self, sites: Mapping[str, Site]) -> Iterator[Problem]:
        """A note at each site file that failed, for each site whose pair checks it stopped."""
        for name in sorted(self.failed):
            peers = sorted(other for other, site in sites.items() if name in _peers(site))
            if peers:
                yield Problem(
                    name,
                    (),
                    f"{name} was not checked against {', '.join(peers)}: the errors in its file "
                    "stop it from loading",
                    "fix them and validate again: the checks of the pairs follow",
                    location=Location(self.files[name], 1, 1),
                    level="warning",
                    code="V118",
                )


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while sites are read, as the linter does for parsing.

    Parsed data, models and problems all survive the load; the collector would rescan them again
    and again (a quarter of the time of validating a pair of 4000-VLAN sites).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def load_fleet(directory: str | os.PathLike[str]) -> Fleet:
    """Load and cross-validate every ``*.yaml`` site file in ``directory``.

    Raises:
        ModelError: the directory is missing or holds no site file.
        FleetValidationError: with every problem, each located at file:line:column.
    """
    reader = _Reader(Path(directory))
    with _gc_paused():
        for stem in reader.paths:
            reader.read(stem)
        return reader.fleet(complete=True)


def load_sites(directory: str | os.PathLike[str], names: Iterable[str]) -> Fleet:
    """Load the sites ``names`` and their peers, and validate them and the pairs between them.

    Fleet-wide rules (unique hostnames and tunnel addresses) and the peers' own other pairs are
    left to ``load_fleet``. Peers are read as far as the named sites' pseudowires need them: a
    peer's own peers are not read.

    Raises:
        ModelError: the directory is missing or holds no site file.
        SiteNotFoundError: a name is not a site of the directory.
        FleetValidationError: with every problem, each located at file:line:column.
    """
    reader = _Reader(Path(directory))
    wanted = list(dict.fromkeys(names))
    for name in wanted:
        if name not in reader.paths:
            raise site_not_found(name, reader.paths)
    with _gc_paused():
        for name in wanted:
            reader.read(name)
        peers = {p for name in wanted if name in reader.sites for p in _peers(reader.sites[name])}
        for peer in sorted(peers - set(wanted)):
            if peer in reader.paths:
                reader.read(peer)
        return reader.fleet(complete=len(reader.sites) == len(reader.paths))


def locate_problems(problems: Iterable[Problem], files: Mapping[str, str]) -> list[Problem]:
    """Problems found after loading (the linter's model rules), placed in their site files.

    ``files`` maps site names to their files (``Fleet.files``); each file with a problem is read
    again for positions. A problem whose file cannot be read stays where it is (site and path).
    """
    found = list(problems)
    docs: dict[str, SourceDoc] = {}
    for site in sorted({p.site for p in found if p.location is None}):
        file = files.get(site)
        source = read_source(Path(file), file) if file else None
        if isinstance(source, SourceDoc):
            docs[site] = source
    return [_locate(p, docs) for p in found]


def _peers(site: Site) -> set[str]:
    return set(site.peer_names) | {vlan.peer for vlan in site.vlans}


def _locate(problem: Problem, docs: Mapping[str, SourceDoc]) -> Problem:
    doc = docs.get(problem.site)
    if doc is None or problem.location is not None:
        return problem
    return problem.located(doc.locate(problem.path, key=problem.point_at_key))


def _validate(stem: str, source: SourceDoc, problems: list[Problem]) -> Site | Salvaged | None:
    """The site of a file; with schema errors, what can still be checked of it (or None)."""
    data = source.plain()
    try:
        return Site.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        problems.extend(
            schema_problems(stem, errors, lambda path, key: source.locate(path, key=key))
        )
        rescued = salvage(data, errors)
        if rescued is not None:
            return rescued  # its interface names are checked with the site (check_site)
        # Interface names are checked once the platform is known; report them in this run too.
        paths = {tuple(error["loc"]) for error in errors}
        problems.extend(
            p.located(source.locate(p.path))
            for p in raw_name_problems(stem, data)
            if p.path not in paths
        )
        return None


def resolve_site(argument: str, sites_dir: str | os.PathLike[str] | None) -> tuple[Path, str]:
    """Split a command-line site argument (a name or a path to a site file) into directory, name.

    A path wins over ``--sites``: its directory is the fleet it belongs to.
    """
    path = Path(argument)
    if path.suffix in SITE_SUFFIXES or os.sep in argument:
        if not path.is_file():
            raise ModelError(f"site file {argument} does not exist")
        return path.parent, path.stem
    return Path(sites_dir if sites_dir is not None else "sites"), argument
