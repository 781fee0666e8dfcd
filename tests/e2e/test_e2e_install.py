"""Scenario 1: forewarn validates strictly, installs from its own marketplace, and its hooks fire once installed."""

import json
import os

from claude_code import INLINE_DATA, INSTALLED_DATA, REPO, write_graph
from e2e_nodes import CHECKLIST_MARKERS, VERSION_BUMP, plugin_json_write
from fake_anthropic import tool_turn


def test_plugin_validates_strictly(sandbox):
    for target in (REPO, os.path.join(REPO, ".claude-plugin", "plugin.json")):
        proc = sandbox.cli("plugin", "validate", "--strict", target)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "Validation passed" in proc.stdout
        assert "⚠" not in proc.stdout and "✘" not in proc.stdout, proc.stdout
        report = json.loads(sandbox.cli("plugin", "validate", "--strict", "--json", target).stdout)
        assert report["success"] is True
        for part in [report["manifest"], *report["contents"]]:
            assert part["errors"] == [] and part["warnings"] == [], part
        assert {hook["event"] for hook in report["provides"]["hooks"]} == {"SessionStart", "PreToolUse", "Stop"}


def test_marketplace_install_then_session_fires_hooks(sandbox):
    add, install = sandbox.install_plugin()
    assert add.returncode == 0, add.stdout + add.stderr
    assert install.returncode == 0, install.stdout + install.stderr
    assert "forewarn@forewarn" in install.stdout
    write_graph(sandbox.project, [VERSION_BUMP])

    result = sandbox.run("bump the version", [tool_turn(*plugin_json_write(sandbox))], plugin_dir=None)

    assert result.completed, result.describe()
    briefing = result.hook_contexts("SessionStart")
    assert len(briefing) == 1 and VERSION_BUMP["label"] in briefing[0], briefing
    injected = result.hook_contexts("PreToolUse:Write", after_tool=0)
    assert len(injected) == 1 and all(marker in injected[0] for marker in CHECKLIST_MARKERS), injected
    assert os.path.isdir(sandbox.data_dir(INSTALLED_DATA))
    assert not os.path.exists(sandbox.data_dir(INLINE_DATA))
