"""The fleet: every site together, validated as a whole.

``load_fleet`` reads a ``sites/`` directory; ``Fleet.build`` validates sites made in memory. Both
raise ``FleetValidationError`` listing every problem found, never just the first.
"""

from __future__ import annotations

import difflib
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from l2tpgen.errors import FleetValidationError, ModelError, SiteNotFoundError
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.problems import Problem, format_path
from l2tpgen.model.site import LITERAL_SECRET_KEYS, Site
from l2tpgen.model.source import SourceDoc, read_source

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from ipaddress import IPv4Address

    from l2tpgen.model.site import Vlan

SITE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Pseudowire:
    """One end of a pseudowire as seen from ``site``: the VLAN, the peer and the peer's address."""

    site: Site
    vlan: Vlan
    peer: Site

    @property
    def vc_id(self) -> int:
        """The VC ID both ends use."""
        return self.vlan.effective_vc_id

    @property
    def peer_address(self) -> IPv4Address:
        """The peer's ``ip local interface`` address, taken from the peer's own file."""
        return self.peer.tunnel_address

    @property
    def static(self) -> bool:
        """Manual sessions (no control channel)."""
        return self.site.pseudowire_class.signaling == "static"

    @property
    def session_ids(self) -> tuple[int, int]:
        """(local, remote) static session IDs: both are the VC ID, so the ends mirror."""
        return (self.vc_id, self.vc_id)

    @property
    def cookie_local(self) -> tuple[int, ...]:
        """The cookie this end expects to receive: 32-bit words, empty for none."""
        return derive_cookie(
            self.site.name, self.vc_id, self.site.pseudowire_class.effective_cookie
        )

    @property
    def cookie_remote(self) -> tuple[int, ...]:
        """The cookie this end sends: the peer's local cookie."""
        return derive_cookie(
            self.peer.name, self.vc_id, self.site.pseudowire_class.effective_cookie
        )


