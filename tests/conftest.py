"""Shared fixtures: paths, golden-file comparison with ``--update-golden``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SITES = ROOT / "sites"
FLEETS = TESTS / "fleets"
GOLDEN = TESTS / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite golden files from the current output instead of comparing",
    )


class Golden:
    """Compare text with a checked-in file, or rewrite the file with ``--update-golden``."""

    def __init__(self, update: bool) -> None:
        self.update = update

    def check(self, path: Path, actual: str) -> None:
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            return
        assert path.exists(), f"{path} is missing; run pytest --update-golden and review it"
        expected = path.read_text(encoding="utf-8")
        assert actual == expected, f"output differs from {path.relative_to(ROOT)}"


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    return Golden(bool(request.config.getoption("--update-golden")))


pytest_plugins = ["conftest_sim", "conftest_netbox", "conftest_lab"]

# No timed assertions on these shared, noisy machines: hypothesis's per-example deadline (200 ms by
# default) and its too-slow health check are off for every property test; a failing example is
# still reported with its seed.
settings.register_profile(
    "l2tpgen", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("l2tpgen")
