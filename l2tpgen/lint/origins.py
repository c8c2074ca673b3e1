"""Findings on a site's rendered config, placed at the key of the site file that produced the line.

A rendered config is no file in the user's repository: code scanning and pull-request annotations
can only point at the site files. ``SourceMap`` says, for each section of a rendered config, which
key of the site file it comes from (``interface GigabitEthernet0/0.2996`` -> ``vlans[0]``,
``pseudowire-class ethernet`` -> ``pseudowire_class``), and for some lines of a section which key
under it (``ip pmtu`` -> ``pmtu``). Both are tables (``_LINES``, ``_FIXES``), not code per rule.

``place_in_site_files`` moves each finding whose file is a rendered config to that key's position
in the site file (read again, as ``locate_problems`` does) and, for the rules ``_FIXES`` knows,
says the fix in YAML terms. A finding of a rule it does not know keeps its fix and says which
rendered line it is about; a line no key produced (a comment, a section from elsewhere) is placed
at the site's ``name:``, never at a file that does not exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from l2tpgen.model.problems import Location, PathItem, format_path
from l2tpgen.model.source import SourceDoc, read_source
from l2tpgen.secrets import mask_line

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from l2tpgen.lint.finding import Finding
    from l2tpgen.model import Fleet, Site

KeyPath = tuple[PathItem, ...]

RENDERED_PREFIX = "rendered:"
# An absolute path in a line table starts here (else it is under the section's key).
_ROOT = "/"

# Lines of a section and the key under the section's key they come from, by section kind; the
# first prefix that matches wins. A path starting with _ROOT is from the top of the site file.
_LINES: dict[str, tuple[tuple[str, KeyPath], ...]] = {
    "pseudowire-class": (
        ("ip pmtu", ("pmtu",)),
        ("ip dfbit set", ("df_bit",)),
        ("ip tos reflect", ("tos_reflect",)),
        ("sequencing", ("sequencing",)),
        ("protocol", ("signaling",)),
        ("ip local interface", (_ROOT, "wan")),
    ),
    "l2tp-class": (
        ("authentication", ("authentication",)),
        ("password", ("secret_env",)),
        ("digest", ("secret_env",)),
        ("hello", ("hello",)),
    ),
    "interface": (
        ("hold-queue", ("hold_queue",)),
        ("duplex", ("duplex",)),
        ("speed", ("speed",)),
        ("ip address", ("address",)),
        ("encapsulation dot1q", ("id",)),
    ),
}
# Fields of a pseudowire-class a peer's ``pseudowire:`` may change (the rest is the site's class).
_PEER_FIELDS = frozenset({"signaling", "cookie", "sequencing", "pmtu", "df_bit", "tos_reflect"})


@dataclass(frozen=True)
class YamlFix:
    """What a rule's fix means in the site file: the key to set, under the line's key.

    ``under``: the keys (first step) of the lines the translation applies to; elsewhere the rule's
    own fix is kept. ``key`` ``None``: the finding stays at the line's key (a VLAN) and the
    setting goes in the class that VLAN's pseudowire uses. ``when``: the rule's own fix must match
    it (a rule may advise differently case by case). ``keep``: a part of the rule's own fix kept
    after the YAML one (``, or lower the CE MTU ...``).
    """

    under: tuple[str, ...]
    key: str | None
    value: str
    when: str = ""
    keep: str = ""

    def applies(self, origin: KeyPath, fix: str) -> bool:
        """Whether this translation fits a finding on a line from ``origin`` with ``fix``."""
        if origin[:1] not in {(u,) for u in self.under} or not re.search(self.when, fix):
            return False
        return self.key != _QUOTED or _class_key(self.when, fix) is not None


# ``YamlFix.key``: the key the pseudowire-class command quoted in the rule's fix comes from.
_QUOTED = "`"


def _class_key(when: str, fix: str) -> str | None:
    """The class key of the command ``when`` captures in ``fix`` (``ip pmtu`` -> ``pmtu``)."""
    match = re.search(when, fix)
    command = match.group(1) if match and match.groups() else ""
    lines = _LINES["pseudowire-class"]
    return next((str(k[0]) for p, k in lines if command.startswith(p) and k[0] != _ROOT), None)


_CLASSES = ("pseudowire_class", "peers")
_FIXES: dict[str, YamlFix] = {
    "L2T002": YamlFix(_CLASSES, "pmtu", "pmtu: true"),
    "L2T003": YamlFix(_CLASSES, "df_bit", "df_bit: true"),
    "L2T004": YamlFix(("lan", "wan"), "hold_queue", "hold_queue: {in: 2048, out: 2048}"),
    "L2T013": YamlFix(
        ("vlans",), None, "pmtu: true", when=r"^add `ip pmtu`", keep=r", or lower the CE MTU.*"
    ),
    "L2T014": YamlFix(
        ("wan",), "loopback", "loopback: {interface: Loopback0, address: ADDRESS/32}"
    ),
    # the two ends' classes differ in one setting: the same key at both ends
    "L2T103": YamlFix(_CLASSES, _QUOTED, "same", when=r"^make `([^`]+)` the same"),
}


def rendered_name(site: str) -> str:
    """The name findings in a rendered config carry (line numbers are those of `render SITE`)."""
    return f"{RENDERED_PREFIX}{site}"


def _index(items: object, match: Callable[[object], bool]) -> int | None:
    if not isinstance(items, list):
        return None
    return next((n for n, item in enumerate(items) if match(item)), None)


def _peer_index(data: Mapping[str, Any], peer: str) -> int | None:
    """Where ``peer`` is in the file's ``peers`` list (an entry is a name or a mapping)."""
    return _index(
        data.get("peers"),
        lambda e: e == peer or (isinstance(e, dict) and e.get("name") == peer),
    )


