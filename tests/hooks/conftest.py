"""Running forewarn's hooks as Claude Code does: a subprocess, hook JSON on stdin, exit code and stdout read.

Shared by every hook test (PreToolUse, Stop, SessionStart):

* the ``project`` fixture: a project folder with ``.git`` and
  ``.claude/graphs``; forewarn's data folder and user graphs in private temp
  folders (``FOREWARN_DATA_DIR``, ``FOREWARN_USER_GRAPHS``), so nothing
  touches ``~/.claude``; ``data_dir`` is that data folder;
* :func:`run_hook` runs ``hooks/<script>`` exactly as hooks.json does
  (``python3 -S <path>``, this interpreter) and returns a :class:`HookRun`,
  which unpacks as ``rc, stdout, stderr, seconds``;
* :func:`run_hooks_together` starts many at once and releases their stdin
  together, for races;
* :func:`answer` checks the fail-open contract (exit 0; stdout empty or one
  JSON object) and returns the parsed object or None;
* builders for graphs (:func:`graph`, :func:`checklist`) and PreToolUse
  inputs (:func:`pre_tool`), and readers for the hook log and the trace.
"""

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest
from support import isolated_project

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOKS = os.path.join(REPO, "hooks")


class HookRun(NamedTuple):
    """One finished hook process; unpacks as ``rc, stdout, stderr, seconds``."""

    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float

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


@pytest.fixture
def data_dir(project):
    """forewarn's data folder for this test (it may not exist until a hook writes to it)."""
    return Path(os.environ["FOREWARN_DATA_DIR"])


def hook_command(script):
    """The command line hooks.json runs for ``script``: ``python3 -S <plugin>/hooks/<script>``."""
    return [sys.executable, "-S", os.path.join(HOOKS, script)]


def hook_env(env=None):
    """This process's environment with ``env`` applied; a value of None removes the variable."""
    merged = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _payload_bytes(payload):
    if isinstance(payload, (dict, list)):
        payload = json.dumps(payload)
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    return payload


def run_hook(script, payload, env=None, timeout=30, **popen):
    """Run ``hooks/<script>`` with ``payload`` (bytes, str or dict) on stdin; a :class:`HookRun`."""
    start = time.perf_counter()
    proc = subprocess.run(
        hook_command(script), input=_payload_bytes(payload), capture_output=True, timeout=timeout,
        env=hook_env(env), **popen,
    )
    return HookRun(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def run_hooks_together(script, payloads, env=None, timeout=60):
    """Start one hook process per payload, then end all their inputs at once; their HookRuns, in order.

    Each process blocks reading stdin until its input ends, so the decisions
    (index rebuilds, graph writes, session claims) overlap as closely as
    process start-up allows.  Payloads must be small (< 64 KiB, one pipe
    buffer) so writing them never blocks.
    """
    procs = []
    try:
        for payload in payloads:
            proc = subprocess.Popen(hook_command(script), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=hook_env(env))
            procs.append(proc)
            proc.stdin.write(_payload_bytes(payload))
        release = threading.Barrier(len(procs))

        def finish(proc):
            release.wait()
            start = time.perf_counter()
            out, err = proc.communicate(timeout=timeout)  # closes stdin: the input ends here
            return HookRun(proc.returncode, out, err, time.perf_counter() - start)

        with ThreadPoolExecutor(len(procs)) as pool:
            return list(pool.map(finish, procs))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def answer(run):
    """The hook's answer as parsed JSON (None for silence), after checking the fail-open contract."""
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    if not run.stdout:
        return None
    out = json.loads(run.stdout.decode("utf-8"))
    assert isinstance(out, dict) and out, out
    return out


def graph(root, nodes, name="knowledge.json", **top):
    """Write a node-link graph with ``nodes`` to ``<root>/.claude/graphs/<name>``; its path."""
    path = Path(root) / ".claude" / "graphs" / name
    doc = {"directed": True, "multigraph": False, "graph": {}, "nodes": nodes, "links": []}
    doc.update(top)
    path.write_text(json.dumps(doc))
    return path


def checklist(node_id="ck-version", priority="CRITICAL", tools=("Write", "Edit"), files=("**/plugin.json",), status="active"):
    """A checklist node that fires for a Write/Edit of any plugin.json whose input mentions "version"."""
    return {
        "id": node_id, "type": "Concept", "label": "Version bump " + node_id, "process_type": "checklist",
        "priority": priority, "status": status,
        "trigger_conditions": {"tool_names": list(tools), "file_patterns": list(files), "action_keywords": ["version"]},
        "checklist": {"title": "Sync", "items": ["Update marketplace.json", "Add a CHANGELOG.md entry"]},
    }


def pre_tool(root, tool="Write", rel=".claude-plugin/plugin.json", session="s1", **extra):
    """A PreToolUse input as Claude Code sends it, for ``tool`` on ``<root>/<rel>``; ``extra`` joins tool_input."""
    tool_input = {"file_path": str(Path(root) / rel), "content": '{"version": "0.2.0"}'} if rel else {}
    tool_input.update(extra)
    return {"session_id": session, "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}


def log_text():
    """The hook log (``<data dir>/forewarn.log``), "" if there is none."""
    try:
        with open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "forewarn.log"), encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return ""


def trace_records():
    """Every decision in the trace (``<data dir>/trace.jsonl``), oldest first."""
    try:
        with open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "trace.jsonl"), encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]
    except FileNotFoundError:
        return []
