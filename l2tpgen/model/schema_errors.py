"""Schema problems: pydantic's errors about a site file in l2tpgen's words, one code per kind.

Each kind of schema problem has a code of its own (``problem_codes.yaml``): a missing key, an
unknown key, a secret written in the file, a value of the wrong type, out of its range, an address
that is not one, a value of the wrong form, a value not among those allowed; ``V010`` is what is
left (a rule that relates fields of one block). A misspelt key is one problem, at the key, with
its suggestion: pydantic reports it twice (the unknown key, and the key it stands for as missing).

The kinds are pydantic's error ``type``s, as its reference lists them
(https://docs.pydantic.dev/latest/errors/validation_errors/: ``missing``, ``extra_forbidden``,
``int_parsing``, ``less_than_equal``, ``literal_error``, ``string_pattern_mismatch``, ...), and
l2tpgen's own (``PydanticCustomError``: an address, a rate, a name).
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, get_args

from pydantic import BaseModel

from l2tpgen.model.addresses import ADDRESS_ERROR
from l2tpgen.model.link import BANDWIDTH_ERROR, LOSS_ERROR
from l2tpgen.model.problems import Problem, format_path
from l2tpgen.model.secret_names import (
    COOKIE_KEY_ENV,
    L2TP_SECRET_ENV,
    NAMESPACE_HINT,
    OUTSIDE,
    PSK_ENV,
)
from l2tpgen.model.site import LITERAL_SECRET_KEYS, NAME_RULES, UNSAFE_NAME, Site
from l2tpgen.workloads import WORKLOADS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from pydantic_core import ErrorDetails

    from l2tpgen.model.problems import Location, PathItem

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
    close = suggestion(path)
    if close is not None:
        return f"{field}: unknown key; did you mean `{close}`?", ""
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


_TYPE_ERRORS = frozenset(
    {
        *("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing"),
        *("string_type", "bool_type", "bool_parsing", "dict_type", "list_type", "tuple_type"),
        *("model_type", "model_attributes_type", "none_required", "is_instance_of"),
    }
)
_OUT_OF_RANGE = frozenset(
    {
        *("greater_than", "greater_than_equal", "less_than", "less_than_equal", "int_parsing_size"),
        *("too_short", "too_long", "string_too_short", "string_too_long", "multiple_of"),
    }
)
_FORM_ERRORS = frozenset(
    {"string_pattern_mismatch", UNSAFE_NAME, OUTSIDE, BANDWIDTH_ERROR, LOSS_ERROR}
)


def _coded(  # noqa: PLR0911 - one return per kind: each code at its one place
    stem: str, path: tuple[PathItem, ...], words: tuple[str, str], kind: str
) -> Problem:
    """The problem of a pydantic error ``kind`` at ``path``, with its code (problem_codes.yaml)."""
    message, hint = words
    if kind == "missing":
        return Problem(stem, path, message, hint, code="V110")
    if kind == "extra_forbidden" and path and path[-1] in LITERAL_SECRET_KEYS:
        return Problem(stem, path, message, hint, code="V112")
    if kind == "extra_forbidden":
        return Problem(stem, path, message, hint, code="V111")
    if kind in _TYPE_ERRORS:
        return Problem(stem, path, message, hint, code="V113")
    if kind in _OUT_OF_RANGE:
        return Problem(stem, path, message, hint, code="V114")
    if kind == ADDRESS_ERROR:
        return Problem(stem, path, message, hint, code="V115")
    if kind in _FORM_ERRORS:
        return Problem(stem, path, message, hint, code="V116")
    if kind in {"literal_error", "enum"}:
        return Problem(stem, path, message, hint, code="V117")
    return Problem(stem, path, message, hint, code="V010")


def misspelt(errors: Sequence[ErrorDetails]) -> dict[tuple[PathItem, ...], str]:
    """Unknown keys that stand for a required key missing beside them: path -> the key meant.

    ``vc-id: 5`` in a block that requires ``vc_id`` is one mistake, not two.
    """
    missing = {tuple(e["loc"]) for e in errors if e["type"] == "missing"}
    found = {}
    for error in errors:
        path = tuple(error["loc"])
        if error["type"] != "extra_forbidden" or not path or path[-1] in LITERAL_SECRET_KEYS:
            continue
        meant = suggestion(path)
        if meant is not None and (*path[:-1], meant) in missing:
            found[path] = meant
    return found


def suggestion(path: tuple[PathItem, ...]) -> str | None:
    """The known key nearest to the unknown key at ``path``, if one is near enough."""
    close = difflib.get_close_matches(str(path[-1]), _known_keys(path[:-1]), n=1, cutoff=0.6)
    return close[0] if close else None


def schema_problems(
    stem: str,
    errors: Sequence[ErrorDetails],
    locate: Callable[[tuple[PathItem, ...], bool], Location],
) -> Iterable[Problem]:
    """One located problem per mistake of a site file's schema errors, each with its code."""
    meant = misspelt(errors)
    stood_for = {(*path[:-1], key) for path, key in meant.items()}
    for error in errors:
        path = tuple(error["loc"])
        if error["type"] == "missing" and path in stood_for:
            continue  # reported at the misspelt key that stands for it
        pattern = error.get("ctx", {}).get("pattern")
        kind = UNSAFE_NAME if pattern in NAME_RULES else error["type"]
        problem = _coded(stem, path, explain(error), kind)
        yield problem.located(locate(path, error["type"] == "extra_forbidden"))
