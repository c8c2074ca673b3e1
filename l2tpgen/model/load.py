"""Reading site files: the whole fleet, or only some sites and their peers.

``load_fleet`` reads every site file of a directory and validates the fleet as a whole (what
``validate`` and ``--all`` need). ``load_sites`` reads the sites asked for and their peers only
(what ``render SITE`` and ``push SITE`` need: the peers' addresses, and both ends of each of the
site's pseudowires): its cost does not grow with the size of the fleet. Both raise
``FleetValidationError`` with every problem, each located at file:line:column.
"""

from __future__ import annotations

import difflib
import gc
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from pydantic import BaseModel, ValidationError

from l2tpgen.errors import FleetValidationError, ModelError
from l2tpgen.files import kind_of
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.fleet import Fleet, site_not_found
from l2tpgen.model.interface_checks import raw_name_problems
from l2tpgen.model.link import BANDWIDTH_ERROR, LOSS_ERROR
from l2tpgen.model.problems import Location, Problem, format_path
from l2tpgen.model.secret_names import (
    COOKIE_KEY_ENV,
    L2TP_SECRET_ENV,
    NAMESPACE_HINT,
    OUTSIDE,
    PSK_ENV,
)
from l2tpgen.model.site import LITERAL_SECRET_KEYS, NAME_RULES, UNSAFE_NAME, Site
from l2tpgen.model.source import SourceDoc, read_source
from l2tpgen.workloads import WORKLOADS

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from pydantic_core import ErrorDetails

SITE_SUFFIXES = (".yaml", ".yml")


def _site_files(root: Path) -> tuple[dict[str, Path], list[Problem], set[str]]:
    """Every site file by site name (its stem); a second file for one site is a problem.

    An entry named like a site file that is not a regular file (a device, a FIFO, a directory,
    a link to one of those, a broken link, a link loop) is a problem at that file, never read:
    ``/dev/zero`` would never end and a FIFO would wait for a writer.
    """
    if not root.is_dir():
        if root.is_file():
            kind = "a site file" if root.suffix in SITE_SUFFIXES else "a file"
            raise ModelError(
                f"--sites {root} is {kind}, not a directory: --sites takes the directory that "
                f"holds the fleet's site files (--sites {root.parent})"
            )
        raise ModelError(f"sites directory {root} does not exist; pass --sites DIR")
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

    def read(self, stem: str) -> None:
        path, display = self.paths[stem], self.files[stem]
        if stem in self.unusable:
            return  # not a regular file (see _site_files): never opened
        source = read_source(path, display)
        if isinstance(source, Problem):
            self.problems.append(source)
            return
        self.docs[stem] = source
        site = _validate(stem, source, self.problems)
        if site is None:
            return
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
        self.sites[stem] = site
        self.problems.extend(_locate(p, self.docs) for p in check_site(site))

    def fleet(self, *, complete: bool) -> Fleet:
        sites = dict(sorted(self.sites.items()))
        self.problems.extend(_locate(p, self.docs) for p in check_fleet(sites, self.files))
        if self.problems:
            raise FleetValidationError(sorted(self.problems, key=Problem.sort_key))
        return Fleet(sites, self.files, complete=complete)


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


def _validate(stem: str, source: SourceDoc, problems: list[Problem]) -> Site | None:
    data = source.plain()
    try:
        return Site.model_validate(data)
    except ValidationError as exc:
        paths = set()
        for error in exc.errors(include_url=False, include_input=False):
            path = tuple(error["loc"])
            paths.add(path)
            message, hint = explain(error)
            problem = Problem(stem, path, message, hint, code="V010")
            key = error["type"] == "extra_forbidden"
            problems.append(problem.located(source.locate(path, key=key)))
        # Interface names are checked once the platform is known; report them in this run too.
        problems.extend(
            p.located(source.locate(p.path))
            for p in raw_name_problems(stem, data)
            if p.path not in paths
        )
        return None


_RANGE_ERRORS = frozenset(
    {
        *("greater_than", "greater_than_equal", "less_than_equal"),
        *("int_parsing", "int_parsing_size", "int_type", "float_type", "float_parsing"),
    }
)
_RANGES = {
    "id": "a VLAN ID is a whole number from 1 to 4094",
    "vc_id": "a VC ID is a whole number from 1 to 4294967295",
    "port": "a TCP port is a whole number from 1 to 65535",
    "mtu": "the WAN MTU is a whole number from 576 to 9216",
    "hello": "the hello interval is a whole number of seconds from 0 to 1000",
    "in": "a hold-queue length is a whole number from 0 to 65535",
    "out": "a hold-queue length is a whole number from 0 to 65535",
    "rtt_ms": "the round-trip time is a number of milliseconds above 0 and at most 10000",
}


