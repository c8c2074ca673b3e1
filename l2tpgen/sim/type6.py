"""Type 6 pre-shared keys: what a router with `password encryption aes` shows for a keyring key.

Cisco, "Encrypted Preshared Key" (IOS 12.4T configuration guide, https://www.cisco.com/c/en/us/td/
docs/ios-xml/ios/sec_conn_ikevpn/configuration/12-4/sec-ike-for-ipsec-vpns-12-4-book/
sec-encrypt-preshare.html): with `password encryption aes` (and a master key set by `key config-key
password-encrypt`, which the running config never shows), pre-shared keys are stored and shown as
type 6, encrypted with the master key; the guide's examples show keys typed in clear coming back
as `... 6 <ciphertext>`, and turning the feature on converts the keys already there. Whoever reads
the running config cannot recover the key, nor compare it with another: the simulator writes a
fresh random ciphertext each time a key is entered (the salt IOS adds is [U]: what matters is that
one key has many spellings), and keeps no way back.
"""

from __future__ import annotations

import secrets
import string

from l2tpgen.sim.config import Config, Line

ENABLED = "password encryption aes"
_ALPHABET = string.ascii_letters + "[]^_`"
_KEYRING_PEER = "peer "


def ciphertext(length: int) -> str:
    """A type 6 string for a key of ``length`` characters (random: never the same twice)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(24 + 2 * length))


def stored(words: list[str]) -> list[str]:
    """A keyring peer's ``pre-shared-key [local|remote] [0|6] KEY`` as type 6 shows it.

    A key typed as type 6 is kept as typed; ``hex`` keys stay as they are ([U]).
    """
    at = 2 if len(words) > 2 and words[1] in {"local", "remote"} else 1  # noqa: PLR2004
    rest = words[at:]
    if not rest or rest[0] in {"6", "hex"}:
        return words
    key = rest[1:] if rest[0] == "0" else rest
    if not key:
        return words
    return [*words[:at], "6", ciphertext(len(" ".join(key)))]


def applies(running: Config, mode: str, words: list[str]) -> bool:
    """Whether a line typed in ``mode`` is a keyring key the router stores as type 6."""
    return (
        mode == "ikev2-keyring-peer"
        and words[:1] == ["pre-shared-key"]
        and running.find(ENABLED) is not None
    )


def convert_all(running: Config) -> None:
    """Turning the feature on: every keyring key already there becomes type 6."""
    for top in running.lines:
        if not top.text.startswith("crypto ikev2 keyring "):
            continue
        for peer in top.children:
            if peer.text.startswith(_KEYRING_PEER):
                peer.children[:] = [_converted(line) for line in peer.children]


def _converted(line: Line) -> Line:
    words = line.text.split()
    if words[:1] != ["pre-shared-key"]:
        return line
    return Line(" ".join(stored(words)), line.key, line.children, line.seq)
