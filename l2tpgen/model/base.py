"""The strict pydantic base every l2tpgen model derives from."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Strict

# A site file's true/false: only YAML's `true` and `false`. Pydantic would otherwise take "on",
# "yes", "1" and 1 for true; site files are YAML 1.2 (docs/site-files.md), where `yes` and `on`
# are text, so `trusted: "on"` is a mistake to point at, never a silent true (issue 26).
Flag = Annotated[bool, Strict()]


class StrictModel(BaseModel):
    """Frozen, rejects unknown keys, and accepts a field by its name or its YAML alias."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        str_strip_whitespace=True,
    )