_SECRET_IN_FILE = (
    f"remove this key, set `secret_env: {L2TP_SECRET_ENV}` instead, and export "
    f"{L2TP_SECRET_ENV} in the environment that renders or pushes"
)
_SECRET_ENV = (
    (
        f"secret_env must be the name of an environment variable, such as {L2TP_SECRET_ENV}, "
        "never the secret itself"
    ),
    "put the name of the variable here and export the secret in that variable",
)
_ENV_FIELDS = {
    "secret_env": _SECRET_ENV,
    "psk_env": (
        (
            f"psk_env must be the name of an environment variable, such as {PSK_ENV}, never "
            "the pre-shared key itself"
        ),
        _SECRET_ENV[1],
    ),
    "cookie_key_env": (
        (
            "cookie_key_env must be the name of an environment variable, such as "
            f"{COOKIE_KEY_ENV}, never the key itself"
        ),
        _SECRET_ENV[1],
    ),
}
_PROTECTION_SECRET_IN_FILE = (
    "remove this key: the IKEv2 pre-shared key comes from the variable named by "
    f"`protection.psk_env` (default {PSK_ENV}) and cookie values are derived from the key "
    f"in `protection.cookie_key_env` (default {COOKIE_KEY_ENV}); export them where l2tpgen "
    "renders or pushes"
)
_HINTS = {
    "extra_forbidden": "check the spelling against the site-file reference",
    "bool_type": (
        "write true or false: site files are YAML 1.2, where yes, no, on, off and quoted "
        "words are text, and 1 is a number"
    ),
    UNSAFE_NAME: (
        "it reaches router configs, file names, shell commands and lab scripts, where a space or "
        "a character such as `$`, `;`, `|` or a quote would be interpreted"
    ),
    BANDWIDTH_ERROR: "e.g. `link: {bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}`",
    LOSS_ERROR: "e.g. `link: {bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}`",
}


def _explain(
    kind: str, message: str, path: tuple[str | int, ...], pattern: str | None = None
) -> tuple[str, str]:
    """Turn a pydantic error into our message and hint; never echoes the input value."""
    field = format_path(path) or "site"
    message = message.removeprefix("Value error, ")
    if pattern in NAME_RULES:
        kind, message = UNSAFE_NAME, NAME_RULES[pattern]
    last = path[-1] if path else ""
    if kind in _RANGE_ERRORS and last in _RANGES:
        return f"{field}: {_RANGES[str(last)]}", ""
    if kind in {"string_pattern_mismatch", OUTSIDE} and last in _ENV_FIELDS:
        # Never the name: it may be a secret written in its place.
        return (f"{field} {message}", NAMESPACE_HINT) if kind == OUTSIDE else _ENV_FIELDS[str(last)]
    if kind == "missing":
        return f"{field}: required key is missing", f"add `{last}:`"
    if last == "carries" and kind == "literal_error":
        return (
            f"{field}: a VLAN carries one of: {', '.join(WORKLOADS)}",
            "leave carries out for general traffic",
        )
    if kind == "extra_forbidden":
        return _unknown_key(field, path)
    if kind == "string_pattern_mismatch":  # pydantic's words quote the regular expression
        message = "this value does not have the form the field takes"
    return f"{field}: {message}", _HINTS.get(kind, "")


def explain(error: ErrorDetails) -> tuple[str, str]:
    """A pydantic error about a site in l2tpgen's words: a message and a hint.

    Never the input value, never a regular expression: what ``validate`` prints, for callers
    that build sites from something else than a file (``import``).
    """
    pattern = error.get("ctx", {}).get("pattern")
    return _explain(error["type"], error["msg"], tuple(error["loc"]), pattern)


def _unknown_key(field: str, path: tuple[str | int, ...]) -> tuple[str, str]:
    if path[-1] in LITERAL_SECRET_KEYS:
        protection = "protection" in path or path[-1] not in {"secret", "password", "digest_secret"}
        hint = _PROTECTION_SECRET_IN_FILE if protection else _SECRET_IN_FILE
        return f"{field}: secrets must not be written in site files", hint
    close = difflib.get_close_matches(str(path[-1]), _known_keys(path[:-1]), n=1, cutoff=0.6)
    if close:
        return f"{field}: unknown key; did you mean `{close[0]}`?", ""
    return f"{field}: unknown key", _HINTS.get("extra_forbidden", "")


def _models_in(annotation: object) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (through Optional, tuples, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def _known_keys(path: tuple[str | int, ...]) -> list[str]:
    """The keys a site file may have at ``path`` (a mapping), by name and alias."""
    models: list[type[BaseModel]] = [Site]
    for step in path:
        if isinstance(step, int):
            continue
        fields = [f for m in models for n, f in m.model_fields.items() if step in {n, f.alias}]
        models = [m for f in fields for m in _models_in(f.annotation)]
    return [f.alias or n for m in models for n, f in m.model_fields.items()]


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
