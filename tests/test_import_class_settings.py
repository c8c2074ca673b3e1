"""Import reads a pseudowire-class's dialect and an l2tp-class's digest, hash and secret identity.

Each case edits l2tpgen's own rendered site-a config (which imports back with no notes) in one
place and checks the site file import writes (``l2tpgen/importer/class_settings.py``).
"""

from __future__ import annotations

import pytest
from conftest import GOLDEN

from l2tpgen.importer import import_configs

RENDERED_A = (GOLDEN / "render" / "site-a.ios.conf").read_text()
RENDERED_B = (GOLDEN / "render" / "site-b.ios.conf").read_text()
AUTHENTICATION = " authentication\n password 7 <L2TPGEN_L2TP_SECRET>\n"


def _import(old: str, new: str) -> tuple[object, object, list[str]]:
    assert old in RENDERED_A
    result = import_configs([("a.cfg", RENDERED_A.replace(old, new)), ("b.cfg", RENDERED_B)])
    site = next(s for s in result.sites if s.source == "a.cfg")
    notes = [n.message for n in result.unexpressed]
    return site.data["pseudowire_class"], site.data["l2tp_class"], notes


def test_import_keeps_the_l2tpv3ietf_dialect_of_a_pseudowire_class() -> None:
    pw, _, notes = _import(" protocol l2tpv3 ", " protocol l2tpv3ietf ")
    assert pw == {"name": "ethernet", "dialect": "l2tpv3ietf"}
    assert notes == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            " digest secret 7 <L2TPGEN_L2TP_SECRET>\n",
            {"authentication": "digest", "hash": "md5", "secret_env": "L2TPGEN_L2TP_SECRET"},
            id="no-hash-is-ios-md5",
        ),
        pytest.param(
            " digest secret 7 <L2TPGEN_L2TP_SECRET> hash sha\n",
            {"authentication": "digest", "secret_env": "L2TPGEN_L2TP_SECRET"},
            id="sha-is-the-models-default",
        ),
        pytest.param(
            " digest secret 0 plaintextsecret hash md5\n",
            {"authentication": "digest", "hash": "md5", "secret_env": "L2TPGEN_L2TP_SECRET_CLASS1"},
            id="a-plain-secret-gets-a-variable-of-its-class",
        ),
    ],
)
def test_import_reads_an_l2tp_class_digest_its_hash_and_which_variable_holds_its_secret(
    line: str, expected: dict[str, object]
) -> None:
    _, l2tp, notes = _import(AUTHENTICATION, line)
    assert l2tp == {"name": "class1", **expected}
    assert notes == []


def test_import_notes_password_authentication_without_a_secret() -> None:
    _, l2tp, notes = _import(AUTHENTICATION, " authentication\n")
    assert l2tp == {
        "name": "class1",
        "authentication": "password",
        "secret_env": "L2TPGEN_L2TP_SECRET_CLASS1",
    }
    assert notes == [
        (
            "l2tp-class class1 has password authentication without a secret: push would add "
            "the one in its secret_env"
        )
    ]
