"""The environment variables a site file may name for its secrets: l2tpgen's secret namespace.

A site file names the variable that holds a secret (``l2tp_class.secret_env``,
``protection.psk_env``, ``protection.cookie_key_env``, and the same in a peer entry), never the
secret. Whoever may change a site file must not be able to aim a secret at another variable of
the environment that renders or pushes (the login and enable credentials, the NetBox token):
push would type it into the router. So a site file may name only:

* ``L2TPGEN_L2TP_SECRET``, ``L2TPGEN_IKE_PSK``, ``L2TPGEN_COOKIE_KEY`` (the defaults), or one of
  them with a suffix (``L2TPGEN_IKE_PSK_AMS``);
* any name starting with ``L2TPGEN_SECRET_`` (``L2TPGEN_SECRET_BACKBONE``).

Upper-case letters, digits and ``_``; at most 128 characters. ``L2TPGEN_USERNAME``,
``L2TPGEN_PASSWORD``, ``L2TPGEN_ENABLE_SECRET``, ``L2TPGEN_NETBOX_TOKEN`` and every other
variable fall outside it and are refused at the site file's line and column.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

# The default variable of each kind of secret: the one home of these names (the model's
# defaults, the importer's choice of variables and the namespace below read them).
L2TP_SECRET_ENV = "L2TPGEN_L2TP_SECRET"  # noqa: S105 - the name of a variable
PSK_ENV = "L2TPGEN_IKE_PSK"
COOKIE_KEY_ENV = "L2TPGEN_COOKIE_KEY"
# Never nameable, whatever a future prefix says: what push logs in with, and the NetBox token.
CREDENTIALS = frozenset(
    {"L2TPGEN_USERNAME", "L2TPGEN_PASSWORD", "L2TPGEN_ENABLE_SECRET", "L2TPGEN_NETBOX_TOKEN"}
)
_DEFAULTS = "|".join(re.escape(v) for v in (L2TP_SECRET_ENV, PSK_ENV, COOKIE_KEY_ENV))
_NAMESPACE = re.compile(
    rf"^(?:(?:{_DEFAULTS})(?:_[A-Z0-9_]*[A-Z0-9])?|L2TPGEN_SECRET_[A-Z0-9_]*[A-Z0-9])$"
)
OUTSIDE = "secret_namespace"
NAMESPACE_HINT = (
    "name L2TPGEN_L2TP_SECRET, L2TPGEN_IKE_PSK or L2TPGEN_COOKIE_KEY (a suffix such as "
    "L2TPGEN_IKE_PSK_AMS is allowed) or a variable starting with L2TPGEN_SECRET_; the login and "
    "enable credentials and the NetBox token can never be named (see docs/security.md, "
    '"Which variables a site file may name")'
)


def suffixed(default: str, suffix: str) -> str:
    """``default`` with a suffix made of ``suffix`` (a class name): ``L2TPGEN_L2TP_SECRET_DC_2``.

    Every run of other characters than letters and digits becomes one ``_``, and letters are
    upper-cased, so the result stays in the namespace whenever ``suffix`` holds a letter or digit.
    """
    tail = re.sub(r"[^A-Za-z0-9]+", "_", suffix).strip("_").upper()
    return f"{default}_{tail}" if tail else default


def in_namespace(name: str) -> bool:
    """Whether a site file may name this variable for a secret."""
    return name not in CREDENTIALS and _NAMESPACE.match(name) is not None


def _check(name: str) -> str:
    if not in_namespace(name):
        # The message never holds the name: it may be a secret written where its name belongs.
        raise PydanticCustomError(OUTSIDE, "names a variable outside l2tpgen's secret namespace")
    return name


# A secret's variable as a site file names it: an identifier first (a value with a space or a
# `!` is a secret written in its place, which the loader says so), then the namespace.
SecretVar = Annotated[
    str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=128), AfterValidator(_check)
]
