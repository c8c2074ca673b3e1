"""`verify` reads a kept port-mode pseudowire, and exits 1 when it is down (issue 33 item 8).

The routers are the reference case's single-trunk pair (tests/reference/before-router-*.conf:
one `xconnect` on the LAN port carries every VLAN), imported without `--vlans` so that the sites
keep it (`lan.port_xconnect: {..., action: keep}`) and have no VLAN pseudowire at all. Before,
verify looped over VLAN pseudowires only: an empty table and exit 0 whatever the trunk's state.
Down: router b's LAN port is shut (`shutdown` under the interface that holds the xconnect), so b
shows it AD (admin down) and a shows it DN, as IOS's legend names them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from builders import REFERENCE_BEFORE, import_reference
from conftest_sim import SimUp, cli_env, run_cli

if TYPE_CHECKING:
    from pathlib import Path

A, B = REFERENCE_BEFORE


def _verify(tmp_path: Path, *, shut_b: bool, fmt: str = "json") -> tuple[int, str, str]:
    sites = import_reference(tmp_path)
    env = {**cli_env(tmp_path), "L2TPGEN_L2TP_SECRET": "123456789"}
    configs = dict(REFERENCE_BEFORE)
    if shut_b:
        text = REFERENCE_BEFORE[B].read_text()
        line = " xconnect 10.197.251.215 125 encapsulation l2tpv3 pw-class ethernet\n"
        assert line in text
        configs[B] = tmp_path / "b-shut.conf"
        configs[B].write_text(text.replace(line, line + " shutdown\n"))
    inventory = tmp_path / "inventory.json"
    with SimUp(
        "--sites", str(sites), *[f"--config={s}={f}" for s, f in configs.items()],
        inventory=inventory, env=env,
    ):  # fmt: skip
        result = run_cli(
            "verify", "--all", "--sites", str(sites), "--inventory", str(inventory),
            "--format", fmt, env={**env, "COLUMNS": "200"},
        )  # fmt: skip
    return result.returncode, result.stdout, result.stderr


def _rows(stdout: str) -> list[dict[str, Any]]:
    return list(json.loads(stdout)["pseudowires"])


def test_verify_reports_a_kept_port_mode_pseudowire_that_is_up(tmp_path: Path) -> None:
    code, stdout, stderr = _verify(tmp_path, shut_b=False)
    assert code == 0, stderr
    rows = _rows(stdout)
    assert [(r["site"], r["port"], r["vc_id"], r["state"]) for r in rows] == [
        (A, True, 125, "UP"),
        (B, True, 125, "UP"),
    ]
    assert [r["interface"] for r in rows] == ["GigabitEthernet0/0"] * 2


def test_verify_exits_1_when_the_kept_port_mode_pseudowire_is_down(tmp_path: Path) -> None:
    code, stdout, stderr = _verify(tmp_path, shut_b=True)
    assert code == 1, stderr
    states = {r["site"]: (r["port"], r["state"], r["up"]) for r in _rows(stdout)}
    assert states == {A: (True, "DN", False), B: (True, "AD", False)}


def test_verify_text_names_the_port_row(tmp_path: Path) -> None:
    code, stdout, _ = _verify(tmp_path, shut_b=True, fmt="text")
    assert code == 1
    rows = [line for line in stdout.splitlines() if "port (all)" in line]
    assert len(rows) == 2, stdout
    assert any("DN" in row for row in rows)
