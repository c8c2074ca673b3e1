"""known_hosts files are checked line by line before connecting: a broken line is named."""

from __future__ import annotations

from typing import TYPE_CHECKING

import asyncssh
import pytest

from l2tpgen.device.known_hosts import check_known_hosts, line_problem
from l2tpgen.errors import HostKeyError

if TYPE_CHECKING:
    from pathlib import Path


def _public(kind: str) -> str:
    """``kind base64`` of a fresh public key."""
    exported = asyncssh.generate_private_key(kind).export_public_key("openssh").decode()
    return " ".join(exported.split()[:2])


KEYS = {kind: _public(kind) for kind in ("ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa")}


@pytest.mark.parametrize("kind", sorted(KEYS))
@pytest.mark.parametrize(
    "hosts", ["10.0.0.1", "[127.0.0.1]:2222", "rtr-a,10.0.0.1", "|1|c2FsdA==|aGFzaA=="]
)
def test_every_usual_key_and_host_form_passes(kind: str, hosts: str) -> None:
    assert line_problem(f"{hosts} {KEYS[kind]}") is None
    assert line_problem(f"{hosts}\t{KEYS[kind]} a comment") is None


def test_a_key_type_paramiko_does_not_know_is_skipped_as_paramiko_skips_it() -> None:
    assert line_problem("10.0.0.1 sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5") is None


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("garbage", "not a host key line (host names, key type, base64 key)"),
        (
            "this is not a known_hosts line",
            "not a host key line (host names, key type, base64 key)",
        ),
        ("10.0.0.1 ssh-ed25519 AAAA!!not-base64", "the ssh-ed25519 key is not valid base64"),
        (
            "10.0.0.1 " + KEYS["ssh-ed25519"][:-8],
            "the ssh-ed25519 key is cut short or has extra bytes",
        ),
        (
            "10.0.0.1 " + KEYS["ssh-ed25519"] + "AAAA",
            "the ssh-ed25519 key is cut short or has extra bytes",
        ),
        (
            "10.0.0.1 ecdsa-sha2-nistp256 " + KEYS["ssh-ed25519"].split()[1],
            "the ecdsa-sha2-nistp256 key is not a valid ecdsa-sha2-nistp256 key",
        ),
        (
            "@cert-authority *.example " + KEYS["ssh-ed25519"],
            "@cert-authority lines are not supported (plain host keys only)",
        ),
    ],
    ids=["one-word", "prose", "bad-base64", "cut", "extra", "wrong-type", "cert-authority"],
)
def test_a_malformed_line_says_what_is_wrong(line: str, problem: str) -> None:
    assert line_problem(line) == problem


def test_the_file_and_the_line_are_named_and_comments_and_blank_lines_counted(
    tmp_path: Path,
) -> None:
    known = tmp_path / "known_hosts"
    known.write_text(f"# trusted routers\n\n10.0.0.1 {KEYS['ssh-rsa']}\nnot a key line here\n")
    with pytest.raises(HostKeyError) as caught:
        check_known_hosts(known)
    assert str(caught.value) == (
        f"known_hosts file {known}, line 4: not a host key line (host names, key type, base64 "
        "key); fix or delete that line (nothing was contacted)"
    )


def test_a_file_fixed_after_a_failure_is_read_again(tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    known.write_text("garbage\n")
    with pytest.raises(HostKeyError):
        check_known_hosts(known)
    known.write_text(f"10.0.0.1 {KEYS['ssh-ed25519']}\n")
    check_known_hosts(known)


def test_a_file_that_is_not_text_or_not_there_is_named(tmp_path: Path) -> None:
    binary = tmp_path / "binary"
    binary.write_bytes(b"10.0.0.1 ssh-ed25519 \xff\xfe\n")
    with pytest.raises(HostKeyError, match=rf"{binary}, line 1: not UTF-8 text"):
        check_known_hosts(binary)
    with pytest.raises(HostKeyError, match=r"cannot read known_hosts file .*missing"):
        check_known_hosts(tmp_path / "missing")
