"""Every block of ``show configuration lock`` is read, in IOS's and IOS-XE's formats (issue 33).

The lock was read as one block (its last field of each name won) and IOS-XE's ``Config Session
Lock`` section was ignored. Each output below is quoted verbatim from genieparser's test fixtures
(the only published captures with more than one block), commit named per fixture:

- [IOS] CiscoTestAutomation/genieparser,
  ``src/genie/libs/parser/ios/tests/ShowConfigurationLock/cli/equal/golden_output_output.txt``
  (commit d04698902702554fab7c18d30315fa0a15b84afd): four ``Parser Configure Lock`` blocks,
  a held lock first, a free one second, then a held one in the long format (``Session idle
  state``, ``Lock Expiration timer``), then one more;
- [XE] the same repository,
  ``src/genie/libs/parser/iosxe/tests/ShowConfigurationLock/cli/equal/golden_output_output.txt``
  (commit 865aa9255ba4cf7447c97bac618fa672627ca555): a ``Config Session Lock`` section with two
  owners and no ``Parser Configure Lock`` section;
- [XE-BOTH] ``.../iosxe/tests/ShowConfigurationLock/cli/equal/golden_output_optional_output.txt``
  (same commit): one ``Config Session Lock`` owner, then a ``Parser Configure Lock`` section
  with two owners, both ``LOCKED``; its classic-IOS twin
  ``.../ios/tests/ShowConfigurationLock/cli/equal/golden_output_optional_output.txt``
  (commit d04698902702554fab7c18d30315fa0a15b84afd) is the same text unindented.

genieparser's own parser for them (``src/genie/libs/parser/iosxe/show_config.py``) keys every
entry by its ``Owner PID`` within its section, which is what ``locks`` does.
"""

from __future__ import annotations

import pytest

from l2tpgen.device.exclusive import held_by, lock_refusal, locks

IOS_FOUR_BLOCKS = """Parser Configure Lock
---------------------
Owner PID : 3
User : unknown
TTY : 0
Type : EXCLUSIVE
State : LOCKED
Class : EXPOSED
Count : 1
Pending Requests : 0
User debug info : configure terminal

Parser Configure Lock
---------------------
Owner PID : -1
User : unknown
TTY : -1
Type : NO LOCK
State : FREE
Class : unknown
Count : 0
Pending Requests : 0
User debug info :

Parser Configure Lock
------------------------------------------------------
Owner PID                         : 3
User                              : unknown
TTY                               : 0
Type                              : EXCLUSIVE
State                             : LOCKED
Class                             : EXPOSED
Count                             : 1
Pending Requests                  : 0
User debug info                   : configure terminal
Session idle state                : TRUE
No of exec cmds getting executed  : 0
No of exec cmds blocked           : 0
Config wait for show completion   : FALSE
Remote ip address                 : Unknown
Lock active time (in Sec)         : 6
Lock Expiration timer (in Sec)    : 593

Parser Configure Lock
Owner PID        :  10
User             :  User1
TTY              :  3
Type             :  EXCLUSIVE
State            :  LOCKED
Class            :  Exposed
Count            :  0
Pending Requests :  0
User debug info  :  0
            """

XE_SESSION_LOCKS = """            Config Session Lock
            ---------------------
            Owner PID   : 578
            TTY number  : 2
            TTY username    : testuser
            User debug info : CLI Session Lock
            Lock Active time (in Sec)   : 17
            Owner PID   : 5781
            TTY number  : 21
            TTY username    : testuser1
            User debug info : CLI Session Lock
            Lock Active time (in Sec)   : 171
            """

XE_BOTH = """            Config Session Lock
            ---------------------
            Owner PID   : 578
            TTY number  : 2
            TTY username    : testuser
            User debug info : CLI Session Lock
            Lock Active time (in Sec)   : 17
            Parser Configure Lock
            Owner PID           : 10
            User                :   User1
            TTY                 :   3
            Type                :   EXCLUSIVE
            State               :   LOCKED
            Class               :   Exposed
            Count               :   0
            Pending Requests    :   0
            User debug info     :   0
            Owner PID           : 11
            User                : User11
            TTY                 : 31
            Type                : EXCLUSIVE
            State               : LOCKED
            Class               : Exposed
            Count               : 0
            Pending Requests    : 0
            User debug info     : 0
            """

