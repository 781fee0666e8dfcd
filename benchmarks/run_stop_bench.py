"""Whole-process timing of the Stop hook on a 10 MB transcript, against the bare interpreter.

The transcript is realistic in shape (user prompts, assistant text, tool
calls and results, noise records) with a few corrections and a
[PROCESS_KNOWLEDGE] block in it.  Each run is a fresh session (nothing read
before), so every run parses all 10 MB; the floors ``python -c pass`` and
``python -S -c pass`` are interleaved with it.

    python benchmarks/run_stop_bench.py [--runs 15] [--megabytes 10]

Ten megabytes in one Stop happen when forewarn is installed in the middle of
a long session (or its data folder was lost); at the end of an ordinary turn
the hook reads that turn alone (``--megabytes 0.05``).
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
HOOK = os.path.join(os.path.dirname(HERE), "hooks", "on_stop.py")
sys.path.insert(0, HERE)

from stats import pct  # noqa: E402


def transcript(path, megabytes, project):
    turn = [
        {"type": "user", "message": {"role": "user", "content": "Please refactor the pricing module and keep the API stable."}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Refactoring. " + "Explanation of the change. " * 40}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": project + "/shop/pricing.py", "old_string": "a" * 300, "new_string": "b" * 300}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok " * 400}]}},
        {"type": "progress", "data": {"type": "hook_progress"}},
        {"type": "attachment", "attachment": {"type": "todo_reminder", "content": []}},
    ]
    lines = [json.dumps(r) + "\n" for r in turn]
    size = 0
    with open(path, "w") as handle:
        i = 0
        while size < megabytes * (1 << 20):
            for line in lines:
                handle.write(line)
                size += len(line)
            i += 1
            if i % 500 == 0:
                handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": "You forgot to run the tests for pricing %d." % i}}) + "\n")
        handle.write(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: HIGH\nlabel: Run the pricing tests after refactors\nchecklist:\n  items: [pytest tests/pricing]\n[/PROCESS_KNOWLEDGE]"}]}}) + "\n")
    return os.path.getsize(path)


def timed(cmd, stdin, env):
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--megabytes", type=float, default=10, help="transcript size; 0.05 is about the one turn a typical Stop reads")
    args = parser.parse_args()
    py = sys.executable
    work = tempfile.mkdtemp(prefix="forewarn-stop-bench-")
    try:
        project = os.path.join(work, "project")
        os.makedirs(os.path.join(project, ".git"))
        path = os.path.join(work, "transcript.jsonl")
        size = transcript(path, args.megabytes, project)
        times = {"floor": [], "floor -S": [], "Stop hook": []}
        for i in range(args.runs):
            env = dict(os.environ, FOREWARN_DATA_DIR=os.path.join(work, "data%d" % i), FOREWARN_USER_GRAPHS=os.path.join(work, "none"))
            shutil.rmtree(os.path.join(project, ".claude"), ignore_errors=True)
            payload = json.dumps({"session_id": "bench%d" % i, "transcript_path": path, "cwd": project, "hook_event_name": "Stop",
                                  "stop_hook_active": False, "last_assistant_message": "Done."}).encode()
            times["floor"].append(timed([py, "-c", "pass"], b"", env))
            times["floor -S"].append(timed([py, "-S", "-c", "pass"], b"", env))
            times["Stop hook"].append(timed([py, "-S", HOOK], payload, env))
        drafts = json.load(open(os.path.join(project, ".claude", "graphs", "lessons_graph.json")))["nodes"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floors = {name: (statistics.median(times[name]), pct(times[name], 0.95)) for name in ("floor", "floor -S")}
    print("Stop hook on a %.1f MB transcript (%d drafts written), %d runs, python %s" % (size / 1e6, len(drafts), args.runs, sys.version.split()[0]))
    print()
    print("| | median ms | p95 ms | median / floor | p95 / floor p95 | median / floor -S | p95 / floor -S p95 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, values in times.items():
        med, p95 = statistics.median(values), pct(values, 0.95)
        ratios = " | ".join("%.2f | %.2f" % (med / fmed, p95 / fp95) for fmed, fp95 in floors.values())
        print("| %s | %.1f | %.1f | %s |" % (name, med * 1000, p95 * 1000, ratios))


if __name__ == "__main__":
    main()