def derive_cookie(receiver: str, vc_id: int, size: int) -> tuple[int, ...]:
    """The static cookie a site expects on VC ``vc_id``: ``size`` bytes as 32-bit words.

    Rule: word i is CRC-32 of ``"l2tpgen:<receiving site>:<vc id>:<i>"`` (never 0), so both ends
    derive the same value from the model and each direction has its own cookie.
    """
    return tuple(
        zlib.crc32(f"l2tpgen:{receiver}:{vc_id}:{i}".encode()) or 1 for i in range(size // 4)
    )


@dataclass(frozen=True)
class Fleet:
    """Validated sites by name, and the file each came from (for messages)."""

    sites: Mapping[str, Site]
    files: Mapping[str, str]

    @classmethod
    def build(cls, sites: Iterable[Site], files: Mapping[str, str] | None = None) -> Fleet:
        """Validate sites made in memory; raise ``FleetValidationError`` with every problem."""
        by_name: dict[str, Site] = {}
        problems: list[Problem] = []
        for site in sites:
            if site.name in by_name:
                problems.append(
                    Problem(site.name, ("name",), f"two sites are named {site.name}", "rename one")
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
            close = difflib.get_close_matches(name, list(self.sites), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            known = ", ".join(self.sites) or "none"
            raise SiteNotFoundError(f"no site named {name} (sites: {known}){hint}") from None

    def pseudowires(self, name: str) -> tuple[Pseudowire, ...]:
        """The pseudowires of one site, in VLAN order."""
        site = self.site(name)
        return tuple(
            Pseudowire(site, vlan, self.sites[vlan.peer])
            for vlan in sorted(site.vlans, key=lambda v: v.id)
        )


def load_fleet(directory: str | os.PathLike[str]) -> Fleet:
    """Load and cross-validate every ``*.yaml`` site file in ``directory``.

    Raises:
        ModelError: the directory is missing or holds no site file.
        FleetValidationError: with every problem, each located at file:line:column.
    """
    root = Path(directory)
    if not root.is_dir():
        raise ModelError(f"sites directory {root} does not exist; pass --sites DIR")
    paths = sorted(p for p in root.iterdir() if p.suffix in SITE_SUFFIXES and p.is_file())
    if not paths:
        raise ModelError(f"no site files (*.yaml) in {root}")
    problems: list[Problem] = []
    docs: dict[str, SourceDoc] = {}
    sites: dict[str, Site] = {}
    files: dict[str, str] = {}
    for path in paths:
        display = str(path)  # as the user named the directory: sites/site-a.yaml
        files[path.stem] = display
        source = read_source(path, display)
        if isinstance(source, Problem):
            problems.append(source)
            continue
        docs[path.stem] = source
        site = _validate(path.stem, source, problems)
        if site is None:
            continue
        if site.name != path.stem:
            problems.append(
                Problem(
                    path.stem,
                    ("name",),
                    f"site name {site.name} differs from its file name {path.name}",
                    f"rename the file to {site.name}{path.suffix} or set `name: {path.stem}`",
                ).located(source.locate(("name",)))
            )
            continue
        sites[site.name] = site
        problems.extend(_locate(p, docs) for p in check_site(site))
    problems.extend(_locate(p, docs) for p in check_fleet(sites, files))
    if problems:
        raise FleetValidationError(sorted(problems, key=Problem.sort_key))
    return Fleet(sites, files)


def _locate(problem: Problem, docs: Mapping[str, SourceDoc]) -> Problem:
    doc = docs.get(problem.site)
    if doc is None or problem.location is not None:
        return problem
    return problem.located(doc.locate(problem.path, key=problem.point_at_key))


def _validate(stem: str, source: SourceDoc, problems: list[Problem]) -> Site | None:
    try:
        return Site.model_validate(source.plain())
    except ValidationError as exc:
        for error in exc.errors(include_url=False, include_input=False):
            path = tuple(error["loc"])
            message, hint = _explain(error["type"], error["msg"], path)
            problem = Problem(stem, path, message, hint)
            key = error["type"] == "extra_forbidden"
            problems.append(problem.located(source.locate(path, key=key)))
        return None


_RANGE_ERRORS = frozenset(
    {"greater_than_equal", "less_than_equal", "int_parsing", "int_parsing_size", "int_type"}
)
_RANGES = {
    "id": "a VLAN ID is a whole number from 1 to 4094",
    "vc_id": "a VC ID is a whole number from 1 to 4294967295",
    "port": "a TCP port is a whole number from 1 to 65535",
    "mtu": "the WAN MTU is a whole number from 576 to 9216",
    "hello": "the hello interval is a whole number of seconds from 0 to 1000",
    "in": "a hold-queue length is a whole number from 0 to 65535",
    "out": "a hold-queue length is a whole number from 0 to 65535",
}


def _explain(kind: str, message: str, path: tuple[str | int, ...]) -> tuple[str, str]:
    """Turn a pydantic error into our message and hint; never echoes the input value."""
    field = format_path(path) or "site"
    message = message.removeprefix("Value error, ")
    last = path[-1] if path else ""
    if kind in _RANGE_ERRORS and last in _RANGES:
        return f"{field}: {_RANGES[str(last)]}", ""
    if kind == "extra_forbidden" and last in LITERAL_SECRET_KEYS:
        return (
            f"{field}: secrets must not be written in site files",
            (
                "remove this key, set `secret_env: L2TPGEN_L2TP_SECRET` instead, and export "
                "L2TPGEN_L2TP_SECRET in the environment that renders or pushes"
            ),
        )
    if kind == "extra_forbidden":
        return f"{field}: unknown key", "check the spelling against the site-file reference"
    if kind == "missing":
        return f"{field}: required key is missing", f"add `{last}:`"
    if last == "secret_env" and kind == "string_pattern_mismatch":
        return (
            (
                "secret_env must be the name of an environment variable, such as "
                "L2TPGEN_L2TP_SECRET, never the secret itself"
            ),
            "put the name of the variable here and export the secret in that variable",
        )
    return f"{field}: {message}", ""


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
