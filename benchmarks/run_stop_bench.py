"""Whole-process timing of the Stop hook on a 10 MB transcript, against the bare interpreter.

Two shapes of transcript (``--shape``), each with a few corrections and a
[PROCESS_KNOWLEDGE] block in it:

* ``dense``: every record but two small ones a message — a prompt, assistant
  text, an Edit and its result per turn.  The worst case: the hook parses
  60 % of the bytes.
* ``claude-code``: the record types and sizes Claude Code 2.1.328 writes
  (api-request records and blobs, tool results that repeat the file in
  ``toolUseResult``, hook attachments, a prompt every 8 model requests).
  Most of it is not a message, and the hook leaves it unparsed.

Each run is a fresh session (nothing read before), so every run reads all
10 MB; the floors ``python -c pass`` and ``python -S -c pass`` are
interleaved with it.  The data folder is kept from run to run, as it is
between a user's Stops: it holds the reply model's marshal copy, which the
first Stop after an install or update makes (an untimed warm-up run here).

    python benchmarks/run_stop_bench.py [--runs 15] [--megabytes 10] [--shape dense|claude-code]

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


BLOCK = ("[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: HIGH\nlabel: Run the pricing tests after refactors\n"
         "checklist:\n  items: [pytest tests/pricing]\n[/PROCESS_KNOWLEDGE]")


def _dense_turn(project, i):
    """Every record a message: a prompt, assistant text, an Edit and its result per turn (the worst case)."""
    turn = [
        {"type": "user", "message": {"role": "user", "content": "Please refactor the pricing module and keep the API stable."}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Refactoring. " + "Explanation of the change. " * 40}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": project + "/shop/pricing.py", "old_string": "a" * 300, "new_string": "b" * 300}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok " * 400}]}},
        {"type": "progress", "data": {"type": "hook_progress"}},
        {"type": "attachment", "attachment": {"type": "todo_reminder", "content": []}},
    ]
    if i % 500 == 0:
        turn.append({"type": "user", "message": {"role": "user", "content": "You forgot to run the tests for pricing %d." % i}})
    return turn


def _meta(i, kind):
    return {"parentUuid": "%08d-0000-4000-8000-%012d" % (i, i), "isSidechain": False, "type": kind, "uuid": "%08d-1111-4000-8000-%012d" % (i, i),
            "timestamp": "2026-11-22T17:20:50.%03dZ" % (i % 1000), "userType": "external", "entrypoint": "cli", "cwd": "/home/dev/shop",
            "sessionId": "652bfc66-c316-49c0-acca-b19025931a82", "version": "2.1.328", "gitBranch": "main"}


def _claude_code_turn(project, i):
    """The record types and sizes Claude Code 2.1.328 writes, as seen in its transcripts: per model request an
    api-request and its blob, the assistant's tool call, the tool result (with ``toolUseResult``, the file content
    again), a hook attachment; a prompt and a text answer every 8 requests, the request shape every 40."""
    source = "".join("def price_%d(order):\n    return order.total * %d\n\n" % (k, k) for k in range(60))
    path = project + "/shop/pricing_%d.py" % (i % 30)
    records = []
    if i % 8 == 0:
        prompt = dict(_meta(i, "user"), promptId="p%d" % i, message={"role": "user", "content": "Please refactor the pricing module and keep the API stable."},
                      permissionMode="default", promptSource="cli", turnOrigin="cli", turnPosition={"promptIndex": i // 8, "turnIndex": 1})
        if i % 200 == 0:
            prompt["message"]["content"] = "You forgot to run the tests for pricing %d." % i
        records += [{"type": "queue-operation", "operation": "enqueue", "timestamp": "2026-11-22T17:20:50.216Z", "sessionId": "s", "content": prompt["message"]["content"]},
                    prompt, {"type": "last-prompt", "lastPrompt": prompt["message"]["content"], "leafUuid": "x%d" % i, "sessionId": "s"}]
    if i % 40 == 0:
        records.append({"type": "api-request-shape", "sessionId": "s", "shapeHash": "%060d" % i, "version": "2.1.328",
                        "shape": {"system": [{"type": "text", "text": "You are an agent working with the user toward their goals. " * 300}],
                                  "tools": [{"name": "Tool%d" % k, "description": "Does a thing. " * 30, "input_schema": {"type": "object"}} for k in range(20)]}})
    records += [
        {"type": "api-request-blob", "sessionId": "s", "hash": "%060d" % i, "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_%d" % (i - 1), "type": "tool_result", "content": source}]}},
        {"type": "api-request", "sessionId": "s", "id": "r%d" % i, "timestamp": "2026-11-22T17:20:50.836Z", "version": "2.1.328", "querySource": "cli",
         "shapeHash": "%060d" % (i - i % 40), "params": {"model": "claude-opus-5-5", "max_tokens": 128000, "thinking": {"type": "adaptive"}},
         "keep": 0, "tail": ["%060d" % i], "cacheControl": [{"path": ["system", 0], "value": {"type": "ephemeral"}}]},
        dict(_meta(i, "assistant"), message={"id": "msg_%d" % i, "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [
            {"type": "tool_use", "id": "toolu_%d" % i, "name": "Edit", "input": {"file_path": path, "old_string": "return order.total * 3", "new_string": "return order.total * 4"}}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 1200, "output_tokens": 80, "cache_read_input_tokens": 90000}}, requestId="req_%d" % i),
        dict(_meta(i, "attachment"), attachment={"type": "hook_success", "hookName": "PreToolUse:Edit", "hookEvent": "PreToolUse", "content": "",
             "stdout": "", "stderr": "", "exitCode": 0, "command": "python3 -S hooks/pre_experience_injection.py", "durationMs": 21}),
        dict(_meta(i, "user"), message={"role": "user", "content": [{"tool_use_id": "toolu_%d" % i, "type": "tool_result", "content": "The file %s has been updated." % path}]},
             toolUseResult={"filePath": path, "oldString": "return order.total * 3", "newString": "return order.total * 4", "originalFile": source,
                            "structuredPatch": [{"oldStart": 7, "lines": ["-    return order.total * 3", "+    return order.total * 4"]}]},
             sourceToolAssistantUUID="a%d" % i),
        {"type": "tools-used", "tools": ["Edit"], "sessionId": "s"},
    ]
    if i % 8 == 7:
        records.append(dict(_meta(i, "assistant"), message={"id": "msg_t%d" % i, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                            "content": [{"type": "text", "text": "Refactored the pricing module. " + "Explanation of the change. " * 30}], "stop_reason": "end_turn"}))
        records.append(dict(_meta(i, "system"), subtype="stop_hook_summary", hookCount=1, hookInfos=[{"command": "python3 -S hooks/on_stop.py", "durationMs": 40}]))
    return records


SHAPES = {"dense": _dense_turn, "claude-code": _claude_code_turn}


def transcript(path, megabytes, project, shape="dense"):
    """Write a transcript of about ``megabytes`` MiB in ``shape``, ending with a [PROCESS_KNOWLEDGE] block; its size."""
    size, i = 0, 0
    with open(path, "w") as handle:
        while size < megabytes * (1 << 20):
            i += 1
            for record in SHAPES[shape](project, i):
                line = json.dumps(record) + "\n"
                handle.write(line)
                size += len(line)
        handle.write(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": BLOCK}]}}) + "\n")
    return os.path.getsize(path)


def timed(cmd, stdin, env):
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--megabytes", type=float, default=10, help="transcript size; 0.05 is about the one turn a typical Stop reads")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="dense",
                        help="dense: every record a message (the worst case); claude-code: the records Claude Code 2.1.328 writes")
    args = parser.parse_args()
    py = sys.executable
    work = tempfile.mkdtemp(prefix="forewarn-stop-bench-")
    try:
        project = os.path.join(work, "project")
        os.makedirs(os.path.join(project, ".git"))
        path = os.path.join(work, "transcript.jsonl")
        size = transcript(path, args.megabytes, project, args.shape)
        times = {"floor": [], "floor -S": [], "Stop hook": []}
        env = dict(os.environ, FOREWARN_DATA_DIR=os.path.join(work, "data"), FOREWARN_USER_GRAPHS=os.path.join(work, "none"))
        for i in range(-1, args.runs):  # run -1 warms the data folder (the reply model's marshal copy) and is not timed
            shutil.rmtree(os.path.join(project, ".claude"), ignore_errors=True)
            payload = json.dumps({"session_id": "bench%d" % i, "transcript_path": path, "cwd": project, "hook_event_name": "Stop",
                                  "stop_hook_active": False, "last_assistant_message": "Done."}).encode()
            floor, floor_s, hook = timed([py, "-c", "pass"], b"", env), timed([py, "-S", "-c", "pass"], b"", env), timed([py, "-S", HOOK], payload, env)
            if i >= 0:
                times["floor"].append(floor)
                times["floor -S"].append(floor_s)
                times["Stop hook"].append(hook)
        drafts = json.load(open(os.path.join(project, ".claude", "graphs", "lessons_graph.json")))["nodes"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floors = {name: (statistics.median(times[name]), pct(times[name], 0.95)) for name in ("floor", "floor -S")}
    print("Stop hook on a %.1f MB %s transcript (%d drafts written), %d runs, python %s" % (size / 1e6, args.shape, len(drafts), args.runs, sys.version.split()[0]))
    print()
    print("| | median ms | p95 ms | median / floor | p95 / floor p95 | median / floor -S | p95 / floor -S p95 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, values in times.items():
        med, p95 = statistics.median(values), pct(values, 0.95)
        ratios = " | ".join("%.2f | %.2f" % (med / fmed, p95 / fp95) for fmed, fp95 in floors.values())
        print("| %s | %.1f | %.1f | %s |" % (name, med * 1000, p95 * 1000, ratios))


if __name__ == "__main__":
    main()
