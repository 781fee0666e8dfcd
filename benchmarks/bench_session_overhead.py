"""Whole-session overhead of forewarn inside the real Claude Code, as a ratio.

Runs the same scripted session (SessionStart, a Write that gets the
version-bump checklist, a Bash call, a Read, the final answer, Stop) with and
without ``--plugin-dir <repo>``, alternating, N times each, and prints the
median and p95 wall time of each and their ratio.  Uses the end-to-end
harness (tests/e2e): the pinned Claude Code binary, installed on first use,
and the scripted model on 127.0.0.1.  One HOME and project for all runs, so
forewarn's index cache is warm after the first pair (which is not counted);
the files a session writes are removed before the next one.

    python benchmarks/bench_session_overhead.py [--runs 10]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "e2e"))
sys.path.insert(0, HERE)

from claude_code import REPO, Sandbox, Unavailable, ensure_claude, write_graph  # noqa: E402
from e2e_nodes import VERSION_BUMP, plugin_json_write  # noqa: E402
from fake_anthropic import text_turn, tool_turn  # noqa: E402
from stats import pct  # noqa: E402


def script(sandbox):
    return [
        tool_turn(*plugin_json_write(sandbox)),
        tool_turn("Bash", {"command": "git status --short", "description": "Show the working tree status"}),
        tool_turn("Read", {"file_path": sandbox.path("notes.txt")}),
        text_turn("Bumped."),
    ]


def graph_nodes():
    """The repository's own knowledge (forewarn's process graph) plus the version-bump checklist."""
    nodes = [VERSION_BUMP]
    own = os.path.join(REPO, ".claude", "graphs", "forewarn_process.json")
    if os.path.exists(own):
        with open(own, encoding="utf-8") as handle:
            nodes += [n for n in json.load(handle).get("nodes", []) if n.get("id") != VERSION_BUMP["id"]]
    return nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="counted sessions of each kind (default 10)")
    args = parser.parse_args()
    try:
        claude = ensure_claude(log=lambda message: print(message, file=sys.stderr))
    except Unavailable as exc:
        raise SystemExit("cannot run: %s" % exc)
    kinds = (("without forewarn", None), ("with forewarn", REPO))
    times = {label: [] for label, _ in kinds}
    with tempfile.TemporaryDirectory(prefix="forewarn-session-bench-") as tmp:
        sandbox = Sandbox(claude, Path(tmp))
        write_graph(sandbox.project, graph_nodes())
        for i in range(args.runs + 1):
            for label, plugin in kinds if i % 2 == 0 else kinds[::-1]:
                start = time.perf_counter()
                result = sandbox.run("bump the version to 0.2.0", script(sandbox), plugin_dir=plugin)
                elapsed = time.perf_counter() - start
                if not result.completed:
                    raise SystemExit("session failed (%s): %s" % (label, result.describe()))
                os.remove(sandbox.path(".claude-plugin", "plugin.json"))
                if i:  # the first pair warms caches
                    times[label].append(elapsed)
    base, with_ = times["without forewarn"], times["with forewarn"]
    print("Claude Code session (SessionStart, Write, Bash, Read, answer, Stop), %d runs each, alternating" % args.runs)
    print("| | median s | p95 s |")
    print("|---|---:|---:|")
    for label, values in times.items():
        print("| %s | %.3f | %.3f |" % (label, statistics.median(values), pct(values, 0.95)))
    print("| ratio with / without | %.3f | %.3f |" % (statistics.median(with_) / statistics.median(base), pct(with_, 0.95) / pct(base, 0.95)))
    print("| difference, ms | %.0f | %.0f |" % (1000 * (statistics.median(with_) - statistics.median(base)),
                                               1000 * (pct(with_, 0.95) - pct(base, 0.95))))


if __name__ == "__main__":
    main()
