"""Where IOS prints a secret: the rows of ``secret_commands.SECRET_COMMANDS`` found in a line.

``mask_secrets`` (``l2tpgen.secrets``) masks every value a row matches, in every output (text,
JSON, SARIF of ``diff``, ``push``, ``rollback``, ``lint``); ``secret_free_no`` turns a row's
``no`` line into the form that names no value, so an old secret is never typed
(``device.plan``); ``secret_command_words`` names a secret-bearing line's command (type 6).
"""

from __future__ import annotations

import re

from l2tpgen.ios.secret_commands import SECRET_COMMANDS, SecretCommand

# A word every row's line holds (`key` of pre-shared-key, `auth` of authentication, `psk` of
# wpa-psk, `snmp-server` of a host's community, ...): a line without any is no secret's, and
# most lines of a config are skipped on this one look (substrings, faster than a regex).
_NEEDED = (
    "password", "secret", "key", "cookie", "community", "auth", "md5", "passphrase", "psk",
    "snmp-server",
)  # fmt: skip
# Free text (descriptions, remarks, aliases) may say "key" or "password" and holds no secret.
# So do AAA method lists, a line's login list and SNMP's trap list (`authentication` there names
# no secret).
_FREE_TEXT = re.compile(
    r"^[-+]?\s*(?:no\s+)?(?:description|remark|alias|banner|aaa\s+authentication|"
    r"login\s+authentication|snmp-server\s+enable\s+traps)\s",
    re.IGNORECASE,
)
_LEAD = re.compile(r"^(?P<indent>[-+]?\s*)(?P<no>no\s+)?")


def secret_spans(line: str) -> tuple[SecretCommand | None, list[tuple[int, int]]]:
    """The row that matches ``line`` and the spans of its secrets (``None, []``: no secret).

    The rows are tried where the command starts (after indentation, a diff's ``+``/``-`` and
    ``no``), then wherever one of the rows' first keywords starts inside the line (a line IOS
    echoes in an error, a line a message quotes), in table order; the catch-all last.
    """
    low = line.lower()
    if not any(word in low for word in _NEEDED) or _FREE_TEXT.match(line):
        return None, []
    lead = _LEAD.match(line)
    starts = [lead.end() if lead else 0]
    starts += [m.start() for m in _KEYWORDS.finditer(line) if m.start() > starts[0]]
    text = line.rstrip("\r\n")
    # The commands' own rows wherever they start, then the catch-all on the whole line.
    tries = [(start, row) for start in starts for row in _rows_at(text, start)]
    for start, row in [*tries, (starts[0], SECRET_COMMANDS[-1])]:
        found = row.regex().match(text[start:])
        if found is None:
            continue
        spans = sorted(
            (start + found.start(g), start + found.end(g))
            for g in ("v", "w")
            if g in found.re.groupindex and found.group(g) is not None
        )
        return row, spans
    return None, []


def secret_free_no(line: str) -> str | None:
    """A ``no`` line of a secret-bearing command in a form that types no secret, or None.

    ``  no pre-shared-key local 0 OLD`` becomes ``  no pre-shared-key local``. ``None`` when the
    line is no ``no`` line, holds no secret, or IOS's ``no`` form needs the value (the caller must
    then not send it).
    """
    lead = _LEAD.match(line)
    if lead is None or not lead.group("no"):
        return None
    row, spans = secret_spans(line)
    if row is None or not spans:
        return None
    if "[U]: IOS's no form names" in row.no_form or row.no_form.startswith("the same line"):
        return None
    found = row.regex().match(line[lead.end() :])
    assert found is not None  # noqa: S101 - secret_spans matched it
    return f"{lead.group('indent')}no {found.group('cmd')}"


def secret_command_words(line: str) -> str | None:
    """A secret-bearing line's command words without ``no`` (``pre-shared-key local``), or None."""
    row, spans = secret_spans(line)
    if row is None or not spans:
        return None
    lead = _LEAD.match(line)
    found = row.regex().match(line[lead.end() if lead else 0 :])
    return None if found is None else " ".join(found.group("cmd").lower().split())


_KEYWORDS = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(
        sorted(
            {re.escape(w) for row in SECRET_COMMANDS[:-1] for w in row.first_words()},
            key=len,
            reverse=True,
        )
    )
    + r")\b",
    re.IGNORECASE,
)
# The rows by the word they start with: a row is tried only where its word starts (table order).
_BY_FIRST: dict[str, tuple[SecretCommand, ...]] = {}
for _row in SECRET_COMMANDS[:-1]:
    for _word in _row.first_words():
        _BY_FIRST[_word] = (*_BY_FIRST.get(_word, ()), _row)
_WORD = re.compile(r"\S+")


def _rows_at(text: str, start: int) -> tuple[SecretCommand, ...]:
    found = _WORD.match(text, start)
    return _BY_FIRST.get(found.group().lower(), ()) if found is not None else ()
