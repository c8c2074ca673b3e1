"""The simulated router behaves like IOS where l2tpgen and netmiko touch it (no SSH here)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import GOLDEN

from l2tpgen.ios.type7 import decode as type7_decode
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.render.classes import RENDER_SALT
from l2tpgen.sim.flavor import IOS_XE
from l2tpgen.sim.grammar import match
from l2tpgen.sim.router import INCOMPLETE, INVALID, Router
from l2tpgen.sim.storage import COPY_BUSY, WRITE_BUSY

RENDERED = (
    (GOLDEN / "render" / "site-a.ios.conf")
    .read_text()
    .replace("password 7 <L2TPGEN_L2TP_SECRET>", "password 0 s3cret")
)


@pytest.fixture
def router() -> Router:
    r = Router("lab-a-rtr1")
    assert r.load(RENDERED) == []
    return r


def _config(router: Router, *lines: str) -> list[str]:
    router.handle("configure terminal")
    return [router.handle(line) for line in lines]


def test_an_exact_keyword_wins_over_a_longer_keyword_it_abbreviates() -> None:
    pattern = "protocol (l2tpv3|l2tpv3ietf|none) [WORD]"
    assert match(pattern, ["protocol", "l2tpv3", "c1"]).words == ("protocol", "l2tpv3", "c1")
    assert match(pattern, ["pro", "l2tpv3i", "c1"]).words == ("protocol", "l2tpv3ietf", "c1")


@pytest.mark.parametrize("seed", ["0", "1", "2", "3", "4", "5"])
def test_grammar_choice_is_the_same_under_every_hash_seed(seed: str) -> None:
    # Set iteration order changes with PYTHONHASHSEED: a fresh interpreter per seed proves the
    # simulator never picks between matches by that order (it once stored l2tpv3ietf this way).
    code = (
        "from l2tpgen.sim.grammar import match;"
        "print(match('protocol (l2tpv3|l2tpv3ietf|none) [WORD]', ['protocol','l2tpv3','c']).words)"
    )
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "('protocol', 'l2tpv3', 'c')"


def test_rendered_config_loads_and_prints_back_in_running_config_form(router: Router) -> None:
    shown = router.handle("show running-config")
    assert shown.startswith("Building configuration...\n\nCurrent configuration : ")
    assert shown.endswith("end\n")
    assert (
        "interface GigabitEthernet0/0.2996\n description l2tpgen: VLAN 2996 public to site-b\n"
        " encapsulation dot1Q 2996\n" in shown
    )


def test_secrets_are_stored_as_type_7(router: Router) -> None:
    (line,) = [x for x in router.running.body().splitlines() if x.startswith(" password")]
    assert line.startswith(" password 7 ")
    assert type7_decode(line.split()[2]) == "s3cret"


def _secret(router: Router, *lines: str) -> str:
    _config(router, "l2tp-class c", *lines, "end")
    (line,) = [x for x in router.running.body().splitlines() if x.startswith((" pass", " dig"))]
    return line.split()[-1]


@pytest.mark.parametrize(
    "typed", ["password 0 s3cret", "password s3cret", "digest secret 0 s3cret"]
)
def test_a_secret_typed_in_clear_is_stored_under_the_routers_own_salt(typed: str) -> None:
    router = Router("r1", salt=11)
    stored = _secret(router, typed)
    assert stored == type7_encode("s3cret", 11)
    assert stored != type7_encode("s3cret", RENDER_SALT)


def test_a_type_7_secret_is_stored_as_typed_whatever_its_salt() -> None:
    typed = type7_encode("s3cret", 5)
    assert _secret(Router("r1", salt=11), f"password 7 {typed}") == typed


def test_routers_pick_their_salts_at_random() -> None:
    assert len({Router(f"r{n}").salt for n in range(64)}) > 1


def test_a_masked_secret_is_refused_as_an_invalid_encrypted_password(router: Router) -> None:
    out = _config(router, "l2tp-class class1", "password 7 <L2TPGEN_L2TP_SECRET>")
    assert out[-1] == "% Invalid encrypted password"


def test_invalid_input_gets_a_caret_under_the_first_bad_word(router: Router) -> None:
    router.handle("configure terminal")
    prompt = router.prompt()
    output = router.handle("interface Gi0/0 bogus")
    caret_line, message = output.split("\n")
    assert message == INVALID
    assert caret_line.index("^") == len(prompt) + len("interface Gi0/0 ")


def test_incomplete_commands_are_refused_and_not_applied(router: Router) -> None:
    before = router.running.body()
    assert _config(router, "interface Gi0/0.2996", "xconnect 10.0.0.1") == ["", INCOMPLETE]
    assert router.running.body() == before


def test_prompts_follow_the_mode(router: Router) -> None:
    assert router.prompt() == "lab-a-rtr1#"
    prompts = []
    for line in (
        "configure terminal",
        "interface Gi0/0",
        "interface Gi0/0.10",
        "xconnect 10.0.0.9 10 encapsulation l2tpv3 pw-class ethernet",
        "l2tp-class c2",
        "pseudowire-class p2",
        "end",
    ):
        router.handle(line)
        prompts.append(router.prompt())
    assert prompts == [
        "lab-a-rtr1(config)#",
        "lab-a-rtr1(config-if)#",
        "lab-a-rtr1(config-subif)#",
        "lab-a-rtr1(config-if-xconn)#",
        "lab-a-rtr1(config-l2tp-class)#",
        "lab-a-rtr1(config-pw-class)#",
        "lab-a-rtr1#",
    ]


def test_no_removes_a_subinterface_with_ios_notice_but_not_a_physical_port(router: Router) -> None:
    out = _config(router, "no interface GigabitEthernet0/0.2997", "no interface GigabitEthernet0/0")
    assert out == [
        "%Not all config may be removed and may reappear after reactivating the sub-interface",
        "% Removal of physical interfaces is not permitted",
    ]
    body = router.running.body()
    assert "GigabitEthernet0/0.2997" not in body
    assert "interface GigabitEthernet0/0\n" in body


def test_a_notice_is_not_a_refused_line_when_a_config_is_loaded(router: Router) -> None:
    assert router.load("no interface GigabitEthernet0/0.2997") == []
    assert "GigabitEthernet0/0.2997" not in router.running.body()


def test_no_and_default_forms_edit_single_settings(router: Router) -> None:
    _config(
        router,
        "interface Gi0/0",
        "no hold-queue 2048 in",
        "no cdp enable",
        "exit",
        "default interface Gi0/0.2996",
    )
    body = router.running.body()
    # `no cdp enable` typed again stays where IOS prints it, before the hold-queue (issue 26)
    assert (
        "interface GigabitEthernet0/0\n no ip address\n duplex full\n speed auto\n"
        " no cdp enable\n hold-queue 2048 out\n" in body
    )
    assert "interface GigabitEthernet0/0.2996\n!" in body


def test_a_second_xconnect_with_the_same_peer_and_vc_id_is_refused_and_not_applied(
    router: Router,
) -> None:
    out = _config(
        router,
        "interface GigabitEthernet0/1.50",
        "xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet",
    )
    assert out[1] == (
        "% Xconnect to peer 10.216.44.47 with VC ID 126 already exists on GigabitEthernet0/0.2996"
    )
    assert router.prompt() == "lab-a-rtr1(config-subif)#"  # refused: still on the subinterface
    line = router.running.find("interface GigabitEthernet0/1.50")
    assert line is not None
    assert line.children == []
    # the same VC ID to another peer, another VC ID to the same peer, the same line again: fine
    router.handle("end")
    assert (
        _config(
            router,
            "interface GigabitEthernet0/1.50",
            "xconnect 10.9.9.9 126 encapsulation l2tpv3 pw-class ethernet",
            "interface GigabitEthernet0/1.51",
            "xconnect 10.216.44.47 900 encapsulation l2tpv3 pw-class ethernet",
            "interface GigabitEthernet0/0.2996",
            "xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class ethernet",
        )
        == [""] * 6
    )


def test_flash_copy_and_configure_replace_restore_the_config(router: Router) -> None:
    before = router.running.body()
    router.handle("copy running-config flash:rb.cfg")
    assert router.prompt() == "Destination filename [rb.cfg]? "
    assert "bytes copied" in router.handle("")
    _config(router, "no interface GigabitEthernet0/0.2996", "end")
    assert router.running.body() != before
    assert router.handle("configure replace flash:rb.cfg force").endswith("Rollback Done")
    assert router.running.body() == before
    assert "rb.cfg" in router.handle("dir flash:")


def test_write_memory_copies_running_to_startup(router: Router) -> None:
    assert router.handle("show startup-config") == "startup-config is not present"
    assert router.handle("write memory").endswith("[OK]")
    assert router.handle("show startup-config") == router.handle("show running-config")


def test_enable_secret_gates_privileged_commands() -> None:
    router = Router("r1", enable_secret="en-secret")  # noqa: S106 - a test router's secret
    assert router.prompt() == "r1>"
    assert INVALID in router.handle("configure terminal")
    router.handle("enable")
    assert router.prompt() == "Password: "
    assert router.hides_input()
    router.handle("en-secret")
    assert router.prompt() == "r1#"


def test_the_simulator_hides_ios_defaults_as_show_running_config_does() -> None:
    router = Router("r1")
    for line in (
        "configure terminal",
        "l2tp-class c",
        "hello 30",
        "hello 60",  # back to the default: the line goes
        "digest secret 0 s3cret hash md5",  # md5 is the default hash: not shown
        "interface GigabitEthernet0/0",
        "hold-queue 2048 in",
        "hold-queue 75 in",
        "hold-queue 40 out",
        "end",
    ):
        router.handle(line)
    body = router.running.body()
    assert "hello" not in body
    assert "hash" not in body
    assert "hold-queue" not in body
    assert re.search(r"^ digest secret 7 \S+$", body, re.MULTILINE)


def test_each_terminal_has_its_own_mode_and_privilege_over_one_config() -> None:
    router = Router("r1", enable_secret="en-secret")  # noqa: S106 - a test router's secret
    first, second = router.open_terminal(), router.open_terminal()
    first.handle("enable")
    first.handle("en-secret")
    first.handle("configure terminal")
    first.handle("interface GigabitEthernet0/0.10")
    assert (first.prompt(), second.prompt()) == ("r1(config-subif)#", "r1>")
    second.handle("enable")
    assert second.prompt() == "Password: "
    assert first.prompt() == "r1(config-subif)#"  # the other session's question is not ours
    second.handle("en-secret")
    assert second.handle("show running-config").count("interface GigabitEthernet0/0.10\n") == 1
    assert first.handle("encapsulation dot1Q 10") == ""
    assert "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n" in router.running.body()
    second.handle("exit")
    assert second.closed
    assert not first.closed


def test_an_iosxe_router_keeps_its_files_on_bootflash_and_has_no_flash(router: Router) -> None:
    router.flavor = IOS_XE
    assert router.handle("dir").startswith("Directory of bootflash:/\n\nNo files in directory\n")
    router.handle("copy running-config bootflash:rb.cfg")
    assert router.prompt() == "Destination filename [rb.cfg]? "
    assert "bytes copied" in router.handle("")
    assert "  rb.cfg" in router.handle("dir bootflash:")
    assert router.handle("copy running-config flash:rb.cfg") == (
        "%Error opening flash:rb.cfg (No such file or directory)"
    )
    assert router.prompt() == "lab-a-rtr1#"  # refused at once: no question asked
    assert router.handle("configure replace flash:rb.cfg force") == (
        "%Error opening flash:rb.cfg (No such file or directory)"
    )
    assert router.handle("dir flash:") == "%Error opening flash: (No such file or directory)"
    assert router.handle("configure replace bootflash:rb.cfg force").endswith("Rollback Done")
    assert router.handle("delete /force bootflash:rb.cfg") == ""
    assert "No files in directory" in router.handle("dir bootflash:")


def test_a_classic_ios_router_keeps_its_files_on_flash_and_has_no_bootflash(router: Router) -> None:
    assert router.handle("dir").startswith("Directory of flash:/\n")
    assert router.handle("copy running-config bootflash:rb.cfg") == (
        "%Error opening bootflash:rb.cfg (No such file or directory)"
    )


def test_show_version_says_which_kind_of_router_it_is(router: Router) -> None:
    classic = router.handle("show version")
    assert classic.startswith("Cisco IOS Software, C2900 Software")
    assert "lab-a-rtr1 uptime is" in classic
    router.flavor = IOS_XE
    xe = router.handle("show version")
    assert xe.startswith("Cisco IOS XE Software, Version 17.")
    assert "cisco C8000V (VXE) processor" in xe
    assert 'System image file is "bootflash:packages.conf"' in xe
    assert "lab-a-rtr1 uptime is" in xe


def test_a_refused_save_says_why_and_leaves_the_startup_config_as_it_was(router: Router) -> None:
    assert router.handle("write memory").endswith("[OK]")
    saved = router.startup.body()
    router.save_fails = True
    _config(router, "no interface GigabitEthernet0/0.2997", "end")
    assert router.handle("write memory") == WRITE_BUSY
    assert WRITE_BUSY == "startup-config file open failed (Device or resource busy)"
    router.handle("copy running-config startup-config")
    assert router.prompt() == "Destination filename [startup-config]? "
    assert router.handle("") == COPY_BUSY
    assert COPY_BUSY == "%Error opening nvram:startup-config (Device or resource busy)"
    assert router.startup.body() == saved


def test_an_interface_on_a_port_the_router_lacks_is_refused(router: Router) -> None:
    router.hardware = {"GigabitEthernet0/0", "GigabitEthernet0/1"}
    router.handle("configure terminal")
    prompt = router.prompt()
    caret, message = router.handle("interface GigabitEthernet0/7.10").split("\n")
    assert message == INVALID
    assert caret.index("^") == len(prompt) + len("interface ")
    assert router.running.find("interface GigabitEthernet0/7.10") is None
    assert router.handle("interface Loopback5") == ""  # virtual interfaces are made on demand
    assert router.handle("interface GigabitEthernet0/1.10") == ""
