"""Heartbeat advice by Corosync's transport, and what makes each setting take effect (issue 19).

Expectations worked out by hand from Corosync's, kronosnet's, the kernel's and VMware's own texts:

* corosync.conf(5), corosync/corosync ``man/corosync.conf.5``: ``transport`` "The default is knet
  (for KNET)", udpu and udp the deprecated legacy transports; ``netmtu`` "mainly for the UDPU
  (and UDP) transport", default 1500 there and 65536 for KNET; "To specify the network MTU
  manually for KNET, use the knet_mtu option"; ``knet_pmtud_interval`` (default 30 s);
  ``knet_mtu`` (0 = automatic). corosync ``exec/main.c``: ``totem.netmtu`` and
  ``totem.transport`` are read-only at run time; ``exec/totemconfig.c`` reloads
  ``totem.knet_mtu`` and ``knet_pmtud_interval`` (``corosync-cfgtool -R``, corosync-cfgtool(8):
  "reload corosync.conf").
* Buffers. kronosnet ``libknet/transport_common.c`` (``_configure_sockbuf``): every knet socket
  asks for ``KNET_RING_RCVBUFF`` = 8 388 608 B with SO_RCVBUF/SO_SNDBUF and forces it with
  SO_RCVBUFFORCE/SO_SNDBUFFORCE when capped; corosync ``exec/totemknet.c`` opens the handle
  with ``KNET_HANDLE_FLAG_PRIVILEGED``. socket(7): SO_RCVBUFFORCE lets a CAP_NET_ADMIN process
  override rmem_max; SO_RCVBUF is capped at rmem_max; rmem_default is the default of sockets
  that do not set it. So knet needs no sysctl, and rmem_default is never the fix.
  corosync ``exec/totemudp.c``: MCAST_SOCKET_BUFFER_SIZE = TRANSMITS_ALLOWED 16 x FRAME_SIZE_MAX
  65536 = 1 048 576 B (1 MiB); ``exec/totemudpu.c``: 16 x UDP_RECEIVE_FRAME_SIZE_MAX, which is
  384 x (8 x 2 x 22) + 1024 = 136 192, so 2 179 072 B, rounded up to a power of two MiB: 4 MiB.
* VMware (docs.vmware.com, VMware Cloud on AWS performance, "SplitRx mode"; VMware VROOM! blog
  "Multicast Performance on vSphere 5.0"): ``ethernetX.emuRxMode`` is supported on VMXNET3
  adapters only, for multicast receivers; the change takes effect when the VM is restarted
  (a .vmx setting: power cycle).
* Linux ``drivers/net/vmxnet3/vmxnet3_ethtool.c`` (``vmxnet3_set_ringparam``): resizing the rings
  quiesces and resets a running device, no reboot.
"""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import pytest
from builders import users_pair
from conftest import ROOT
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import FleetValidationError
from l2tpgen.hosts import HostsInputError, NetworkPath, recommend, render_sysctl

if TYPE_CHECKING:
    from pathlib import Path

MIB = 1 << 20
FIELD = ROOT / "examples" / "field"
PATH = NetworkPath(bandwidth_bps=10**10, rtt_ms=55, loss=0.01)
runner = CliRunner()

BUFFER_SYSCTLS = (
    "net.core.rmem_default",
    "net.core.wmem_default",
    "net.core.rmem_max",
    "net.core.wmem_max",
)


@pytest.mark.parametrize("transport", ["knet", None], ids=["knet-stated", "not-stated"])
def test_a_knet_cluster_gets_no_igmp_querier_no_netmtu_no_splitrx_and_no_buffer_sysctl(
    transport: str | None,
) -> None:
    advice = recommend(PATH, 1458, "cluster-heartbeat", transport)  # type: ignore[arg-type]
    assert advice.value("IGMP querier") is None
    assert advice.value("corosync totem.netmtu") is None
    assert advice.value("ethernetX.emuRxMode") is None
    for key in BUFFER_SYSCTLS:
        assert advice.value(key) is None, key
    assert advice.sysctls == ()


def test_knet_is_told_its_pmtud_finds_the_mtu_and_knet_mtu_pins_it_to_the_inner_mtu() -> None:
    advice = recommend(PATH, 1458, "cluster-heartbeat", "knet")
    item = next(a for a in advice.items if a.setting == "corosync totem.knet_mtu")
    assert item.value.startswith("0 (automatic)")
    assert "1458" in item.value
    assert "no ICMP" in item.reason
    assert any("knet_pmtud_interval" in line for line in item.basis)
    buffers = next(a for a in advice.items if a.setting == "UDP socket buffers")
    assert buffers.kind == "application"
    assert "SO_RCVBUFFORCE" in buffers.reason
    assert any("8 388 608" in line for line in buffers.basis)


