"""The library API: one function per job, each returning frozen values the command line prints.

``load``, ``validate``, ``render``, ``lint``, ``plan``, ``push``, ``verify``, ``rollback``,
``lab_build`` and ``lab_run`` do what ``l2tpgen validate``, ``render``, ``lint``, ``push
--dry-run``, ``push``, ``verify``, ``rollback``, ``lab build`` and ``lab run`` do, without
printing, prompting or exiting: a Nornir task, a notebook or a CI script calls them and reads
the results (``docs/api.md``, each example run by ``tests/test_api_doc.py``). Errors are
``L2tpgenError`` subclasses; problems and findings are data, never exceptions.

``import l2tpgen.api`` loads nothing of weight: each name's module (``sites``: the model,
pydantic; ``routers``; ``lab``) is imported when the name is first used, and the linter, the
routers' side (netmiko, Nornir, hier_config) and the lab by the functions that use them, so a
script that only loads a fleet never pays for them (nor ``l2tpgen validate``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.api.lab import LabBuild, lab_build, lab_of, lab_run
    from l2tpgen.api.routers import (
        PlanResult,
        Verification,
        plan,
        push,
        rollback,
        rollback_options,
        targets,
        verify,
    )
    from l2tpgen.api.sites import (
        LintReport,
        PairSummary,
        Rendering,
        Validation,
        lint,
        load,
        problem_dict,
        render,
        validate,
    )

# Each public name's module, imported when the name is first used.
_MODULES = {
    **dict.fromkeys(("LabBuild", "lab_build", "lab_of", "lab_run"), "lab"),
    **dict.fromkeys(
        (
            "PlanResult",
            "Verification",
            "plan",
            "push",
            "rollback",
            "rollback_options",
            "targets",
            "verify",
        ),
        "routers",
    ),
    **dict.fromkeys(
        (
            "LintReport",
            "PairSummary",
            "Rendering",
            "Validation",
            "lint",
            "load",
            "problem_dict",
            "render",
            "validate",
        ),
        "sites",
    ),
}

__all__ = [
    "LabBuild",
    "LintReport",
    "PairSummary",
    "PlanResult",
    "Rendering",
    "Validation",
    "Verification",
    "lab_build",
    "lab_of",
    "lab_run",
    "lint",
    "load",
    "plan",
    "problem_dict",
    "push",
    "render",
    "rollback",
    "rollback_options",
    "targets",
    "validate",
    "verify",
]


def __getattr__(name: str) -> object:
    """A public name, its module imported on first use."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'l2tpgen.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"l2tpgen.api.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULES})
