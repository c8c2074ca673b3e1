"""A secret never reaches any output format, not only the text one (issue 34, second reading of
the claims table).

The rows that promise "never a value" (README's `secrets` row, `secrets --help`, site-files.md's
literal secrets, the L2T005 rule, netbox.md's error bodies) were held by tests of one format, or
of one of the patterns the sentence lists. These run every format a user or a CI job reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import copy_example
from typer.testing import CliRunner

from l2tpgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
PROTECTED = ROOT / "examples" / "protected"
MASTER = "Zq9-master-key-never-printed"
L2TP = "Zq9-l2tp-secret-7"  # type 7 carries at most 25 characters
runner = CliRunner()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_secrets_prints_no_value_of_a_variable_that_is_set_and_accepted(fmt: str) -> None:
    env = {"L2TPGEN_IKE_PSK": MASTER, "L2TPGEN_L2TP_SECRET": L2TP, "L2TPGEN_COOKIE_KEY": ""}
    result = runner.invoke(app, ["secrets", "--sites", str(PROTECTED), "--format", fmt], env=env)
    assert result.exit_code == 0, result.output
    assert "L2TPGEN_IKE_PSK" in result.stdout
    assert "L2TPGEN_L2TP_SECRET" in result.stdout
    for secret in (MASTER, L2TP, "Zq9"):
        assert secret not in result.output


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_validate_echoes_no_literal_secret_of_a_site_file_in_any_format(
    tmp_path: Path, fmt: str
) -> None:
    sites = copy_example(
        PROTECTED,
        tmp_path,
        ("site-a", "secret_env: L2TPGEN_L2TP_SECRET}", "password: Zq9-literal-password}"),
        ("site-b", "ipsec_mode: transport}", "ipsec_mode: transport, psk: Zq9-literal-psk}"),
    )
    result = runner.invoke(app, ["validate", "--sites", str(sites), "--format", fmt], env={})
    assert result.exit_code == 1
    assert "site-a.yaml" in result.output
    assert "site-b.yaml" in result.output
    assert "Zq9" not in result.output


CLEAR_TEXT_CLASS = """\
l2tp-class class1
 authentication
 password 0 Zq9-clear-text-secret
 digest secret Zq9-clear-digest-secret hash sha
!
"""


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_lint_of_a_clear_text_secret_prints_no_secret_in_any_format(
    tmp_path: Path, fmt: str
) -> None:
    config = tmp_path / "r1.conf"
    config.write_text(CLEAR_TEXT_CLASS)
    result = runner.invoke(app, ["lint", "--config", str(config), "--format", fmt])
    assert result.exit_code == 1
    assert "L2T005" in result.output
    assert "Zq9" not in result.output
