#!/usr/bin/env bash
# Mutation testing with mutmut 3 (settings: [tool.mutmut] in pyproject.toml). Not part of CI: a
# full run takes hours on 2 cores; run it on the modules you changed.
#
#   scripts/mutation.sh                         # every configured module, one after another
#   scripts/mutation.sh mtu model.checks        # some of them (names under l2tpgen., globs work)
#   MUTATION_JOBS=2 scripts/mutation.sh mtu     # more test processes (default 1, niced)
#   scripts/mutation.sh --scores                # only the table of the results so far
#
# mutmut copies the package into ./mutants, makes each mutant, and runs only the tests (of
# pyproject's selection) that reach the mutated function. Results are kept in ./mutants: a second
# run re-tests only what changed. Then: `.venv/bin/mutmut show NAME` prints one mutant's diff,
# `.venv/bin/mutmut browse` walks the survivors. The last lines printed are the score per module.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
if ! "$bin/python" -c "import mutmut" 2>/dev/null; then
    echo "mutmut is not installed: .venv/bin/pip install -e '.[mutation]'" >&2
    exit 2
fi
if [ "${1:-}" = "--scores" ]; then
    set --
elif [ "$#" -eq 0 ]; then
    set -- mtu model.checks lint.rules device.plan device.push
fi
# The NetBox tests of the selection replay recorded answers; their live halves must not reach a
# NetBox that is up here (CI's, or a developer's): mutants would reset its database mid-run.
export L2TPGEN_NETBOX_ENV=/nonexistent/netbox.env
unset L2TPGEN_NETBOX_URL L2TPGEN_NETBOX_TOKEN
for module in "$@"; do
    echo "== mutating l2tpgen.$module"
    # mutmut exits 1 when mutants survive: that is a result, not a failure of the run
    nice -n 10 "$bin/mutmut" run --max-children "${MUTATION_JOBS:-1}" "l2tpgen.$module*" \
        >/dev/null || true
done
"$bin/mutmut" results --all true | "$bin/python" -c '
import collections, sys

counts = collections.defaultdict(collections.Counter)
for line in sys.stdin:
    name, _, status = line.strip().rpartition(": ")
    if name:
        counts[name.rsplit(".", 1)[0]][status] += 1
print("%-32s %7s %9s %6s %6s" % ("module", "killed", "survived", "other", "score"))
for module, c in sorted(counts.items()):
    killed = c["killed"] + c["timeout"] + c["caught by type check"]
    checked = sum(n for s, n in c.items() if s not in ("not checked", "skipped"))
    if not checked:
        continue
    survived = c["survived"]
    print(
        "%-32s %7d %9d %6d %5.1f%%"
        % (module, killed, survived, checked - killed - survived, 100 * killed / checked)
    )
'
