"""hooks/pre_experience_injection.py as a subprocess fed real hook JSON, good and bad.

Every test runs the hook the way hooks.json does (``python3 -S <path>``) and
checks the fail-open contract: exit 0, stdout empty or the one PreToolUse
envelope, the internal deadline respected, and a line in the hook log or
the trace saying what happened.
"""

import json
import os
import resource
import subprocess
import time

import pytest

from conftest import (HOOKS, answer, checklist, graph, hook_command, hook_env, log_text, pre_tool, run_hook,
                      run_hooks_together, trace_records)
from forewarn import index

HOOK = "pre_experience_injection.py"
# The hook's own deadline is 0.45 s of work after start-up; this bound adds start-up and a noisy machine.
WALL_LIMIT = 2.0


def injected_text(run):
    out = answer(run)
    return None if out is None else out["hookSpecificOutput"]["additionalContext"]


# --- the answer -------------------------------------------------------------------------------------------


def test_matching_write_gets_exactly_the_pretooluse_envelope(project):
    graph(project, [checklist()])
    run = run_hook(HOOK, pre_tool(project))
    out = answer(run)
    assert out == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": out["hookSpecificOutput"]["additionalContext"]}}
    assert b"permissionDecision" not in run.stdout and b"decision" not in run.stdout  # advice only, never a verdict
    assert run.stdout.isascii() and run.stderr == b""
    text = out["hookSpecificOutput"]["additionalContext"]
    heading, fenced = text.split("\n", 1)
    assert "reference data" in heading and "not a request from the user" in heading
    assert fenced.startswith("<forewarn-knowledge>\n[CRITICAL] Version bump ck-version (checklist ck-version)\n")
    assert fenced.endswith("\n</forewarn-knowledge>")
    assert "- [ ] Update marketplace.json" in fenced
    assert len(text) <= 1500


def test_a_step_of_the_checklist_in_another_file_gets_the_checklist(project):
    graph(project, [checklist()])  # keyed on **/plugin.json; its steps name marketplace.json and CHANGELOG.md
    assert "ck-version" in injected_text(run_hook(HOOK, pre_tool(project, rel=".claude-plugin/marketplace.json")))
    assert answer(run_hook(HOOK, pre_tool(project, rel="README.md", session="s2"))) is None


def test_text_stays_within_the_budget(project):
    node = checklist("big")
    node["checklist"]["items"] = ["step %d " % i + "x" * 150 for i in range(40)]
    graph(project, [node, checklist("second", priority="HIGH")])
    text = injected_text(run_hook(HOOK, pre_tool(project, session="a")))
    assert 1250 < len(text) <= 1500  # the default budget, filled
    assert text.endswith("[... cut to fit the budget]\n</forewarn-knowledge>")
    assert "(checklist second)" not in text  # the item after the cut one is dropped, not squeezed in
    assert len(injected_text(run_hook(HOOK, pre_tool(project, session="b"), env={"FOREWARN_MAX_CHARS": "600"}))) <= 600
    (project / ".claude" / "forewarn.json").write_text(json.dumps({"max_chars": 400}))
    assert len(injected_text(run_hook(HOOK, pre_tool(project, session="c")))) <= 400


@pytest.mark.parametrize("tool", ["Read", "Grep", "Glob", "LS", "NotebookRead", "WebFetch", "WebSearch", "TodoWrite"])
def test_read_only_tools_leave_before_any_work(project, data_dir, tool):
    graph(project, [checklist(tools=(tool, "Write"), files=())])
    run = run_hook(HOOK, pre_tool(project, tool=tool, pattern="version"))
    assert answer(run) is None
    assert not (data_dir / "index").exists() and trace_records() == []  # no index built, no decision made


@pytest.mark.parametrize("value", ["1", "true", "YES"])
def test_disable_switch_turns_the_hook_off(project, data_dir, value):
    graph(project, [checklist()])
    assert answer(run_hook(HOOK, pre_tool(project), env={"DISABLE_EXPERIENCE_INJECTION": value})) is None
    assert not (data_dir / "index").exists() and trace_records() == []
    assert "ck-version" in injected_text(run_hook(HOOK, pre_tool(project), env={"DISABLE_EXPERIENCE_INJECTION": "0"}))


