"""Shared pieces of the benchmarks: simulated routers in their own process, with latency."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

T = TypeVar("T")

ENV = {
    "L2TPGEN_USERNAME": "bench",
    "L2TPGEN_PASSWORD": "bench-" + secrets.token_hex(6),
    "L2TPGEN_L2TP_SECRET": "l2tp-" + secrets.token_hex(6),
}


@contextmanager
def simulators(sites: Path, inventory: Path, latency_ms: float) -> Iterator[None]:
    """`l2tpgen sim up` in a child process (its own interpreter, so its own GIL)."""
    os.environ.update(ENV)
    child = subprocess.Popen(  # noqa: S603 - our own interpreter running our own module
        [
            sys.executable,
            "-m",
            "l2tpgen",
            "sim",
            "up",
            "--sites",
            str(sites),
            "--inventory-out",
            str(inventory),
            "--latency-ms",
            str(latency_ms),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **ENV},
    )
    try:
        deadline = time.monotonic() + 120
        while not inventory.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the simulated routers did not start")
            time.sleep(0.1)
        yield
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)


def timed(label: str, function: Callable[[], T]) -> tuple[float, T]:
    """Run ``function`` once; print and return its wall time and result."""
    start = time.perf_counter()
    result = function()
    seconds = time.perf_counter() - start
    print(f"  {label:<58} {seconds:8.2f} s", flush=True)
    return seconds, result
