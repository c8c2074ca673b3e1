"""`l2tpgen secrets` lists the variables a fleet needs, all at once, never a value (issue 28).

The check of the issue: `l2tpgen secrets --sites examples/protected` lists the variables and
exits 1 when one is missing. `validate` warns for each missing one; push's messages name only
options it has.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import write_site
from typer.testing import CliRunner

from l2tpgen import SecretError, load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.platforms.render import secret_needs
from l2tpgen.render.classes import reveal

ROOT = Path(__file__).resolve().parent.parent
PROTECTED = str(ROOT / "examples" / "protected")
HUB = str(ROOT / "examples" / "hub")
MASTER = "0123456789abcdef-master"
L2TP = "l2tp-secret-1"
runner = CliRunner()


def _env(**values: str) -> dict[str, str]:
    """The environment of one run: only the given variables set (the others unset)."""
    env = {"L2TPGEN_IKE_PSK": "", "L2TPGEN_L2TP_SECRET": "", "L2TPGEN_COOKIE_KEY": ""}
    env.update(values)
    return env


def test_the_protected_example_lists_both_variables_and_exits_1_when_one_is_missing() -> None:
    result = runner.invoke(
        app, ["secrets", "--sites", PROTECTED], env=_env(L2TPGEN_L2TP_SECRET=L2TP)
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["MISSING", "L2TPGEN_IKE_PSK", "(site-a,", "site-b)"]
    assert "IKEv2 master key" in lines[1]
    assert lines[2].split() == ["set", "L2TPGEN_L2TP_SECRET", "(site-a,", "site-b)"]
    assert "export L2TPGEN_IKE_PSK" in result.stderr
    assert L2TP not in result.output


def test_all_set_exits_0_and_shows_no_value() -> None:
    env = _env(L2TPGEN_IKE_PSK=MASTER, L2TPGEN_L2TP_SECRET=L2TP)
    result = runner.invoke(app, ["secrets", "--sites", PROTECTED], env=env)
    assert result.exit_code == 0, result.output
    assert "ok: all 2 variables set" in result.stdout
    assert MASTER not in result.output
    assert L2TP not in result.output


def test_json_lists_every_variable_its_state_and_the_refused_reason_never_a_value() -> None:
    env = _env(L2TPGEN_IKE_PSK="short-key")
    result = runner.invoke(app, ["secrets", "--sites", PROTECTED, "--format", "json"], env=env)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["missing"] == ["L2TPGEN_L2TP_SECRET"]
    assert report["refused"] == ["L2TPGEN_IKE_PSK"]
    psk = report["variables"][0]
    assert (psk["variable"], psk["purposes"], psk["sites"], psk["state"]) == (
        "L2TPGEN_IKE_PSK",
        ["ike-master-key"],
        ["site-a", "site-b"],
        "refused",
    )
    assert "shorter than 16 characters" in psk["problem"]
    assert "short-key" not in result.output


def test_named_sites_limit_the_list_to_what_they_need() -> None:
    # The hub fleet: branch (Cisco, l2tp-class digest + IPsec) and linux-edge (static, IPsec).
    needs = {n.variable: n.sites for n in secret_needs(load_fleet(HUB), environ={})}
    assert needs == {
        "L2TPGEN_IKE_PSK": ("branch", "hub", "linux-edge"),
        "L2TPGEN_L2TP_SECRET": ("branch", "hub"),
    }
    only = {n.variable for n in secret_needs(load_fleet(HUB), ["linux-edge"], environ={})}
    assert only == {"L2TPGEN_IKE_PSK"}


def test_a_keyed_cookie_fleet_needs_the_cookie_key(tmp_path: Path) -> None:
    for name, peer, wan in (("a", "b", "198.51.100.1"), ("b", "a", "203.0.113.1")):
        write_site(tmp_path, name, peer, wan, protection="protection: {mode: cookie}\n")
    (need,) = secret_needs(load_fleet(tmp_path), environ={"L2TPGEN_COOKIE_KEY": "x" * 16})
    assert (need.variable, need.purposes, need.state) == (
        "L2TPGEN_COOKIE_KEY",
        ("cookie-key",),
        "set",
    )


def test_validate_warns_for_each_missing_variable_and_still_exits_0() -> None:
    result = runner.invoke(app, ["validate", "--sites", PROTECTED], env=_env())
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    tail = "is not set (needed by site-a, site-b); `l2tpgen secrets` says what each variable is for"
    assert warnings == [
        f"warning: environment variable L2TPGEN_IKE_PSK {tail}",
        f"warning: environment variable L2TPGEN_L2TP_SECRET {tail}",
    ]
    set_all = _env(L2TPGEN_IKE_PSK=MASTER, L2TPGEN_L2TP_SECRET=L2TP)
    quiet = runner.invoke(app, ["validate", "--sites", PROTECTED], env=set_all)
    assert "warning" not in quiet.stderr


def test_validate_json_lists_the_unset_variables() -> None:
    env = _env(L2TPGEN_IKE_PSK=MASTER)
    result = runner.invoke(app, ["validate", "--sites", PROTECTED, "--format", "json"], env=env)
    assert [s["variable"] for s in json.loads(result.stdout)["secrets"]] == ["L2TPGEN_L2TP_SECRET"]


def test_revealing_for_a_push_names_every_missing_variable_at_once() -> None:
    fleet = load_fleet(PROTECTED)
    masked = render_site(fleet, "site-a")
    with pytest.raises(SecretError) as caught:
        reveal(masked, {"L2TPGEN_L2TP_SECRET": "bad?secret"})
    message = str(caught.value)
    assert "L2TPGEN_IKE_PSK is not set" in message
    assert "L2TPGEN_L2TP_SECRET holds `?` or a quote" in message
    assert "bad?secret" not in message
    assert "--reveal-secrets" not in message  # push has no such option
    assert "`l2tpgen secrets`" in message


def test_render_alone_offers_to_leave_out_reveal_secrets() -> None:
    args = ["render", "site-a", "--sites", PROTECTED, "--reveal-secrets"]
    result = runner.invoke(app, args, env=_env())
    assert result.exit_code == 1
    assert "or leave out --reveal-secrets" in result.stderr
