"""Write the corpus of corpus_spec.py as Claude Code transcripts: tests/learning/corpus/<name>.jsonl + <name>.expect.json.

The records have Claude Code's real shape (uuid/parentUuid chains, sessionId,
message.content blocks, tool_use ids matched by tool_result records) and the
noise a real transcript carries (queue-operation, attachment, system,
file-history-snapshot, progress, summary, last-prompt).  Run it after
editing corpus_spec.py:  python tests/learning/build_corpus.py
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from corpus_spec import CASES, HELD_OUT  # noqa: E402


def records(case):
    session = "corpus-" + case["name"]
    out = []
    counter = [0]

    def add(kind, message=None, **extra):
        counter[0] += 1
        uid = "%s-%04d" % (case["name"][:12], counter[0])
        record = {"type": kind, "uuid": uid, "parentUuid": out[-1]["uuid"] if out else None, "sessionId": session,
                  "timestamp": "2026-11-20T10:%02d:%02dZ" % (counter[0] // 60, counter[0] % 60), "cwd": "/home/dev/shop",
                  "version": "2.1.328", "gitBranch": "main", "isSidechain": False, "userType": "external"}
        if message is not None:
            record["message"] = message
        record.update(extra)
        out.append(record)

    add("queue-operation", operation="enqueue", content="start")
    add("file-history-snapshot", messageId="snap", snapshot={"trackedFileBackups": {}})
    for turn in case["turns"]:
        kind = turn[0]
        if kind == "user":
            add("user", {"role": "user", "content": turn[1]})
            add("attachment", attachment={"type": "todo_reminder", "content": []})
        elif kind == "meta":
            add("user", {"role": "user", "content": turn[1]}, isMeta=True)
        elif kind == "assistant":
            text, tools = turn[1], turn[2]
            if text:
                add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "text", "text": text}], "stop_reason": None if tools else "end_turn"})
            for i, (name, tool_input) in enumerate(tools):
                tool_id = "toolu_%s_%d_%d" % (case["name"][:8], counter[0], i)
                add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}], "stop_reason": "tool_use"})
                add("progress", data={"type": "hook_progress", "hookEvent": "PreToolUse"})
                add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok", "is_error": False}]}, toolUseResult={"type": "text"})
        elif kind == "result":
            add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": turn[1]}]})
        elif kind == "final":
            add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "text", "text": turn[1]}], "stop_reason": "end_turn"})
    add("system", subtype="turn_duration", durationMs=1234)
    add("summary", summary="a session", leafUuid=out[-1]["uuid"])
    add("last-prompt", lastPrompt="…")
    return out


def main():
    folder = os.path.join(HERE, "corpus")
    os.makedirs(folder, exist_ok=True)
    for case in CASES + [dict(c, held_out=True) for c in HELD_OUT]:
        with open(os.path.join(folder, case["name"] + ".jsonl"), "w", encoding="utf-8") as handle:
            for record in records(case):
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        final = [t[1] for t in case["turns"] if t[0] == "final"]
        expect = {"last_assistant_message": final[-1] if final else "", "expect": case["expect"],
                  "secrets": case.get("secrets", []), "problems": case.get("problems", 0), "held_out": case.get("held_out", False)}
        with open(os.path.join(folder, case["name"] + ".expect.json"), "w", encoding="utf-8") as handle:
            json.dump(expect, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    print("wrote %d transcripts to %s" % (len(CASES) + len(HELD_OUT), folder))


if __name__ == "__main__":
    main()
