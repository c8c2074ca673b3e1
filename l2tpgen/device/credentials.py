"""Login credentials from the environment, and their redaction from netmiko's and paramiko's logs.

Credentials are read (and their absence reported) before any connection; ``repr`` never shows a
secret, and the logs of the SSH libraries mask them (and every secret of IOS's secret grammar,
``l2tpgen.ios.secret_grammar``) once installed.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.errors import CredentialsError
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from collections.abc import Mapping

USERNAME = "L2TPGEN_USERNAME"
PASSWORD = "L2TPGEN_PASSWORD"  # noqa: S105 - the name of a variable, not a password
ENABLE_SECRET = "L2TPGEN_ENABLE_SECRET"  # noqa: S105 - same

_TYPE7 = re.compile(r"((?:password|digest secret) 7 )\S+")


# netmiko logs what it writes as a bytes repr (`b'\\tpassword 7 X\\n'`): each escaped line break
# or tab starts a line of its own for the mask.
_ESCAPES = re.compile(r"(\\[nrt])")


def _mask_escaped(message: str) -> str:
    return "".join(mask_secrets(part) for part in _ESCAPES.split(message))


class RedactingFilter(logging.Filter):
    """Masks secrets in netmiko's and paramiko's log records (netmiko logs every byte it sends)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record with secrets masked; never drops it."""
        message = record.getMessage()
        # Every secret IOS's grammar places (the lines netmiko writes and reads), then the login
        # secrets wherever they are.
        masked = _TYPE7.sub(r"\1<masked>", _mask_escaped(message))
        for secret in self.secrets:
            masked = masked.replace(secret, "<masked>")
        if masked != message:
            record.msg, record.args = masked, ()
        return True


_REDACTION = RedactingFilter()


def install_redaction(*secrets: str) -> None:
    """Mask these (and every type 7 secret) in netmiko's and paramiko's logs from now on."""
    _REDACTION.secrets.update(s for s in secrets if s)
    for name in ("netmiko", "paramiko"):
        logger = logging.getLogger(name)
        if _REDACTION not in logger.filters:
            logger.addFilter(_REDACTION)


@dataclass(frozen=True)
class Credentials:
    """Login credentials; ``repr`` never shows the secrets."""

    username: str
    password: str = field(repr=False)
    enable_secret: str = field(default="", repr=False)


def credentials_from_env(environ: Mapping[str, str] | None = None) -> Credentials:
    """Read credentials; raise ``CredentialsError`` naming every missing variable."""
    env = os.environ if environ is None else environ
    missing = [name for name in (USERNAME, PASSWORD) if not env.get(name)]
    if missing:
        raise CredentialsError(
            f"set {' and '.join(missing)} in the environment (nothing was contacted); "
            f"{ENABLE_SECRET} too if the routers need `enable`"
        )
    return Credentials(env[USERNAME], env[PASSWORD], env.get(ENABLE_SECRET, ""))
