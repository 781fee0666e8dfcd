"""Whole-process timings of the PreToolUse hook against the bare interpreter, in one run.

For each knowledge size (100, 1,000, 10,000 process nodes) and scenario
(matching Write, non-matching Write, Bash, Read) the hook runs exactly as
hooks/hooks.json runs it (``python -S hooks/pre_experience_injection.py``)
with real hook JSON on stdin, interleaved with the two floors —
``python -c pass`` (the interpreter as a user would start it) and
``python -S -c pass`` (the same flags as the hook) — so machine drift hits
all alike.  Reported: median and p95 in ms, and as ratios to each floor.
Also: index rebuild after a graph change (whole process, and in process),
and peak RSS per process (``os.wait4``).

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


def timed(cmd, stdin=b"", env=None):
    """``(seconds, peak RSS in KiB, stdout)`` of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out, _ = proc.communicate(stdin)
    elapsed = time.perf_counter() - start
    rss = 0
    try:
        rss = proc.rusage.ru_maxrss  # set by Popen on some versions
    except AttributeError:
        pass
    return elapsed, rss, out


def run_child(cmd, stdin, env):
    """Like :func:`timed` but reaps with ``os.wait4`` for the child's own peak RSS."""
    start = time.perf_counter()
    r, w = os.pipe()
    out_r, out_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.dup2(r, 0)
        os.dup2(out_w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(w)
        os.close(out_r)
        os.execve(cmd[0], cmd, env)
    os.close(r)
    os.close(out_w)
    os.write(w, stdin)
    os.close(w)
    chunks = []
    while True:
        chunk = os.read(out_r, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(out_r)
    _pid, _status, usage = os.wait4(pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss, b"".join(chunks)


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


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


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
            cold_t, cold_rss, _ = run_child([py, "-S", HOOK], payload(project, *cases["matching Write"], "cold"), env)
            from forewarn import index, index_build

            os.environ["FOREWARN_DATA_DIR"] = env["FOREWARN_DATA_DIR"]
            builds = []
            for _ in range(5):
                t0 = time.perf_counter()
                index_build.build_bytes(project, index.current_sources(project))
                builds.append(time.perf_counter() - t0)
            index_build.rebuild(project)  # a warm index for the timed runs
            check = run_child([py, "-S", HOOK], payload(project, *cases["matching Write"], "check"), env)[2]
            assert b"additionalContext" in check, "matching Write injected nothing"
            assert not run_child([py, "-S", HOOK], payload(project, *cases["non-matching Write"], "check"), env)[2]
            times = {k: [] for k in ["floor", "floor -S", *cases]}
            rss = {k: [] for k in cases}
            for i in range(args.runs):
                times["floor"].append(run_child([py, "-c", "pass"], b"", env)[0])
                times["floor -S"].append(run_child([py, "-S", "-c", "pass"], b"", env)[0])
                for name, (tool, tool_input) in cases.items():
                    t, peak, _ = run_child([py, "-S", HOOK], payload(project, tool, tool_input, "run%d-%d" % (size, i)), env)
                    times[name].append(t)
                    rss[name].append(peak)
            floor, floor_s = statistics.median(times["floor"]), statistics.median(times["floor -S"])
            floor95, floor_s95 = pct(times["floor"], 0.95), pct(times["floor -S"], 0.95)
            for name in ["floor", "floor -S", *cases]:
                v = times[name]
                med, p95 = statistics.median(v), pct(v, 0.95)
                rows.append((size, name, med * 1000, p95 * 1000, med / floor, p95 / floor95, med / floor_s, p95 / floor_s95,
                             max(rss[name]) / 1024 if name in rss else None))
            extra.append((size, cold_t * 1000, cold_rss / 1024, statistics.median(builds) * 1000, max(builds) * 1000))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("python %s, %d cores, %d runs per cell, floors and hook interleaved" % (sys.version.split()[0], os.cpu_count(), args.runs))
    print()
    print("| nodes | scenario | median ms | p95 ms | median / floor | p95 / floor p95 | median / floor -S | p95 / floor -S p95 | peak RSS MiB |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for size, name, med, p95, r1, r2, r3, r4, peak in rows:
        print("| %d | %s | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %s |" % (size, name, med, p95, r1, r2, r3, r4, "%.1f" % peak if peak else "-"))
    print()
    print("| nodes | first call after a graph change (ms, whole process) | its peak RSS MiB | in-process index build median ms | max ms |")
    print("|---:|---:|---:|---:|---:|")
    for size, cold, cold_rss, build, build_max in extra:
        print("| %d | %.1f | %.1f | %.1f | %.1f |" % (size, cold, cold_rss, build, build_max))


if __name__ == "__main__":
    main()
