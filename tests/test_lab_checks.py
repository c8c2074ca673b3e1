"""Each check is a frozen value: its probes, and a judge that turns their results into a verdict.
Judged here on made-up results, so every way a check can pass or fail is pinned; and the
containerlab engine's commands, prerequisites and secrets, with a stand-in for the CLI."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from conftest import SITES

from l2tpgen import load_fleet
from l2tpgen.lab.checks import PairCheck, plan_checks
from l2tpgen.lab.checks.isolation import Isolation
from l2tpgen.lab.checks.mtu import Mtu
from l2tpgen.lab.checks.multicast import Multicast
from l2tpgen.lab.checks.reach import Reach
from l2tpgen.lab.engines.clab import clab_commands, run_containerlab
from l2tpgen.lab.engines.qemu import LabEnvironmentError
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.iol import startup_configs
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.probes import Probe, counters, ordered
from l2tpgen.lab.shaping import Shaping
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab

SNMP = "Ip: Forwarding FragOKs FragCreates\nIp: 1 {oks} {creates}\n"


def _lab(**kwargs: object) -> Lab:
    return parse_lab(build_topology(load_fleet(SITES), name="example", **kwargs))  # type: ignore[arg-type]


def _pair_checks(lab: Lab) -> list[PairCheck]:
    return [c for c in plan_checks(lab, "vm").checks if isinstance(c, PairCheck)]


def _check(kind: type, vlan: int = 2996) -> object:
    return next(c for c in _pair_checks(_lab()) if isinstance(c, kind) and c.pair.vlan == vlan)


def test_every_vlan_gets_reach_isolation_mtu_and_multicast_checks() -> None:
    checks = _pair_checks(_lab())
    assert [(type(c).__name__, c.pair.vlan) for c in checks[:4]] == [
        ("Reach", 2996),
        ("Isolation", 2996),
        ("Mtu", 2996),
        ("Multicast", 2996),
    ]
    assert len(checks) == 16


def test_listeners_start_first_and_are_collected_last_each_once() -> None:
    probes = ordered(p for c in plan_checks(_lab(), "vm").checks for p in c.probes)
    phases = [p.phase for p in probes]
    assert phases == sorted(phases, key=("start", "main", "collect").index)
    starts = [p.key for p in probes if p.phase == "start"]
    assert starts == [
        "capture.ce-site-b.2996",
        "capture.ce-site-b.2997",
        "capture.ce-site-b.2998",
        "capture.ce-site-b.2999",
        "heartbeat.receiver.ce-site-b",
    ]


def test_two_different_probes_under_one_key_are_a_bug() -> None:
    with pytest.raises(ValueError, match="share the key"):
        ordered([Probe("k", "a", "true"), Probe("k", "b", "true")])


def test_reach_passes_on_an_answered_ping_only() -> None:
    check = _check(Reach)
    assert isinstance(check, Reach)
    assert check.judge({"reach.2996": "0"}).ok
    assert not check.judge({"reach.2996": "1"}).ok
    assert not check.judge({}).ok


def _seen(own: str = "L2GP2996S00", **others: str) -> dict[str, str]:
    results = {f"seen.ce-site-b.{v}": "" for v in (2996, 2997, 2998, 2999)}
    results["seen.ce-site-b.2996"] = own
    results |= {f"seen.ce-site-b.{k}": v for k, v in others.items()}
    return results


def test_isolation_passes_when_the_tag_arrives_in_its_own_vlan_only() -> None:
    check = _check(Isolation)
    assert isinstance(check, Isolation)
    verdict = check.judge(_seen())
    assert verdict.ok, verdict.detail


def test_isolation_ignores_background_frames_that_carry_no_tag() -> None:
    check = _check(Isolation)
    assert isinstance(check, Isolation)
    # Other VLANs saw their own tags (their checks) and untagged ARP: no leak of this tag.
    assert check.judge(_seen(**{"2997": "L2GP2997S00", "2998": "L2GP2998S00"})).ok


def test_isolation_fails_when_the_tag_leaks_into_another_vlan() -> None:
    check = _check(Isolation)
    assert isinstance(check, Isolation)
    verdict = check.judge(_seen(**{"2998": "L2GP2996S00\nL2GP2998S00"}))
    assert not verdict.ok
    assert verdict.detail == "tag L2GP2996S00 leaked to ce-site-b eth1.2998"


def test_isolation_fails_when_the_tag_never_arrives() -> None:
    check = _check(Isolation)
    assert isinstance(check, Isolation)
    verdict = check.judge(_seen(own=""))
    assert not verdict.ok
    assert "never reached ce-site-b eth1.2996" in verdict.detail


def _mtu(fits: str, over: str, frag_fits: int, frag_over: int) -> dict[str, str]:
    return {
        "mtu.2996.fits": fits,
        "mtu.2996.over": over,
        "mtu.2996.snmp.before": SNMP.format(oks=0, creates=10),
        "mtu.2996.snmp.after": SNMP.format(oks=0, creates=10 + frag_fits),
        "mtu.2996.snmp.over": SNMP.format(oks=0, creates=10 + frag_fits + frag_over),
    }


@pytest.mark.parametrize(
    ("fits", "over", "frag_fits", "frag_over", "ok", "detail"),
    [
        ("0", "0", 0, 2, True, "1458 crosses unfragmented, 1459 crosses only fragmented"),
        ("0", "1", 0, 0, True, "1458 crosses unfragmented, 1459 is dropped"),
        ("0", "0", 0, 0, False, "1459 crosses unfragmented"),
        ("0", "0", 2, 2, False, "1458 does NOT cross unfragmented"),
        ("1", "1", 0, 0, False, "1458 does NOT cross unfragmented"),
    ],
    ids=["linux-fragments-over", "cisco-drops-over", "over-fits", "fits-fragments", "nothing"],
)
def test_mtu_judges_the_predicted_size_and_one_byte_more(  # noqa: PLR0917 - a table's columns
    fits: str, over: str, frag_fits: int, frag_over: int, ok: bool, detail: str
) -> None:
    check = _check(Mtu)
    assert isinstance(check, Mtu)
    verdict = check.judge(_mtu(fits, over, frag_fits, frag_over))
    assert verdict.ok is ok
    assert detail in verdict.detail


MDB = "dev br2996 port eth2.2996 grp 239.192.11.180 temp\n"


@pytest.mark.parametrize(
    ("seen", "mdb", "ok"),
    [
        ("L2GH2996S00", MDB, True),
        ("", MDB, False),
        ("L2GH2997S00", MDB, False),
        ("L2GH2996S00", "dev br2997 port eth2.2997 grp 239.192.11.181 temp\n", False),
        ("L2GH2996S00", "dev br2996 port eth2.2996 grp 239.192.11.18 temp\n", False),
    ],
    ids=[
        "received-and-learned",
        "not-received",
        "other-vlans-heartbeat",
        "not-learned",
        "prefix-group",
    ],
)
def test_multicast_needs_the_heartbeat_received_and_the_group_learned(
    seen: str, mdb: str, ok: bool
) -> None:
    check = _check(Multicast)
    assert isinstance(check, Multicast)
    results = {"heartbeat.seen.ce-site-b": seen, "mdb.pe-site-b": mdb}
    assert check.judge(results).ok is ok


def test_a_longer_group_with_the_same_prefix_is_not_the_vlans_group() -> None:
    check = _check(Multicast)
    assert isinstance(check, Multicast)
    pair = replace(check.pair, vlan=2834)  # group 239.192.11.18, a prefix of VLAN 2996's
    results = {"heartbeat.seen.ce-site-b": "L2GH2834S00", "mdb.pe-site-b": MDB}
    assert not Multicast(pair).judge(results).ok
    learned = {**results, "mdb.pe-site-b": "dev br2834 port eth2.2834 grp 239.192.11.18 temp\n"}
    assert Multicast(pair).judge(learned).ok


def test_snmp_counters_are_read_by_name_and_a_truncated_table_reads_as_empty() -> None:
    assert counters(SNMP.format(oks=3, creates=6), "Ip") == {
        "Forwarding": 1,
        "FragOKs": 3,
        "FragCreates": 6,
    }
    assert counters("Ip: Forwarding FragOKs\n", "Ip") == {}
    assert counters(SNMP.format(oks=3, creates=6), "Udp") == {}


def test_the_heartbeat_is_ttl_1_to_corosyncs_port_in_the_vlans_group() -> None:
    check = _check(Multicast, 2998)
    assert isinstance(check, Multicast)
    send = next(p for p in check.probes if p.key == "heartbeat.2998.send")
    assert "UDP4-DATAGRAM:239.192.11.182:5405," in send.command
    assert "ip-multicast-ttl=1" in send.command
    receiver = next(p for p in check.probes if p.phase == "start")
    assert "ip-add-membership=239.192.11.182:eth1.2998" in receiver.command


def test_checks_on_iol_pes_skip_what_only_a_linux_pe_can_show() -> None:
    lab = _lab(flavor="cisco_iol")
    pair = pairs(lab)[0]
    assert not pair.near_pe_linux
    assert all(p.node != "pe-site-a" for p in Mtu(pair).probes)
    multicast = Multicast(pair)
    assert multicast.judge({"heartbeat.seen.ce-site-b": "L2GH2996S00"}).ok


class FakeCli:
    """containerlab and docker as a list of the commands they were given."""

    def __init__(self, *, docker_answers: bool = True) -> None:
        self.ran: list[tuple[str, ...]] = []
        self.docker_answers = docker_answers

    def __call__(self, command: Sequence[str]) -> tuple[int, str]:
        self.ran.append(tuple(command))
        if command[:2] == ("docker", "info"):
            return (
                (0, "27.0") if self.docker_answers else (1, "Cannot connect to the Docker daemon")
            )
        return 0, "Ip: FragCreates\nIp: 0\n"


def _which(missing: str = "") -> object:
    return lambda program: None if program == missing else f"/usr/bin/{program}"


@pytest.mark.parametrize("missing", ["containerlab", "docker"])
def test_containerlab_engine_says_what_is_missing(tmp_path: Path, missing: str) -> None:
    cli = FakeCli()
    with pytest.raises(LabEnvironmentError, match=f"{missing} is not installed"):
        run_containerlab(tmp_path / "x.clab.yml", _lab(), cli, {}, _which(missing))  # type: ignore[arg-type]
    assert cli.ran == []


def test_containerlab_engine_says_when_docker_does_not_answer(tmp_path: Path) -> None:
    cli = FakeCli(docker_answers=False)
    with pytest.raises(LabEnvironmentError, match="daemon does not answer"):
        run_containerlab(tmp_path / "x.clab.yml", _lab(), cli, {}, _which())  # type: ignore[arg-type]
    assert not any(c[:2] == ("containerlab", "deploy") for c in cli.ran)


def test_containerlab_engine_deploys_shapes_probes_and_destroys_in_order(tmp_path: Path) -> None:
    cli = FakeCli()
    lab = _lab(shaping=Shaping(10, 0.5))
    path = tmp_path / "example.clab.yml"
    run_containerlab(path, lab, cli, {}, _which())  # type: ignore[arg-type]
    verbs = [c[:2] for c in cli.ran]
    assert verbs[:3] == [("docker", "info"), ("containerlab", "deploy"), ("containerlab", "tools")]
    assert verbs[-1] == ("containerlab", "destroy")
    assert cli.ran[2] == (
        "containerlab", "tools", "netem", "set", "-n", "clab-example-wan", "-i", "eth1",
        "--delay", "10ms", "--loss", "0.5",
    )  # fmt: skip
    probes = [c for c in cli.ran if c[0] == "docker" and c[1] == "exec"]
    assert probes[0][2] == "clab-example-ce-site-b"
    usual = plan_checks(lab, "containerlab").probes("usual")
    assert len(probes) == len(clab_commands(path, lab, usual).probes)


def test_iol_startup_configs_keep_the_secret_in_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", "s3cret-never-written")
    configs = startup_configs(load_fleet(SITES))
    assert set(configs) == {"site-a.partial.cfg", "site-b.partial.cfg"}
    text = configs["site-a.partial.cfg"]
    assert " password 0 ${L2TPGEN_L2TP_SECRET}\n" in text
    assert "s3cret" not in "".join(configs.values())
    assert "interface Ethernet0/1\n ip address 10.197.251.215 255.255.255.240\n" in text
    assert "interface Ethernet0/2.2996\n description l2tpgen: VLAN 2996 public to site-b\n" in text
    assert "Ethernet0/0" not in text  # containerlab's management port
    assert "GigabitEthernet" not in text
    assert "duplex" not in text
    assert "speed" not in text


def test_containerlab_engine_refuses_to_deploy_without_the_secret(tmp_path: Path) -> None:
    path = tmp_path / "example-iol.clab.yml"
    topology = build_topology(load_fleet(SITES), name="example-iol", flavor="cisco_iol")
    for name, text in startup_configs(load_fleet(SITES)).items():
        (tmp_path / name).write_text(text)
    cli = FakeCli()
    with pytest.raises(LabEnvironmentError, match="L2TPGEN_L2TP_SECRET") as caught:
        run_containerlab(path, parse_lab(topology), cli, {}, _which())  # type: ignore[arg-type]
    assert "--preserve-env=L2TPGEN_L2TP_SECRET" in str(caught.value)
    assert not any(c[:2] == ("containerlab", "deploy") for c in cli.ran)
    run_containerlab(
        path,
        parse_lab(topology),
        cli,
        {"L2TPGEN_L2TP_SECRET": "x"},
        _which(),  # type: ignore[arg-type]
    )
    assert any(c[:2] == ("containerlab", "deploy") for c in cli.ran)
