"""The IPv6 race of issue 27, reproduced: a tunnel bound to a loopback address just added.

In one VM boot (``l2tpgen.lab.engines.qemu.run_script``), ROUNDS times each: a fresh network
namespace with
IPv6 on, ``lo`` up, then one ``ip -batch`` that adds ``2001:db8:ff::1/128`` to ``lo`` and at once
``l2tp add tunnel ... encap ip local 2001:db8:ff::1``, as the rendered Linux script does; once
without ``nodad`` and once with it. (Separate ``ip`` processes leave the kernel's DAD work item
time to run in between: 0 of 20 failed that way here, at load 13.) With ``--load N`` the host
runs N busy loops meanwhile (the emulated CPU then gets less time, as on a loaded CI runner).
Prints how many tunnel adds failed each way, and the kernel's message.

    .venv/bin/python bench/lab_ipv6_dad.py --rounds 100 --load 4
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import time

from l2tpgen.lab.engines.qemu import run_script

ROUNDS = 100


def _spin(until: float) -> None:
    while time.monotonic() < until:
        pass


def script(rounds: int) -> str:
    """Guest lines: ``rounds`` tries without nodad, then with it, one namespace each."""
    ip = "/sbin/ip"
    lines = ["export PATH=/sbin:/bin"]
    for flag in ("", " nodad"):
        tag = "nodad" if flag else "dad"
        lines += [
            f"fail=0; i=0; while [ $i -lt {rounds} ]; do i=$((i + 1)); n={tag}$i",
            f"  {ip} netns add $n",
            f"  {ip} netns exec $n sysctl -qw net.ipv6.conf.all.disable_ipv6=0",
            f"  {ip} netns exec $n sysctl -qw net.ipv6.conf.lo.disable_ipv6=0",
            f"  {ip} -n $n link set lo up",
            # the tunnel's remote, reachable at once (nodad): only the local address races
            f"  {ip} -n $n addr add 2001:db8:ff::2/128 dev lo nodad",
            # one `ip -batch`, as the lab runs a node's commands and a boot script may: the
            # tunnel is added microseconds after the address, in the same process
            f"  echo 'addr add 2001:db8:ff::1/128 dev lo{flag}' >/tmp/batch",
            (
                "  echo 'l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 encap ip "
                "local 2001:db8:ff::1 remote 2001:db8:ff::2' >>/tmp/batch"
            ),
            (
                f"  {ip} -n $n -batch /tmp/batch 2>/tmp/err || "
                "{ fail=$((fail + 1)); cp /tmp/err /tmp/last; }"
            ),
            f"  {ip} netns del $n",
            "done",
            f'echo "RESULT {tag} $fail/{rounds} $(cat /tmp/last 2>/dev/null)"; rm -f /tmp/last',
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run it and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--load", type=int, default=0, help="busy loops on the host meanwhile")
    args = parser.parse_args()
    until = time.monotonic() + 600
    spinners = [multiprocessing.Process(target=_spin, args=(until,)) for _ in range(args.load)]
    for spinner in spinners:
        spinner.start()
    try:
        run = run_script(script(args.rounds), timeout=600)
    finally:
        for spinner in spinners:
            spinner.terminate()
    for line in re.findall(r"^RESULT .*$", run.output, re.MULTILINE):
        print(line.removeprefix("RESULT "))
    print(f"VM {run.seconds:.1f} s, load {args.load}")


if __name__ == "__main__":
    main()
