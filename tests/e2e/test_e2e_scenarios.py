"""forewarn inside the real Claude Code binary, against a scripted model (tests/e2e/README.md).

Each test asserts on the request bodies the model received: that is the
only proof that Claude Code loaded the plugin, ran its hooks, accepted their
output and delivered the text.
"""

import json
import os

import pytest

from claude_code import REPO, write_graph
from fake_anthropic import flatten, text_turn, tool_turn

pytestmark = pytest.mark.e2e

CHECKLIST = {
    "id": "checklist-version-bump",
    "type": "Concept",
    "label": "Version bump sync for plugin manifests",
    "description": "When plugin.json's version changes, marketplace.json and CHANGELOG.md change too.",
    "process_type": "checklist",
    "priority": "CRITICAL",
    "status": "active",
    "trigger_conditions": {
        "tool_names": ["Write", "Edit"],
        "file_patterns": ["**/plugin.json"],
        "action_keywords": ["version"],
        "context_keywords": ["release"],
    },
    "checklist": {"title": "Version bump sync", "items": ["Update marketplace.json to the same version", "Add a CHANGELOG.md entry"]},
}
PRE_TOOL_HEADER = "PreToolUse:Write hook additional context"


def request_after_tool(result, index):
    """The agent request that carries the result of the ``index``-th scripted tool call."""
    return flatten(result.agent_requests[index + 1].get("messages", [])[-1])


def assert_completed(result):
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.json is not None and result.json.get("is_error") is False, result.stdout[-2000:]


