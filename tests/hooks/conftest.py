"""Running forewarn's hooks as Claude Code does: a subprocess, hook JSON on stdin, exit code and stdout read."""

import json
import os
import subprocess
import sys
import time

import pytest
from support import isolated_project

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOKS = os.path.join(REPO, "hooks")


class HookRun:
    def __init__(self, proc, seconds):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.seconds = seconds

    def json(self):
        return json.loads(self.stdout.decode("utf-8"))

    def context(self):
        """additionalContext, or None when the hook said nothing."""
        if not self.stdout.strip():
            return None
        return self.json()["hookSpecificOutput"]["additionalContext"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project with .claude/graphs, private data and user-graph folders; env set for the hooks."""
    return isolated_project(tmp_path, monkeypatch)


def run_hook(script, payload, env=None, timeout=30):
    """Run ``hooks/<script>`` with ``python -S`` (as hooks.json does) and ``payload`` (bytes, str or dict) on stdin."""
    if isinstance(payload, dict):
        payload = json.dumps(payload)
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-S", os.path.join(HOOKS, script)],
        input=payload, capture_output=True, timeout=timeout, env=dict(os.environ, **(env or {})),
    )
    return HookRun(proc, time.perf_counter() - start)


def graph(root, nodes, name="knowledge.json"):
    path = root / ".claude" / "graphs" / name
    path.write_text(json.dumps({"directed": True, "multigraph": False, "graph": {}, "nodes": nodes, "links": []}))
    return path


def checklist(node_id="ck-version", priority="CRITICAL", tools=("Write", "Edit"), files=("**/plugin.json",), status="active"):
    return {
        "id": node_id, "type": "Concept", "label": "Version bump " + node_id, "process_type": "checklist",
        "priority": priority, "status": status,
        "trigger_conditions": {"tool_names": list(tools), "file_patterns": list(files), "action_keywords": ["version"]},
        "checklist": {"title": "Sync", "items": ["Update marketplace.json", "Add a CHANGELOG.md entry"]},
    }


def pre_tool(root, tool="Write", rel=".claude-plugin/plugin.json", session="s1", **extra):
    tool_input = {"file_path": str(root / rel), "content": '{"version": "0.2.0"}'} if rel else {}
    tool_input.update(extra)
    return {"session_id": session, "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}


def log_text():
    try:
        with open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "forewarn.log"), encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return ""
