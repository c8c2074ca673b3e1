"""Learning a host key into a known_hosts file (``l2tpgen.device.accept_new``), without SSH."""

from __future__ import annotations

import base64
import hashlib
import multiprocessing
import os
import threading
import time
from typing import TYPE_CHECKING, Any

import paramiko
import pytest

from l2tpgen.device.accept_new import fingerprint, known_hosts_name, learn
from l2tpgen.device.connection import require_known_hosts
from l2tpgen.device.inventory import Target
from l2tpgen.device.known_hosts import check_known_hosts
from l2tpgen.errors import HostKeyError

if TYPE_CHECKING:
    from pathlib import Path


def _key() -> paramiko.PKey:
    return paramiko.ECDSAKey.generate()


def test_a_host_on_port_22_is_written_bare_and_on_another_port_in_brackets() -> None:
    # sshd(8), SSH_KNOWN_HOSTS FILE FORMAT: "[hostname]:port" for a non-standard port.
    assert known_hosts_name("rtr-a.example.net", 22) == "rtr-a.example.net"
    assert known_hosts_name("10.0.0.1", 2222) == "[10.0.0.1]:2222"


def test_the_fingerprint_is_ssh_keygens_sha256_form() -> None:
    key = _key()
    digest = base64.b64encode(hashlib.sha256(key.asbytes()).digest()).decode()
    assert fingerprint(key) == "SHA256:" + digest.rstrip("=")
    assert "=" not in fingerprint(key)


def test_many_workers_learning_at_once_leave_one_whole_line_each(tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    keys = {f"[127.0.0.1]:{2000 + n}": _key() for n in range(40)}
    start = threading.Barrier(len(keys))

    def work(host: str, key: paramiko.PKey) -> None:
        start.wait()
        learn(known, host, key)

    threads = [threading.Thread(target=work, args=item) for item in keys.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = {f"{host} {key.get_name()} {key.get_base64()}" for host, key in keys.items()}
    assert set(known.read_text().splitlines()) == expected
    assert len(known.read_text().splitlines()) == len(keys)
    check_known_hosts(known)


def test_the_same_key_learned_twice_is_written_once(tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    key = _key()
    assert learn(known, "10.0.0.1", key) is not None
    assert learn(known, "10.0.0.1", key) is None
    assert len(known.read_text().splitlines()) == 1


def test_an_entry_written_meanwhile_with_another_key_is_refused_and_kept(tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    first = _key()
    learn(known, "[10.0.0.1]:2222", first)
    before = known.read_bytes()
    with pytest.raises(HostKeyError, match=r"already holds another key for it"):
        learn(known, "[10.0.0.1]:2222", _key())
    assert known.read_bytes() == before


def test_a_hashed_entry_counts_as_an_entry(tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    key = _key()
    hashed = paramiko.HostKeys.hash_host("10.0.0.1")
    known.write_text(f"{hashed} {key.get_name()} {key.get_base64()}\n")
    with pytest.raises(HostKeyError):
        learn(known, "10.0.0.1", _key())
    assert learn(known, "10.0.0.1", key) is None


def test_workers_racing_to_learn_one_host_write_one_line_and_refuse_the_other_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each read of the file is made slow, so that without the lock every worker would read it
    # before any had written (and all would append).
    load = paramiko.HostKeys.load

    def slow_load(self: paramiko.HostKeys, filename: str) -> None:
        load(self, filename)
        time.sleep(0.02)

    monkeypatch.setattr(paramiko.HostKeys, "load", slow_load)
    known = tmp_path / "known_hosts"
    keys = [_key() for _ in range(20)]
    start = threading.Barrier(len(keys))
    refused: list[HostKeyError] = []

    def work(key: paramiko.PKey) -> None:
        start.wait()
        try:
            learn(known, "[10.0.0.1]:2222", key)
        except HostKeyError as exc:
            refused.append(exc)

    threads = [threading.Thread(target=work, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(known.read_text().splitlines()) == 1
    assert len(refused) == len(keys) - 1


def _learn_or_refuse(known: Path, key: paramiko.PKey, start: Any) -> None:  # noqa: ANN401
    """A process of its own: learn ``key`` for one host; exit 0 if written, 1 if refused."""
    start.wait()
    try:
        learn(known, "[10.0.0.1]:2222", key)
    except HostKeyError:
        os._exit(1)
    os._exit(0)


def test_processes_racing_to_learn_one_host_write_one_line_and_refuse_the_other_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/push.md: "the workers of one run (and other l2tpgen processes) append under an
    # exclusive lock of the file". Processes, not threads: a lock inside one process would not do.
    load = paramiko.HostKeys.load

    def slow_load(self: paramiko.HostKeys, filename: str) -> None:
        load(self, filename)
        time.sleep(0.05)

    monkeypatch.setattr(paramiko.HostKeys, "load", slow_load)  # inherited by the forks
    known = tmp_path / "known_hosts"
    forks = multiprocessing.get_context("fork")
    start = forks.Barrier(6)
    processes = [
        forks.Process(target=_learn_or_refuse, args=(known, _key(), start)) for _ in range(6)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
        if process.is_alive():
            process.kill()  # never left behind
    codes = [-1 if process.exitcode is None else process.exitcode for process in processes]
    assert sorted(codes) == [0, 1, 1, 1, 1, 1]  # -1: still running after a minute
    assert len(known.read_text().splitlines()) == 1
    check_known_hosts(known)


@pytest.mark.parametrize("accept_new", [True, False])
def test_a_known_hosts_path_that_is_a_directory_is_named_as_one(
    tmp_path: Path, *, accept_new: bool
) -> None:
    # Before: "no known_hosts file ...; run again with --accept-new-host-keys", even with it.
    target = Target("site-a", "127.0.0.1", 2201, "cisco_ios", tmp_path, accept_new)
    with pytest.raises(HostKeyError) as caught:
        require_known_hosts(target)
    assert f"known_hosts path {tmp_path} is a directory, not a file" in str(caught.value)
    assert "--accept-new-host-keys" not in str(caught.value)
