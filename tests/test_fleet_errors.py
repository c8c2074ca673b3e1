"""Each broken fleet under tests/fleets/broken is rejected with exactly the expected messages.

One folder per validation rule; ``expected.txt`` holds every problem as ``validate`` prints it,
file:line:column first. Regenerate with ``pytest --update-golden`` and review the diff.
"""

from __future__ import annotations

import pytest
from conftest import FLEETS, Golden

from l2tpgen import FleetValidationError, load_fleet

BROKEN = FLEETS / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES)
def test_broken_fleet_is_rejected_with_located_message(
    case: str, golden: Golden, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FLEETS)
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(f"broken/{case}")
    text = "".join(f"{problem}\n" for problem in caught.value.problems)
    golden.check(BROKEN / case / "expected.txt", text)
    assert all(problem.location is not None for problem in caught.value.problems)


def test_base_of_the_broken_fleets_is_valid_so_each_case_fails_for_its_own_change() -> None:
    fleet = load_fleet(FLEETS / "valid")
    assert sorted(fleet.sites) == ["site-a", "site-b"]


def test_literal_secret_never_appears_in_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FLEETS)
    for case, secret in (
        ("literal-secret", "123456789"),
        ("secret-env-holds-a-secret", "correct horse"),
    ):
        with pytest.raises(FleetValidationError) as caught:
            load_fleet(f"broken/{case}")
        rendered = "\n".join(str(p) for p in caught.value.problems) + str(caught.value)
        assert secret not in rendered


def test_all_problems_of_a_fleet_are_reported_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FLEETS)
    with pytest.raises(FleetValidationError) as caught:
        load_fleet("broken/vlan-peer-not-in-peers")
    files = {p.location.file for p in caught.value.problems if p.location}
    assert len(caught.value.problems) == 3
    assert files == {
        "broken/vlan-peer-not-in-peers/site-a.yaml",
        "broken/vlan-peer-not-in-peers/site-b.yaml",
    }
