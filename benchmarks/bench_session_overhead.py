"""Whole-session overhead of forewarn inside the real Claude Code, as a ratio.

Runs the same scripted session (SessionStart, three tool calls, Stop) with
and without ``--plugin-dir <repo>``, alternating, N times each, and prints
median and p95 wall time of each and their ratio.  Uses the end-to-end
harness (tests/e2e): the pinned Claude Code binary and the scripted model.

    python benchmarks/bench_session_overhead.py [--runs 10]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "e2e"))

from claude_code import REPO as PLUGIN, Sandbox, ensure_claude, write_graph  # noqa: E402
from fake_anthropic import text_turn, tool_turn  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats import pct  # noqa: E402


def script(sandbox):
    return [
        tool_turn("Write", {"file_path": sandbox.path(".claude-plugin", "plugin.json"), "content": '{"version": "0.2.0"}\n'}),
        tool_turn("Bash", {"command": "git status --short", "description": "status"}),
        tool_turn("Read", {"file_path": sandbox.path("README.md")}),
        text_turn("Done."),
    ]



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    claude = ensure_claude()
    with tempfile.TemporaryDirectory(prefix="forewarn-session-bench-") as tmp:
        sandbox = Sandbox(claude, Path(tmp))
        with open(sandbox.path("README.md"), "w") as handle:
            handle.write("# demo\n")
        with open(os.path.join(PLUGIN, ".claude", "graphs", "forewarn_process.json")) as handle:
            import json

            write_graph(sandbox.project, json.load(handle)["nodes"])
        times = {"without forewarn": [], "with forewarn": []}
        for i in range(args.runs + 1):
            for label, plugin in (("without forewarn", None), ("with forewarn", PLUGIN)):
                start = time.perf_counter()
                result = sandbox.run("bump the version", script(sandbox), plugin_dir=plugin)
                elapsed = time.perf_counter() - start
                if result.returncode != 0:
                    raise SystemExit("session failed: " + result.stderr[-1000:])
                if i:  # the first pair warms caches
                    times[label].append(elapsed)
    base = times["without forewarn"]
    with_ = times["with forewarn"]
    print("Claude Code session (SessionStart, Write, Bash, Read, Stop), %d runs each, alternating" % args.runs)
    print("| | median s | p95 s |")
    print("|---|---:|---:|")
    for label, values in times.items():
        print("| %s | %.2f | %.2f |" % (label, statistics.median(values), pct(values, 0.95)))
    print("| ratio with / without | %.3f | %.3f |" % (statistics.median(with_) / statistics.median(base), pct(with_, 0.95) / pct(base, 0.95)))


if __name__ == "__main__":
    main()
