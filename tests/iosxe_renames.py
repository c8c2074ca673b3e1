"""Where Cisco's IOS-XE native YANG names differ from the CLI's keywords: the tables
``tests/iosxe_grammar.py`` reads. Each entry says the YANG path the keyword maps to; all paths
are under /native, in IOS XE 17.18.1's modules (tests/vendor/cisco-xe-yang/).

Not listed because the walk finds them itself: ``encapsulation dot1Q N`` ->
encapsulation/dot1Q/vlan-id (Cisco-IOS-XE-interfaces; dot1Q is a container in choice
encap-choice, N its first leaf); ``ip address A M`` -> ip/address/primary/{address,mask};
``ip route P M G name N`` -> ip/route/ip-route-interface-forwarding-list[prefix,mask]/
fwd-list[fwd]/name (Cisco-IOS-XE-ip); ``interface GigabitEthernet0/0/0.100`` ->
interface/GigabitEthernet[name=0/0/0.100] (``tokens_of`` splits the name).
"""

from __future__ import annotations

# Where Cisco's node names differ from the CLI's keywords. Key: (the schema path of the node the
# keyword is read in, without list keys; the keyword). Value: the names tried in its place, in
# order: "a/b" enters container or list a (a list's keys implicit) and reads the keyword as b; a
# name prefixed with "=" reads the keyword itself as the value of the leaf named after "=".
RENAMES: dict[tuple[str, str], tuple[str, ...]] = {
    # ACEs: the CLI numbers them itself (10, 20, ...): list access-list-seq-rule, key sequence
    # implicit; permit/deny is the value of ace-rule's leaf action.
    # Cisco-IOS-XE-acl, /native/ip/access-list/extended/access-list-seq-rule/ace-rule/action
    ("ip/access-list/extended", "permit"): ("access-list-seq-rule/ace-rule/=action",),
    ("ip/access-list/extended", "deny"): ("access-list-seq-rule/ace-rule/=action",),
    # `10 permit ...`: an ACE given its sequence number enters that entry (NUMBERED).
    ("ip/access-list/extended/access-list-seq-rule", "permit"): ("ace-rule/=action",),
    ("ip/access-list/extended/access-list-seq-rule", "deny"): ("ace-rule/=action",),
    # `remark TEXT` is an entry of the same list (its leaf remark).
    ("ip/access-list/extended", "remark"): ("access-list-seq-rule/remark",),
    # The second address of an ACE is the destination: any -> dst-any; a port after the
    # destination is the destination's: eq -> dst-eq (ace-rule's leaves). `host A`: leaves host
    # and dst-host are obsolete, their successors host-address and dst-host-address
    # (Cisco-IOS-XE-acl, /native/ip/access-list/extended/access-list-seq-rule/ace-rule/...).
    ("ip/access-list/extended/access-list-seq-rule/ace-rule", "host"): (
        "host-address",
        "dst-host-address",
    ),
    ("ip/access-list/extended/access-list-seq-rule/ace-rule", "any"): ("any", "dst-any"),
    ("ip/access-list/extended/access-list-seq-rule/ace-rule", "eq"): ("src-eq", "dst-eq"),
    # `no cdp run`: leaf run is obsolete (Cisco-IOS-XE-cdp), its boolean successor is
    # /native/cdp/run-enable (SUCCESSORS finds it too; listed as the example).
    ("cdp", "run"): ("run-enable",),
    # pseudowire-class `protocol l2tpv3 CLASS` / `protocol none`: container protocol-l2tpv3,
    # leaves protocol (enum) and class-name (Cisco-IOS-XE-l2vpn,
    # /native/pseudowire-class/protocol-l2tpv3/{protocol,class-name}).
    ("pseudowire-class", "protocol"): ("protocol-l2tpv3/protocol",),
    # `mode transport` (crypto ipsec transform-set): container transport is obsolete ("OBSOLETE
    # (use mode-type transport)"), its successor is transport-choice in choice mode-type
    # (Cisco-IOS-XE-crypto, /native/crypto/ipsec/transform-set/mode/transport-choice).
    ("crypto/ipsec/transform-set/mode", "transport"): ("transport-choice",),
}
# `group N` (crypto ikev2 proposal): one empty leaf per Diffie-Hellman group, named in words
# (Cisco-IOS-XE-crypto, /native/crypto/ikev2/proposal/group/nineteen for group 19).
RENAMES.update(
    (("crypto/ikev2/proposal/group", str(number)), (word,))
    for number, word in {
        1: "one",
        2: "two",
        5: "five",
        14: "fourteen",
        15: "fifteen",
        16: "sixteen",
        19: "nineteen",
        20: "twenty",
        21: "twenty-one",
        24: "twenty-four",
    }.items()
)
# Sub-modes whose lines may begin with a list's key instead of a keyword: the list.
NUMBERED = {"ip/access-list/extended": "access-list-seq-rule"}
# The names Cisco gives an obsolete node's successor: the keyword and one of these.
SUCCESSORS = ("-option", "-choice", "-type", "-enable", "-config", "-conf")
# ACE ports: src-eq only before a destination is given.
DESTINATIONS = frozenset({"dst-any", "dst-host-address", "dest-ipv4-address", "dst-object-group"})
# String leaves the CLI always introduces with a keyword, though named otherwise: never filled
# by a bare value. ace-rule's object-group-str is `permit object-group NAME ...`.
KEYWORD_ONLY = frozenset({"object-group-str"})
# Keywords whose value is the rest of the line (the CLI's LINE argument).
REST_OF_LINE = frozenset({"description", "remark"})
