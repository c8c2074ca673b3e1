"""`l2tpgen hosts SITE`: the host settings of each stretched VLAN, from the model.

The field example (``examples/field``) has the field report's path: 10 Gb/s, 55 ms RTT, 1 % loss,
stated once in dc-a.yaml, and a VLAN of each workload. The sysctl output is read as ``sysctl -p``
reads it, and, where ``sysctl`` is installed, by ``sysctl`` itself without writing anything.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.mtu import Encapsulation, Esp, overhead_budget

runner = CliRunner()
FIELD = ROOT / "examples" / "field"
MIB = 1 << 20
PROC_SYS = Path("/proc/sys")
NOBODY = "65534"


def _hosts(*args: str) -> Any:  # noqa: ANN401 - parsed JSON
    result = runner.invoke(app, ["hosts", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _vlan(report: dict[str, Any], vlan: int) -> dict[str, Any]:
    return next(v for v in report["vlans"] if v["vlan"] == vlan)


def _value(vlan: dict[str, Any], setting: str) -> str | None:
    return next((i["value"] for i in vlan["items"] if i["setting"] == setting), None)


def _max(triple: str | None) -> int:
    assert triple is not None
    return int(triple.split()[2])


def test_hosts_prints_every_stretched_vlan_of_the_site_with_what_it_carries() -> None:
    result = runner.invoke(app, ["hosts", "dc-a", "--sites", str(FIELD)])
    assert result.exit_code == 0, result.output
    for header in (
        "VLAN 310 corosync to dc-b: carries cluster-heartbeat",
        "VLAN 320 vmotion to dc-b: carries live-migration",
        "VLAN 330 nfs to dc-b: carries storage",
        "VLAN 340 servers to dc-b: carries general (not stated)",
    ):
        assert header in result.stdout
    assert "path: 10 Gb/s, 55 ms RTT, 1 % loss (stated in " in result.stdout


def test_a_10_gbit_55_ms_1_pct_link_gives_at_least_64_mib_buffers_and_bbr() -> None:
    migration = _vlan(_hosts("dc-a", "--sites", str(FIELD)), 320)
    assert _max(_value(migration, "net.ipv4.tcp_rmem")) >= 64 * MIB
    assert _max(_value(migration, "net.ipv4.tcp_wmem")) >= 64 * MIB
    assert int(_value(migration, "net.core.rmem_max") or 0) >= 64 * MIB
    assert _value(migration, "net.ipv4.tcp_congestion_control") == "bbr"
    assert _value(migration, "net.core.default_qdisc") == "fq"
    assert _value(migration, "migration streams") == "several"


def test_the_buffer_advice_shows_the_bandwidth_delay_product_formula() -> None:
    result = runner.invoke(app, ["hosts", "dc-a", "--sites", str(FIELD), "--vlan", "330"])
    assert "BDP = 10 Gb/s x 55 ms / 8 = 68 750 000 B" in result.stdout
    assert "max = 2 x BDP rounded up to a power of two MiB = 256 MiB" in result.stdout
    # MSS 1384 (ESP-protected path, see below): 1384 x 8 / 55 ms x 1.22 / 0.1 = 2.46 Mb/s
    assert "sqrt(loss 0.01) = 2.46 Mb/s < bandwidth 10 Gb/s" in result.stdout


def test_host_mtu_and_mss_are_the_pseudowires_budget_from_mtu_py() -> None:
    # Two Cisco PEs, dynamic, no cookie, the dot1Q tag carried, on a 1500-byte WAN, protected
    # (public addresses) by ESP transport AES-GCM-128: 1458 clear, 34 bytes less with ESP
    # (ESP header 8 + IV 8 + pad length/next header 2 + ICV 16; 1448 is already 4-aligned).
    budget = overhead_budget(1500, Encapsulation.IP, 0, sublayer=False, dot1q=True, esp=Esp())
    for vlan in _hosts("dc-a", "--sites", str(FIELD))["vlans"]:
        assert vlan["inner_mtu"] == budget.max_inner_mtu == 1458 - 34
        assert _value(vlan, "host MTU") == "1424"
        assert _value(vlan, "TCP MSS") == str(budget.tcp_mss)


def test_a_static_pair_with_a_cookie_and_sequencing_gets_its_smaller_mtu(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(FIELD, sites)
    for name in ("dc-a", "dc-b"):
        path = sites / f"{name}.yaml"
        path.write_text(
            path.read_text().replace(
                "pseudowire_class: {name: ethernet}",
                "pseudowire_class: {name: ethernet, signaling: static, cookie: 8, "
                "sequencing: both}",
            )
        )
    budget = overhead_budget(1500, Encapsulation.IP, 8, sublayer=True, dot1q=True, esp=Esp())
    vlan = _vlan(_hosts("dc-b", "--sites", str(sites)), 340)
    assert vlan["inner_mtu"] == budget.max_inner_mtu == 1446 - 34  # ESP as above


def test_heartbeat_vlans_get_udp_buffers_and_a_netmtu_no_larger_than_the_inner_mtu() -> None:
    heartbeat = _vlan(_hosts("dc-a", "--sites", str(FIELD)), 310)
    for key in ("rmem_default", "rmem_max", "wmem_default", "wmem_max"):
        assert _value(heartbeat, f"net.core.{key}") == str(25 * MIB)
    assert int(_value(heartbeat, "corosync totem.netmtu") or 0) <= heartbeat["inner_mtu"]
    assert "rx 4096" in (_value(heartbeat, "vmxnet3 receive rings") or "")
    assert _value(heartbeat, "ethernetX.emuRxMode") == "1"


def test_the_far_end_gets_the_same_advice_from_a_link_stated_only_at_the_near_end() -> None:
    near, far = _hosts("dc-a", "--sites", str(FIELD)), _hosts("dc-b", "--sites", str(FIELD))
    assert [v["items"] for v in near["vlans"]] == [v["items"] for v in far["vlans"]]
    assert {v["link_stated_in"] for v in far["vlans"]} == {str(FIELD / "dc-a.yaml")}
    assert _vlan(far, 320)["carries_stated_in"] == str(FIELD / "dc-a.yaml")
    assert _vlan(near, 320)["carries_stated_in"] == str(FIELD / "dc-a.yaml")
    assert _vlan(far, 340)["carries_stated_in"] is None


def test_every_item_comes_with_its_reason_and_the_numbers_it_came_from() -> None:
    for vlan in _hosts("dc-a", "--sites", str(FIELD))["vlans"]:
        for item in vlan["items"]:
            assert item["reason"], item
            assert item["basis"], item


def test_a_site_without_a_link_still_gets_mtu_and_mss_and_is_told_what_to_add() -> None:
    result = runner.invoke(app, ["hosts", "site-a", "--sites", str(SITES)])
    assert result.exit_code == 0, result.output
    assert [line[:9] for line in result.stdout.splitlines() if line.startswith("VLAN ")] == [
        f"VLAN {vlan}" for vlan in (2996, 2997, 2998, 2999)
    ]
    assert result.stdout.count("host MTU = 1458") == 4
    assert "add `link: {bandwidth: 10Gbit, rtt_ms: 55, loss: 0.01}`" in result.stdout
    assert "tcp_rmem" not in result.stdout
    assert "tcp_congestion_control" not in result.stdout


def test_vlan_narrows_the_advice_and_an_unknown_vlan_is_an_error() -> None:
    report = _hosts("dc-a", "--sites", str(FIELD), "--vlan", "320", "--vlan", "310")
    assert [v["vlan"] for v in report["vlans"]] == [310, 320]
    result = runner.invoke(app, ["hosts", "dc-a", "--sites", str(FIELD), "--vlan", "999"])
    assert result.exit_code == 1
    assert "dc-a stretches no VLAN 999 (its VLANs: 310, 320, 330, 340)" in result.stderr


def test_an_unknown_site_is_an_error_with_a_suggestion() -> None:
    result = runner.invoke(app, ["hosts", "dc-c", "--sites", str(FIELD)])
    assert result.exit_code == 1
    assert "no site named dc-c" in result.stderr


def test_a_site_file_path_works_as_the_site_argument() -> None:
    report = _hosts(str(FIELD / "dc-b.yaml"))
    assert report["site"] == "dc-b"


def test_help_lists_the_hosts_command() -> None:
    assert "hosts" in runner.invoke(app, ["--help"]).stdout
    result = runner.invoke(app, ["hosts", "--help"])
    assert result.exit_code == 0
    assert "sysctl" in result.stdout


# --- the sysctl file -----------------------------------------------------------------------


def _sysctl(*args: str) -> str:
    result = runner.invoke(app, ["hosts", *args, "--format", "sysctl"])
    assert result.exit_code == 0, result.output
    return result.stdout


def parse_like_sysctl_p(text: str) -> list[tuple[str, str]]:
    """Settings as procps' ``sysctl -p`` reads a file (``parse_setting_line``).

    A line shorter than two characters is skipped, leading blanks are stripped, ``#`` and ``;``
    start comments; otherwise the line is ``key = value`` around its first ``=``, both stripped.
    A line without ``=`` is "invalid syntax" to sysctl: here it fails the test.
    """
    settings = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.lstrip()
        if len(line) < 2 or line[0] in "#;":  # sysctl's own rule
            continue
        key, equals, value = line.partition("=")
        assert equals, f"line {number}: invalid syntax for sysctl -p: {raw!r}"
        settings.append((key.strip(), value.strip()))
    return settings


def test_the_sysctl_file_reads_as_the_json_settings_each_key_once() -> None:
    settings = parse_like_sysctl_p(_sysctl("dc-a", "--sites", str(FIELD)))
    merged = _hosts("dc-a", "--sites", str(FIELD))["sysctl"]
    assert dict(settings) == merged
    assert len({key for key, _ in settings}) == len(settings)
    assert ("net.ipv4.tcp_congestion_control", "bbr") in settings
    # The larger value wins: TCP's 256 MiB over the heartbeat VLAN's 25 MiB.
    assert ("net.core.rmem_max", str(256 * MIB)) in settings
    assert ("net.core.rmem_default", str(25 * MIB)) in settings


def test_the_sysctl_file_names_its_site_and_vlans_in_comments_only() -> None:
    text = _sysctl("dc-a", "--sites", str(FIELD), "--vlan", "310")
    assert "# site dc-a, VLAN 310\n" in text
    for line in text.splitlines():
        assert line == "" or line.startswith("#") or re.fullmatch(r"[a-z0-9_.]+ = \S.*", line)


def test_a_site_without_a_link_gets_a_file_with_mtu_probing_only() -> None:
    settings = parse_like_sysctl_p(_sysctl("site-a", "--sites", str(SITES)))
    assert settings == [("net.ipv4.tcp_mtu_probing", "1")]


needs_proc_sys = pytest.mark.skipif(
    not (PROC_SYS / "net" / "core" / "rmem_max").is_file(),
    reason="no host-wide /proc/sys/net here (not Linux, or a network namespace without them)",
)


@needs_proc_sys
@pytest.mark.parametrize("site", ["dc-a", "dc-b"])
def test_every_key_of_the_sysctl_file_exists_under_proc_sys(site: str) -> None:
    for key, _ in parse_like_sysctl_p(_sysctl(site, "--sites", str(FIELD))):
        assert (PROC_SYS / key.replace(".", "/")).is_file(), key


def _unprivileged(command: list[str]) -> list[str]:
    """``command`` run so that it cannot change the host: as nobody when we are root.

    The sysctl calls below only read (``-n KEY``) or take ``--dry-run``; dropping to nobody makes
    sure that even a sysctl that ignored ``--dry-run`` could not write a key.
    """
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running sysctl as root could write: no setpriv to run it as nobody")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]


SYSCTL = shutil.which("sysctl")


@needs_proc_sys
@pytest.mark.skipif(SYSCTL is None, reason="no sysctl on this machine")
def test_sysctl_itself_knows_every_key_and_reads_the_file_without_writing() -> None:
    assert SYSCTL is not None
    text = _sysctl("dc-a", "--sites", str(FIELD))
    settings = parse_like_sysctl_p(text)
    keys = [key for key, _ in settings]
    read = subprocess.run(
        _unprivileged([SYSCTL, "-n", *keys]), capture_output=True, text=True, check=False
    )
    assert read.returncode == 0, read.stderr
    assert len(read.stdout.splitlines()) == len(keys)
    usage = subprocess.run([SYSCTL, "--help"], capture_output=True, text=True, check=False)
    if "--dry-run" not in usage.stdout:
        pytest.skip("this sysctl has no --dry-run: the keys were checked by reading them only")
    dry = subprocess.run(
        _unprivileged([SYSCTL, "--dry-run", "-p", "-"]),
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines() == [f"{key} = {value}" for key, value in settings]
