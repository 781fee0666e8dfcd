"""inject.handle in process: the PreToolUse decision on real graph files."""

import json

import pytest
from support import isolated_project

from forewarn import inject


def node(node_id, priority="CRITICAL", tools=("Write", "Edit"), files=("**/plugin.json",), status="active", **extra):
    base = {
        "id": node_id,
        "type": "Concept",
        "label": "Label of " + node_id,
        "process_type": "checklist",
        "priority": priority,
        "status": status,
        "trigger_conditions": {"tool_names": list(tools), "file_patterns": list(files)},
        "checklist": {"title": "t", "items": ["do the thing for " + node_id]},
    }
    base.update(extra)
    return base


@pytest.fixture
def project(tmp_path, monkeypatch):
    return isolated_project(tmp_path, monkeypatch, "proj")


def write_graph(root, nodes, name="g.json"):
    path = root / ".claude" / "graphs" / name
    path.write_text(json.dumps({"directed": True, "nodes": nodes, "links": []}))
    return path


def call(root, tool="Write", path=".claude-plugin/plugin.json", session="s", **tool_input):
    data = {"session_id": session, "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": tool}
    tool_input = dict(tool_input)
    if path is not None:
        tool_input.setdefault("file_path", str(root / path))
    data["tool_input"] = tool_input
    return data


def test_matching_write_injects_fenced_priority_marked_text(project):
    write_graph(project, [node("ck-version")])
    text = inject.handle(call(project))
    assert text is not None
    assert "<forewarn-knowledge>" in text and "</forewarn-knowledge>" in text
    assert "[CRITICAL] Label of ck-version" in text
    assert "do the thing for ck-version" in text


def test_write_to_other_file_is_gated(project):
    write_graph(project, [node("ck-version")])
    assert inject.handle(call(project, path="README.md")) is None


def test_drafts_and_archived_are_never_injected(project):
    write_graph(project, [node("a", status="draft"), node("b", status="archived")])
    assert inject.handle(call(project)) is None


def test_same_item_same_file_once_per_session(project):
    write_graph(project, [node("ck-version")])
    assert inject.handle(call(project, session="one"))
    assert inject.handle(call(project, session="one")) is None
    assert inject.handle(call(project, session="two"))


def test_top_three_by_score_then_priority_then_id(project):
    nodes = [node("m-%d" % i, priority="HIGH") for i in range(3)] + [node("c-1"), node("c-0")]
    write_graph(project, nodes)
    text = inject.handle(call(project))
    ids = [line.split("(checklist ")[1].rstrip(")") for line in text.splitlines() if line.startswith("[")]
    assert ids == ["c-0", "c-1", "m-0"]


def test_budget_is_respected(project, monkeypatch):
    long_items = ["item %d " % i + "x" * 200 for i in range(30)]
    write_graph(project, [node("big", checklist={"title": "t", "items": long_items})])
    text = inject.handle(call(project))
    assert text is not None and len(text) <= 1500
    monkeypatch.setenv("FOREWARN_MAX_CHARS", "600")
    assert len(inject.handle(call(project, session="other"))) <= 600


def test_the_heading_counts_the_items_the_budget_left(project, monkeypatch):
    long_items = ["item %d " % i + "x" * 200 for i in range(4)]
    write_graph(project, [node("a-big", checklist={"title": "t", "items": long_items}), node("b-next")])
    assert "2 recorded lessons" in inject.handle(call(project, session="roomy"))
    monkeypatch.setenv("FOREWARN_MAX_CHARS", "900")
    text = inject.handle(call(project, session="tight"))
    assert "Label of a-big" in text and "Label of b-next" not in text
    assert "1 recorded lesson " in text


def test_off_switch(project, monkeypatch):
    write_graph(project, [node("ck-version")])
    monkeypatch.setenv("DISABLE_EXPERIENCE_INJECTION", "1")
    assert inject.handle(call(project)) is None


def test_read_only_tools_are_skipped(project):
    write_graph(project, [node("ck-version", tools=("Read", "Write"))])
    assert inject.handle(call(project, tool="Read")) is None


def test_invalid_node_skipped_valid_neighbour_fires(project):
    bad = node("bad")
    bad["priority"] = "URGENT"
    write_graph(project, [bad, node("good")])
    text = inject.handle(call(project))
    assert "good" in text and "Label of bad" not in text


def test_graph_change_is_picked_up(project):
    path = write_graph(project, [node("first")])
    assert "first" in inject.handle(call(project, session="a"))
    write_graph(project, [node("second")])
    assert path.exists()
    text = inject.handle(call(project, session="b"))
    assert "second" in text and "Label of first" not in text


def test_context_keyword_from_transcript_tail(project, tmp_path):
    # MEDIUM: tool+file = 0.8 alone reaches 0.7; use HIGH with file only (0.6) + context (0.75)
    write_graph(project, [node("ctx", priority="HIGH", tools=(), files=("**/plugin.json",),
                               trigger_conditions={"file_patterns": ["**/plugin.json"], "context_keywords": ["release"]})])
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": "prepare the release please"}}) + "\n")
    data = call(project)
    assert inject.handle(data) is None
    data["transcript_path"] = str(transcript)
    data["session_id"] = "other"
    assert "ctx" in inject.handle(data)


def test_cli_finds_the_plugin_data_folder_claude_code_uses(tmp_path, monkeypatch):
    from forewarn import paths

    monkeypatch.delenv("FOREWARN_DATA_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    base = tmp_path / ".claude" / "plugins" / "data"
    assert paths.data_dir() == str(base / "forewarn-forewarn")
    (base / "forewarn-inline").mkdir(parents=True)
    assert paths.data_dir() == str(base / "forewarn-inline")
    (base / "forewarn-forewarn").mkdir()
    assert paths.data_dir() == str(base / "forewarn-forewarn")
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "set-by-claude"))
    assert paths.data_dir() == str(tmp_path / "set-by-claude")