PARSER = "exclusive configuration mode: locked by"
SESSION = "config session lock held by"
FREE_BLOCK = (
    "Parser Configure Lock\n---" + IOS_FOUR_BLOCKS.split("\n\nParser Configure Lock\n---")[1]
)


def test_every_block_and_every_owner_is_an_entry_in_the_order_printed() -> None:
    assert [(lock.block, lock.get("Owner PID")) for lock in locks(IOS_FOUR_BLOCKS)] == [
        ("Parser Configure Lock", "3"),
        ("Parser Configure Lock", "-1"),
        ("Parser Configure Lock", "3"),
        ("Parser Configure Lock", "10"),
    ]
    assert [(lock.block, lock.get("Owner PID")) for lock in locks(XE_BOTH)] == [
        ("Config Session Lock", "578"),
        ("Parser Configure Lock", "10"),
        ("Parser Configure Lock", "11"),
    ]
    assert [lock.get("TTY username") for lock in locks(XE_SESSION_LOCKS)] == [
        "testuser",
        "testuser1",
    ]


def test_a_held_lock_followed_by_a_free_block_is_still_held() -> None:
    # The last-wins reading took the free block's `State : FREE` and saw no lock at all.
    held_then_free = IOS_FOUR_BLOCKS.split("\n\nParser Configure Lock\n---")[:2]
    text = "\n\nParser Configure Lock\n---".join(held_then_free)
    assert text.rstrip().endswith("User debug info :")  # the free block is last
    assert held_by(text) == f"{PARSER} User unknown, TTY 0, Owner PID 3"


def test_a_lock_held_in_the_second_block_is_found_after_a_session_lock() -> None:
    # IOS-XE: the Config Session Lock section first, the exclusive lock's holder in the 2nd.
    assert held_by(XE_BOTH) == (
        f"{SESSION} TTY username testuser, TTY number 2, Owner PID 578, User debug info CLI "
        f"Session Lock; {PARSER} User User1, TTY 3, Owner PID 10; {PARSER} User User11, TTY 31, "
        "Owner PID 11"
    )


def test_iosxe_config_session_locks_alone_name_each_owner() -> None:
    held = held_by(XE_SESSION_LOCKS)
    assert held.count(SESSION) == 2
    assert "TTY username testuser, TTY number 2, Owner PID 578" in held
    assert "TTY username testuser1, TTY number 21, Owner PID 5781" in held


def test_the_same_holder_printed_twice_is_named_once() -> None:
    # [IOS] prints PID 3's lock in the short and the long format: one holder, and PID 10.
    assert held_by(IOS_FOUR_BLOCKS) == (
        f"{PARSER} User unknown, TTY 0, Owner PID 3; {PARSER} User User1, TTY 3, Owner PID 10"
    )


@pytest.mark.parametrize(
    "text",
    [
        FREE_BLOCK,
        "                ^\n% Invalid input detected at '^' marker.\n",
        "",
    ],
    ids=["free-block", "refused", "empty"],
)
def test_no_held_entry_names_nobody(text: str) -> None:
    assert held_by(text) == ""


def test_the_refusal_names_every_holder_and_how_to_go_on() -> None:
    message = lock_refusal(held_by(XE_BOTH), "push again")
    assert message.startswith("nothing was changed: another session holds the router's ")
    assert "User1" in message
    assert "User11" in message
    assert "testuser" in message
    assert message.endswith("push again when it has finished")


def test_many_holders_are_cut_to_three_and_counted() -> None:
    many = "Config Session Lock\n" + "".join(
        f"Owner PID : {pid}\nTTY number : {pid}\nTTY username : u{pid}\n" for pid in range(1, 6)
    )
    held = held_by(many)
    assert held.count(SESSION) == 3
    assert held.endswith("; and 2 more")