def test_an_unstated_transport_is_knet_and_says_how_to_state_a_legacy_one() -> None:
    advice = recommend(None, 1458, "cluster-heartbeat")
    transport = next(a for a in advice.items if a.setting == "corosync transport")
    assert transport.value == "knet (not stated: Corosync 3's default)"
    assert any("corosync_transport: udpu" in line for line in transport.basis)
    assert recommend(None, 1458, "cluster-heartbeat", "knet").value("corosync transport") == "knet"


def test_udpu_gets_netmtu_and_rmem_max_for_its_2_mib_request_but_no_multicast_advice() -> None:
    advice = recommend(PATH, 1458, "cluster-heartbeat", "udpu")
    assert advice.value("corosync totem.netmtu") == "1458"
    assert advice.value("net.core.rmem_max") == advice.value("net.core.wmem_max") == str(4 * MIB)
    assert advice.value("net.core.rmem_default") is None
    assert advice.value("net.core.wmem_default") is None
    assert advice.value("IGMP querier") is None  # unicast
    assert advice.value("ethernetX.emuRxMode") is None  # splitRx is for multicast receivers
    basis = next(a.basis for a in advice.items if a.setting == "net.core.rmem_max")
    assert "= 2 179 072 B per socket" in basis[0]


def test_udp_gets_netmtu_rmem_max_for_its_1_mib_request_an_igmp_querier_and_splitrx() -> None:
    advice = recommend(PATH, 1458, "cluster-heartbeat", "udp")
    assert advice.value("corosync totem.netmtu") == "1458"
    assert advice.value("net.core.rmem_max") == advice.value("net.core.wmem_max") == str(MIB)
    assert advice.value("net.core.rmem_default") is None
    assert advice.value("IGMP querier") == "one per stretched VLAN"
    assert advice.value("ethernetX.emuRxMode") == "1"


def test_emurxmode_is_for_vmxnet3_adapters_only_and_needs_a_vm_power_cycle() -> None:
    item = next(
        a
        for a in recommend(PATH, 1458, "cluster-heartbeat", "udp").items
        if a.setting == "ethernetX.emuRxMode"
    )
    assert item.reason.startswith("vmxnet3 adapters only")
    assert "not for an E1000" in item.reason
    assert item.takes_effect.startswith("VM power cycle")
    assert "off and on" in item.takes_effect


def test_the_restart_each_setting_needs_is_stated() -> None:
    udp = {
        a.setting: a.takes_effect for a in recommend(PATH, 1458, "cluster-heartbeat", "udp").items
    }
    assert "restart corosync on every node" in udp["corosync totem.netmtu"]
    assert "cannot change at run time" in udp["corosync totem.netmtu"]
    assert "restart corosync" in udp["net.core.rmem_max"]
    assert "resets the NIC" in udp["vmxnet3 receive rings"]
    knet = {a.setting: a.takes_effect for a in recommend(PATH, 1458, "cluster-heartbeat").items}
    assert "corosync-cfgtool -R" in knet["corosync totem.knet_mtu"]
    assert "stop the whole cluster" in knet["corosync transport"]
    tcp = {a.setting: a.takes_effect for a in recommend(PATH, 1458, "live-migration").items}
    assert "reboot" in tcp["net.core.default_qdisc"]
    assert "new TCP connections" in tcp["net.ipv4.tcp_congestion_control"]
    assert "restart it" in tcp["net.core.rmem_max"]


@pytest.mark.parametrize("path", [PATH, None], ids=["path", "no-path"])
@pytest.mark.parametrize("transport", ["knet", "udpu", "udp", None])
@pytest.mark.parametrize("workload", ["cluster-heartbeat", "live-migration", "storage", "general"])
def test_every_item_says_what_makes_it_take_effect(
    path: NetworkPath | None, transport: str | None, workload: str
) -> None:
    for item in recommend(path, 1458, workload, transport).items:  # type: ignore[arg-type]
        assert item.takes_effect, item


def test_an_unknown_transport_is_refused() -> None:
    with pytest.raises(HostsInputError, match="choose one of: knet, udpu, udp"):
        recommend(PATH, 1458, "cluster-heartbeat", "sctp")  # type: ignore[arg-type]


