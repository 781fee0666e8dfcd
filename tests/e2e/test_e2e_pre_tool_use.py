"""Scenario 3: PreToolUse puts the version-bump checklist next to the result of a Write to plugin.json, and only there."""

import os

from claude_code import INLINE_DATA, write_graph
from e2e_nodes import CHECKLIST_MARKERS, VERSION_BUMP, plugin_json_write
from fake_anthropic import text_turn, tool_turn


def test_pre_tool_use_injects_only_where_relevant(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    name, write = plugin_json_write(sandbox)
    plugin_json = write["file_path"]
    script = [
        tool_turn(name, write),
        tool_turn("Write", {"file_path": sandbox.path("README.md"), "content": "# demo\nversion 0.2.0 is out\n"}),
        tool_turn("Read", {"file_path": plugin_json}),
        text_turn("Done."),
    ]

    result = sandbox.run("bump the version to 0.2.0", script)

    assert result.completed, result.describe()
    assert [call["name"] for call in result.tool_calls] == ["Write", "Write", "Read"]
    injected = result.hook_contexts("PreToolUse:Write", after_tool=0)
    assert len(injected) == 1, result.after_tool_text(0)
    assert all(marker in injected[0] for marker in CHECKLIST_MARKERS), injected[0]
    assert VERSION_BUMP["label"] in injected[0]
    # README.md matches the tool and the keyword but not the file pattern; a Read is read-only.
    assert result.hook_contexts("PreToolUse", after_tool=1) == [], result.after_tool_text(1)
    assert result.hook_contexts("PreToolUse", after_tool=2) == [], result.after_tool_text(2)
    for index in (1, 2):
        assert not any(marker in result.after_tool_text(index) for marker in CHECKLIST_MARKERS)
    # The tools ran.
    assert open(plugin_json).read() == write["content"]
    assert os.path.exists(sandbox.path("README.md"))
    assert os.path.isdir(sandbox.data_dir(INLINE_DATA))


def test_edit_of_plugin_json_gets_the_checklist_too(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    name, write = plugin_json_write(sandbox, version="0.1.0")
    os.makedirs(os.path.dirname(write["file_path"]))
    with open(write["file_path"], "w") as handle:
        handle.write(write["content"])
    script = [
        tool_turn("Read", {"file_path": write["file_path"]}),
        tool_turn("Edit", {"file_path": write["file_path"], "old_string": '"0.1.0"', "new_string": '"0.2.0"'}),
    ]
    result = sandbox.run("bump the version", script)
    assert result.completed, result.describe()
    injected = result.hook_contexts("PreToolUse:Edit", after_tool=1)
    assert len(injected) == 1 and all(marker in injected[0] for marker in CHECKLIST_MARKERS), result.after_tool_text(1)
    assert '"0.2.0"' in open(write["file_path"]).read()
