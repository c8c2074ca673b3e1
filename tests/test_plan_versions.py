"""What the mutation run of ``device/plan.py`` found untested (issue 26): old class versions, the
diff's exact text, and where the shared interfaces' lines go.

Unused versions of the model's classes (left by an earlier push that stopped before it removed
them) are removed, pseudowire-classes first; a version foreign configuration still names stays.
"""

from __future__ import annotations

from conftest import SITES

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change

ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}
FLEET = load_fleet(SITES)
SITE_A = FLEET.site("site-a")
WANT = render_site(FLEET, "site-a", reveal_secrets=True, environ=ENV)
OLD_PW = (
    "pseudowire-class ethernet-0a0b0c\n encapsulation l2tpv3\n protocol l2tpv3 class1-0d0e0f\n"
    " ip local interface GigabitEthernet0/1\n!\n"
)
OLD_L2TP = "l2tp-class class1-0d0e0f\n authentication\n!\n"


def test_unused_old_versions_of_both_classes_are_removed_pseudowire_class_first() -> None:
    plan = plan_change(SITE_A, OLD_L2TP + OLD_PW + WANT, WANT)
    assert plan.send == ("no pseudowire-class ethernet-0a0b0c", "no l2tp-class class1-0d0e0f")


def test_an_unused_l2tp_class_version_goes_even_when_no_pseudowire_class_version_does() -> None:
    plan = plan_change(SITE_A, OLD_L2TP + WANT, WANT)
    assert plan.send == ("no l2tp-class class1-0d0e0f",)


def test_a_version_a_foreign_xconnect_names_stays_with_the_l2tp_class_it_names() -> None:
    foreign = "interface GigabitEthernet0/2\n xconnect 10.9.9.9 77 pw-class ethernet-0a0b0c\n!\n"
    plan = plan_change(SITE_A, OLD_L2TP + OLD_PW + WANT + foreign, WANT)
    assert plan.empty, plan.send


def test_an_l2tp_class_version_a_foreign_manual_xconnect_says_hello_with_stays() -> None:
    foreign = (
        "interface GigabitEthernet0/2\n"
        " xconnect 10.9.9.9 77 encapsulation l2tpv3 manual pw-class other\n"
        "  l2tp hello class1-0d0e0f\n!\n"
    )
    plan = plan_change(SITE_A, OLD_L2TP + WANT + foreign, WANT)
    assert plan.empty, plan.send


NEW_SECRET = {"L2TPGEN_L2TP_SECRET": "n3w"}


def test_the_diff_shows_each_line_removed_kept_or_added_and_a_changed_secret_as_changed() -> None:
    new = render_site(FLEET, "site-a", reveal_secrets=True, environ=NEW_SECRET)
    running = WANT.replace(" hold-queue 2048 in\n", "")
    plan = plan_change(SITE_A, running, new)
    assert plan.diff("site-a") == (
        "--- site-a (running, the part l2tpgen owns)\n"
        "+++ site-a (intended)\n"
        "@@ l2tp-class class1 @@\n"
        "- password 7 <masked>\n"
        " l2tp-class class1\n"
        "  authentication\n"
        "+ password 7 <masked: changed>\n"
        "@@ interface GigabitEthernet0/0 @@\n"
        " interface GigabitEthernet0/0\n"
        "+ hold-queue 2048 in\n"
        "  hold-queue 2048 out\n"
        "@@ interface GigabitEthernet0/1 @@\n"
        " interface GigabitEthernet0/1\n"
        "+ hold-queue 2048 in\n"
        "  hold-queue 2048 out\n"
    )


def test_a_section_only_the_intended_side_has_is_shown_whole_as_added() -> None:
    running = WANT.replace(
        "interface GigabitEthernet0/0.2999\n", "interface GigabitEthernet0/0.2990\n"
    )
    diff = plan_change(SITE_A, running, WANT).diff("site-a")
    assert "@@ interface GigabitEthernet0/0.2999 @@\n+interface GigabitEthernet0/0.2999\n" in diff
    assert "@@ interface GigabitEthernet0/0.2990 @@\n-interface GigabitEthernet0/0.2990\n" in diff


def test_the_shared_interfaces_lines_go_before_the_classes_edited_in_place() -> None:
    """Step 2 (the LAN trunk's and the WAN's lines) before step 3 (l2tp-classes)."""
    new = render_site(FLEET, "site-a", reveal_secrets=True, environ=NEW_SECRET)
    running = WANT.replace(" hold-queue 2048 in\n", "")
    send = plan_change(SITE_A, running, new).send
    assert [line for line in send if not line.startswith(" ")] == [
        "interface GigabitEthernet0/0",
        "interface GigabitEthernet0/1",
        "l2tp-class class1",
    ]


def test_an_old_version_the_owned_xconnects_still_use_is_replaced_and_removed() -> None:
    """The owned subinterfaces' own xconnects are not foreign: their old class version goes."""
    running = OLD_L2TP + OLD_PW + WANT.replace("pw-class ethernet\n", "pw-class ethernet-0a0b0c\n")
    plan = plan_change(SITE_A, running, WANT)
    assert plan.send[-2:] == ("no pseudowire-class ethernet-0a0b0c", "no l2tp-class class1-0d0e0f")
    assert " xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet" in plan.send


def test_an_unchanged_secret_copied_into_a_new_class_version_is_not_marked_changed() -> None:
    running = WANT.replace(" authentication\n", " authentication\n hello 30\n")
    diff = plan_change(SITE_A, running, WANT).diff("site-a")
    assert "@@ l2tp-class class1-" in diff
    assert "+ password 7 <masked>\n" in diff
    assert "<masked: changed>" not in diff
