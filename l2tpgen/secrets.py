"""Secrets: read from environment variables only, masked by default.

They are written into configs as Cisco type 7 (``l2tpgen.ios.type7``). Nothing in this module logs
or puts a secret value in an error message.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from l2tpgen.errors import SecretError

if TYPE_CHECKING:
    from collections.abc import Mapping


def masked(variable: str) -> str:
    """The placeholder written instead of a secret: names the variable, cannot be pushed."""
    return f"<{variable}>"


def read_secret(variable: str, environ: Mapping[str, str] | None = None) -> str:
    """The value of ``variable``.

    Raises:
        SecretError: the variable is unset or empty (the message names it, never a value).
    """
    value = (os.environ if environ is None else environ).get(variable, "")
    if not value:
        raise SecretError(
            f"environment variable {variable} is not set or is empty; export it (for example "
            f"`read -rs {variable} && export {variable}`) or leave out --reveal-secrets"
        )
    return value