def test_drafts_and_archived_are_never_injected(project):
    graph(project, [checklist("draft", status="draft"), checklist("old", status="archived"), checklist("live", priority="LOW")])
    text = injected_text(run_hook(HOOK, pre_tool(project, session="a"), env={"FOREWARN_THRESHOLD": "0.1"}))
    assert "(checklist live)" in text and "(checklist draft)" not in text and "(checklist old)" not in text
    assert [c["id"] for c in trace_records()[-1]["candidates"]] == ["live"]  # not even scored
    graph(project, [checklist("draft", status="draft"), checklist("old", status="archived")])
    assert answer(run_hook(HOOK, pre_tool(project, session="b"), env={"FOREWARN_THRESHOLD": "0.1"})) is None


# --- once per session and file ---------------------------------------------------------------------------


def test_same_item_once_per_session_and_file(project, data_dir):
    graph(project, [checklist()])
    assert "ck-version" in injected_text(run_hook(HOOK, pre_tool(project, session="one")))
    assert answer(run_hook(HOOK, pre_tool(project, session="one"))) is None
    assert trace_records()[-1]["repeats"] == ["ck-version"] and trace_records()[-1]["injected"] == []
    assert "ck-version" in injected_text(run_hook(HOOK, pre_tool(project, session="one", rel="sub/plugin.json")))
    assert "ck-version" in injected_text(run_hook(HOOK, pre_tool(project, session="two")))
    lines = (data_dir / "sessions" / "one.injected").read_text().splitlines()
    assert lines == ["ck-version\t.claude-plugin/plugin.json", "ck-version\tsub/plugin.json"]


def test_parallel_hooks_inject_once_per_session_and_file(project, data_dir):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project, session="warm"))  # index built: what races here is the session claim
    files = ["a/plugin.json", "b/plugin.json", "c/plugin.json"]
    payloads = [pre_tool(project, session="same", rel=rel) for rel in files for _copy in range(4)]
    runs = run_hooks_together(HOOK, payloads)
    spoke = sorted(p["tool_input"]["file_path"] for p, r in zip(payloads, runs) if injected_text(r))
    claimed = sorted((data_dir / "sessions" / "same.injected").read_text().splitlines())
    assert len(spoke) == len(set(spoke)) and len(claimed) == len(set(claimed))  # never twice for one file
    if "internal deadline" not in log_text():  # a machine too slow for twelve at once may end some early, silently
        assert spoke == sorted(str(project / rel) for rel in files)  # once per file, not once per process
        assert claimed == ["ck-version\t" + rel for rel in files]


# --- the trace --------------------------------------------------------------------------------------------


def test_every_decision_is_traced_with_its_score_terms(project):
    gated = checklist("json-version", priority="HIGH", files=("**/*.json",))
    graph(project, [checklist(), gated])
    run_hook(HOOK, pre_tool(project))  # both match plugin.json; both injected
    run_hook(HOOK, pre_tool(project, rel="package.json", content='{"name": "x"}'))  # "version" absent: action gate
    run_hook(HOOK, pre_tool(project, rel="README.md", content="text"))  # no candidate at all
    first, second, third = trace_records()
    assert first["injected"] == ["ck-version", "json-version"] and first["index"] == "rebuilt"
    assert first["candidates"][0] == {"id": "ck-version", "score": 1.8, "gate": None,
                                      "terms": {"tool": 1, "file": 1, "action": "version", "context": None}}
    assert first["candidates"][1]["score"] == 1.35 and first["threshold"] == 0.7
    assert first["tool"] == "Write" and first["path"] == ".claude-plugin/plugin.json" and first["session"] == "s1"
    assert second["injected"] == [] and second["index"] == "fresh" and second["path"] == "package.json"
    assert second["candidates"] == [{"id": "json-version", "score": 1.2, "gate": "none of its action keywords occur in the tool input",
                                     "terms": {"tool": 1, "file": 1, "action": None, "context": None}}]
    assert third["injected"] == [] and third["candidates"] == []
    assert all(isinstance(r["ts"], float) for r in (first, second, third))