@dataclass(frozen=True)
class SourceMap:
    """Which key of a site file each section of its rendered config comes from."""

    sections: Mapping[str, KeyPath]  # section header line -> key path
    routes: tuple[tuple[str, KeyPath], ...]  # `ip route` line prefixes -> key path

    @classmethod
    def of(cls, site: Site, data: Mapping[str, Any]) -> SourceMap:
        """The map of ``site``'s rendering; ``data`` is its file as read (for list positions)."""
        sections: dict[str, KeyPath] = {
            f"interface {site.lan.interface}": ("lan",),
            f"interface {site.wan.interface}": ("wan",),
            f"l2tp-class {site.l2tp_class.name}": ("l2tp_class",),
            f"pseudowire-class {site.pseudowire_class.name}": ("pseudowire_class",),
            "no cdp run": ("cdp",),
            "cdp run": ("cdp",),
        }
        if site.wan.loopback is not None:
            sections[f"interface {site.wan.loopback.interface}"] = ("wan", "loopback")
        vlans = data.get("vlans")
        for index, vlan in enumerate(vlans if isinstance(vlans, list) else []):
            if isinstance(_get(vlan, "id"), int):
                sections[f"interface {site.lan.interface}.{_get(vlan, 'id')}"] = ("vlans", index)
        for peer in site.peers:
            found = _peer_index(data, peer.name)
            if found is None:
                continue
            index = found
            pw = site.pseudowire_for(peer.name).name
            sections.setdefault(f"pseudowire-class {pw}", ("peers", index, "pseudowire"))
            if peer.l2tp_class is not None:
                sections.setdefault(
                    f"l2tp-class {peer.l2tp_class.name}", ("peers", index, "l2tp_class")
                )
        gateway = site.wan.gateway
        routes: list[tuple[str, KeyPath]] = [
            (f"ip route {n.network_address} {n.netmask} {gateway}", ("wan", "routes", i))
            for i, n in enumerate(site.wan.routes)
        ]
        routes.append(("ip route ", ("wan", "peer_routes")))
        return cls(sections, tuple(routes))

    def section(self, header: str) -> KeyPath | None:
        """The key a section (or a global line) comes from."""
        if header.startswith("ip route "):
            return next((p for prefix, p in self.routes if header.startswith(prefix)), None)
        return self.sections.get(header)

    def line(self, header: str, line: str, data: Mapping[str, Any]) -> KeyPath | None:
        """The key ``line`` of the section ``header`` comes from (``line`` may be the header)."""
        base = self.section(header)
        if base is None or line == header:
            return base
        kind = header.split(" ", 1)[0]
        text = line.strip().lower()
        for prefix, sub in _LINES.get(kind, ()):
            if text.startswith(prefix):
                if sub[0] == _ROOT:
                    return sub[1:]
                return _field(base, str(sub[0]), data) + sub[1:]
        return base


