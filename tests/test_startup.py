"""The command line starts with the collector paused, and runs its command with it on (issue 35).

``l2tpgen/startup.py``: the entry point (``l2tpgen/__main__.py``, the console script's and
``python -m l2tpgen``'s) pauses Python's garbage collector while typer, pydantic and the model
load, and the lazy group resumes it, freezing what start-up made, once the command's module is
imported. What a user would notice if this went wrong: a long command (a push, a lab run) with
the collector off, its memory growing; or a program that runs the app itself (a test, a script)
finding its own collector switched or its objects frozen. The time it saves is a benchmark's
(``bench/cost_bench.py --only start``), not a test's.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

from conftest import SITES
from typer.testing import CliRunner

import l2tpgen.cli.sites
from l2tpgen import startup
from l2tpgen.cli import app

# Runs ``l2tpgen validate`` through the entry point, recording the collector as the command runs.
_ENTRY = """
import gc, json, sys
import l2tpgen.cli.sites as sites
seen = {}
real = sites.validated
def validated(*args, **kwargs):
    seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())
    return real(*args, **kwargs)
sites.validated = validated
sys.argv = ["l2tpgen", "validate", "--sites", sys.argv[1]]
from l2tpgen.__main__ import main
try:
    main()
finally:
    print(json.dumps(seen))
"""


def test_the_command_runs_with_the_collector_on_and_start_up_frozen() -> None:
    env = {**os.environ, "L2TPGEN_L2TP_SECRET": "startup-test"}
    done = subprocess.run(
        [sys.executable, "-c", _ENTRY, str(SITES)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["enabled"] is True  # a long command collects its garbage
    assert seen["frozen"] > 10_000  # start-up's objects, out of every later collection


def test_a_program_running_the_app_keeps_its_collector_on_and_nothing_frozen() -> None:
    before = gc.get_freeze_count()
    result = CliRunner().invoke(app, ["validate", "--sites", str(SITES)])
    assert result.exit_code == 0, result.output
    assert gc.isenabled()
    assert gc.get_freeze_count() == before


def test_a_program_that_turned_its_collector_off_finds_it_off() -> None:
    assert l2tpgen.cli.sites  # the command's module is loaded: resume has run for it before
    gc.disable()
    try:
        result = CliRunner().invoke(app, ["validate", "--sites", str(SITES)])
        assert result.exit_code == 0, result.output
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_resume_without_pause_leaves_the_collector_alone() -> None:
    gc.disable()
    try:
        startup.resume()
        assert not gc.isenabled()
    finally:
        gc.enable()
    before = gc.get_freeze_count()
    startup.resume()
    assert gc.isenabled()
    assert gc.get_freeze_count() == before
