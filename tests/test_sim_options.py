"""`sim up`'s numeric options: finite and in range, else a usage error before anything starts.

Issue 26, item 10: `--latency-ms inf` and `--revert-minute 1e308` were accepted (click's range
lets `inf` through when there is no maximum, and `nan` through every comparison), and `nan`
delayed every response by nothing or forever.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from l2tpgen.cli import app


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--latency-ms", "inf"),
        ("--latency-ms", "nan"),
        ("--latency-ms", "-1"),
        ("--latency-ms", "-inf"),
        ("--latency-ms", "60001"),
        ("--revert-minute", "1e308"),
        ("--revert-minute", "inf"),
        ("--revert-minute", "nan"),
        ("--revert-minute", "0"),
        ("--revert-minute", "3601"),
    ],
)
def test_a_number_option_out_of_range_is_a_usage_error(
    option: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # credentials set, so nothing but the option can stop it (and it must stop before starting)
    monkeypatch.setenv("L2TPGEN_USERNAME", "u")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "p")
    result = CliRunner().invoke(app, ["sim", "up", option, value, "--sites", "/nonexistent"])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}" in result.output
    assert "is not a number from" in result.output


@pytest.mark.parametrize(
    ("option", "value"),
    [("--latency-ms", "0"), ("--latency-ms", "60000"), ("--revert-minute", "0.1")],
)
def test_a_number_option_at_its_bounds_is_taken(
    option: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_USERNAME", "u")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "p")
    result = CliRunner().invoke(app, ["sim", "up", option, value, "--sites", "/nonexistent"])
    assert result.exit_code == 2  # the missing sites directory (usage): the option was taken
    assert "Invalid value" not in result.output