def _get(item: object, key: PathItem) -> object:
    if isinstance(item, dict) and isinstance(key, str):
        return item.get(key)
    if isinstance(item, list) and isinstance(key, int) and 0 <= key < len(item):
        return item[key]
    return None


def _present(data: object, path: KeyPath) -> int:
    """How many steps of ``path`` the file holds."""
    for depth, step in enumerate(path):
        data = _get(data, step)
        if data is None:
            return depth
    return len(path)


def _field(base: KeyPath, key: str, data: Mapping[str, Any]) -> KeyPath:
    """``key`` under ``base``; a peer's pseudowire changes only some fields, the site's the rest."""
    peer_class = base[:1] == ("peers",) and base[-1:] == ("pseudowire",)
    if peer_class and (key not in _PEER_FIELDS or _present(data, (*base, key)) <= len(base)):
        return ("pseudowire_class", key)
    return (*base, key)


def _class_of_vlan(site: Site, vlan_path: KeyPath, data: Mapping[str, Any], key: str) -> KeyPath:
    """Where ``key`` of the pseudowire-class a VLAN's pseudowire uses is set."""
    if vlan_path[:1] != ("vlans",) or len(vlan_path) == 1:
        return ("pseudowire_class", key)
    peer = _get(_get(data.get("vlans"), vlan_path[1]), "peer")
    index = _peer_index(data, peer) if isinstance(peer, str) else None
    if index is None or site.pseudowire_for(str(peer)) is site.pseudowire_class:
        return ("pseudowire_class", key)
    return _field(("peers", index, "pseudowire"), key, data)


def _sections(text: str) -> list[tuple[str, str]]:
    """Each rendered line with the header of its section (a top-level line is its own header)."""
    header = ""
    found = []
    for line in text.splitlines():
        if line and not line[0].isspace():
            header = line.rstrip()
        found.append((header, line.rstrip()))
    return found


@dataclass(frozen=True)
class _Site:
    """What placing one site's findings needs: its file, model, map and rendered lines."""

    name: str
    file: str
    site: Site
    doc: SourceDoc | None
    smap: SourceMap
    lines: list[tuple[str, str]]

    def at(self, path: KeyPath) -> tuple[Location, KeyPath]:
        """The position of the deepest part of ``path`` the file holds, and that part."""
        if self.doc is None:
            return Location(self.file, 1, 1), ()
        held = path[: _present(self.doc.data, path)]
        return self.doc.locate(held or ("name",), key=True), held


