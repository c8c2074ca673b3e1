"""The compiled-template cache: used when it can be, never in the way when it cannot."""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

import pytest
from conftest import SITES

from l2tpgen import load_fleet, render_site
from l2tpgen.render import env

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Jinja's per-user cache directory placed under a fresh temporary directory."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    env.environment.cache_clear()
    yield tmp_path
    env.environment.cache_clear()


def _render() -> str:
    env.environment.cache_clear()
    return render_site(load_fleet(SITES), "site-a")


def test_templates_compiled_once_are_read_back_from_the_cache(cache_root: Path) -> None:
    first = _render()
    entries = sorted(cache_root.glob("_jinja2-cache-*/l2tpgen-*.cache"))
    assert entries, "the first render stores its compiled templates"
    assert (entries[0].parent.stat().st_mode & 0o777) == 0o700
    stamps = [entry.stat().st_mtime_ns for entry in entries]
    assert _render() == first
    assert [entry.stat().st_mtime_ns for entry in entries] == stamps, "read, not rewritten"


def test_a_corrupt_cache_entry_is_ignored_and_the_render_is_unchanged(cache_root: Path) -> None:
    first = _render()
    for entry in cache_root.glob("_jinja2-cache-*/l2tpgen-*.cache"):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2])  # right header, truncated code
    assert _render() == first


def test_a_cache_directory_planted_by_someone_else_is_not_used(cache_root: Path) -> None:
    _render()
    private = next(cache_root.glob("_jinja2-cache-*"))
    for entry in private.iterdir():
        entry.unlink()
    private.rmdir()
    elsewhere = cache_root / "planted"
    elsewhere.mkdir(mode=0o700)
    private.symlink_to(elsewhere)  # a link to a directory someone else controls
    env.environment.cache_clear()
    assert env.environment("l2tpgen.platforms.ios").bytecode_cache is None
    assert "xconnect" in _render()
    assert not list(elsewhere.iterdir()), "nothing was written through the link"


def test_an_unwritable_cache_does_not_stop_a_render(cache_root: Path) -> None:
    _render()
    private = next(cache_root.glob("_jinja2-cache-*"))
    for entry in private.iterdir():
        entry.unlink()
    private.chmod(0o500)
    try:
        if private.stat().st_uid == 0:  # root writes anyway; make the directory a file instead
            private.chmod(0o700)
            private.rmdir()
            private.write_text("not a directory")
        assert "xconnect" in _render()
    finally:
        if private.is_dir():
            private.chmod(0o700)


def test_cache_entries_are_named_for_this_version_and_these_compile_options(
    cache_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Jinja checks an entry against the template's source only: an upgrade that changes how the
    # templates compile (not the templates) must not read the old entries.
    _render()
    before = {entry.name for entry in cache_root.glob("_jinja2-cache-*/l2tpgen-*.cache")}
    monkeypatch.setattr(env, "_KEEP_NEWLINE", False)
    _render()
    after = {entry.name for entry in cache_root.glob("_jinja2-cache-*/l2tpgen-*.cache")}
    assert before
    assert len(after) == 2 * len(before)
    monkeypatch.setattr(env, "__version__", "999")
    _render()
    assert len(set(cache_root.glob("_jinja2-cache-*/l2tpgen-*.cache"))) == 3 * len(before)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a directory to another user")
def test_a_cache_directory_owned_by_another_user_is_not_used(cache_root: Path) -> None:
    # docs/site-files.md: "a directory that is not the user's own is never used" (the symbolic
    # link above is one way to plant it; a directory made by another user at that name is the
    # other, e.g. on a shared /tmp before this user's first render).
    private = cache_root / f"_jinja2-cache-{os.getuid()}"
    private.mkdir(mode=0o700)
    os.chown(private, 65534, 65534)  # nobody's
    assert env.environment("l2tpgen.platforms.ios").bytecode_cache is None
    assert "xconnect" in _render()
    assert not list(private.iterdir()), "nothing was written into another user's directory"
