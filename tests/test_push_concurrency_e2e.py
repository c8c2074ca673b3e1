"""Two engineers, two state directories, one router: the router is the referee.

The simulator implements IOS's exclusive configuration mode as Cisco documents it ("Exclusive
Configuration Change Access and Access Session Locking",
https://cisco.com/c/en/us/td/docs/routers/ios/config/17-x/syst-mgmt/b-system-management/m_cm-config-lock-0.html;
``l2tpgen/sim/config_lock.py``). Push enters configuration mode once, in the write that makes its
rollback copy, reads the config again there (it must still be the one planned from), and before a
rollback checks the router still holds what push itself last saw. The second engineer's push
runs, deterministically, at a chosen point of the first one's (from its progress report).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import L2TP_SECRET, PASSWORD, USERNAME, Lab
from push_runs import config_lines, exec_lines

import l2tpgen.sim.config_lock as module
from l2tpgen import load_fleet
from l2tpgen.device.config_replace import restore
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.exclusive import touched
from l2tpgen.device.inventory import Target
from l2tpgen.device.push import PushOptions, push_site
from l2tpgen.device.result import PushResult, Status
from l2tpgen.sim import Faults
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.model import Fleet


EXCLUSIVE_AUTO = "configuration mode exclusive auto\n"
LOCKED = "Configuration mode locked exclusively by user"


def _push(
    lab: Lab,
    state: Path,
    progress: Callable[[str, str], None] | None = None,
    fleet: Fleet | None = None,
) -> PushResult:
    device = lab.device("site-a")
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target("site-a", "127.0.0.1", device.port, device.router.flavor.device_type, known)
    options = PushOptions(
        state_dir=state,
        environ={"L2TPGEN_L2TP_SECRET": L2TP_SECRET},
        progress=progress,
        lint_gate=fleet is None,  # the changed model alone is not linted with its peer's
    )
    login = Credentials(USERNAME, PASSWORD)
    return push_site(fleet or lab.fleet, "site-a", target, login, options)


def _at(phase: str, then: Callable[[], object]) -> Callable[[str, str], None]:
    """A progress listener that runs ``then`` (once) when the push reaches ``phase``."""
    done: list[object] = []

    def listen(_site: str, told: str) -> None:
        if not done and (told == phase or (phase.endswith(" ") and told.startswith(phase))):
            done.append(then())

    return listen


# -- the simulator's configuration lock, as documented -------------------------------------------


def test_in_auto_mode_configure_terminal_locks_out_other_sessions_until_end() -> None:
    router = Router("r1")
    assert router.load(EXCLUSIVE_AUTO) == []
    one, two = router.open_terminal(), router.open_terminal()
    assert "Configuration mode locked exclusively. The lock will be cleared" in one.handle(
        "configure terminal"
    )
    refused = two.handle("configure terminal")
    assert refused.startswith(LOCKED)
    assert refused.endswith("Please try later.")
    assert two.prompt() == "r1#"  # still at the exec prompt
    one.handle("end")
    assert LOCKED not in two.handle("configure terminal")
    assert two.prompt() == "r1(config)#"


def test_in_manual_mode_only_configure_terminal_lock_locks_and_a_closed_session_frees_it() -> None:
    router = Router("r1")
    assert router.load("configuration mode exclusive manual\n") == []
    one, two, three = (router.open_terminal() for _ in range(3))
    one.handle("configure terminal")  # no lock in manual mode
    assert LOCKED not in two.handle("configure terminal lock")
    assert three.handle("configure terminal").startswith(LOCKED)
    two.closed = True  # its SSH session ended
    assert LOCKED not in three.handle("configure terminal")


def test_without_exclusive_mode_two_sessions_configure_at_once() -> None:
    router = Router("r1")
    one, two = router.open_terminal(), router.open_terminal()
    one.handle("configure terminal")
    assert LOCKED not in two.handle("configure terminal")
    assert two.prompt() == "r1(config)#"


# -- two pushes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "enter"), [("auto", "configure terminal"), ("manual", "configure terminal lock")]
)
def test_with_exclusive_mode_a_second_push_during_a_change_is_refused_and_sends_nothing(
    new_lab: Callable[..., Lab], tmp_path: Path, mode: str, enter: str
) -> None:
    lab = new_lab()
    router = lab.device("site-a").router
    assert router.load(f"configuration mode exclusive {mode}\n") == []
    router.startup = router.running.copy()
    second: list[PushResult] = []

    def engineer_two() -> None:
        typed = len(config_lines(lab, "site-a"))
        second.append(_push(lab, tmp_path / "two"))
        # nothing of the second push's reached configuration mode, and it rolled nothing back
        assert config_lines(lab, "site-a")[typed:] == []
        assert not [t for k, t in router.events if k == "replace"]

    # The first push holds configuration mode (and so the lock) from its copy's write on.
    first = _push(lab, tmp_path / "one", _at("sending ", engineer_two))
    (two,) = second
    assert (two.status, two.status.exit_code) == (Status.REFUSED, 1), two.message
    assert "another session holds the router's configuration lock" in two.message
    assert "locked by User unknown" in two.message  # `show configuration lock`, read first
    assert (first.status, first.status.exit_code) == (Status.CHANGED, 0), first.message
    assert exec_lines(lab, "site-a").count(enter) == 1  # the second never tried to enter
    assert router.startup.body() == router.running.body()
    assert _push(lab, tmp_path / "two").status is Status.UNCHANGED  # the lock went with `end`


def test_a_change_made_between_the_read_and_the_copy_stops_the_push_before_any_line(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    router = lab.device("site-a").router
    second: list[PushResult] = []
    # The second engineer's whole push lands after the first one read the router.
    first = _push(
        lab,
        tmp_path / "one",
        _at("saving a rollback copy", lambda: second.append(_push(lab, tmp_path / "two"))),
    )
    assert second[0].status is Status.CHANGED, second[0].message
    assert (first.status, first.status.exit_code) == (Status.REFUSED, 1), first.message
    assert "nothing was changed: the router's config changed after push read it" in first.message
    assert "(`+l2tp-class class1`, `+ authentication`, `+ password 7 <masked>`" in first.message
    assert exec_lines(lab, "site-a").count("configure terminal") == 2
    assert not [t for k, t in router.events if k == "replace"]
    assert router.startup.body() == router.running.body()


def test_a_rollback_never_goes_over_a_change_someone_else_made_meanwhile(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:

    # site-a's xconnect of VLAN 2997 is refused: the push must roll back...
    lab = new_lab(faults={"site-a": Faults(refuse=r"^xconnect 10\.216\.44\.47 127 ")})
    router = lab.device("site-a").router
    by_hand = "interface Loopback99\n description another engineer's change\n"
    # ...but another engineer changes the router just before it does.
    first = _push(lab, tmp_path / "one", _at("rolling back", lambda: router.load(by_hand)))
    assert (first.status, first.status.exit_code) == (Status.ROLLBACK_FAILED, 4), first.message
    assert "NOT rolled back: someone else changed the router during this push" in first.message
    assert "`+interface Loopback99`" in first.message
    assert "check the router by hand" in first.message
    assert not [t for k, t in router.events if k == "replace"]
    assert "interface Loopback99" in lab.running("site-a")


def _replaces(lab: Lab) -> list[str]:
    return [t for k, t in lab.device("site-a").router.events if k == "replace"]


def test_without_exclusive_mode_a_push_finding_another_change_before_its_lines_does_not_save(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    router = lab.device("site-a").router
    second: list[PushResult] = []
    # The second engineer's whole push lands after the first one's copy, before its lines.
    listen = _at("sending ", lambda: second.append(_push(lab, tmp_path / "two")))
    first = _push(lab, tmp_path / "one", listen)
    assert second[0].status is Status.CHANGED, second[0].message
    assert (first.status, first.status.exit_code) == (Status.UNSAVED, 1), first.message
    assert "someone else changed the router while push was sending its change" in first.message
    assert "NOT saved" in first.message
    assert _replaces(lab) == []
    # the router holds the model (the lines re-sent in another order), saved by the second
    assert _push(lab, tmp_path / "two").status is Status.UNCHANGED
    assert sorted(router.startup.body().splitlines()) == sorted(router.running.body().splitlines())


def test_two_engineers_the_one_with_a_refused_line_never_rolls_back_over_the_others_change(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    """The issue's case: one push succeeds; the other has a line refused meanwhile."""
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    path = sites / "site-a.yaml"
    path.write_text(path.read_text().replace("name: public", "name: web"))
    mine = load_fleet(sites)  # the first engineer's model: VLAN 2996 renamed

    lab = new_lab(faults={"site-a": Faults(refuse=r"^description l2tpgen: VLAN 2996 web ")})
    second: list[PushResult] = []
    listen = _at("sending ", lambda: second.append(_push(lab, tmp_path / "two")))
    first = _push(lab, tmp_path / "one", listen, fleet=mine)
    assert second[0].status is Status.CHANGED, second[0].message  # told "saved": it stays so
    assert (first.status, first.status.exit_code) == (Status.ROLLBACK_FAILED, 4), first.message
    assert "did NOT roll back (that would undo their change too)" in first.message
    assert first.errors[0].startswith("description l2tpgen: VLAN 2996 web")
    assert _replaces(lab) == []
    running = lab.running("site-a")
    assert sum(line.startswith(" xconnect ") for line in running.splitlines()) == 4


