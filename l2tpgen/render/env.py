"""The one Jinja environment: templates shipped inside the package, strict about undefined names."""

from __future__ import annotations

from functools import cache

import jinja2


@cache
def environment() -> jinja2.Environment:
    """The cached environment; ``templates/<platform>/*.j2`` inside the installed package."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("l2tpgen", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701 - router configs are plain text, not HTML
    )