# --- the index: rebuilt when, and only when, a source changes ----------------------------------------------


def index_states(project, count=1, session="s"):
    for i in range(count):
        answer(run_hook(HOOK, pre_tool(project, session="%s%d" % (session, i))))
    return [r["index"] for r in trace_records()[-count:]]


def test_index_is_rebuilt_only_when_a_graph_changes(project, tmp_path):
    path = graph(project, [checklist()])
    assert index_states(project, 3, "a") == ["rebuilt", "fresh", "fresh"]
    stored = index.index_file(str(project))
    built = os.stat(stored).st_mtime_ns
    assert index_states(project, 1, "b") == ["fresh"] and os.stat(stored).st_mtime_ns == built  # not rewritten
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # same bytes, new mtime
    assert index_states(project, 2, "c") == ["rebuilt", "fresh"]
    st = os.stat(path)
    path.write_text(path.read_text() + "\n")  # new size, the old mtime put back
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert index_states(project, 2, "d") == ["rebuilt", "fresh"]
    user = tmp_path / "user-graphs"
    user.mkdir()
    (user / "mine.json").write_text(json.dumps({"nodes": [checklist("user-item", priority="HIGH")]}))
    assert index_states(project, 1, "e") == ["rebuilt"]
    assert "user-item" in trace_records()[-1]["injected"]
    (user / "mine.json").unlink()
    assert index_states(project, 2, "f") == ["rebuilt", "fresh"]


def assert_index_is_whole_and_current(project):
    """The stored index parses, every bucket and text passes its CRC, and it records the current sources."""
    idx = index.open_index_file(index.index_file(str(project)))
    try:
        assert idx.header["root"] == str(project)
        assert idx.header["sources"] == index.current_sources(str(project))
        records = idx.all_records()
        assert records and all(idx.text(r) for r in records)
        return sorted(r[index.R_ID] for r in records)
    finally:
        idx.close()


def test_racing_hooks_after_a_graph_change(project, data_dir):
    graph(project, [checklist("ck-old")])
    run_hook(HOOK, pre_tool(project, session="warm"))
    graph(project, [checklist("ck-new")])
    runs = run_hooks_together(HOOK, [pre_tool(project, session="r%d" % i) for i in range(12)])
    texts = [injected_text(r) for r in runs]  # answer() inside: exit 0 and valid JSON or nothing, for every one
    spoke = [t for t in texts if t]
    assert spoke, log_text()
    assert all("(checklist ck-new)" in t and "ck-old" not in t for t in spoke)
    assert all(r.seconds < WALL_LIMIT * 3 for r in runs)  # twelve at once on a small machine
    assert "rebuilt" in [r["index"] for r in trace_records()[1:]]
    assert assert_index_is_whole_and_current(project) == ["ck-new"]
    assert not [n for n in os.listdir(data_dir / "index") if n.endswith(".tmp")]  # no half-written file left
    assert index_states(project, 1, "after") == ["fresh"]


