"""Whole-process timings of the PreToolUse hook against the bare interpreter, in one run.

For each knowledge size (100, 1,000, 10,000 process nodes) and scenario
(matching Write, non-matching Write, Bash, Read) the hook runs exactly as
hooks/hooks.json runs it (``python -S hooks/pre_experience_injection.py``)
with real hook JSON on stdin, interleaved with the two floors —
``python -c pass`` (the interpreter as a user would start it) and
``python -S -c pass`` (the same flags as the hook) — so machine drift hits
all alike.  Reported: median and p95 in ms, and as ratios to each floor.
Also: index rebuild after a graph change (whole process, and in process),
and peak RSS per process (GNU time, in separate runs).

    python benchmarks/run_hook_bench.py [--runs 40] [--sizes 100,1000,10000]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
HOOK = os.path.join(REPO, "hooks", "pre_experience_injection.py")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "src"))

from generate import generate  # noqa: E402
from stats import pct  # noqa: E402


def run_child(cmd, stdin, env):
    """``(seconds, stdout)`` of one process."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, proc.stdout


def peak_rss_kib(cmd, stdin, env):
    """The process's own peak RSS (KiB) from GNU time, or None where /usr/bin/time is missing.

    Measured apart from the timed runs: ``ru_maxrss`` of a child forked from
    this benchmark process would count this process's pages too.
    """
    if not os.path.exists("/usr/bin/time"):
        return None
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        return int(proc.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def payload(project, tool, tool_input, session):
    return json.dumps({
        "session_id": session, "transcript_path": "", "cwd": project, "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_bench",
    }).encode()


def scenarios(project):
    return {
        "matching Write": ("Write", {"file_path": os.path.join(project, ".claude-plugin", "plugin.json"), "content": '{"version": "0.2.0"}\n'}),
        "non-matching Write": ("Write", {"file_path": os.path.join(project, "notes", "todo.txt"), "content": "buy milk\n"}),
        "Bash": ("Bash", {"command": "npm test -- --watch=false", "description": "Run the test suite"}),
        "Read": ("Read", {"file_path": os.path.join(project, "src", "app.py")}),
    }



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--sizes", default="100,1000,10000")
    args = parser.parse_args()
    py = os.path.realpath(sys.executable)
    work = tempfile.mkdtemp(prefix="forewarn-bench-")
    rows, extra = [], []
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            project = os.path.join(work, "p%d" % size)
            generate(project, size)
            env = dict(os.environ, FOREWARN_DATA_DIR=os.path.join(work, "data%d" % size), FOREWARN_USER_GRAPHS=os.path.join(work, "none"))
            env.pop("CLAUDE_PROJECT_DIR", None)
            cases = scenarios(project)
            # Cold: the first call after a graph change.
            cold_t, _ = run_child([py, "-S", HOOK], payload(project, *cases["matching Write"], "cold"), env)
            from forewarn import index, index_build

            os.environ["FOREWARN_DATA_DIR"] = env["FOREWARN_DATA_DIR"]
            builds = []
            for _ in range(5):
                t0 = time.perf_counter()
                index_build.build_bytes(project, index.current_sources(project))
                builds.append(time.perf_counter() - t0)
            # Peak RSS of a rebuild in the hook process (graphs just changed, index removed).
            os.unlink(index.index_file(project))
            rebuild_rss = peak_rss_kib([py, "-S", "-m", "forewarn.index_build", project], b"", dict(env, PYTHONPATH=os.path.join(REPO, "src")))
            index_build.rebuild(project)  # a warm index for the timed runs
            check = run_child([py, "-S", HOOK], payload(project, *cases["matching Write"], "check"), env)[1]
            assert b"additionalContext" in check, "matching Write injected nothing"
            assert not run_child([py, "-S", HOOK], payload(project, *cases["non-matching Write"], "check"), env)[1]
            times = {k: [] for k in ["floor", "floor -S", *cases]}
            rss = {k: [peak_rss_kib([py, "-S", HOOK], payload(project, *c, "rss%d" % j), env) or 0 for j in range(3)] for k, c in cases.items()}
            rss["floor -S"] = [peak_rss_kib([py, "-S", "-c", "pass"], b"", env) or 0 for _ in range(3)]
            for i in range(args.runs):
                times["floor"].append(run_child([py, "-c", "pass"], b"", env)[0])
                times["floor -S"].append(run_child([py, "-S", "-c", "pass"], b"", env)[0])
                for name, (tool, tool_input) in cases.items():
                    t, _ = run_child([py, "-S", HOOK], payload(project, tool, tool_input, "run%d-%d" % (size, i)), env)
                    times[name].append(t)
            floor, floor_s = statistics.median(times["floor"]), statistics.median(times["floor -S"])
            floor95, floor_s95 = pct(times["floor"], 0.95), pct(times["floor -S"], 0.95)
            for name in ["floor", "floor -S", *cases]:
                v = times[name]
                med, p95 = statistics.median(v), pct(v, 0.95)
                rows.append((size, name, med * 1000, p95 * 1000, med / floor, p95 / floor95, med / floor_s, p95 / floor_s95,
                             max(rss[name]) / 1024 if max(rss.get(name) or [0]) else None))
            extra.append((size, cold_t * 1000, (rebuild_rss or 0) / 1024, statistics.median(builds) * 1000, max(builds) * 1000))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("python %s, %d cores, %d runs per cell, floors and hook interleaved" % (sys.version.split()[0], os.cpu_count(), args.runs))
    print()
    print("| nodes | scenario | median ms | p95 ms | median / floor | p95 / floor p95 | median / floor -S | p95 / floor -S p95 | peak RSS MiB |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for size, name, med, p95, r1, r2, r3, r4, peak in rows:
        print("| %d | %s | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %s |" % (size, name, med, p95, r1, r2, r3, r4, "%.1f" % peak if peak else "-"))
    print()
    print("| nodes | first hook call after a graph change (ms, whole process) | peak RSS of an index rebuild process MiB | in-process index build median ms | max ms |")
    print("|---:|---:|---:|---:|---:|")
    for size, cold, cold_rss, build, build_max in extra:
        print("| %d | %.1f | %.1f | %.1f | %.1f |" % (size, cold, cold_rss, build, build_max))


if __name__ == "__main__":
    main()
