"""Secrets a router holds as type 6 are compared by presence: nobody can derive their text.

With ``password encryption aes`` IOS stores and shows pre-shared keys (``pre-shared-key 6 ...``
in a keyring; on releases that extend it, ``key 6 ...`` and ``password 6 ...``) encrypted with
the router's own master key (``key config-key password-encrypt``), which the running config never
shows (Cisco, "Encrypted Preshared Key", https://www.cisco.com/c/en/us/td/docs/ios-xml/ios/
sec_conn_ikevpn/configuration/12-4/sec-ike-for-ipsec-vpns-12-4-book/sec-encrypt-preshare.html).
l2tpgen renders the key itself; compared by text, every key looked changed and every push re-sent
every key, for ever (issue 33 item 7). Type 7 can be decoded and is compared by value
(``class_versions``); type 6 cannot, so where the router holds a type 6 secret in the place the
intended config sets one (the same parent lines, the same command words: ``secret_grammar``),
the intended line becomes the router's and nothing is sent.

The price: on such a router a changed key (a new master key in the environment, a pair's key
derived anew) is not seen. docs/security.md ("Type 6 keys") says how to send it anyway.
"""

from __future__ import annotations

from l2tpgen.ios.secret_grammar import secret_command_words, secret_spans

Place = tuple[str, ...]
_SHOWN = 3  # places a note names


def is_type6(line: str) -> bool:
    """Whether ``line`` holds a secret written as type 6 (``pre-shared-key 6 ...``)."""
    _, spans = secret_spans(line)
    if not spans:
        return False
    before = line[: spans[0][0]].split()
    return bool(before) and before[-1] == "6"


def secret_places(lines: list[str]) -> list[tuple[str, Place | None]]:
    """Each line with, for a secret-bearing one, its place: its parent lines and command words."""
    parents: list[tuple[int, str]] = []
    out: list[tuple[str, Place | None]] = []
    for line in lines:
        depth = len(line) - len(line.lstrip(" "))
        while parents and parents[-1][0] >= depth:
            parents.pop()
        words = secret_command_words(line)
        out.append((line, None if words is None else (*(p for _, p in parents), words)))
        parents.append((depth, line.strip()))
    return out


def keep_type6(running: str, intended: str) -> tuple[str, tuple[Place, ...]]:
    """``intended`` with the router's type 6 lines where it sets a secret in their place.

    Returns the text and the places kept (for a note; never a value).
    """
    theirs = {
        place: line.strip()
        for line, place in secret_places(running.splitlines())
        if place is not None and is_type6(line)
    }
    out: list[str] = []
    kept: list[Place] = []
    for line, place in secret_places(intended.splitlines()):
        if place is not None and place in theirs and not is_type6(line):
            kept.append(place)
            out.append(line[: len(line) - len(line.lstrip(" "))] + theirs[place])
        else:
            out.append(line)
    text = "\n".join(out) + ("\n" if intended.endswith("\n") else "")
    return text, tuple(kept)


def type6_note(kept: tuple[Place, ...]) -> tuple[str, ...]:
    """The note a plan carries when it kept type 6 secrets (what, where; never a value)."""
    if not kept:
        return ()
    shown = "; ".join(" > ".join(place) for place in kept[:_SHOWN])
    more = " ..." if len(kept) > _SHOWN else ""
    return (
        (
            f"{len(kept)} secret(s) the router holds as type 6 (`password encryption aes`) kept "
            f"as they are ({shown}{more}): l2tpgen cannot read type 6, so a changed key is not "
            "sent; docs/security.md (Type 6 keys) says how to send one"
        ),
    )
