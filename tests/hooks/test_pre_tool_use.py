"""hooks/pre_experience_injection.py as a subprocess fed real hook JSON, good and bad."""

import json
import os
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import HOOKS, checklist, graph, log_text, pre_tool, run_hook

HOOK = "pre_experience_injection.py"


def test_matching_write_gets_the_exact_envelope(project):
    graph(project, [checklist()])
    run = run_hook(HOOK, pre_tool(project))
    assert run.returncode == 0
    out = run.json()
    assert list(out) == ["hookSpecificOutput"]
    assert set(out["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}  # never a permissionDecision
    assert out["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    text = out["hookSpecificOutput"]["additionalContext"]
    assert "[CRITICAL]" in text and "<forewarn-knowledge>" in text and len(text) <= 1500


def test_unrelated_write_read_and_disabled_are_silent(project):
    graph(project, [checklist()])
    assert run_hook(HOOK, pre_tool(project, rel="README.md")).stdout == b""
    assert run_hook(HOOK, pre_tool(project, tool="Read")).stdout == b""
    assert run_hook(HOOK, pre_tool(project, session="x"), env={"DISABLE_EXPERIENCE_INJECTION": "1"}).stdout == b""


def test_drafts_and_archived_are_never_injected(project):
    graph(project, [checklist("a", status="draft"), checklist("b", status="archived")])
    assert run_hook(HOOK, pre_tool(project)).stdout == b""


def test_every_decision_is_traced_with_terms(project):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project))
    run_hook(HOOK, pre_tool(project, rel="README.md"))
    lines = open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "trace.jsonl")).read().splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["injected"] == ["ck-version"] and first["candidates"][0]["terms"]["file"] == 1
    # README.md is in none of the item's buckets: the decision is recorded, with no candidate to score
    assert second["injected"] == [] and second["candidates"] == [] and second["path"] == "README.md"


def test_parallel_hooks_inject_once_per_session_and_file(project):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project, session="warm"))  # build the index first
    with ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda _i: run_hook(HOOK, pre_tool(project, session="same")), range(8)))
    assert all(r.returncode == 0 for r in runs)
    assert sum(1 for r in runs if r.stdout) == 1


def test_racing_rebuilds_after_a_graph_change(project):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project, session="warm"))
    graph(project, [checklist("ck-new")])
    with ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda i: run_hook(HOOK, pre_tool(project, session="r%d" % i)), range(8)))
    assert all(r.returncode == 0 and "ck-new" in r.context() for r in runs)
    again = run_hook(HOOK, pre_tool(project, session="after"))
    assert "ck-new" in again.context()
    last = json.loads(open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "trace.jsonl")).read().splitlines()[-1])
    assert last["index"] == "fresh"


