"""V048 names what differs between the two ends' control-channel authentication (issue 34).

It used to compare the method and the digest hash as one pair, the hash even beside
``authentication: password`` (where IOS has no hash to set and l2tpgen renders none), and to print
the method alone: "authentication is password here but password in site-b.yaml". Now the hash
counts only for digest, and the message shows it when it is what differs.

What the router is told decides "the same". Cisco's L2TPv3 guide (IOS 12.0(29)S/12.2(25)S,
https://www.manualshelf.com/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-88.html):
`digest [secret {0 | 7} password] [hash {md5 | sha}]`, "The default hash function is md5"; the
CHAP-style method is `authentication` + `password [0 | 7] password`, with no hash (page-30.html of
the same guide; /work/shared/docs/l2tpv3-brief.md S1 p.27-30, p.88). l2tpgen's default is sha,
written out: a digest class without ``hash`` renders ``digest secret 7 ... hash sha``, so it
equals ``hash: sha``, while ``hash: md5`` renders no hash at all (IOS's md5). The last test
renders both ends to show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import copy_example
from conftest import FLEETS
from typer.testing import CliRunner

from l2tpgen.api import load, render
from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
_CLASS = "l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}"


def _fleet(tmp_path: Path, a: str, b: str) -> Path:
    """The valid pair with ``a`` and ``b`` added to site-a's and site-b's l2tp_class."""
    return copy_example(
        FLEETS / "valid",
        tmp_path,
        ("site-a", _CLASS, f"l2tp_class: {{{a}secret_env: L2TPGEN_L2TP_SECRET}}"),
        ("site-b", _CLASS, f"l2tp_class: {{{b}secret_env: L2TPGEN_L2TP_SECRET}}"),
    )


def _validate(sites: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    return result.exit_code, result.output


def test_a_hash_beside_password_is_reported_as_stray_not_as_the_ends_differing(
    tmp_path: Path,
) -> None:
    code, out = _validate(
        _fleet(tmp_path, "authentication: password, hash: md5, ", "authentication: password, ")
    )
    assert code == 1
    assert "[V042]" in out  # the stray hash, at its line
    assert "[V048]" not in out  # both ends tell the router `authentication` + `password`
    assert "password here but password" not in out


def test_digest_ends_whose_hashes_differ_are_told_apart_by_their_hash(tmp_path: Path) -> None:
    code, out = _validate(_fleet(tmp_path, "authentication: digest, hash: md5, ", ""))
    assert code == 1
    assert (
        "site-a.yaml:6:44: error: control-channel authentication is digest (hash md5) here but "
        "digest (hash sha, the default) in " in out
    )  # located at the `hash` key that differs
    assert "[V048]" in out


def test_the_end_without_a_hash_is_told_it_uses_the_default(tmp_path: Path) -> None:
    code, out = _validate(_fleet(tmp_path, "", "hash: md5, "))
    assert code == 1
    assert "authentication is digest (hash sha, the default) here but digest (hash md5) in" in out


def test_different_methods_are_named_without_a_hash_that_does_not_matter(tmp_path: Path) -> None:
    code, out = _validate(_fleet(tmp_path, "", "authentication: password, "))
    assert code == 1
    assert "control-channel authentication is digest here but password in" in out


@pytest.mark.parametrize(
    ("a", "b"),
    [("", "hash: sha, "), ("authentication: digest, ", "authentication: digest, hash: sha, ")],
    ids=["left-out-vs-sha", "digest-left-out-vs-digest-sha"],
)
def test_no_hash_and_sha_validate_alike_and_render_the_same_digest_line(
    tmp_path: Path, a: str, b: str
) -> None:
    sites = _fleet(tmp_path, a, b)
    code, out = _validate(sites)
    assert "[V048]" not in out
    assert code == 0, out
    fleet = load(sites)

    def digest(site: str) -> list[str]:
        text = render(fleet, site).text
        return [line.strip() for line in text.splitlines() if line.strip().startswith("digest")]

    assert (
        digest("site-a") == digest("site-b") == ["digest secret 7 <L2TPGEN_L2TP_SECRET> hash sha"]
    )
