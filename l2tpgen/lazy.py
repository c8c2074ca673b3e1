"""Names a package imports on first use (PEP 562): the package root's and ``l2tpgen.api``'s.

``import l2tpgen`` (``--version``) and ``import l2tpgen.api`` (``validate``) stay light: a name
is imported from its module when a program first uses it, then kept in the package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, MutableMapping


def lazy_names(
    package: str, modules: Mapping[str, str], namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for the names of ``modules``.

    ``modules``: each name's module (absolute); ``namespace``: the package's ``globals()``,
    where a name is kept once imported.
    """

    def get(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted({*namespace, *modules})

    return get, names
