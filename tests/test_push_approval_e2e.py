"""Push applies only the change the user approved, over real SSH against simulated routers.

``push`` on a terminal shows each router's diff, asks, then plans again before changing anything
(the router may have changed while the user read the diff). When the new plan's commands are not
the ones approved, that router is left alone and push says why (issue 17: no test pinned this).
The router is changed by hand *while the question is on the screen*: the confirmation prompt is
replaced by one that first edits the router, as a colleague on another terminal would.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer
from push_runs import cli, entered_config_mode, on_a_terminal

if TYPE_CHECKING:
    from collections.abc import Callable

    import pytest
    from conftest_sim import Lab

# A colleague sets the WAN's hold-queues by hand: two of the lines push was about to send are no
# longer needed, so the change push would now make is not the one the user approved.
BY_HAND_OWNED = "interface GigabitEthernet0/1\n hold-queue 2048 in\n hold-queue 2048 out\n"
# A change l2tpgen does not own (a banner): the plan, and so the approved change, stays the same.
BY_HAND_NOT_OWNED = "banner motd ^C authorised access only ^C\n"


def _answer_yes_after(monkeypatch: pytest.MonkeyPatch, lab: Lab, change: str) -> list[str]:
    """While push asks "Apply the change ...?", ``change`` is typed on site-a; then "yes"."""
    asked: list[str] = []

    def confirm(text: str, **_: object) -> bool:
        asked.append(text)
        assert lab.device("site-a").router.load(change) == []
        lab.device("site-a").router.events.clear()  # from here on: what push typed
        return True

    monkeypatch.setattr(typer, "confirm", confirm)
    return asked


def test_push_refuses_when_the_router_changed_since_the_approved_diff(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    lab = new_lab()
    asked = _answer_yes_after(monkeypatch, lab, BY_HAND_OWNED)
    result = cli(lab, "push", "site-a")
    assert asked == ["Apply the change to site-a?"]
    assert result.exit_code == 1, result.output
    assert "changed since the diff was shown" in result.output
    assert "run push again to see the new diff" in result.output
    assert "site-a: changed" not in result.output
    # nothing was sent: the router holds the hand change and nothing of l2tpgen's
    assert not entered_config_mode(lab, "site-a")
    running = lab.running("site-a")
    assert "interface GigabitEthernet0/0.2996" not in running
    assert "pseudowire-class ethernet" not in running


def test_push_goes_ahead_when_the_router_changed_only_outside_what_l2tpgen_owns(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    lab = new_lab()
    asked = _answer_yes_after(monkeypatch, lab, BY_HAND_NOT_OWNED)
    result = cli(lab, "push", "site-a")
    assert asked == ["Apply the change to site-a?"]
    assert result.exit_code == 0, result.output
    assert "site-a: changed" in result.output
    running = lab.running("site-a")
    assert "interface GigabitEthernet0/0.2996" in running
    assert "banner motd" in running


def test_the_refusal_says_in_full_why_and_what_to_do(
    new_lab: Callable[..., Lab], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    lab = new_lab()
    _answer_yes_after(monkeypatch, lab, BY_HAND_OWNED)
    result = cli(lab, "push", "site-a", "--format", "json")
    assert result.exit_code == 1, result.output
    (pushed,) = json.loads(result.stdout)["results"]
    assert (pushed["site"], pushed["status"]) == ("site-a", "refused")
    assert pushed["message"] == (
        "not pushed: the router's config changed since the diff was shown, so the change is not "
        "the one approved; run push again to see the new diff"
    )
