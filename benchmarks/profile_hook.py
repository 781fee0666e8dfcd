"""Where a warm PreToolUse call spends its time, at one knowledge size.

For each scenario of run_hook_bench.py: the index buckets the call reads
(records, bytes), how many items it scores and why the ineligible ones are
out (the gate that removed them); then a cProfile of ``inject.handle`` in
process, and ``-X importtime`` of the hook as hooks.json runs it (the
slowest imports, self time, median of several runs).

    python3 benchmarks/profile_hook.py [--size 10000] [--calls 200] [--top 12]
"""

import argparse
import collections
import cProfile
import io
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run_hook_bench import HOOK, PY, SCENARIOS, Knowledge  # noqa: E402

from forewarn import index, inject, relevance  # noqa: E402
from forewarn.toolcall import ToolCall  # noqa: E402


def hook_data(k, scenario):
    tool, tool_input = k.inputs[scenario]
    return {"session_id": "profile", "transcript_path": k.transcript, "cwd": k.project, "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input}


def candidates(k, scenario):
    """Print the buckets read and the gates of the scored items for one scenario."""
    data = hook_data(k, scenario)
    idx, _state = index.open_fresh(k.project, rebuild=False)
    try:
        call = ToolCall(data, k.project)
        header = idx.header
        keys = relevance.candidate_keys(call, 0.7, header.get("keyword_words"), header.get("tool_prefixes", ()))
        print("%s: header %d bytes of marshal, %d buckets in its directory" % (scenario, _header_bytes(k), len(header["buckets"])))
        for key in keys or ():
            entry = header["buckets"].get(key)
            if entry:
                print("  bucket %-32s %5d records %8d bytes" % (key, len(idx.bucket(key)), index.unpack_entry(entry)[1]))
        verdicts = relevance.evaluate(idx, call, 0.7, lambda: "")
        gates = collections.Counter("eligible" if v.gate is None else v.gate.split(" ")[0] + " gate" for v in verdicts)
        print("  scored %d items: %s" % (len(verdicts), ", ".join("%s %d" % kv for kv in gates.most_common())))
    finally:
        idx.close()


def _header_bytes(k):
    with open(k.index_path, "rb") as handle:
        return int.from_bytes(handle.read(16)[8:12], "little")


def profile(k, scenario, calls, top):
    data = hook_data(k, scenario)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(calls):
        inject.handle(dict(data, session_id="profile-%d" % i))
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    print("cProfile of %d in-process calls, %s, by own time:" % (calls, scenario))
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip() and "Ordered by" not in line and "List reduced" not in line))


def importtime(k, scenario, runs, top):
    """Self time of each import the hook adds to ``python -S -c pass`` (median over ``runs``), the slowest first."""

    def selfs(cmd, stdin):
        found = collections.defaultdict(list)
        for _ in range(runs):
            err = subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=k.env).stderr.decode()
            for line in err.splitlines()[1:]:
                if line.startswith("import time:"):
                    own, _cumulative, name = line[len("import time:"):].split("|")
                    found[name.strip()].append(int(own))
        return found

    bare = selfs([PY, "-S", "-X", "importtime", "-c", "pass"], b"")
    added = {name: v for name, v in selfs([PY, "-S", "-X", "importtime", HOOK], k.payload(scenario)).items() if name not in bare}
    medians = sorted(((statistics.median(v), name) for name, v in added.items()), reverse=True)
    print("-X importtime of the hook, %s: %d modules beyond python -S -c pass, %.1f ms of self time in all (medians of %d runs); the slowest:"
          % (scenario, len(medians), sum(m for m, _ in medians) / 1000, runs))
    for own, name in medians[:top]:
        print("  %7.0f us  %s" % (own, name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="forewarn-profile-")
    try:
        k = Knowledge(work, args.size)
        k.build_warm_index()
        with k.in_process():
            for scenario in SCENARIOS[:3]:
                candidates(k, scenario)
            print()
            for scenario in SCENARIOS[:3]:
                profile(k, scenario, args.calls, args.top)
                print()
        importtime(k, "matching Write", 25, args.top)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
