"""Model rules: what a VLAN carries, over the pseudowire and the path it crosses.

They read the site models (``carries`` and ``corosync_transport`` on a VLAN, ``link`` on a peers
entry, the pseudowire's MTU budget), so only ``lint`` on sites runs them. Each reports in the
file of every site it lints: at the VLAN's ``carries`` when that site states it, else at the VLAN
(the other site said it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.hosts.path import NetworkPath, rate
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import ModelRule
from l2tpgen.model.problems import Problem
from l2tpgen.workloads import corosync_transport

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.model import Fleet, Pseudowire
    from l2tpgen.model.problems import PathItem

COROSYNC_NETMTU = 1500  # totem.netmtu's default
VMOTION_MIN_BPS = 250e6  # vSphere: 250 Mb/s per concurrent long-distance vMotion


def _where(fleet: Fleet, pw: Pseudowire) -> tuple[tuple[PathItem, ...], str]:
    """The VLAN's place in its site's file, and where its workload was said if elsewhere."""
    index = next(i for i, vlan in enumerate(pw.site.vlans) if vlan.id == pw.vlan.id)
    if pw.vlan.carries is not None:
        return ("vlans", index, "carries"), ""
    return ("vlans", index), f" (as {fleet.files[pw.peer.name]} says)"


def _pseudowires(fleet: Fleet, site: str, workload: str) -> Iterator[Pseudowire]:
    return (pw for pw in fleet.pseudowires(site) if pw.carries == workload)


class HeartbeatMtuBelowCorosync(ModelRule):
    """A udp/udpu heartbeat VLAN's pseudowire carries less than Corosync's netmtu of 1500 bytes.

    ## What it does
    Warns about each stretched VLAN that `carries: cluster-heartbeat` with
    `corosync_transport: udpu` or `udp` (said at either end) when the inner MTU of its pseudowire
    is below 1500 bytes. A knet cluster (`corosync_transport: knet`, or none stated: knet is
    Corosync 3's default) gets no finding: knet probes the path MTU itself and does not send
    packets of `netmtu` bytes (corosync.conf(5): `netmtu` is mainly for UDPU and UDP,
    `knet_pmtud_interval`, `knet_mtu`). The inner MTU is the budget `l2tpgen mtu`
    and `l2tpgen hosts` print: the smaller WAN MTU of the two sites, less the L2TPv3 headers, the
    cookie, the sublayer, and the dot1Q tag when a Cisco end carries it (1458 on a 1500-byte WAN
    between two Cisco PEs). Reported in each linted site's file: at the VLAN's `carries`, or at the
    VLAN when only the other site says what it carries.

    ## Why is this bad?
    Corosync's udp and udpu transports send totem packets of up to `totem.netmtu` bytes, 1500 by
    default, whatever the path. A pseudowire
    drops a frame larger than its inner MTU without an ICMP error to the host, or fragments it
    after encapsulation: the large membership and retransmit messages of a busy cluster are the
    ones lost, which shows as "Retransmit List" messages, lost tokens and nodes fenced for nothing.

    ## Use instead
    Set `netmtu: 1458` in the `totem` section of corosync.conf on every node and restart corosync
    node by node (`netmtu` cannot change at run time; `l2tpgen hosts SITE` prints the figure),
    then switch this rule off (`--ignore L2T022`, or `ignore = ["L2T022"]` in
    `[tool.l2tpgen.lint]`). Or move the cluster to knet, which finds the path MTU itself. Or,
    where the path between the sites carries larger packets, raise `wan.mtu` at both ends:
    ```yaml
    wan: {interface: GigabitEthernet0/1, address: 198.51.100.1/29, gateway: 198.51.100.6,
          mtu: 1542}   # inner MTU 1500 between two Cisco PEs
    ```
    """

    code = "L2T022"
    name = "heartbeat-mtu-below-corosync"
    severity = Severity.WARNING

    def check(self, fleet: Fleet, site: str) -> Iterator[Problem]:
        for pw in _pseudowires(fleet, site, "cluster-heartbeat"):
            budget = pw.budget
            transport = corosync_transport(pw)
            if transport == "knet" or budget.max_inner_mtu >= COROSYNC_NETMTU:
                continue  # knet finds the path MTU itself: netmtu is not its packet size
            path, said = _where(fleet, pw)
            yield Problem(
                site,
                path,
                f"VLAN {pw.vlan.id} carries cluster-heartbeat{said} on Corosync's {transport} "
                f"transport over a pseudowire whose inner MTU is {budget.max_inner_mtu} bytes, "
                f"below its default netmtu of {COROSYNC_NETMTU}",
                f"set totem.netmtu to {budget.max_inner_mtu} on the cluster's nodes and restart "
                f"corosync node by node (`l2tpgen hosts {site}`), or move the cluster to knet, or "
                f"raise wan.mtu at both ends to {COROSYNC_NETMTU + budget.total_overhead} if the "
                "path carries it",
                code=self.code,
            )


class LiveMigrationOnLossyPath(ModelRule):
    """A live-migration VLAN crosses a path whose loss holds one TCP stream below what it needs.

    ## What it does
    Warns about each stretched VLAN that `carries: live-migration` (said at either end) when the
    pair's `link` states a loss and the most one loss-based TCP stream averages on that path is
    below 250 Mb/s (vSphere's minimum per long-distance vMotion), or below the link's bandwidth
    where that is smaller. The bound is Mathis et al.'s: MSS x 8 / RTT x 1.22 / sqrt(loss), the
    MSS from the pseudowire's inner MTU (inner MTU - 40). No link, or no loss: no finding.
    Reported in each linted site's file, as L2T022.

    ## Why is this bad?
    A live migration copies memory while the VM keeps writing to it: slower than the VM dirties
    pages, it never converges, or stuns the VM for a long switch-over. Loss-based congestion
    control cuts its window on every loss (Reno by half, Cubic by 30 %), so random loss, not the
    link's speed, sets the rate: 55 ms and 1 % loss hold one stream to about 2.5 Mb/s on a
    10 Gb/s link (the lab measured about 3 Mb/s).

    ## Use instead
    Find and remove the loss (a clean path states none):
    ```yaml
    peers:
      - {name: site-b, link: {bandwidth: 10Gbit, rtt_ms: 55}}
    ```
    Until then, BBR with fq on the hypervisors and several migration streams (`l2tpgen hosts SITE`
    lists them; BBR is not held back by random loss), then switch this rule off for the fleet.
    """

    code = "L2T023"
    name = "live-migration-on-lossy-path"
    severity = Severity.WARNING

    def check(self, fleet: Fleet, site: str) -> Iterator[Problem]:
        for pw in _pseudowires(fleet, site, "live-migration"):
            link = pw.link
            if link is None:
                continue  # no loss: the bound is infinite
            mss = pw.budget.tcp_mss
            path = NetworkPath(link.bandwidth, link.rtt_ms, link.loss)
            bound, needed = path.mathis_bps(mss), min(VMOTION_MIN_BPS, link.bandwidth)
            if bound >= needed:
                continue
            where, said = _where(fleet, pw)
            stated = fleet.files[pw.site.name if pw.site.link_to(pw.peer.name) else pw.peer.name]
            yield Problem(
                site,
                where,
                f"VLAN {pw.vlan.id} carries live-migration{said} over a path losing "
                f"{link.loss * 100:g} % of packets at {link.rtt_ms:g} ms RTT (link stated in "
                f"{stated}): one loss-based TCP stream averages at most MSS {mss} B x 8 / RTT x "
                f"1.22 / sqrt(loss) = {rate(bound)} there, below {rate(needed)}",
                f"remove the loss; until then BBR, fq and several migration streams on the "
                f"hypervisors (`l2tpgen hosts {site}`)",
                code=self.code,
            )
