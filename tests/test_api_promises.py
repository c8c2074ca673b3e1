"""What docs/api.md promises a script that calls ``l2tpgen.api`` (issue 34).

- ``checked.secrets`` names the variables that are unset or refused, never a value;
- ``rendering.write(path)`` writes as ``render -o`` does: a write that fails leaves the file as
  it was (whole or not at all), mode 0600 when secrets are revealed, a symbolic link refused;
- ``push`` never raises for a router's problem: a router that refuses a line comes back as a
  result, rolled back, beside the other router's own result.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import IO, TYPE_CHECKING, Any

import pytest
from conftest import ROOT
from conftest_sim import L2TP_SECRET, start_lab
from push_runs import unreachable

from l2tpgen import api
from l2tpgen.errors import L2tpgenError
from l2tpgen.sim import Faults

if TYPE_CHECKING:
    from pathlib import Path

PROTECTED = ROOT / "examples" / "protected"
REFUSED_KEY = "short-key"  # under 16 characters: refused as an IKEv2 master key


def test_checked_secrets_names_the_unset_and_the_refused_variables_never_a_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("L2TPGEN_IKE_PSK", REFUSED_KEY)
    monkeypatch.delenv("L2TPGEN_L2TP_SECRET", raising=False)
    checked = api.validate(PROTECTED)
    assert checked.ok  # a variable to set is not a problem of the site files
    assert [(s.variable, s.state) for s in checked.secrets] == [
        ("L2TPGEN_IKE_PSK", "refused"),
        ("L2TPGEN_L2TP_SECRET", "missing"),
    ]
    assert REFUSED_KEY not in repr(checked.secrets)
    assert REFUSED_KEY not in repr(checked.as_dict())


def test_rendering_write_leaves_the_old_file_whole_when_the_write_fails_midway(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendering = api.render(api.load(ROOT / "sites"), "site-a")
    target = tmp_path / "site-a.conf"
    target.write_text("the config before\n")
    real_fdopen = os.fdopen

    def disk_full(*args: Any, **kwargs: Any) -> IO[str]:  # noqa: ANN401 - os.fdopen's
        """The file's stream, taking half the text, then failing as a full disk does."""
        stream: IO[str] = real_fdopen(*args, **kwargs)
        write = stream.write

        def half(text: str) -> int:
            write(text[: len(text) // 2])
            stream.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        stream.write = half  # type: ignore[method-assign]
        return stream

    monkeypatch.setattr(os, "fdopen", disk_full)
    with pytest.raises(L2tpgenError, match="No space left on device"):
        rendering.write(target)
    monkeypatch.undo()
    assert target.read_text() == "the config before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site-a.conf"]  # no half file left
    rendering.write(target)
    assert target.read_text() == rendering.text


def test_rendering_write_is_owner_only_when_secrets_are_revealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", L2TP_SECRET)
    fleet = api.load(ROOT / "sites")
    masked, revealed = tmp_path / "masked.conf", tmp_path / "revealed.conf"
    api.render(fleet, "site-a").write(masked)
    api.render(fleet, "site-a", reveal_secrets=True).write(revealed)
    assert stat.S_IMODE(revealed.stat().st_mode) == 0o600
    assert stat.S_IMODE(masked.stat().st_mode) == 0o644


def test_rendering_write_refuses_a_symbolic_link_and_leaves_its_target_alone(
    tmp_path: Path,
) -> None:
    target = tmp_path / "elsewhere.conf"
    target.write_text("not yours\n")
    link = tmp_path / "site-a.conf"
    link.symlink_to(target)
    rendering = api.render(api.load(ROOT / "sites"), "site-a")
    with pytest.raises(L2tpgenError, match=r"symbolic link \(to .*elsewhere\.conf\)"):
        rendering.write(link)
    assert target.read_text() == "not yours\n"
    assert link.is_symlink()


@pytest.mark.usefixtures("lab_env")
def test_push_returns_a_router_that_refuses_a_line_rolled_back_and_raises_nothing(
    tmp_path: Path,
) -> None:
    lab = start_lab(tmp_path, {"site-a": Faults(refuse=r"^xconnect 10\.216\.44\.47 127 ")})
    try:
        before = lab.running("site-a")
        report = api.push(
            lab.fleet, ["site-a", "site-b"], lab.inventory, dry_run=False, state_dir=tmp_path
        )
        by_site = {r.site: r for r in report.results}
        assert (by_site["site-a"].status.value, by_site["site-a"].status.exit_code) == (
            "rolled-back",
            3,
        )
        assert by_site["site-b"].status.value == "changed"
        assert report.exit_code == 3
        assert lab.running("site-a") == before
    finally:
        lab.sim.close()


@pytest.mark.usefixtures("lab_env")
def test_push_returns_a_router_it_cannot_reach_as_a_result_and_raises_nothing(
    tmp_path: Path,
) -> None:
    # The other router's problem a script meets most: nothing answers at its address.
    lab = start_lab(tmp_path)
    try:
        unreachable(lab, "site-b")
        before = lab.running("site-a")
        report = api.push(
            lab.fleet, ["site-a", "site-b"], lab.inventory, dry_run=False, state_dir=tmp_path
        )
        by_site = {r.site: r for r in report.results}
        assert by_site["site-b"].status.value in {"refused", "failed"}
        assert by_site["site-b"].status.exit_code == report.exit_code == 1
        assert "nothing listens on port" in by_site["site-b"].message
        assert lab.running("site-a") == before  # its pair's other end is left as it was
    finally:
        lab.sim.close()
