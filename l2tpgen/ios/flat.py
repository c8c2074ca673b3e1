"""What flattened text (no indentation left) needs beyond section headers: submodes and blank lines.

``l2tpgen.ios.text`` re-indents flat text from knowledge of IOS sections; this module holds the
knowledge of what continues a section. After a blank line, only a command of the open section's
own mode stays in it (``continues``). Under an interface, ``pvc 1/100 l2transport`` opens an ATM
PVC's submode, whose own commands (``encapsulation aal5``, ``xconnect ...``) belong to the PVC
(``opens_circuit``, ``in_circuit``): an interface with two PVCs keeps an xconnect under each.
"""

from __future__ import annotations

import re

from l2tpgen.ios import keywords

# The commands a section may go on with after a blank line: its own, and not those that also exist
# in global configuration (`ip ...`, `no ...` in an interface).
_AFTER_BLANK = {
    "interface": {k: v for k, v in keywords.INTERFACE.items() if v not in {"ip", "no"}},
    "pseudowire-class": keywords.PW,
    "l2tp-class": keywords.L2TP,
}
_CIRCUIT = re.compile(r"^pvc\s", re.IGNORECASE)
# An ATM PVC's own commands (ATM PVC configuration mode), as IOS abbreviates them.
_PVC = keywords.abbreviations(
    (
        "encapsulation",
        "xconnect",
        "oam-pvc",
        "oam",
        "cell-packing",
        "ubr",
        "vbr-nrt",
        "vbr-rt",
        "cbr",
        "inarp",
        "protocol",
        "class-vc",
        "ilmi",
        "vc-hold-queue",
    )
)


def continues(kind: str, text: str) -> bool:
    """Whether ``text``, after a blank line, is unambiguously a command of the open section."""
    words = text.lower().split()
    mode = _AFTER_BLANK.get(kind)
    if mode is None or mode.get(words[0]) is None:
        return False
    if kind == "pseudowire-class" and mode[words[0]] == "ip":
        # `ip pmtu`, `ip dfbit set`, `ip local interface X`; not the global `ip local pool`
        what = keywords.IP_PW.get(words[1]) if len(words) > 1 else None
        third = words[2] if len(words) > 2 else "-"  # noqa: PLR2004 - the word after `ip local`
        return what is not None and (what != "local" or "interface".startswith(third))
    return True


def opens_circuit(kind: str, text: str) -> bool:
    """Whether ``text`` opens an ATM PVC's submode under an interface."""
    return kind == "interface" and _CIRCUIT.match(text) is not None


def in_circuit(text: str) -> bool:
    """Whether ``text`` is one of an ATM PVC's own commands."""
    return text.split(" ", 1)[0].lower() in _PVC
