"""The outage notes of protection changes: where each one starts (``l2tpgen.device.outage``).

IPsec must match at both ends of a pseudowire (docs/security.md, "Adding protection to a running
pair"): from the first line that makes one end differ from its peer until the peer has the same
change, the pair is down. Inputs are renderings of the repository's sites and the example hub;
every expected line is written by hand.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from builders import both_ends, copy_example
from conftest import SITES

from l2tpgen import load_fleet, render_site
from l2tpgen.device.outage import outage_notes, pair_outage
from l2tpgen.device.plan import plan_change

if TYPE_CHECKING:
    from l2tpgen.model import Fleet

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
ENV = {
    "L2TPGEN_L2TP_SECRET": "l2tp-secret",
    "L2TPGEN_COOKIE_KEY": "cookie-key-for-tests",
    "L2TPGEN_IKE_PSK": "Psk-for-tests-only-7",
}


def _static_sites(directory: Path, extra: str) -> Fleet:
    """The repository's pair with static sessions (and ``extra`` appended to each site file)."""
    static = both_ends("signaling: dynamic, pmtu: true, df_bit: true", "signaling: static")
    copy_example(SITES, directory.parent, *static, name=directory.name)
    for file in directory.glob("*.yaml"):
        file.write_text(file.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return load_fleet(directory)


def test_a_static_pair_gaining_ipsec_is_down_from_its_first_mtu_change_not_the_crypto_map(
    tmp_path: Path,
) -> None:
    clear = _static_sites(tmp_path / "clear", "")
    protected = _static_sites(tmp_path / "ipsec", "protection: {mode: ipsec}\n")
    before = render_site(clear, "site-a", reveal_secrets=True, environ=ENV)
    after = render_site(protected, "site-a", reveal_secrets=True, environ=ENV)

    plan = plan_change(protected.site("site-a"), before, after)

    first = plan.send.index(" no mtu 1454")  # the subinterfaces change before the crypto map
    assert first < plan.send.index(" crypto map l2tpgen")
    assert plan.send[first - 1] == "interface GigabitEthernet0/0.2996"
    (note,) = plan.notes
    assert f"`interface GigabitEthernet0/0.2996` / `no mtu 1454` (line {first + 1} of" in note
    assert "not only from the crypto map line" in note
    assert pair_outage(plan.notes)


def test_a_changed_transform_set_on_a_protected_pair_gives_an_outage_note() -> None:
    fleet = load_fleet(HUB)
    intended = render_site(fleet, "hub", reveal_secrets=True, environ=ENV)
    running = re.sub(r"aes-gcm-128", "aes-gcm-256", intended).replace("esp-gcm 128", "esp-gcm 256")

    plan = plan_change(fleet.site("hub"), running, intended)

    (note,) = plan.notes
    assert "alters the IPsec parameters of a protected pair" in note
    assert "until each peer has been pushed the same change" in note
    assert pair_outage(plan.notes)


def test_a_change_that_leaves_protection_alone_has_no_outage_note() -> None:
    send = ("interface GigabitEthernet0/0.10", " description l2tpgen: VLAN 10 x to y")
    assert outage_notes(send, "GigabitEthernet0/0") == ()
    assert not pair_outage(())
