"""`verify` reads real captured show outputs (tests/realworld/show, SOURCES.md there).

The expected rows below were read off the capture files by eye, not produced by the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import SITES, TESTS
from support import ShowRouter

from l2tpgen import load_fleet
from l2tpgen.device.session import exec_batch
from l2tpgen.device.verify import XconnectRow, parse, verify_site, xconnect_rows
from l2tpgen.errors import DeviceError

if TYPE_CHECKING:
    from pathlib import Path

SHOW = TESTS / "realworld" / "show"
XCONNECT_CAPTURES = sorted(SHOW.glob("*xconnect*.txt"))


def _rows(name: str) -> list[tuple[str, str, str, str, int | None]]:
    return [
        (r.state, r.circuit, r.kind, r.peer, r.vc_id)
        for r in xconnect_rows((SHOW / name).read_text(encoding="utf-8"))
    ]


@pytest.mark.parametrize("capture", XCONNECT_CAPTURES, ids=lambda p: p.name)
def test_every_real_show_xconnect_capture_parses_to_rows(capture: Path) -> None:
    rows = xconnect_rows(capture.read_text(encoding="utf-8"))
    assert rows
    assert all(isinstance(r, XconnectRow) for r in rows)


def test_ios_xe_three_line_legend_and_detail_lines_do_not_stop_the_parse() -> None:
    # CSR1000v: `SB=Standby HS=Hot Standby RV=Recovering NH=No Hardware`, then detail lines.
    assert _rows("spcor-show-xconnect-all-detail.txt") == [
        ("UP", "Gi5.100", "mpls", "192.51.100.4", 10011)
    ]


def test_l2tp_rows_and_every_state_of_the_capture_are_read_in_either_segment() -> None:
    assert _rows("genieparser-show-xconnect-interface-1.txt") == [
        ("UP", "Gi0/0/0", "l2tp", "100.3.1.1", 101),
        ("DN", "Gi0/0/1", "mpls", "10.239.6.2", 684955608),
        ("UP", "Gi3", "mpls", "10.16.2.2", 888),  # the attachment circuit is segment 2 here
        ("IA", "", "vfi", "sample-vfi", None),
        ("UP", "Gi0/0/2", "l2tp", "192.168.1.5", 201),
        ("AD", "Gi1/0/1", "mpls", "172.16.1.1", 999),
    ]


def test_a_standby_row_without_a_second_segment_is_skipped_not_an_error() -> None:
    assert _rows("genieparser-show-xconnect-interface-3.txt") == [
        ("UP", "Gi0/0/3", "mpls", "10.1.1.1", 100)
    ]


def test_local_switching_rows_have_no_pseudowire_peer() -> None:
    assert _rows("genieparser-show-xconnect-all-2.txt") == [
        ("UP", "Se6/0", "ac", "", None),
        ("IA", "Se6/0", "mpls", "10.55.55.3", 7151),
    ]


def test_a_capture_with_an_elided_legend_still_gives_its_row() -> None:
    assert _rows("sharetai-show-xconnect-all.txt") == [("UP", "Et0/1", "mpls", "3.3.3.3", 1000)]


@pytest.mark.parametrize("state", ["HS", "RV", "NH", "SB", "--"])
def test_every_state_code_of_the_ios_xe_legend_is_read(state: str) -> None:
    row = (
        f"{state:<2} pri   ac Gi0/0.10:10(Eth VLAN)        UP l2tp 192.0.2.2:10                 DN"
    )
    assert [r.state for r in xconnect_rows(row)] == [state]


def test_a_real_l2tun_session_block_with_lost_indentation_is_read() -> None:
    rows = parse(
        "cisco_ios_show_l2tun_session_all",
        (SHOW / "mplsvpn-info-show-l2tun-session-all.txt").read_text(encoding="utf-8"),
    )
    assert [(r["SESSION_ID"], r["SESSION_UP"], r["STATE"]) for r in rows] == [
        ("20044", "up", "established")
    ]


HEADER = (
    "Legend:    XC ST=Xconnect State  S1=Segment1 State  S2=Segment2 State\n"
    "  UP=Up       DN=Down            AD=Admin Down      IA=Inactive\n"
    "  SB=Standby  HS=Hot Standby     RV=Recovering      NH=No Hardware\n\n"
    "XC ST  Segment 1                         S1 Segment 2                         S2\n"
    "------+---------------------------------+--+---------------------------------+--\n"
)


def test_verify_tells_a_missing_xconnect_from_one_to_the_wrong_peer() -> None:
    rows = (
        "UP pri   ac Gi0/0.2996:2996(Eth VLAN)    UP l2tp 10.216.44.47:126             UP\n"
        "DN pri   ac Gi0/0.2997:2997(Eth VLAN)    UP l2tp 10.216.44.99:127             DN\n"
        "UP pri   ac Gi0/0.2998:2998(Eth VLAN)    UP l2tp 10.216.44.47:999             UP\n"
    )
    states = verify_site(
        load_fleet(SITES), "site-a", ShowRouter({"show xconnect all": HEADER + rows})
    )
    assert [(s.vlan, s.state, s.detail, s.session) for s in states] == [
        (2996, "UP", "", "-"),  # the session command was refused: the table still comes
        (2997, "WRONG-PEER", "l2tp 10.216.44.99:127", "-"),
        (2998, "WRONG-PEER", "l2tp 10.216.44.47:999", "-"),
        (2999, "MISSING", "", "-"),
    ]


def test_verify_reads_both_tables_in_one_round_trip() -> None:
    router = ShowRouter({"show xconnect all": HEADER})
    verify_site(load_fleet(SITES), "site-a", router)
    assert router.written == ["show xconnect all\nshow l2tun session all\n"]


def test_verify_names_a_refused_xconnect_table_instead_of_calling_every_wire_missing() -> None:
    router = ShowRouter({"show xconnect all": HEADER})
    router.answers["show xconnect all"] = "% Authorization failed."
    with pytest.raises(DeviceError, match=r"refused `show xconnect all` \(% Authorization failed"):
        verify_site(load_fleet(SITES), "site-a", router)


class _Open:
    """An SSH channel that stays open (for ``session.alive``)."""

    closed = False
    eof_received = False

    def get_transport(self) -> _Open:
        return self

    def is_active(self) -> bool:
        return True


class _Stalls(ShowRouter):
    """A router that answers ``show xconnect all`` and then nothing more."""

    remote_conn = _Open()

    def write_channel(self, text: str) -> None:
        super().write_channel(text.split("\n", 1)[0] + "\n")


def test_a_batch_that_stalls_names_the_first_command_left_unanswered() -> None:
    router = _Stalls({"show xconnect all": HEADER})
    with pytest.raises(DeviceError) as caught:
        exec_batch(router, ["show xconnect all", "show l2tun session all"], timeout=0.05)
    assert str(caught.value) == (
        "no answer to `show l2tun session all` within 0.05 s; the router may be overloaded or "
        "the link slow: try again"
    )


def test_a_session_table_that_never_comes_leaves_the_xconnect_states_readable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("l2tpgen.device.session.SHOW_TIMEOUT", 0.05)
    rows = "UP pri   ac Gi0/0.2996:2996(Eth VLAN)    UP l2tp 10.216.44.47:126             UP\n"
    states = verify_site(load_fleet(SITES), "site-a", _Stalls({"show xconnect all": HEADER + rows}))
    assert [(s.vlan, s.state, s.session) for s in states][:2] == [
        (2996, "UP", "-"),
        (2997, "MISSING", "-"),
    ]


class _Silent(_Stalls):
    """A router that answers nothing at all."""

    def write_channel(self, text: str) -> None:
        self.written.append(text)


def test_an_xconnect_table_that_never_comes_fails_verify_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("l2tpgen.device.session.SHOW_TIMEOUT", 0.05)
    router = _Silent({"show xconnect all": HEADER})
    with pytest.raises(DeviceError, match=r"no answer to `show xconnect all` within 0\.05 s"):
        verify_site(load_fleet(SITES), "site-a", router)
