"""Shared pieces of the benchmarks: simulated routers, and timing calls.

The simulated routers run in their own process, with latency; a call is timed once, best of
several, alternating between the things compared, or for its peak memory.
"""

from __future__ import annotations

import gc
import os
import secrets
import signal
import subprocess
import sys
import time
import tracemalloc
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


def once(function: Callable[[], object]) -> float:
    """Wall time of one call, starting from a collected heap."""
    gc.collect()
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def best(function: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` calls."""
    return min(once(function) for _ in range(repeat))


def best_alternating(repeat: int, *functions: Callable[[], object]) -> list[float]:
    """Best wall time of ``repeat`` calls of each function, the functions called in turn.

    Alternating lets the noise of a shared machine hit all alike: the ratios are what to read.
    """
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(repeat):
        for function, runs in zip(functions, times, strict=True):
            runs.append(once(function))
    return [min(runs) for runs in times]


def peak(function: Callable[[], object]) -> float:
    """The peak of memory allocated during one call, in MB."""
    gc.collect()
    tracemalloc.start()
    function()
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 2**20
