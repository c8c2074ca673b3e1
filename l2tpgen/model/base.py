"""The strict pydantic base every l2tpgen model derives from."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """Frozen, rejects unknown keys, and accepts a field by its name or its YAML alias."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        str_strip_whitespace=True,
    )
