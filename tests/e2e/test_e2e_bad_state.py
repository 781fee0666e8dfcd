"""Scenario 4: bad state around the plugin never breaks the session.

Each time the tool still runs (the file is written), the session completes
(exit 0, a result JSON that is not an error), and nothing is injected but
what the valid graph gives.
"""

import os

import pytest

from claude_code import INLINE_DATA, write_graph
from e2e_nodes import CHECKLIST_MARKERS, VERSION_BUMP, plugin_json_write
from fake_anthropic import all_text, tool_turn

CORRUPT = '{"directed": true, "nodes": [{"id": "x", "type": "Concept", "process_type"'


def _bump(sandbox, **env):
    name, write = plugin_json_write(sandbox)
    result = sandbox.run("bump the version", [tool_turn(name, write)], **env)
    assert result.completed, result.describe()
    assert open(write["file_path"]).read() == write["content"]  # the tool ran
    return result


def _checklist_injected(result):
    injected = result.hook_contexts("PreToolUse:Write", after_tool=0)
    return len(injected) == 1 and all(marker in injected[0] for marker in CHECKLIST_MARKERS)


def test_corrupt_graph_beside_a_valid_one(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    broken = sandbox.path(".claude", "graphs", "broken.json")
    with open(broken, "w") as handle:
        handle.write(CORRUPT)
    result = _bump(sandbox)
    assert _checklist_injected(result), result.after_tool_text(0)
    assert VERSION_BUMP["label"] in result.hook_contexts("SessionStart")[0]
    assert open(broken).read() == CORRUPT  # left as it was


def test_only_corrupt_graphs_inject_nothing(sandbox):
    os.makedirs(sandbox.path(".claude", "graphs"))
    with open(sandbox.path(".claude", "graphs", "broken.json"), "w") as handle:
        handle.write(CORRUPT)
    with open(sandbox.path(".claude", "graphs", "not-a-graph.json"), "w") as handle:
        handle.write('["a list, not a graph"]')
    result = _bump(sandbox)
    assert result.hook_contexts("PreToolUse", after_tool=0) == [], result.after_tool_text(0)


def test_unwritable_data_folder(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    # Tests run as root, so chmod does not stop writes.  A regular file where the plugin's data
    # folder goes makes every write below it fail (ENOTDIR/EEXIST); Claude Code still sets
    # CLAUDE_PLUGIN_DATA to that path and runs the hooks (test_e2e_harness.py shows it with a probe plugin).
    blocker = sandbox.data_dir(INLINE_DATA)
    os.makedirs(os.path.dirname(blocker))
    with open(blocker, "w") as handle:
        handle.write("not a folder\n")
    result = _bump(sandbox)
    assert _checklist_injected(result), result.after_tool_text(0)  # the index is built in memory
    assert open(blocker).read() == "not a folder\n"


def test_disable_switch_turns_pre_tool_use_injection_off(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    result = _bump(sandbox, DISABLE_EXPERIENCE_INJECTION="1")
    assert result.hook_contexts("PreToolUse", after_tool=0) == [], result.after_tool_text(0)
    assert not any(marker in result.after_tool_text(0) for marker in CHECKLIST_MARKERS)


def test_disable_switch_turns_the_session_start_briefing_off_too(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    result = _bump(sandbox, DISABLE_EXPERIENCE_INJECTION="1")
    assert result.hook_contexts("SessionStart") == [], all_text(result.first_request)[:3000]
