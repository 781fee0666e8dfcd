"""The relevance rule measured on the labelled corpus (tests/relevance/corpus.py).

The shipped rule runs through the hook's own code (``inject.handle``, one
fresh session per call so dedupe never hides an item); its decisions are
read back from the trace.  For comparison the same index is scored with the
original design's formula alone (no gates) and with only the tool and file
gates.  Micro precision and recall over injected items, CRITICAL recall, and
the false-positive rate (injected items not labelled relevant / injected
items) are printed; docs/relevance.md quotes them.
"""

import json
import os

import pytest

from forewarn import config, index, inject, relevance, trace
from forewarn.conversation import recent_text
from forewarn.keywords import fold
from forewarn.toolcall import ToolCall

from corpus import CALLS, HELD_OUT, NODES, ROOT

CRITICAL = {n["id"] for n in NODES if n["priority"] == "CRITICAL" and n.get("status", "active") == "active"}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("shop")
    (root / ".git").mkdir()
    (root / ".claude" / "graphs").mkdir(parents=True)
    (root / ".claude" / "graphs" / "shop.json").write_text(json.dumps({"directed": True, "nodes": NODES, "links": []}))
    data = tmp_path_factory.mktemp("data")
    saved = {k: os.environ.get(k) for k in ("FOREWARN_DATA_DIR", "FOREWARN_USER_GRAPHS", "CLAUDE_PROJECT_DIR", "DISABLE_EXPERIENCE_INJECTION")}
    os.environ["FOREWARN_DATA_DIR"] = str(data)
    os.environ["FOREWARN_USER_GRAPHS"] = str(tmp_path_factory.mktemp("user"))
    os.environ["CLAUDE_PROJECT_DIR"] = str(root)  # Claude Code sets it for every hook
    os.environ.pop("DISABLE_EXPERIENCE_INJECTION", None)
    yield root
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def hook_input(project, call, number, session_prefix="corpus"):
    text = json.dumps(call["input"]).replace(ROOT, str(project))
    data = {"session_id": "%s-%d" % (session_prefix, number), "cwd": (call.get("cwd") or ROOT).replace(ROOT, str(project)),
            "hook_event_name": "PreToolUse", "tool_name": call["tool"], "tool_input": json.loads(text), "transcript_path": ""}
    if call.get("context"):
        path = os.path.join(os.environ["FOREWARN_DATA_DIR"], "transcript-%d.jsonl" % number)
        with open(path, "w") as handle:
            handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": call["context"]}}) + "\n")
        data["transcript_path"] = path
    return data


def shipped(project, calls=CALLS, session_prefix="corpus"):
    """Item ids the hook injects for each call (a session of its own per call, so dedupe never hides an item)."""
    decisions = []
    for number, call in enumerate(calls):
        data = hook_input(project, call, number, session_prefix)
        before = _trace_lines()
        inject.handle(data)
        after = _trace_lines()
        new = after[len(before):]
        decisions.append(json.loads(new[-1])["injected"] if new else [])
    return decisions


def _trace_lines():
    try:
        with open(trace.trace_file(), encoding="utf-8") as handle:
            return handle.read().splitlines()
    except OSError:
        return []


def formula_only(project, gates):
    """The original formula over every item; ``gates`` picks which of the gates apply (a set of names)."""
    decisions = []
    idx, _state = index.open_fresh(str(project))
    threshold = config.DEFAULTS["threshold"]
    try:
        for number, call in enumerate(CALLS):
            data = hook_input(project, call, number)
            if data["tool_name"] in inject.READ_ONLY_TOOLS:
                decisions.append([])
                continue
            tc = ToolCall(data, str(project))
            text = fold(recent_text(data["transcript_path"], 65536)) if data["transcript_path"] else ""
            verdicts = relevance.evaluate(idx, tc, threshold, lambda: text, everything=True, always_context=True)
            keep = []
            for v in verdicts:
                gate = v.gate or ""
                blocked = ("tool" in gates and gate.startswith("tool ")) or ("file" in gates and gate.startswith("path "))
                if v.score >= threshold and not blocked:
                    keep.append(v)
            keep.sort(key=relevance.rank_key)
            decisions.append([v.record[index.R_ID] for v in keep[:3]])
    finally:
        idx.close()
    return decisions


def metrics(decisions, calls=CALLS):
    injected = relevant_hits = relevant_total = critical_total = critical_hits = 0
    for call, chosen in zip(calls, decisions):
        wanted = set(call["relevant"])
        injected += len(chosen)
        relevant_hits += len(wanted & set(chosen))
        relevant_total += len(wanted)
        critical_total += len(wanted & CRITICAL)
        critical_hits += len(wanted & CRITICAL & set(chosen))
    precision = relevant_hits / injected if injected else 1.0
    return {
        "injected": injected, "precision": precision, "recall": relevant_hits / relevant_total,
        "critical_recall": critical_hits / critical_total, "fp_rate": 1 - precision,
    }


def test_corpus_size():
    assert len(NODES) >= 30 and len(CALLS) >= 150


def test_shipped_rule_meets_the_targets(project):
    decisions = shipped(project)
    rows = [("shipped rule (tool, file, action and specificity gates)", metrics(decisions)),
            ("tool + file gates only", metrics(formula_only(project, {"tool", "file"}))),
            ("original formula, no gates", metrics(formula_only(project, set())))]
    print()
    print("| rule | injected items | precision | recall | CRITICAL recall | false-positive rate |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, m in rows:
        print("| %s | %d | %.3f | %.3f | %.3f | %.3f |" % (name, m["injected"], m["precision"], m["recall"], m["critical_recall"], m["fp_rate"]))
    for call, chosen in zip(CALLS, decisions):
        wrong = set(chosen) - set(call["relevant"])
        missed = set(call["relevant"]) - set(chosen)
        if wrong or missed:
            target = call["input"].get("file_path") or call["input"].get("command") or call["tool"]
            print("  %s %s: extra %s, missed %s" % (call["tool"], target, sorted(wrong), sorted(missed)))
    m = rows[0][1]
    assert m["critical_recall"] == 1.0
    assert m["fp_rate"] < 0.10


def test_held_out_calls_are_reported(project):
    """Measured and printed, never tuned against; the floors are the figures first measured (a regression guard)."""
    decisions = shipped(project, HELD_OUT, "held-out")
    m = metrics(decisions, HELD_OUT)
    print()
    print("held out: %d calls, %d injected, precision %.3f, recall %.3f, CRITICAL recall %.3f, false-positive rate %.3f"
          % (len(HELD_OUT), m["injected"], m["precision"], m["recall"], m["critical_recall"], m["fp_rate"]))
    for call, chosen in zip(HELD_OUT, decisions):
        wrong, missed = set(chosen) - set(call["relevant"]), set(call["relevant"]) - set(chosen)
        if wrong or missed:
            target = call["input"].get("file_path") or call["input"].get("command") or call["tool"]
            print("  %s %s: extra %s, missed %s" % (call["tool"], target, sorted(wrong), sorted(missed)))
    assert len(decisions) == len(HELD_OUT) >= 20
    assert m["precision"] >= 0.875 and m["recall"] >= 0.933 and m["critical_recall"] >= 0.888