def test_plugin_validates_strictly(sandbox):
    proc = sandbox.cli("plugin", "validate", "--strict", REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation passed" in proc.stdout
    assert "⚠" not in proc.stdout and "✘" not in proc.stdout


def test_marketplace_install_then_session_fires_hooks(sandbox):
    add = sandbox.cli("plugin", "marketplace", "add", REPO)
    assert add.returncode == 0, add.stdout + add.stderr
    install = sandbox.cli("plugin", "install", "forewarn@forewarn")
    assert install.returncode == 0, install.stdout + install.stderr
    write_graph(sandbox.project, [CHECKLIST])
    script = [tool_turn("Write", {"file_path": sandbox.path(".claude-plugin", "plugin.json"), "content": '{"version": "0.2.0"}\n'})]
    result = sandbox.run("bump the version", script, plugin_dir=None)
    assert_completed(result)
    assert "SessionStart hook additional context" in flatten(result.agent_requests[0])
    assert PRE_TOOL_HEADER in request_after_tool(result, 0)
    assert os.path.isdir(sandbox.data_dir("forewarn-forewarn"))


def test_session_start_shows_critical_items_in_first_request(sandbox):
    write_graph(sandbox.project, [CHECKLIST])
    result = sandbox.run("hello", [text_turn("Hi.")])
    assert_completed(result)
    first = flatten(result.agent_requests[0])
    assert "SessionStart hook additional context" in first
    assert "Version bump sync for plugin manifests" in first


def test_pre_tool_use_injects_only_where_relevant(sandbox):
    write_graph(sandbox.project, [CHECKLIST])
    plugin_json = sandbox.path(".claude-plugin", "plugin.json")
    script = [
        tool_turn("Write", {"file_path": plugin_json, "content": '{"name": "demo", "version": "0.2.0"}\n'}),
        tool_turn("Write", {"file_path": sandbox.path("README.md"), "content": "# demo\nversion 0.2.0\n"}),
        tool_turn("Read", {"file_path": plugin_json}),
        text_turn("Done."),
    ]
    result = sandbox.run("bump the version", script)
    assert_completed(result)
    after_plugin_json = request_after_tool(result, 0)
    assert PRE_TOOL_HEADER in after_plugin_json
    assert "marketplace.json" in after_plugin_json and "CHANGELOG.md" in after_plugin_json
    assert "<forewarn-knowledge>" in after_plugin_json
    assert "forewarn" not in request_after_tool(result, 1)  # README.md: gated out
    assert "forewarn" not in request_after_tool(result, 2)  # Read: read-only tool
    assert os.path.exists(plugin_json) and os.path.exists(sandbox.path("README.md"))
    trace = open(os.path.join(sandbox.data_dir(), "trace.jsonl")).read().splitlines()
    decisions = [json.loads(line) for line in trace]
    assert [d["injected"] for d in decisions] == [["checklist-version-bump"], []]


def test_corrupt_graph_beside_a_valid_one(sandbox):
    write_graph(sandbox.project, [CHECKLIST])
    with open(sandbox.path(".claude", "graphs", "broken.json"), "w") as handle:
        handle.write('{"directed": true, "nodes": [{"id": "x", "type": "Concept", "process_type"')
    script = [tool_turn("Write", {"file_path": sandbox.path(".claude-plugin", "plugin.json"), "content": "{}\n"})]
    result = sandbox.run("bump", script)
    assert_completed(result)
    assert os.path.exists(sandbox.path(".claude-plugin", "plugin.json"))
    assert "Version bump sync" in request_after_tool(result, 0)


def test_unwritable_data_folder(sandbox):
    write_graph(sandbox.project, [CHECKLIST])
    # Tests run as root, so permissions do not stop writes: put a regular file where the
    # plugin's data folder goes, so every write below it fails (ENOTDIR).
    os.makedirs(os.path.dirname(sandbox.data_dir()), exist_ok=True)
    with open(sandbox.data_dir(), "w") as handle:
        handle.write("not a folder")
    script = [tool_turn("Write", {"file_path": sandbox.path(".claude-plugin", "plugin.json"), "content": "{}\n"})]
    result = sandbox.run("bump", script)
    assert_completed(result)
    assert os.path.exists(sandbox.path(".claude-plugin", "plugin.json"))
    assert "Version bump sync" in request_after_tool(result, 0)  # index built in memory


def test_disable_switch_turns_injection_off(sandbox):
    write_graph(sandbox.project, [CHECKLIST])
    script = [tool_turn("Write", {"file_path": sandbox.path(".claude-plugin", "plugin.json"), "content": "{}\n"})]
    result = sandbox.run("bump", script, DISABLE_EXPERIENCE_INJECTION="1")
    assert_completed(result)
    assert os.path.exists(sandbox.path(".claude-plugin", "plugin.json"))
    assert PRE_TOOL_HEADER not in request_after_tool(result, 0)


LESSON_BLOCK = """I have updated the lockfile. Noting the lesson:

[PROCESS_KNOWLEDGE]
type: checklist
priority: HIGH
label: Regenerate the lockfile after editing requirements
trigger_conditions:
  tool_names: [Write, Edit]
  file_patterns: ["**/requirements.txt"]
checklist:
  items:
    - Run pip-compile to regenerate requirements.lock
    - Commit requirements.lock with requirements.txt
[/PROCESS_KNOWLEDGE]"""


def test_learning_loop_across_three_sessions(sandbox):
    # Session 1: the assistant ends its turn with a [PROCESS_KNOWLEDGE] block; the Stop hook drafts it.
    first = sandbox.run("add requests to requirements", [
        tool_turn("Write", {"file_path": sandbox.path("requirements.txt"), "content": "requests\n"}),
        text_turn(LESSON_BLOCK),
    ])
    assert_completed(first)
    lessons = json.load(open(sandbox.path(".claude", "graphs", "lessons_graph.json")))
    drafts = [n for n in lessons["nodes"] if n.get("status") == "draft"]
    assert [n["label"] for n in drafts] == ["Regenerate the lockfile after editing requirements"]
    draft_id = drafts[0]["id"]

    # Session 2: the review command lists it for the model; promote makes it active.
    review = sandbox.run("/forewarn:knowledge-review-drafts", [text_turn("One draft is worth keeping.")])
    assert_completed(review)
    assert draft_id in flatten(review.agent_requests[0])
    promote = sandbox.run("/forewarn:knowledge-promote %s" % draft_id, [text_turn("Promoted.")])
    assert_completed(promote)
    assert "is active" in flatten(promote.agent_requests[0])
    lessons = json.load(open(sandbox.path(".claude", "graphs", "lessons_graph.json")))
    assert [n["status"] for n in lessons["nodes"] if n["id"] == draft_id] == ["active"]

    # Session 3: a matching tool call gets the lesson injected.
    third = sandbox.run("pin requests", [
        tool_turn("Edit", {"file_path": sandbox.path("requirements.txt"), "old_string": "requests", "new_string": "requests==2.32.3"}),
        text_turn("Pinned."),
    ])
    assert_completed(third)
    injected = request_after_tool(third, 0)
    assert "PreToolUse:Edit hook additional context" in injected
    assert "Run pip-compile to regenerate requirements.lock" in injected
