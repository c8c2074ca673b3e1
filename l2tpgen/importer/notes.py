"""What an import tells its user: warnings, and what the model cannot express, each located.

Notes are data (frozen, sortable), never printed here. Config text quoted in a note goes through
``redact`` first: a line such as ``ppp chap password 7 ...`` under an imported interface must not
carry its secret into a report or a site file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from l2tpgen.secrets import mask_line

if TYPE_CHECKING:
    from l2tpgen.ios.facts import At

Kind = Literal["warning", "unexpressed", "refused"]

# A word after which an IOS line carries a secret (or a hash of one).
_SECRET_WORD = re.compile(
    r"\b(?:password|secret|key|key-string|authentication-key|message-digest-key|community|"
    r"pre-shared-key|md5|sha|sha1|sha256|hash)\b",
    re.IGNORECASE,
)
MAX_QUOTED = 120


def redact(text: str) -> str:
    """Config text safe to show: secrets masked, everything after a secret-bearing word cut.

    The mask is IOS's secret grammar (``mask_line``): the words below miss `ip nhrp
    authentication X`, `standby 1 authentication X` and the like.
    """
    text = mask_line(text)
    match = _SECRET_WORD.search(text)
    if match is not None and text[match.end() :].strip():
        text = f"{text[: match.end()]} <redacted>"
    return text if len(text) <= MAX_QUOTED else f"{text[: MAX_QUOTED - 3]}..."


@dataclass(frozen=True, order=True)
class Note:
    """One thing the user should know about an import.

    ``kind``: ``warning`` (act on it: export a variable, complete a stub), ``unexpressed`` (the
    router has it, the model cannot say it; the message says what push would do about it), or
    ``refused`` (this config cannot be imported; nothing is written).
    """

    file: str
    line: int
    column: int
    kind: Kind
    message: str
    site: str = ""

    @classmethod
    def at(cls, file: str, where: At | None, kind: Kind, message: str, site: str = "") -> Note:
        """A note at a fact's position (line 0: the file as a whole)."""
        line, column = (where.line, where.column) if where is not None else (0, 0)
        return cls(file, line, column, kind, message, site)

    @property
    def where(self) -> str:
        """``file:line:column``, or the file alone, or nothing for a note about the whole run."""
        if not self.file:
            return ""
        return f"{self.file}:{self.line}:{self.column}" if self.line else self.file

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.kind}: {self.message}" if where else f"{self.kind}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        """The note as JSON."""
        return {
            "file": self.file or None,
            "line": self.line or None,
            "column": self.column or None,
            "site": self.site or None,
            "kind": self.kind,
            "message": self.message,
        }