BAD_INPUTS = {
    "empty": b"",
    "whitespace": b"  \n",
    "not json": b"tool_name: Write",
    "array": b"[1, 2, 3]",
    "string": b'"PreToolUse"',
    "number": b"42",
    "truncated": b'{"tool_name": "Write", "tool_input": {"file_path": ',
    "invalid utf-8": b'{"tool_name": "Write\xff\xfe", "tool_input": {}}',
    "tool_input is a string": json.dumps({"tool_name": "Write", "tool_input": "plugin.json", "cwd": "/"}).encode(),
    "tool_input is a list": json.dumps({"tool_name": "Write", "tool_input": ["x"], "cwd": "/"}).encode(),
    "tool_name is a number": json.dumps({"tool_name": 3, "tool_input": {}}).encode(),
    "missing everything": b"{}",
    "cwd is relative": json.dumps({"tool_name": "Write", "cwd": "relative/dir", "tool_input": {"file_path": "x"}}).encode(),
    "NaN constant": b'{"tool_name": NaN}',
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_exits_zero_silently_with_a_log_line(project, name):
    graph(project, [checklist()])
    run = run_hook(HOOK, BAD_INPUTS[name])
    assert run.returncode == 0
    assert run.stdout == b"" or "hookSpecificOutput" in run.json()
    assert run.seconds < 5


def test_bad_stdin_is_logged(project):
    run_hook(HOOK, b"not json at all")
    run_hook(HOOK, b"")
    log = log_text()
    assert "stdin is not JSON" in log and "empty stdin" in log


def test_twenty_megabyte_stdin(project):
    graph(project, [checklist()])
    payload = json.dumps(pre_tool(project, content="x" * (20 << 20))).encode()
    run = run_hook(HOOK, payload)
    assert run.returncode == 0 and run.stdout == b""
    assert "larger than" in log_text()


def test_corrupt_and_half_written_graphs_beside_a_good_one(project):
    graph(project, [checklist("good")])
    (project / ".claude" / "graphs" / "half.json").write_text('{"directed": true, "nodes": [{"id": "x"')
    (project / ".claude" / "graphs" / "wrong.json").write_text('{"nodes": "not a list"}')
    (project / ".claude" / "graphs" / "bytes.json").write_bytes(b"\xff\xfe\x00garbage")
    bad = checklist("bad")
    bad["trigger_conditions"]["file_patterns"] = [""]
    graph(project, [bad, checklist("good2", priority="HIGH")], name="mixed.json")
    run = run_hook(HOOK, pre_tool(project))
    assert run.returncode == 0
    text = run.context()
    assert "good" in text and "good2" in text and "Version bump bad" not in text


def test_unusable_graph_folder_and_entries(project):
    # Tests run as root, so chmod cannot make a folder unreadable; use shapes that cannot be read instead.
    graphs = project / ".claude" / "graphs"
    (graphs / "dir.json").mkdir()  # a folder named like a graph
    os.mkfifo(graphs / "fifo.json")  # would block a naive open() forever
    graph(project, [checklist()])
    run = run_hook(HOOK, pre_tool(project))
    assert run.returncode == 0 and "ck-version" in run.context()
    # .claude/graphs itself a file: no graphs, no error
    other = project.parent / "other"
    (other / ".claude").mkdir(parents=True)
    (other / ".git").mkdir()
    (other / ".claude" / "graphs").write_text("not a folder")
    run = run_hook(HOOK, pre_tool(other))
    assert run.returncode == 0 and run.stdout == b""


def test_unwritable_data_folder_still_injects(project, tmp_path):
    graph(project, [checklist()])
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should be")
    run = run_hook(HOOK, pre_tool(project), env={"FOREWARN_DATA_DIR": str(blocker / "data")})
    assert run.returncode == 0 and "ck-version" in run.context()


def test_transcript_fifo_hits_the_deadline(project, tmp_path):
    node = checklist(priority="HIGH", files=("**/plugin.json",))
    node["trigger_conditions"] = {"file_patterns": ["**/plugin.json"], "context_keywords": ["release"]}
    graph(project, [node])
    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)  # nobody writes: opening it blocks until the deadline fires
    payload = pre_tool(project)
    payload["transcript_path"] = str(fifo)
    run = run_hook(HOOK, payload)
    assert run.returncode == 0 and run.stdout == b""
    assert run.seconds < 3
    assert "internal deadline" in log_text()


def test_invalid_glob_is_skipped_and_reported(project):
    bad = checklist("bad-glob")
    bad["trigger_conditions"]["file_patterns"] = ["#comment-not-a-glob"]
    graph(project, [bad, checklist("fine")])
    run = run_hook(HOOK, pre_tool(project))
    assert "fine" in run.context() and "bad-glob" not in run.context()


def test_missing_script_path_is_not_exit_two():
    # hooks.json must point at files that exist: Python exits 2 for a missing script, which Claude Code reads as a block.
    config = json.load(open(os.path.join(HOOKS, "hooks.json")))
    for entries in config["hooks"].values():
        for entry in entries:
            for hook in entry["hooks"]:
                script = hook["command"].split("${CLAUDE_PLUGIN_ROOT}/")[1].rstrip('"')
                assert os.path.isfile(os.path.join(os.path.dirname(HOOKS), script)), script
                assert " -S " in hook["command"]


def imported_modules(payload):
    """Modules the hook imports, read from ``python -X importtime`` (the way the brief says to measure)."""
    proc = subprocess.run([sys.executable, "-S", "-X", "importtime", os.path.join(HOOKS, HOOK)],
                          input=json.dumps(payload).encode(), capture_output=True, env=dict(os.environ))
    names = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return proc, names


def test_hot_path_imports_nothing_heavy(project):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project, session="warm"))
    proc, modules = imported_modules(pre_tool(project, session="imports"))
    assert b"additionalContext" in proc.stdout
    assert "forewarn.relevance" in modules  # the measurement sees the scoring path
    for heavy in ("json", "re", "signal", "enum", "pydantic", "orjson", "pathspec", "subprocess", "hashlib", "forewarn.index_build"):
        assert heavy not in modules, heavy


def test_read_only_call_imports_only_the_contract(project):
    proc, modules = imported_modules(pre_tool(project, tool="Read", session="imports"))
    assert proc.stdout == b""
    assert not {m for m in modules if m.startswith("forewarn.")} - {"forewarn.hookio", "forewarn.fastjson", "forewarn.log", "forewarn.paths", "forewarn.inject"}