def test_the_sysctl_file_says_corosync_must_restart_and_a_knet_cluster_needs_no_file() -> None:
    text = render_sysctl([recommend(PATH, 1458, "cluster-heartbeat", "udpu")])
    block = text.split("\n\n")[1]  # the comments and line of the first key
    assert block.endswith("net.core.rmem_max = 4194304")
    assert "# takes effect: sysctl -p, then restart corosync" in block
    assert "\nnet.core.rmem_default" not in text
    assert "# cluster-heartbeat (Corosync udpu) over 10 Gb/s, 55 ms RTT" in text
    knet = render_sysctl([recommend(PATH, 1458, "cluster-heartbeat")])
    assert "# nothing to change" in knet
    assert "# cluster-heartbeat (Corosync knet, not stated) over " in knet


def _field_without_transport(tmp_path: Path) -> Path:
    sites = tmp_path / "field"
    shutil.copytree(FIELD, sites)
    site = sites / "dc-a.yaml"
    site.write_text(site.read_text().replace(", corosync_transport: udp}", "}"))
    return sites


def test_hosts_gives_a_field_heartbeat_vlan_without_a_transport_knet_advice(
    tmp_path: Path,
) -> None:
    sites = _field_without_transport(tmp_path)
    result = runner.invoke(
        app, ["hosts", "dc-a", "--sites", str(sites), "--vlan", "310", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    (vlan,) = json.loads(result.stdout)["vlans"]
    settings = {item["setting"]: item for item in vlan["items"]}
    assert vlan["corosync_transport"] is None
    assert "corosync totem.knet_mtu" in settings
    assert "corosync totem.netmtu" not in settings
    assert "IGMP querier" not in settings
    assert all(item["takes_effect"] for item in vlan["items"])
    text = runner.invoke(app, ["hosts", "dc-a", "--sites", str(sites), "--vlan", "310"]).stdout
    assert "corosync transport = knet (not stated: Corosync 3's default)" in text
    assert "      when: corosync-cfgtool -R" in text


def test_hosts_reads_the_transport_stated_at_the_other_end(tmp_path: Path) -> None:
    sites = _field_without_transport(tmp_path)
    site = sites / "dc-b.yaml"
    text = site.read_text()
    assert "{id: 310, name: corosync, peer: dc-a}" in text
    site.write_text(
        text.replace(
            "{id: 310, name: corosync, peer: dc-a}",
            "{id: 310, name: corosync, peer: dc-a, corosync_transport: udpu}",
        )
    )
    result = runner.invoke(
        app, ["hosts", "dc-a", "--sites", str(sites), "--vlan", "310", "--format", "json"]
    )
    (vlan,) = json.loads(result.stdout)["vlans"]
    assert vlan["corosync_transport"] == "udpu"
    assert any(item["setting"] == "corosync totem.netmtu" for item in vlan["items"])


def test_a_transport_on_a_vlan_that_carries_no_heartbeats_is_refused_where_it_is_written(
    tmp_path: Path,
) -> None:
    # `  - {id: 10, name: users, peer: site-b, carries: storage, corosync_transport: udp}`:
    # its value `udp` starts at column 79 (where validate points, as for `carries`).
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(users_pair(tmp_path, ", carries: storage, corosync_transport: udp", ""))
    (problem,) = caught.value.problems
    assert problem.message == "VLAN 10 states corosync_transport udp but carries storage"
    assert "cluster-heartbeat" in problem.hint
    assert problem.location is not None
    assert problem.location.file.endswith("site-a.yaml")
    assert (problem.location.line, problem.location.column) == (9, 79)


def test_two_ends_stating_different_transports_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(
            users_pair(
                tmp_path,
                ", carries: cluster-heartbeat, corosync_transport: knet",
                ", corosync_transport: udpu",
            )
        )
    (problem,) = caught.value.problems
    assert problem.message.startswith(
        "VLAN 10's cluster runs corosync's knet transport here but udpu in "
    )
    assert problem.message.endswith("site-b.yaml")


def test_heartbeats_said_at_one_end_and_the_transport_at_the_other_validate(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(
        users_pair(tmp_path, ", carries: cluster-heartbeat", ", corosync_transport: udp")
    )
    (pw,) = fleet.pseudowires("site-a")
    assert pw.carries == "cluster-heartbeat"
