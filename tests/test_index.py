"""The compiled index: freshness, corruption, foreign roots, unwritable data folders, background rebuilds."""

import json
import os
import time

import pytest

from forewarn import index, index_build


def node(node_id, status="active", priority="CRITICAL"):
    return {"id": node_id, "type": "Concept", "label": node_id, "process_type": "warning", "priority": priority, "status": status,
            "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/a.json"]}, "warning": {"risk": "r"}}


@pytest.fixture
def root(tmp_path, monkeypatch):
    project = tmp_path / "proj"
    (project / ".claude" / "graphs").mkdir(parents=True)
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FOREWARN_USER_GRAPHS", str(tmp_path / "user"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return project


def write(root, nodes, name="g.json"):
    (root / ".claude" / "graphs" / name).write_text(json.dumps({"nodes": nodes}))


def open_ids(root):
    idx, state = index.open_fresh(str(root))
    try:
        return sorted(r[index.R_ID] for r in idx.all_records()), state, dict(idx.header["counts"])
    finally:
        idx.close()


def test_rebuilt_only_when_a_source_changes(root):
    write(root, [node("a"), node("d", status="draft")])
    assert open_ids(root) == (["a"], "rebuilt", {"active": 1, "draft": 1, "archived": 0})
    assert open_ids(root)[1] == "fresh"
    write(root, [node("a"), node("b")])
    assert open_ids(root)[:2] == (["a", "b"], "rebuilt")
    (root / ".claude" / "graphs" / "more.json").write_text(json.dumps({"nodes": [node("c")]}))
    assert open_ids(root)[:2] == (["a", "b", "c"], "rebuilt")
    (root / ".claude" / "graphs" / "more.json").unlink()
    assert open_ids(root)[:2] == (["a", "b"], "rebuilt")
    (root / ".claude" / "forewarn.json").write_text(json.dumps({"threshold": 0.9}))
    idx, state = index.open_fresh(str(root))
    assert state == "rebuilt" and idx.header["settings"]["threshold"] == 0.9
    idx.close()


@pytest.mark.parametrize("damage", ["truncate", "header", "bucket", "text", "garbage", "empty"])
def test_corrupt_index_is_never_trusted(root, damage):
    write(root, [node("a")])
    open_ids(root)
    path = index.index_file(str(root))
    blob = bytearray(open(path, "rb").read())
    if damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "header":
        blob[20] ^= 0xFF
    elif damage == "bucket":
        blob[-3] ^= 0xFF
    elif damage == "text":
        idx = index.open_index_file(path)
        off = idx._base + idx.all_records()[0][index.R_TEXT][0]
        idx.close()
        blob[off] ^= 0xFF
    elif damage == "garbage":
        blob = bytearray(os.urandom(len(blob)))
    else:
        blob = bytearray()
    open(path, "wb").write(bytes(blob))
    if damage in ("bucket", "text"):  # the header is fine: reading the damaged part raises, the hook rebuilds
        idx, state = index.open_fresh(str(root))
        with pytest.raises(index.CorruptIndex):
            idx.text(idx.all_records()[0]) if damage == "text" else idx.all_records()
        idx.close()
        from forewarn import inject

        data = {"session_id": damage, "cwd": str(root), "tool_name": "Write", "tool_input": {"file_path": str(root / "a.json"), "content": "x"}}
        assert "[CRITICAL] a" in inject.handle(data)
        if damage == "text":  # the hook read the damaged text, discarded the index and rebuilt it
            assert open_ids(root)[:2] == (["a"], "fresh")
        return
    ids, state, _counts = open_ids(root)
    assert ids == ["a"] and state == "rebuilt"


def test_index_of_another_project_is_not_used(root, tmp_path):
    write(root, [node("a")])
    open_ids(root)
    other = tmp_path / "other"
    (other / ".claude" / "graphs").mkdir(parents=True)
    (other / ".claude" / "graphs" / "g.json").write_text(json.dumps({"nodes": [node("z")]}))
    os.replace(index.index_file(str(root)), index.index_file(str(other)))
    assert open_ids(other)[:2] == (["z"], "rebuilt")


