"""What the PreToolUse hook imports, measured on the real process.

The hook runs before every tool call, so its cost is mostly interpreter
start-up plus imports.  Two independent measurements of the same run:

* a wrapper executes the hook script unchanged (``python -S wrapper.py
  hook.py``) and, at the hook's ``os._exit``, prints ``sorted(sys.modules)``;
* ``python -S -X importtime hook.py``, whose stderr names every import.

With a warm index (the usual call) neither :mod:`json`, :mod:`re`,
:mod:`signal`, :mod:`enum` nor any third-party module may be imported.
The rebuild path (first call after a graph changed) may import :mod:`json`
to read the graphs; measured, it also pulls :mod:`re` and :mod:`enum` (via
json) and :mod:`tempfile` (atomic writes; with it random, shutil, bz2,
lzma) -- once per graph change, not per call.
"""

import json
import os
import subprocess
import sys

import pytest
from support import isolated_project

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOK = os.path.join(REPO, "hooks", "pre_experience_injection.py")
NEVER = ("json", "re", "signal", "enum", "pydantic", "orjson", "pathspec", "subprocess", "hashlib", "tempfile")
NEVER_WARM = NEVER + ("forewarn.index_build", "forewarn.graphs", "forewarn.storage")
NEVER_ON_REBUILD = ("signal", "pydantic", "orjson", "pathspec", "subprocess")

# Runs the hook file as its own __main__ and reports sys.modules when the hook exits (hookio ends in os._exit).
WRAPPER = r"""
import os, sys
hook = sys.argv[1]
exit_now = os._exit
def report_and_exit(code):
    sys.stderr.write("\nMODULES " + " ".join(sorted(sys.modules)) + "\n")
    sys.stderr.flush()
    exit_now(code)
os._exit = report_and_exit
sys.argv = [hook]
with open(hook, "rb") as handle:
    code = compile(handle.read(), hook, "exec")
exec(code, {"__name__": "__main__", "__file__": hook, "__builtins__": __builtins__})
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = isolated_project(tmp_path, monkeypatch)
    node = {"id": "ck", "type": "Concept", "label": "Version bump", "process_type": "checklist", "priority": "CRITICAL",
            "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/plugin.json"]},
            "checklist": {"items": ["Update marketplace.json"]}}
    (root / ".claude" / "graphs" / "g.json").write_text(json.dumps({"nodes": [node]}))
    return root


def payload(root, tool="Write", session="s"):
    return json.dumps({"session_id": session, "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": {"file_path": str(root / ".claude-plugin" / "plugin.json"), "content": "{}"}}).encode()


def modules_at_exit(stdin, tmp_path):
    """``(stdout, modules the hook added to a bare python -S)`` for one hook run."""
    wrapper = tmp_path / "report_modules.py"
    wrapper.write_text(WRAPPER)
    proc = subprocess.run([sys.executable, "-S", str(wrapper), HOOK], input=stdin, capture_output=True, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr.decode()
    line = [l for l in proc.stderr.decode().splitlines() if l.startswith("MODULES ")][-1]
    bare = subprocess.run([sys.executable, "-S", "-c", "import sys; print(' '.join(sorted(sys.modules)))"],
                          capture_output=True, text=True).stdout.split()
    return proc.stdout, set(line.split()[1:]) - set(bare)


def modules_by_importtime(stdin):
    proc = subprocess.run([sys.executable, "-S", "-X", "importtime", HOOK], input=stdin, capture_output=True, env=dict(os.environ))
    assert proc.returncode == 0
    names = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.decode().splitlines() if line.startswith("import time:") and "|" in line}
    return proc.stdout, names - {"package"}  # the header line of the report


def test_warm_path_imports_nothing_heavy(project, tmp_path):
    out, _modules = modules_at_exit(payload(project, session="build"), tmp_path)  # builds the index
    assert b"additionalContext" in out
    out, modules = modules_at_exit(payload(project, session="warm"), tmp_path)
    assert b"additionalContext" in out  # measured on the path that scores and injects
    assert {"forewarn.relevance", "forewarn.session_state", "forewarn.trace", "forewarn.render"} <= modules
    assert sorted(m for m in modules if m in NEVER_WARM or m.split(".")[0] in NEVER) == []
    out, by_importtime = modules_by_importtime(payload(project, session="warm-2"))
    assert b"additionalContext" in out and "forewarn.relevance" in by_importtime
    assert sorted(m for m in by_importtime if m in NEVER_WARM or m.split(".")[0] in NEVER) == []


def test_rebuild_path_may_read_json_and_nothing_third_party(project, tmp_path):
    out, modules = modules_at_exit(payload(project, session="first"), tmp_path)
    assert b"additionalContext" in out
    assert {"json", "forewarn.index_build", "forewarn.graphs"} <= modules  # the measurement sees the rebuild
    assert sorted(m for m in modules if m.split(".")[0] in NEVER_ON_REBUILD) == []


def test_read_only_call_leaves_with_the_contract_alone(project, tmp_path):
    out, modules = modules_at_exit(payload(project, tool="Read"), tmp_path)
    assert out == b""
    assert sorted(m for m in modules if m.startswith("forewarn")) == [
        "forewarn", "forewarn.fastjson", "forewarn.hookio", "forewarn.inject", "forewarn.log", "forewarn.paths"]
    assert sorted(m for m in modules if m.split(".")[0] in NEVER) == []