def damage_index(project, how):
    path = index.index_file(str(project))
    blob = bytearray(open(path, "rb").read())
    if how == "truncated":
        blob = blob[: len(blob) // 2]
    elif how == "empty":
        blob = bytearray()
    elif how == "magic":
        blob[0] ^= 0xFF
    elif how == "header length":  # claims a ~4 GiB header: must not be allocated
        blob[11] = 0xFF
    elif how == "header byte":
        blob[20] ^= 0xFF
    elif how in ("bucket byte", "text byte"):
        idx = index.open_index_file(path)
        if how == "text byte":
            offset = idx._base + idx.all_records()[0][index.R_TEXT][0]
        else:  # the bucket a Write of plugin.json reads
            offset = idx._base + index.unpack_entry(idx.header["buckets"]["wn:plugin.json"])[0]
        idx.close()
        blob[offset + 1] ^= 0xFF
    elif how == "garbage":
        blob = bytearray(os.urandom(len(blob)))
    open(path, "wb").write(bytes(blob))


def limit_address_space():
    """Run in the hook's child process: 1 GiB of address space, as a constrained sandbox might set."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("how", ["truncated", "empty", "magic", "header length", "header byte", "bucket byte", "text byte", "garbage"])
def test_corrupt_index_is_never_trusted(project, how):
    graph(project, [checklist()])
    run_hook(HOOK, pre_tool(project, session="warm"))
    damage_index(project, how)
    run = run_hook(HOOK, pre_tool(project, session="after"), preexec_fn=limit_address_space)
    text = injected_text(run)
    assert text and "(checklist ck-version)" in text, log_text() + run.stderr.decode()
    if how in ("bucket byte", "text byte"):  # the header is intact: the damage shows when the part is read
        assert "index unusable" in log_text()
    else:
        assert trace_records()[-1]["index"] == "rebuilt"
    assert assert_index_is_whole_and_current(project) == ["ck-version"]


def test_index_of_another_project_is_not_used(project, tmp_path):
    other = tmp_path / "other"
    (other / ".claude" / "graphs").mkdir(parents=True)
    (other / ".git").mkdir()
    graph(other, [checklist("theirs")])
    graph(project, [checklist("ours")])
    run_hook(HOOK, pre_tool(other, session="x"))
    os.makedirs(os.path.dirname(index.index_file(str(project))), exist_ok=True)
    os.replace(index.index_file(str(other)), index.index_file(str(project)))  # as if two roots shared a file name
    text = injected_text(run_hook(HOOK, pre_tool(project, session="y")))
    assert "(checklist ours)" in text and "theirs" not in text
    assert trace_records()[-1]["index"] == "rebuilt"


# --- bad input --------------------------------------------------------------------------------------------

BAD_INPUTS = {
    # name: (stdin bytes, what the hook log says)
    "empty": (b"", "empty stdin"),
    "white space": (b"  \n\t", "empty stdin"),
    "not JSON": (b"tool_name: Write", "stdin is not JSON"),
    "truncated JSON": (b'{"tool_name": "Write", "tool_input": {"file_path": ', "stdin is not JSON"),
    "two documents": (b'{"tool_name": "Write"} {}', "stdin is not JSON"),
    "NaN constant": (b'{"tool_name": NaN}', "stdin is not JSON"),
    "invalid UTF-8 between tokens": (b'{"tool_name": "Write",\xff\xfe "tool_input": {}}', "stdin is not JSON"),
    "nested too deep": (b"[" * 100000 + b"]" * 100000, "stdin is not JSON"),
    "array": (b'[{"tool_name": "Write"}]', "stdin JSON is a list, not an object"),
    "string": (b'"PreToolUse"', "stdin JSON is a str, not an object"),
    "number": (b"42", "stdin JSON is a int, not an object"),
    "null": (b"null", "stdin JSON is a NoneType, not an object"),
    "missing everything": (b"{}", "no tool_name string (NoneType)"),
    "tool_name is a number": (json.dumps({"tool_name": 3, "tool_input": {}}).encode(), "no tool_name string (int)"),
    "tool_name is empty": (json.dumps({"tool_name": "", "tool_input": {}}).encode(), "no tool_name string (str)"),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_stdin_is_silent_fast_and_logged(project, name):
    graph(project, [checklist()])
    stdin, why = BAD_INPUTS[name]
    run = run_hook(HOOK, stdin)
    assert answer(run) is None and run.stderr == b""
    assert run.seconds < WALL_LIMIT
    assert why in log_text()


@pytest.mark.parametrize("tool_input", ["plugin.json", ["plugin.json"], 7, None], ids=["string", "list", "number", "null"])
def test_tool_input_of_the_wrong_shape(project, tool_input):
    graph(project, [checklist(files=())])  # fires on Write + "version" alone, so only tool_input's shape decides
    payload = pre_tool(project)
    payload["tool_input"] = tool_input
    run = run_hook(HOOK, payload)
    assert answer(run) is None and run.seconds < WALL_LIMIT
    assert "tool_input is a %s, not an object" % type(tool_input).__name__ in log_text()
    assert trace_records()[-1]["injected"] == [] and trace_records()[-1]["tool"] == "Write"


@pytest.mark.parametrize("cwd", ["relative/dir", None, 42])
def test_relative_or_missing_cwd_searches_only_the_users_graphs(project, tmp_path, cwd):
    user = tmp_path / "user-graphs"
    user.mkdir()
    (user / "g.json").write_text(json.dumps({"nodes": [checklist("user-item")]}))
    graph(project, [checklist("project-item")])
    payload = pre_tool(project)
    if cwd is None:
        del payload["cwd"]
    else:
        payload["cwd"] = cwd
    text = injected_text(run_hook(HOOK, payload))
    assert "(checklist user-item)" in text and "project-item" not in text
    assert "no project folder (cwd %r)" % (cwd,) in log_text()


def test_twenty_megabyte_stdin(project):
    graph(project, [checklist()])
    payload = json.dumps(pre_tool(project, content="x" * (20 << 20))).encode()
    run = run_hook(HOOK, payload)
    assert answer(run) is None and run.seconds < WALL_LIMIT
    assert "stdin larger than" in log_text()


def test_stdin_is_utf8_bytes_whatever_the_locale(project):
    graph(project, [checklist()])
    payload = pre_tool(project, rel="docs/für/plugin.json", content="version 0.2.0 MARK")
    raw = json.dumps(payload, ensure_ascii=False).encode("utf-8").replace(b"MARK", b"\xff\xfe")
    assert b"\xff\xfe" in raw and "für".encode("utf-8") in raw
    run = run_hook(HOOK, raw, env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "latin-1", "PYTHONUTF8": "0"})
    assert "on docs/für/plugin.json" in injected_text(run)  # invalid bytes in a value are replaced, not fatal
    assert trace_records()[-1]["path"] == "docs/für/plugin.json"


def test_stdin_never_closed_hits_the_deadline(project):
    graph(project, [checklist()])
    proc = subprocess.Popen(hook_command(HOOK), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=hook_env())
    start = time.perf_counter()
    try:
        proc.stdin.write(b'{"tool_name": "Write", ')  # half an input, and the pipe stays open
        proc.stdin.flush()
        out = proc.stdout.read()  # returns when the hook exits
        proc.wait(timeout=10)
    finally:
        proc.stdin.close()
        proc.stdout.close()
    assert proc.returncode == 0 and out == b""
    assert time.perf_counter() - start < WALL_LIMIT
    assert "internal deadline of 0.45s reached" in log_text()


def test_transcript_that_is_a_fifo_nobody_writes_hits_the_deadline(project, tmp_path):
    node = checklist(priority="HIGH", tools=())  # file (0.6) + context (0.75) reaches the threshold: the transcript is read
    node["trigger_conditions"] = {"file_patterns": ["**/plugin.json"], "context_keywords": ["release"]}
    graph(project, [node])
    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)  # open() blocks until a writer comes: only the deadline ends it
    payload = pre_tool(project)
    payload["transcript_path"] = str(fifo)
    run = run_hook(HOOK, payload)
    assert answer(run) is None
    assert run.seconds < WALL_LIMIT
    assert "internal deadline of 0.45s reached" in log_text()


# --- bad graphs and folders ---------------------------------------------------------------------------------


def test_broken_graphs_and_nodes_beside_good_ones(project):
    graphs_dir = project / ".claude" / "graphs"
    (graphs_dir / "half.json").write_text('{"directed": true, "nodes": [{"id": "x"')  # half-written
    (graphs_dir / "shape.json").write_text('{"nodes": "not a list"}')
    (graphs_dir / "bytes.json").write_bytes(b"\xff\xfe\x00garbage")
    (graphs_dir / "array.json").write_text("[1, 2]")
    bad_priority = checklist("bad-priority")
    bad_priority["priority"] = ["HIGH"]  # unhashable: once crashed the whole index build
    bad_type = checklist("bad-type")
    bad_type["process_type"] = {"kind": "checklist"}
    no_label = checklist("no-label")
    del no_label["label"]
    bad_glob = checklist("bad-glob")
    bad_glob["trigger_conditions"]["file_patterns"] = ["**/plugin.json\\"]  # trailing backslash
    graph(project, [bad_priority, bad_type, no_label, bad_glob, checklist("good"), "not even a dict", None])
    run = run_hook(HOOK, pre_tool(project))
    text = injected_text(run)
    assert "(checklist good)" in text and "(checklist bad-" not in text and "(checklist no-label)" not in text
    assert run.seconds < WALL_LIMIT
    assert "with 8 problem(s)" in log_text()  # four files, four nodes; the first three named
    assert "array.json: a graph file holds a JSON object" in log_text()
    idx = index.open_index_file(index.index_file(str(project)))
    listed = {node or os.path.basename(path): text for path, node, text in idx.header["problems"]}
    idx.close()
    assert sorted(listed) == ["array.json", "bad-glob", "bad-priority", "bad-type", "bytes.json", "half.json", "no-label", "shape.json"]
    assert listed["bad-priority"].startswith("priority: must be one of")


@pytest.mark.parametrize("shape", ["folder named x.json", "fifo named x.json", "dangling link"])
def test_graph_entries_that_cannot_be_read(project, shape):
    # Tests run as root, and chmod 000 does not stop root from reading: these shapes cannot be read by anyone.
    entry = project / ".claude" / "graphs" / "x.json"
    if shape == "folder named x.json":
        entry.mkdir()
    elif shape == "fifo named x.json":
        os.mkfifo(entry)  # a naive open() would block forever
    else:
        entry.symlink_to(project / "nowhere.json")
    graph(project, [checklist()])
    run = run_hook(HOOK, pre_tool(project))
    assert "(checklist ck-version)" in injected_text(run) and run.seconds < WALL_LIMIT
    assert str(entry) in log_text()


def test_graph_folder_that_is_a_file(project):
    # .claude/graphs as a regular file: it cannot be listed, by root or anyone (chmod 000 would not stop root).
    graphs_dir = project / ".claude" / "graphs"
    graphs_dir.rmdir()
    graphs_dir.write_text("not a folder")
    run = run_hook(HOOK, pre_tool(project))
    assert answer(run) is None and run.seconds < WALL_LIMIT
    assert "cannot list (Not a directory)" in log_text()


def test_unwritable_data_folder_still_injects_and_says_why(project, tmp_path):
    graph(project, [checklist()])
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder's parent should be")
    run = run_hook(HOOK, pre_tool(project), env={"FOREWARN_DATA_DIR": str(blocker / "data")})
    assert "(checklist ck-version)" in injected_text(run) and run.seconds < WALL_LIMIT
    # the log itself cannot be written there either: its line goes to stderr, which Claude Code keeps
    assert b"forewarn: " in run.stderr and b"the index is built in memory on every call" in run.stderr


def test_hooks_json_runs_existing_scripts_with_python_dash_s():
    # A missing script makes Python exit 2, which Claude Code reads as "block this tool call".
    config = json.load(open(os.path.join(HOOKS, "hooks.json")))
    for entries in config["hooks"].values():
        for entry in entries:
            for hook in entry["hooks"]:
                assert hook["command"].startswith('python3 -S "${CLAUDE_PLUGIN_ROOT}/hooks/'), hook["command"]
                script = hook["command"].split("${CLAUDE_PLUGIN_ROOT}/")[1].rstrip('"')
                assert os.path.isfile(os.path.join(os.path.dirname(HOOKS), script)), script


def test_transcript_with_a_half_written_last_line(project, tmp_path):
    # Claude Code appends to the transcript while hooks run: a malformed line is skipped, the rest still counts.
    node = checklist(priority="HIGH", tools=())
    node["trigger_conditions"] = {"file_patterns": ["**/plugin.json"], "context_keywords": ["release"]}
    graph(project, [node])
    run_hook(HOOK, pre_tool(project, session="warm"))  # a warm index: json (whose errors _json borrows) is not imported
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "message": {"role": "user", "content": "prepare the release"}}) + "\n"
        + '{"type": "assistant", "message": {"content": "unterminated\n'
        + '{"type": "user", "message": {"content": [1 2]}}\n'
    )
    payload = pre_tool(project)
    payload["transcript_path"] = str(transcript)
    text = injected_text(run_hook(HOOK, payload))
    assert "(checklist ck-version)" in text, log_text()
    assert trace_records()[-1]["candidates"][0]["terms"]["context"] == "release"