def test_unwritable_data_folder_builds_in_memory(root, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    write(root, [node("a")])
    assert open_ids(root)[:2] == (["a"], "rebuilt")
    assert open_ids(root)[:2] == (["a"], "rebuilt")


def test_a_graph_broken_after_its_first_nodes_keeps_them_and_is_reported(root):
    good = json.dumps({"nodes": [node("a"), node("b")]})
    (root / ".claude" / "graphs" / "g.json").write_text(good[:-2] + ', {"id": "c", ')  # cut inside the third node
    write(root, [node("z")], name="other.json")
    ids, _state, _counts = open_ids(root)
    assert ids == ["a", "b", "z"]
    idx, _state = index.open_fresh(str(root))
    try:
        assert [p[0].endswith("g.json") and "not valid JSON" in p[2] for p in idx.header["problems"]] == [True]
    finally:
        idx.close()


def test_a_rebuild_where_no_index_folder_can_be_made_returns_false(root, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    write(root, [node("a")])
    assert index_build.rebuild(str(root)) is False


def test_large_sources_rebuild_in_the_background(root):
    write(root, [node("a")])
    open_ids(root)
    write(root, [node("a"), node("b")])
    idx, state = index.open_fresh(str(root), inline_limit=1)  # every source is "large"
    assert state == "stale" and sorted(r[index.R_ID] for r in idx.all_records()) == ["a"]
    idx.close()
    deadline = time.time() + 20
    while time.time() < deadline:
        idx, state = index.open_fresh(str(root), rebuild=False)
        if idx is not None:
            assert sorted(r[index.R_ID] for r in idx.all_records()) == ["a", "b"]
            idx.close()
            return
        time.sleep(0.1)
    pytest.fail("the background rebuild did not finish")


def test_problems_are_listed_and_duplicates_reported(root, tmp_path):
    bad = node("bad")
    bad["priority"] = "URGENT"
    write(root, [node("a"), bad])
    write(root, [node("a")], name="z.json")
    idx, _state = index.open_fresh(str(root))
    problems = idx.header["problems"]
    idx.close()
    assert any(n == "bad" and "priority" in text for _p, n, text in problems)
    assert any(n == "a" and "duplicate" in text for _p, n, text in problems)


def test_build_time_is_recorded(root):
    write(root, [node("n%d" % i) for i in range(50)])
    blob = index_build.build_bytes(str(root), index.current_sources(str(root)))
    assert blob.startswith(index.MAGIC)


def test_prefix_and_keyword_buckets_reach_the_hook(root):
    from forewarn import inject

    pr = node("pr")
    pr["trigger_conditions"] = {"tool_names": ["mcp__github__*"]}
    push = node("push")
    push["trigger_conditions"] = {"tool_names": ["Bash"], "action_keywords": ["push --force"]}
    write(root, [pr, push])
    idx, _state = index.open_fresh(str(root))
    assert idx.header["tool_prefixes"] == ("mcp__github__",)
    assert idx.header["keyword_words"] == {"t0:bash": frozenset({"push"})}
    idx.close()
    call = {"session_id": "s", "cwd": str(root), "tool_name": "mcp__github__create_pull_request", "tool_input": {"title": "x"}}
    assert "[CRITICAL] pr" in inject.handle(call)
    bash = {"session_id": "s", "cwd": str(root), "tool_name": "Bash", "tool_input": {"command": "git push --force"}}
    assert "[CRITICAL] push" in inject.handle(bash)
    bash["tool_input"]["command"] = "git push origin main"
    assert inject.handle(dict(bash, session_id="t")) is None


def test_sweep_removes_indexes_of_abandoned_projects(root):
    write(root, [node("a")])
    open_ids(root)
    path = index.index_file(str(root))
    assert index.sweep(now=time.time()) == 0 and os.path.exists(path)
    assert index.sweep(now=time.time() + 31 * 86400) >= 1 and not os.path.exists(path)
    assert open_ids(root)[:2] == (["a"], "rebuilt")


def test_header_length_beyond_the_file_is_refused_before_reading(root):
    write(root, [node("a")])
    open_ids(root)
    path = index.index_file(str(root))
    blob = bytearray(open(path, "rb").read())
    blob[8:12] = (0xFFFFFF00).to_bytes(4, "little")  # a header of ~4 GiB: read() would try to allocate it
    open(path, "wb").write(bytes(blob))
    with pytest.raises(index.CorruptIndex, match="header length beyond the end of the file"):
        index.open_index_file(path)
    assert open_ids(root)[:2] == (["a"], "rebuilt")


def test_every_bucket_and_text_is_whole_and_every_item_is_reachable(root):
    nodes = [node("n%d" % i, priority=p) for i, p in enumerate(["CRITICAL", "HIGH", "MEDIUM", "LOW"] * 5)]
    nodes[3]["trigger_conditions"] = {"action_keywords": ["deploy now"]}  # keywords only: bucket "k"
    nodes[4]["trigger_conditions"] = {"tool_names": ["mcp__x__*"]}
    write(root, nodes)
    idx, _state = index.open_fresh(str(root))
    try:
        for key in idx.header["buckets"]:
            assert idx.bucket(key)
        records = idx.all_records()
        assert sorted(r[index.R_ID] for r in records) == sorted(n["id"] for n in nodes)
        assert all(idx.text(r).startswith("[") for r in records)
        assert idx.bucket("no such bucket") == ()
    finally:
        idx.close()


def test_without_rebuild_a_stale_or_missing_index_is_not_returned(root):
    assert index.open_fresh(str(root), rebuild=False) == (None, "stale")
    write(root, [node("a")])
    open_ids(root)
    idx, state = index.open_fresh(str(root), rebuild=False)
    assert state == "fresh"
    idx.close()
    write(root, [node("a"), node("b")])
    assert index.open_fresh(str(root), rebuild=False) == (None, "stale")


def test_no_project_root_uses_the_users_graphs(root, tmp_path):
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "u.json").write_text(json.dumps({"nodes": [node("mine")]}))
    idx, state = index.open_fresh(None)
    assert state == "rebuilt" and [r[index.R_ID] for r in idx.all_records()] == ["mine"]
    idx.close()


def log_lines(tmp_path):
    path = tmp_path / "data" / "forewarn.log"
    return path.read_text().splitlines() if path.exists() else []


def test_a_rebuild_logs_what_the_hooks_cannot_use(root, tmp_path):
    write(root, [node("a")])
    open_ids(root)
    assert log_lines(tmp_path) == []  # nothing to report, nothing logged
    bad = node("bad")
    bad["priority"] = "URGENT"
    write(root, [node("a"), bad])
    (root / ".claude" / "graphs" / "broken.json").write_text("{")
    os.mkfifo(root / ".claude" / "graphs" / "pipe.json")
    open_ids(root)
    (line,) = log_lines(tmp_path)
    assert " index rebuilt for %s with 3 problem(s): " % root in line
    assert "broken.json: not valid JSON" in line and "bad: priority" in line and "pipe.json: not a regular file" in line
    open_ids(root)
    assert len(log_lines(tmp_path)) == 1  # fresh: not logged again


def test_scan_reports_what_it_skips(tmp_path):
    from forewarn import paths

    folder = tmp_path / "graphs"
    folder.mkdir()
    (folder / "good.json").write_text("{}")
    (folder / "dir.json").mkdir()
    (folder / "link.json").symlink_to(tmp_path / "nowhere")
    (folder / ".hidden.json").write_text("{}")
    (folder / "notes.txt").write_text("")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    skipped = []
    found = paths.scan_graph_files([str(folder), str(not_a_folder), str(tmp_path / "missing")], skipped)
    assert [os.path.basename(p) for p, _m, _s in found] == ["good.json"]
    assert sorted(s.split(": ", 1)[1] for s in skipped) == ["cannot list (Not a directory)", "cannot stat (No such file or directory)", "not a regular file"]
    assert paths.scan_graph_files([str(folder)]) == found  # without a list: the same answer, nothing reported


# --- settings: defaults, the project's file, environment overrides (stored in the index) ----------------------------


@pytest.mark.parametrize("key, value, expected", [
    ("threshold", 0.5, 0.5), ("threshold", "0.9", 0.9), ("threshold", " 1 ", 1.0), ("threshold", 0, 0.0),
    ("threshold", -0.1, None), ("threshold", 10.5, None), ("threshold", "nan", None), ("threshold", "inf", None),
    ("threshold", True, None), ("threshold", None, None), ("threshold", [1], None), ("threshold", "high", None),
    ("top_k", 5, 5), ("top_k", "2", 2), ("top_k", 0, None), ("top_k", 11, None), ("top_k", "2.5", None), ("top_k", False, None),
    ("max_chars", 200, 200), ("max_chars", 199, None), ("max_chars", 8000, 8000), ("max_chars", "1e3", None),
    ("context_bytes", 0, 0), ("context_bytes", 1 << 20, 1 << 20), ("context_bytes", (1 << 20) + 1, None),
])
def test_setting_coercion(key, value, expected):
    from forewarn import config

    assert config._coerce(key, value) == expected


def test_project_settings_file(root):
    from forewarn import config

    assert config.load_file_config(str(root)) == (config.DEFAULTS, [])
    path = root / ".claude" / "forewarn.json"
    path.write_text(json.dumps({"threshold": 0.9, "top_k": 99, "colour": "blue", "max_chars": True}))
    settings, notes = config.load_file_config(str(root))
    assert settings == dict(config.DEFAULTS, threshold=0.9)
    assert len(notes) == 3 and any("unknown setting 'colour'" in n for n in notes) and any("top_k=99 out of range" in n for n in notes)
    for text, why in (("{", "ignored ("), ("[1]", "ignored (not an object)")):
        path.write_text(text)
        settings, notes = config.load_file_config(str(root))
        assert settings == config.DEFAULTS and why in notes[0]


def test_environment_overrides_what_the_index_stored(monkeypatch):
    from forewarn import config

    stored = dict(config.DEFAULTS, threshold=0.9, top_k=2)
    assert config.effective(stored) == stored
    monkeypatch.setenv("FOREWARN_THRESHOLD", "0.3")
    monkeypatch.setenv("FOREWARN_TOP_K", "many")  # invalid: the stored value stays
    monkeypatch.setenv("FOREWARN_MAX_CHARS", "")
    assert config.effective(stored) == dict(stored, threshold=0.3)
    assert config.effective(None)["top_k"] == config.DEFAULTS["top_k"]


def test_a_checklist_about_edits_is_filed_for_the_files_its_steps_name():
    from forewarn.index_build import procedure_files
    from forewarn.knowledge import triggers_of

    node = {"id": "ck", "process_type": "checklist", "trigger_conditions": {
        "tool_names": ["Write", "Edit"], "file_patterns": ["**/plugin.json", "!**/node_modules/**"]},
        "checklist": {"items": ["Set the same version in .claude-plugin/marketplace.json",
                                {"item": "Add a CHANGELOG.md entry", "required": True}, "Run the tests"]}}
    assert procedure_files(node, triggers_of(node)) == ["**/marketplace.json", "**/CHANGELOG.md"]
    bash_only = dict(node, trigger_conditions={"tool_names": ["Bash"], "file_patterns": ["**/plugin.json"]})
    no_patterns = dict(node, trigger_conditions={"tool_names": ["Edit"]})
    warning = dict(node, process_type="warning")
    for other in (bash_only, no_patterns, warning):
        assert procedure_files(other, triggers_of(other)) == []
    release = dict(node, trigger_conditions={"tool_names": ["Bash"], "file_patterns": ["gems/client/lib/client/version.rb"]},
                   checklist={"items": ["Move Unreleased in CHANGELOG.md under the version", "gem build", "gem push"]})
    assert procedure_files(release, triggers_of(release)) == ["gems/client/**/CHANGELOG.md"]  # this package's changelog

