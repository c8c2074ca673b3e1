"""``l2tpgen schema``: the JSON Schema of a site file, for editors and CI."""

from __future__ import annotations

from pathlib import Path  # noqa: TC003 - typer reads the annotations at run time
from typing import Annotated

import typer

from l2tpgen.cli.app import app, emit_text
from l2tpgen.model.schema import schema_text


@app.command()
def schema(
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the schema to this file instead of stdout."),
    ] = None,
) -> None:
    """Print the JSON Schema (draft 7) of a site file, generated from l2tpgen's models.

    Point your editor at it: a site file whose first or last comment is
    `# yaml-language-server: $schema=schema/site.schema.json` (the path relative to the site
    file) gets completion and checking in editors that use the YAML language server.
    """
    text = schema_text()

    emit_text(output, text, "the schema", "site.schema.json")