def test_the_simulators_lock_imports_nothing_of_the_code_it_checks() -> None:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert {name for name in imported if name.startswith("l2tpgen")} <= {
        "l2tpgen.sim.router",
        "l2tpgen.sim.terminal",
    }


def test_a_refused_configure_terminal_is_said_as_such_and_no_line_is_typed_at_the_exec_prompt(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab(faults={"site-a": Faults(refuse=r"^configure terminal$")})
    before = lab.running("site-a")
    result = _push(lab, tmp_path / "one")
    assert (result.status, result.status.exit_code) == (Status.REFUSED, 1), result.message
    assert "the router did not enter configuration mode at `configure terminal`" in result.message
    assert "% Invalid input" in result.message
    # after `configure terminal`, only push's read came (refused at the exec prompt)
    typed = exec_lines(lab, "site-a")
    after = typed[typed.index("configure terminal") + 1 :]
    # push's close types `exit` and drops the socket at once: whether the router logs that
    # `exit` before the connection ends is a race, and it is no configuration line
    if after[-1:] == ["exit"]:
        after = after[:-1]
    assert after == ["do show running-config"]
    assert lab.running("site-a") == before


def test_a_pair_rollback_never_goes_over_a_change_someone_else_made_since_the_push(
    new_lab: Callable[..., Lab], tmp_path: Path
) -> None:
    lab = new_lab()
    router = lab.device("site-a").router
    pushed = _push(lab, tmp_path / "one")
    assert pushed.status is Status.CHANGED
    assert pushed.rollback_file is not None
    assert router.load("ip route 192.0.2.0 255.255.255.0 10.197.251.209\n") == []  # by hand
    device = lab.device("site-a")
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target("site-a", "127.0.0.1", device.port, device.router.flavor.device_type, known)
    local = tmp_path / "one" / "rollback" / pushed.rollback_file.partition(":")[2]
    status, outcome = restore(
        target,
        Credentials(USERNAME, PASSWORD),
        pushed.rollback_file,
        local,
        save_command="write memory",
        edits=touched(pushed.commands),
    )
    assert status is Status.ROLLBACK_FAILED, outcome
    assert "`+ip route 192.0.2.0 255.255.255.0 10.197.251.209`" in outcome
    assert _replaces(lab) == []
    assert "ip route 192.0.2.0 255.255.255.0 10.197.251.209" in lab.running("site-a")
