"""The secret variables the sites' renderings read, from the model (``validate``, issue 35).

Each platform folder's ``needs.py`` lists its ``NEEDS`` (platform name -> what one site's
rendering reads, ``l2tpgen.model.reads``), found here as ``l2tpgen.platforms.render`` finds the
renderers, without importing them (nor Jinja). ``l2tpgen.platforms.render.secret_needs`` renders
the sites and reads the placeholders: the reference ``tests/test_secret_needs_model.py`` holds
this equal to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.model.needs import SecretNeed, needs_of
from l2tpgen.traits import platform_tables

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from l2tpgen.model import Fleet
    from l2tpgen.model.reads import Reads, SiteReads


# Every platform folder's ``needs.py`` lists what its rendering reads (``NEEDS``), by platform.
NEEDS: dict[str, SiteReads] = platform_tables("needs", "NEEDS")


def site_reads(fleet: Fleet, name: str) -> Reads:
    """The variables one site's masked rendering (its own platform, first format) reads.

    Raises:
        RenderError: the site's rendering would be refused (the same error ``render`` gives).
    """
    return NEEDS[fleet.site(name).effective_platform](fleet, name)


def model_secret_needs(
    fleet: Fleet,
    names: Iterable[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[SecretNeed]:
    """Every variable the selected sites (all by default) need, sorted by name, unrendered.

    Raises:
        RenderError: a site cannot be rendered (the same error ``render`` gives).
    """
    chosen = sorted(fleet.sites if names is None else names)
    return needs_of({name: site_reads(fleet, name) for name in chosen}, environ)


__all__ = ["NEEDS", "model_secret_needs", "site_reads"]
