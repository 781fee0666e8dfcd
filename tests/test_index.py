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
