"""What the hooks keep in the data folder: per-session dedupe, the decision trace, the hook log.

Each is written by many hook processes at once and must never fail a hook:
claims are exclusive across processes, trace lines never interleave, files
rotate at their limits, and an unwritable folder is tolerated.
"""

import json
import multiprocessing
import os
import time

import pytest
from support import isolated_project

from forewarn import log, session_state, trace

FORK = multiprocessing.get_context("fork")


@pytest.fixture
def data(tmp_path, monkeypatch):
    isolated_project(tmp_path, monkeypatch)
    return tmp_path / "data"


# --- session_state ------------------------------------------------------------------------------------------------


def test_claim_records_and_remembers(data):
    seen = []

    def choose(already):
        seen.append(set(already))
        return [("a", "x.json"), ("b", "")] if not already else []

    assert session_state.claim("s-1", choose) == [("a", "x.json"), ("b", "")]
    assert session_state.claim("s-1", choose) == []
    assert seen == [set(), {("a", "x.json"), ("b", "")}]
    assert (data / "sessions" / "s-1.injected").read_text() == "a\tx.json\nb\t\n"
    session_state.claim("s-2", choose)
    assert seen[-1] == set()  # another session remembers nothing of the first


@pytest.mark.parametrize("session_id", [None, "", 7])
def test_no_session_id_means_no_memory(data, session_id):
    assert session_state.claim(session_id, lambda already: [("a", "p")] if not already else []) == [("a", "p")]
    assert session_state.claim(session_id, lambda already: [("a", "p")] if not already else []) == [("a", "p")]
    assert not (data / "sessions").exists()


def test_session_ids_cannot_leave_the_sessions_folder(data):
    session_state.claim("../../escape/..\\x", lambda already: [("a", "p")])
    assert os.listdir(data / "sessions") == ["______escape____x.injected"]


def test_unwritable_data_folder_claims_without_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    for _ in range(2):
        assert session_state.claim("s", lambda already: [("a", "p")] if not already else []) == [("a", "p")]


def _claim_once(session_id, item, start_at):
    time.sleep(max(0, start_at - time.time()))  # every worker starts claiming at the same moment

    def choose(already):
        time.sleep(0.02)  # a slow decision: the window a lock must cover
        return [] if (item, "f.json") in already else [(item, "f.json")]

    return session_state.claim(session_id, choose)


def test_parallel_claims_grant_each_item_once(data):
    start_at = time.time() + 0.5
    with FORK.Pool(8) as pool:
        pending = [pool.apply_async(_claim_once, ("par", "item-%d" % (i % 2), start_at)) for i in range(16)]
        results = [p.get(timeout=60) for p in pending]
    granted = sorted(r[0][0] for r in results if r)
    assert granted == ["item-0", "item-1"]
    assert sorted((data / "sessions" / "par.injected").read_text().splitlines()) == ["item-0\tf.json", "item-1\tf.json"]


def test_sweep_removes_sessions_older_than_thirty_days(data):
    session_state.claim("old", lambda already: [("a", "p")])
    session_state.claim("new", lambda already: [("a", "p")])
    old = data / "sessions" / "old.injected"
    past = time.time() - 31 * 86400
    os.utime(old, (past, past))
    assert session_state.sweep() == 1 and os.listdir(data / "sessions") == ["new.injected"]


# --- trace --------------------------------------------------------------------------------------------------------


def test_record_appends_one_json_line_with_a_timestamp(data):
    before = time.time()
    assert trace.record({"event": "PreToolUse", "injected": ["é"], "candidates": [{"terms": {"tool": 1}}]})
    assert trace.record({"event": "PreToolUse", "injected": []})
    first, second = [json.loads(line) for line in (data / "trace.jsonl").read_text().splitlines()]
    assert first["injected"] == ["é"] and first["candidates"] == [{"terms": {"tool": 1}}]
    assert before - 1 <= first["ts"] <= second["ts"] <= time.time() + 1


def test_trace_rotates_past_its_limit(data, monkeypatch):
    monkeypatch.setattr(trace, "MAX_BYTES", 1000)
    for i in range(30):
        trace.record({"n": i, "pad": "x" * 80})
    rotated = [json.loads(line)["n"] for line in (data / "trace.jsonl.1").read_text().splitlines()]
    current = [json.loads(line)["n"] for line in (data / "trace.jsonl").read_text().splitlines()]
    assert os.path.getsize(data / "trace.jsonl") <= 1000 + 120  # rotation happens before the append that passes it
    assert rotated[-1] + 1 == current[0] and current[-1] == 29  # the newest lines are never the ones dropped
    assert not (data / "trace.jsonl.2").exists()


def test_trace_in_an_unwritable_folder_says_false(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    assert trace.record({"event": "x"}) is False


def _trace_many(worker, count):
    for i in range(count):
        trace.record({"worker": worker, "i": i, "pad": "y" * (100 + 400 * (i % 3))})


def test_parallel_trace_lines_never_interleave(data):
    with FORK.Pool(6) as pool:
        pool.starmap(_trace_many, [(w, 60) for w in range(6)])
    lines = [json.loads(line) for line in (data / "trace.jsonl").read_text().splitlines()]
    assert sorted((r["worker"], r["i"]) for r in lines) == [(w, i) for w in range(6) for i in range(60)]


# --- the hook log ---------------------------------------------------------------------------------------------------


def test_log_writes_one_line_per_call(data):
    log.log("PreToolUse", "first\nproblem   with\tspaces")
    log.log("index", "x" * 5000)
    first, second = (data / "forewarn.log").read_text().splitlines()
    assert first.endswith("Z PreToolUse first problem with spaces")
    assert len(second) < 2100 and second.split(" ")[1] == "index"


def test_log_rotates_at_one_mebibyte(data, monkeypatch):
    monkeypatch.setattr(log, "_MAX_BYTES", 500)
    for i in range(20):
        log.log("c", "line %d %s" % (i, "z" * 50))
    assert (data / "forewarn.log.1").exists() and os.path.getsize(data / "forewarn.log") <= 500 + 100
    assert (data / "forewarn.log").read_text().splitlines()[-1].endswith("line 19 " + "z" * 50)


def test_log_in_an_unwritable_folder_goes_to_stderr(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    log.log("PreToolUse", "cannot write here")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("forewarn: ") and "PreToolUse cannot write here" in captured.err
