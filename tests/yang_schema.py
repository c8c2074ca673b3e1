"""Cisco's IOS-XE native YANG model, compiled by pyang into a small tree the CLI checker walks.

The modules are vendored in ``tests/vendor/cisco-xe-yang/`` (SOURCE.md: repository, commit,
licence). pyang resolves ``include``, ``import``, ``uses``/``grouping``, ``augment``,
``choice``/``case`` and typedefs; its reference phases (leafref targets, ``must``, ``when``) are
not run: they take minutes on these modules, and the check is about the grammar (node names and
value types), not about cross-references. Compiling still takes about a minute on a loaded
2-core machine, so the tree is exported once to JSON (keyed by the files' hash) and reused.

A node is a dict: ``kind`` (container, list, leaf, leaf-list, choice, case), ``module`` (the YANG
module or submodule that defines it), ``children`` (name -> node, in schema order), ``key`` (a
list's keys), ``presence`` (a container that means something on its own), ``type`` (a leaf's:
see ``_type``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pyang import context, repository, statements
from pyang.types import XSDPattern

VENDOR = Path(__file__).resolve().parent / "vendor" / "cisco-xe-yang"
RELEASE = "17181"  # IOS XE 17.18.1, the newest 17.x release in YangModels/yang
MODELS = VENDOR / RELEASE
# The modules that define or augment what l2tpgen renders: native (with its submodules
# Cisco-IOS-XE-interfaces, -ip, -line, ...), l2vpn (pseudowire-class, xconnect), crypto,
# acl (ip access-list, ip access-group), cdp, ethernet (duplex/speed augments).
MODULES = (
    "Cisco-IOS-XE-native",
    "Cisco-IOS-XE-l2vpn",
    "Cisco-IOS-XE-crypto",
    "Cisco-IOS-XE-acl",
    "Cisco-IOS-XE-cdp",
    "Cisco-IOS-XE-ethernet",
)
_EXPORT_VERSION = "2"

Node = dict[str, Any]


def fingerprint() -> str:
    """A hash of the vendored modules and of this export's format."""
    digest = hashlib.sha256(_EXPORT_VERSION.encode())
    for path in sorted(MODELS.glob("*.yang")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_native(cache_dir: Path) -> Node:
    """The ``/native`` container with every augment, from the cache or compiled now."""
    cached = cache_dir / f"native-{RELEASE}-{fingerprint()}.json"
    if cached.exists():
        node: Node = json.loads(cached.read_text(encoding="utf-8"))
        return node
    node = _compile()
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    tmp.write_text(json.dumps(node), encoding="utf-8")
    tmp.replace(cached)
    return node


def _compile() -> Node:
    # pyang has no public switch for part of its validation: its list of phases is cut short.
    phases = statements._validation_phases  # noqa: SLF001
    saved = list(phases)
    del phases[phases.index("unique_name") :]  # grammar, imports, types, groupings, augments
    try:
        ctx = context.Context(repository.FileRepository(str(MODELS), use_env=False))
        modules = [ctx.search_module(None, name) for name in MODULES]
        ctx.validate()
    finally:
        phases[:] = saved
    errors = [e for e in ctx.errors if e[1] != "UNUSED_IMPORT"]
    if any(m is None for m in modules) or errors:
        raise RuntimeError(f"pyang could not compile {MODULES}: {errors[:5]}")
    native = next(c for c in modules[0].i_children if c.arg == "native")
    return _node(native)


def _node(stmt: Any) -> Node:  # noqa: ANN401 - a pyang statement (pyang is untyped)
    node: Node = {"kind": stmt.keyword, "module": stmt.pos.ref.rsplit("/", 1)[-1].split(".")[0]}
    if stmt.keyword in ("container", "list", "choice", "case"):
        node["children"] = {
            c.arg: _node(c)
            for c in stmt.i_children
            if c.keyword in ("container", "list", "leaf", "leaf-list", "choice", "case")
        }
    status = stmt.search_one("status")
    if status is not None and status.arg != "current":
        node["status"] = status.arg  # deprecated / obsolete: the checker refuses obsolete nodes
    if stmt.keyword == "list":
        key = stmt.search_one("key")
        node["key"] = key.arg.split() if key is not None else []
    if stmt.keyword == "container":
        node["presence"] = stmt.search_one("presence") is not None
    if stmt.keyword in ("leaf", "leaf-list"):
        node["type"] = _type(stmt.search_one("type"))
    return node


def _type(type_stmt: Any) -> dict[str, Any]:  # noqa: ANN401 - a pyang statement
    """A leaf's type, flattened: ``name`` (as written), ``base`` (the built-in type), and the
    restrictions met on the way down: ``ranges`` / ``lengths`` (each a list of [lo, hi]: all
    must hold), ``patterns`` ([XSD pattern, inverted]), ``enums``, ``union`` (member types),
    ``leafref`` (the path; its target is not resolved, any string is accepted)."""
    out: dict[str, Any] = {"name": type_stmt.arg, "ranges": [], "lengths": [], "patterns": []}
    spec = type_stmt.i_type_spec
    while spec is not None:
        cls = type(spec).__name__
        if cls == "RangeTypeSpec":
            out["ranges"].append(_bounds(spec.ranges, spec.min, spec.max))
        elif cls == "LengthTypeSpec":
            out["lengths"].append(_bounds(spec.lengths, spec.min, spec.max))
        elif cls == "PatternTypeSpec":
            out["patterns"] += [[p.spec, p.invert_match] for p in spec.res]
        elif cls == "EnumTypeSpec":
            out.setdefault("enums", [name for name, _ in spec.enums])
        elif cls == "UnionTypeSpec":
            out["base"] = "union"
            out["union"] = [_type(t) for t in spec.types]
            return out
        elif cls == "PathTypeSpec":
            out["base"] = "leafref"
            out["leafref"] = getattr(spec.path_, "arg", str(spec.path_))
            return out
        else:
            out["base"] = spec.name
            if cls == "IntTypeSpec":
                out["ranges"].append([[spec.min, spec.max]])
            return out
        spec = spec.base
    return out


def _bounds(ranges: list[Any], low: object, high: object) -> list[list[int | str]]:
    out = []
    for lo, hi in ranges:
        start = low if lo == "min" else lo
        end = start if hi is None else (high if hi == "max" else hi)
        out.append([_plain(start), _plain(end)])
    return out


def _plain(value: object) -> int | str:
    return value if isinstance(value, int) else str(value)


def value_error(type_: dict[str, Any], value: str) -> str | None:
    """Why ``value`` is not of the leaf's type, or None when it is."""
    base = type_.get("base")
    if base == "union":
        return _union_error(type_, value)
    if "enums" in type_:
        ok = value in type_["enums"]
        return None if ok else f"not one of {type_['name']}'s enums {type_['enums']}"
    if base and base.startswith(("int", "uint")):
        return _number_error(type_, value)
    if base in ("string", "leafref", "identityref", None):
        return _string_error(type_, value)
    problems = {"empty": "an empty leaf takes no value", "boolean": "not a boolean"}
    if base == "boolean" and value in ("true", "false"):
        return None
    return problems.get(base, f"type {type_['name']} ({base}) is not checked here")


def _union_error(type_: dict[str, Any], value: str) -> str | None:
    errors = [value_error(member, value) for member in type_["union"]]
    if None in errors:
        return None
    return f"no member of union {type_['name']} accepts it ({'; '.join(map(str, errors))})"


def _number_error(type_: dict[str, Any], value: str) -> str | None:
    if not re.fullmatch(r"[+-]?\d+", value):
        return f"not an integer ({type_['name']})"
    number = int(value)
    for ranges in type_["ranges"]:
        if not any(lo <= number <= hi for lo, hi in ranges):
            return f"out of {type_['name']}'s range {_show(ranges)}"
    return None


def _string_error(type_: dict[str, Any], value: str) -> str | None:
    for lengths in type_["lengths"]:
        if not any(lo <= len(value) <= hi for lo, hi in lengths):
            return f"length {len(value)} out of {type_['name']}'s {_show(lengths)}"
    for spec, inverted in type_["patterns"]:
        if XSDPattern(spec, None, inverted)(value) is False:
            return f"does not match {type_['name']}'s pattern {spec!r}"
    return None


def _show(ranges: list[list[Any]]) -> str:
    return " | ".join(f"{lo}..{hi}" if lo != hi else f"{lo}" for lo, hi in ranges)
