"""First SSH contact over real SSH against simulated routers: ``--accept-new-host-keys``.

As OpenSSH's ``StrictHostKeyChecking=accept-new`` (ssh_config(5),
https://man.openbsd.org/ssh_config#StrictHostKeyChecking): a host with no known_hosts entry has
the key it offers added; a host whose entry holds another key is refused. The fingerprints are
checked against asyncssh's own (the simulator's key, ``get_fingerprint("sha256")``), the lines
against the simulator's known_hosts lines (OpenSSH's ``[host]:port`` form).
"""

from __future__ import annotations

import json
import re
import stat
from typing import TYPE_CHECKING

import pytest
from conftest import SITES
from conftest_sim import PASSWORD, Lab
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

    from typer.testing import Result

runner = CliRunner()
OPTION = "--accept-new-host-keys"
PROGRESS = re.compile(r"site-[ab]: (?:connecting|reading the running config|.*copies.*)")


def _known_hosts_at(lab: Lab, path: Path) -> Path:
    """Point every inventory entry at ``path`` (which need not exist)."""
    inventory = json.loads(lab.inventory.read_text())
    for entry in inventory["sites"].values():
        entry["known_hosts"] = str(path)
    lab.inventory.write_text(json.dumps(inventory))
    return path


def _run(lab: Lab, *args: str) -> Result:
    return runner.invoke(app, [*args, "--sites", str(SITES), "--inventory", str(lab.inventory)])


def _learned_line(lab: Lab, name: str, known: Path) -> str:
    device = lab.device(name)
    fingerprint = device.host_key.get_fingerprint("sha256")
    return (
        f"learned the ssh-ed25519 host key {fingerprint} of [127.0.0.1]:{device.port} "
        f"(first contact, {OPTION}) into {known}"
    )


def _errors(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if not PROGRESS.fullmatch(line)]


def test_first_contact_with_the_option_learns_each_key_and_the_next_run_needs_no_option(
    lab: Lab, tmp_path: Path
) -> None:
    known = _known_hosts_at(lab, tmp_path / "fresh" / "ssh" / "known_hosts")
    first = _run(lab, "diff", "site-a", "site-b", OPTION)
    assert first.exit_code == 0, first.stdout + first.stderr
    for name in ("site-a", "site-b"):
        assert first.stderr.splitlines().count(_learned_line(lab, name, known)) == 1
    # Two workers at once wrote one line each, in OpenSSH's format, nothing else.
    lines = known.read_text().splitlines()
    expected = {lab.device(n).public_key_line() for n in ("site-a", "site-b")}
    assert sorted(lines) == sorted(expected)
    assert stat.S_IMODE(known.stat().st_mode) == 0o600
    assert stat.S_IMODE(known.parent.stat().st_mode) == 0o700
    written = known.read_bytes()
    again = _run(lab, "diff", "site-a", "site-b")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "learned" not in again.stderr
    assert known.read_bytes() == written


def test_the_option_appends_to_an_existing_file_and_leaves_its_lines_alone(
    lab: Lab, tmp_path: Path
) -> None:
    known = _known_hosts_at(lab, tmp_path / "known_hosts")
    kept = "# my routers\n" + lab.device("site-b").public_key_line()  # no final newline
    known.write_text(kept)
    result = _run(lab, "verify", "site-a", "site-b", OPTION)
    assert "learned" in result.stderr
    assert known.read_text() == kept + "\n" + lab.device("site-a").public_key_line() + "\n"
    assert _learned_line(lab, "site-b", known) not in result.stderr


def test_a_changed_key_is_refused_with_the_option_and_the_entry_is_kept(lab: Lab) -> None:
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    before = known.read_bytes()
    lab.sim.servers.change_host_key("site-a")
    result = _run(lab, "push", "site-a", "--yes", OPTION)
    assert result.exit_code == 1
    (error,) = _errors(result)
    assert "host key CHANGED" in error
    assert "learned" not in result.stderr
    assert known.read_bytes() == before
    assert lab.device("site-a").auth_attempts == 0
    assert PASSWORD not in result.stdout + result.stderr


@pytest.mark.parametrize("command", ["diff", "verify"])
@pytest.mark.parametrize("file", ["missing", "empty"])
def test_without_the_option_first_contact_names_it_and_the_site_once(
    lab: Lab, tmp_path: Path, command: str, file: str
) -> None:
    known = _known_hosts_at(lab, tmp_path / "known_hosts")
    if file == "empty":
        known.write_text("")
    result = _run(lab, command, "site-a")
    assert result.exit_code == 1
    (error,) = _errors(result)
    assert error.count("site-a") == 1, error
    assert OPTION in error
    assert f"ssh-keyscan -p {lab.device('site-a').port} 127.0.0.1 >> {known}" in error
    assert "netmiko" not in error
    assert "alt_key_file" not in error
    assert lab.device("site-a").auth_attempts == 0
    assert known.exists() == (file == "empty")


def test_rollback_learns_the_key_on_first_contact_through_the_direct_connection(
    lab: Lab, tmp_path: Path
) -> None:
    known = _known_hosts_at(lab, tmp_path / "known_hosts")
    refused = _run(lab, "rollback", "site-a", "--list")
    assert refused.exit_code == 1
    assert OPTION in refused.stderr
    listed = _run(lab, "rollback", "site-a", "--list", OPTION)
    assert listed.exit_code == 0, listed.stdout + listed.stderr
    assert "site-a: no rollback copies" in listed.stdout
    assert _learned_line(lab, "site-a", known) in listed.stderr.splitlines()
    assert known.read_text() == lab.device("site-a").public_key_line() + "\n"
