"""The one exception root of l2tpgen and its specific subclasses.

Every error a user can cause is an ``L2tpgenError``; the CLI prints its message and exits 1
without a traceback. Third-party exceptions are wrapped with ``raise ... from exc``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from l2tpgen.model.problems import Problem


class L2tpgenError(Exception):
    """Root of every error l2tpgen raises on purpose."""


class ModelError(L2tpgenError):
    """Site files cannot be read or are not valid."""


class SitesDirectoryError(ModelError):
    """The sites directory given or found is missing or not a directory: a usage error (exit 2)."""


class FleetValidationError(ModelError):
    """One or more problems were found in the site files; ``problems`` lists all of them."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the site files")


class SiteNotFoundError(ModelError):
    """A site named on the command line is not in the fleet."""


class RenderError(L2tpgenError):
    """A site cannot be rendered for the requested platform."""


class SecretError(RenderError):
    """A secret was asked for but its environment variable is not usable.

    The message names the variable, never its value.
    """


class ConfigTextError(L2tpgenError):
    """An IOS config cannot be read or parsed (names the file, never quotes its text)."""


class LintConfigError(L2tpgenError):
    """The linter was asked for something it cannot do: an unreadable file, an unknown rule code."""


class DeviceError(L2tpgenError):
    """A router could not be reached, refused us, or answered unexpectedly."""


class CredentialsError(DeviceError):
    """Credentials are missing from the environment (checked before any connection)."""


class HostKeyError(DeviceError):
    """A router's SSH host key is unknown or changed: refused before credentials are sent."""