def _yaml_fix(place: _Site, fix: YamlFix, origin: KeyPath, original: str) -> tuple[KeyPath, str]:
    """Where the finding goes and its fix in YAML terms."""
    data = place.doc.data if place.doc is not None else {}
    if fix.key is None:  # the setting goes in the class this line's pseudowire uses
        target = _class_of_vlan(place.site, origin, data, fix.value.split(":", 1)[0])
        where, located = origin, target
    elif fix.key == _QUOTED:
        key = str(_class_key(fix.when, original))
        where = _field(origin, key, data)
        parent = format_path(where[:-1])
        return where, f"make `{key}` the same at both ends (here: {parent} of {place.file})"
    else:
        target = _field(origin, fix.key, data)
        where = located = target
    _, held = place.at(located)
    parent = format_path(located[:-1]) or "the top level"
    if len(held) == len(located):
        text = f"set `{fix.value}` in {parent} of {place.file}"
    else:
        text = f"add `{fix.value}` to {parent} of {place.file}"
    kept = re.search(fix.keep, original) if fix.keep else None
    return where, text + (kept.group(0) if kept else "")


def _place(finding: Finding, place: _Site, rendered: Mapping[str, str]) -> Finding:
    lines = place.lines
    header, line = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ("", "")
    data = place.doc.data if place.doc is not None else {}
    origin = place.smap.line(header, line, data) if header else None
    about = f"rendered line {finding.line} of {place.name}: `{_quoted(line)}`"
    message, fix = _renamed(finding.message, rendered), _renamed(finding.fix, rendered)
    known = _FIXES.get(finding.code)
    if origin is None:
        location, _ = place.at(())
        return replace(finding, **_where(location), message=f"{message} ({about})", fix=fix)
    if known is not None and known.applies(origin, finding.fix):
        origin, fix = _yaml_fix(place, known, origin, fix)
        location, _ = place.at(origin)
        return replace(finding, **_where(location), message=message, fix=fix)
    location, _ = place.at(origin)
    return replace(finding, **_where(location), message=f"{message} ({about})", fix=fix)


# Words after which a config line holds a secret (or a cookie): never quoted past them.
_SECRET_WORDS = frozenset({"password", "secret", "key", "key-string", "cookie", "pre-shared-key"})


def _quoted(line: str) -> str:
    """A rendered line as a message quotes it: secrets masked, cut after a secret's keyword."""
    words = mask_line(line).split()
    cut = next((n for n, word in enumerate(words) if word.lower() in _SECRET_WORDS), None)
    return " ".join(words) if cut is None else " ".join(words[: cut + 1]) + " ..."


def _where(location: Location) -> dict[str, Any]:
    return {"file": location.file, "line": location.line, "column": location.column}


_RENDERED = re.compile(re.escape(RENDERED_PREFIX) + r"[A-Za-z0-9._-]+")


def _renamed(text: str, rendered: Mapping[str, str]) -> str:
    """Other sites' rendered configs named in a message, as their site files."""

    def file(match: re.Match[str]) -> str:
        name = match.group(0)
        if name in rendered:
            return rendered[name]
        bare = name.rstrip(".")  # a name at the end of a sentence
        return rendered[bare] + name[len(bare) :] if bare in rendered else name

    return _RENDERED.sub(file, text) if RENDERED_PREFIX in text else text


def place_in_site_files(
    findings: Sequence[Finding], fleet: Fleet, texts: Mapping[str, str]
) -> list[Finding]:
    """``findings`` with those on rendered configs moved to their sites' files.

    ``texts``: each site's rendered config (by site name), as it was linted. Other findings (the
    model rules', already in the site files) are kept as they are.
    """
    names = {rendered_name(name): name for name in texts}
    files = {r: fleet.files.get(name, name) for r, name in names.items()}
    places: dict[str, _Site] = {}
    placed = []
    for finding in findings:
        name = names.get(finding.file)
        if name is None:
            placed.append(finding)
            continue
        if name not in places:
            file = fleet.files.get(name, name)
            source = read_source(Path(file), file) if name in fleet.files else None
            doc = source if isinstance(source, SourceDoc) else None
            site = fleet.site(name)
            data = doc.data if doc is not None else {}
            places[name] = _Site(
                name, file, site, doc, SourceMap.of(site, data), _sections(texts[name])
            )
        placed.append(_place(finding, places[name], files))
    return sorted(placed)
