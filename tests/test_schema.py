"""The JSON Schema of a site file: committed, current, as strict as the models where it can be."""

from __future__ import annotations

import json
import re
from pathlib import Path  # noqa: TC003 - parametrize ids read it at run time

import pytest
import yaml
from conftest import FLEETS, ROOT, SITES
from jsonschema import Draft7Validator
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.schema import SCHEMA_FILE, schema_text

COMMITTED = ROOT / SCHEMA_FILE
EXAMPLE_SITES = sorted([*SITES.glob("*.yaml"), *(ROOT / "examples").glob("*/*.yaml")])
VALID_SITES = sorted([*EXAMPLE_SITES, *(FLEETS / "valid").glob("*.yaml")])
# The YAML language server takes the first comment of the form `# yaml-language-server:
# $schema=...` anywhere in the document (redhat-developer/yaml-language-server,
# src/languageservice/parser/... getSchemaFromModeline reads doc.lineComments).
MODELINE = re.compile(r"^#\s+yaml-language-server\s*:\s*\$schema=(\S+)\s*$", re.MULTILINE)


def _validator() -> Draft7Validator:
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def _errors(path: Path) -> list[str]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [error.message for error in _validator().iter_errors(document)]


def test_committed_schema_is_what_the_models_generate() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), (
        f"{SCHEMA_FILE} is stale: run `l2tpgen schema -o {SCHEMA_FILE}` and commit it"
    )


def test_schema_command_prints_the_committed_schema() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    assert result.stdout == COMMITTED.read_text(encoding="utf-8")


def test_schema_command_writes_the_schema_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "site.schema.json"
    result = CliRunner().invoke(app, ["schema", "-o", str(target)])
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == COMMITTED.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", VALID_SITES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_valid_site_file_satisfies_the_schema(path: Path) -> None:
    assert _errors(path) == []


@pytest.mark.parametrize("path", EXAMPLE_SITES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_points_its_editor_at_the_committed_schema(path: Path) -> None:
    found = MODELINE.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{path} needs one `# yaml-language-server: $schema=...` comment"
    assert (path.parent / found[0]).resolve() == COMMITTED.resolve()


# Broken fleets whose fault is the shape of one value or key: the schema must refuse them too,
# so the editor flags them before `validate` runs. (Cross-site faults are validate's alone.)
SHAPE_FAULTS = [
    "literal-secret",
    "unknown-key",
    "missing-key",
    "vlan-id-out-of-range",
    "vc-id-out-of-range",
    "unsafe-names",
    "link-rtt-out-of-range",
]


@pytest.mark.parametrize("fleet", SHAPE_FAULTS)
def test_schema_refuses_what_the_model_refuses_by_shape(fleet: str) -> None:
    files = sorted((FLEETS / "broken" / fleet).glob("*.yaml"))
    assert files
    assert any(_errors(path) for path in files)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("peers", ["site-b"]),
        ("peers", [{"name": "site-b", "link": {"bandwidth": "10Gbit", "rtt_ms": 5}}]),
        ("peers", [{"name": "site-b", "link": {"bandwidth": 10**9, "rtt_ms": 5, "loss": "1%"}}]),
    ],
    ids=["peer-by-name", "bandwidth-as-text", "loss-as-percent"],
)
def test_schema_accepts_the_short_forms_the_loader_accepts(key: str, value: object) -> None:
    document = yaml.safe_load((SITES / "site-a.yaml").read_text(encoding="utf-8"))
    document[key] = value
    assert list(_validator().iter_errors(document)) == []


def test_schema_dash_output_is_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["schema", "-o", "-"])
    assert result.exit_code == 0
    assert result.stdout == COMMITTED.read_text(encoding="utf-8")
    assert not (tmp_path / "-").exists()
