"""The forewarn CLI as users and the slash commands run it: bin/forewarn and python -m forewarn, as subprocesses."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from support import isolated_project

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(REPO, "bin", "forewarn")


def node(node_id, status="active", priority="HIGH", created="2026-11-01T00:00:00Z"):
    return {"id": node_id, "type": "Concept", "label": "Label " + node_id, "process_type": "checklist", "priority": priority,
            "status": status, "created_at": created, "evidence": ["you forgot " + node_id],
            "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/plugin.json"]},
            "checklist": {"items": ["do " + node_id]}, "source": {"kind": "user_correction"}}


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = isolated_project(tmp_path, monkeypatch, "proj")
    (root / ".claude" / "graphs" / "lessons_graph.json").write_text(json.dumps({"directed": True, "nodes": [
        node("draft-alpha", "draft"), node("draft-beta", "draft"), node("active-one"), node("old-draft", "draft", created="2020-01-01T00:00:00Z")],
        "links": []}))
    return root


def cli(project, *args, python_flags=(), entry=BIN):
    cmd = [sys.executable, *python_flags, entry, "--project", str(project), *args] if entry == BIN else \
          [sys.executable, *python_flags, "-m", "forewarn", "--project", str(project), *args]
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "src"))
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)


def nodes(project):
    return {n["id"]: n for n in json.loads((project / ".claude" / "graphs" / "lessons_graph.json").read_text())["nodes"]}


def test_drafts_lists_id_priority_type_triggers_evidence_age(project):
    out = cli(project, "drafts").stdout
    assert "draft-alpha  [HIGH checklist]" in out and "triggers: tools=Write files=**/plugin.json" in out
    assert "evidence: you forgot draft-alpha" in out and "day(s)" in out and "active-one" not in out
    assert "3 draft(s)" in out


def test_promote_archive_show_and_errors(project):
    assert cli(project, "promote", "draft-al", "critical").returncode == 0
    assert nodes(project)["draft-alpha"]["status"] == "active" and nodes(project)["draft-alpha"]["priority"] == "CRITICAL"
    assert cli(project, "archive", "draft-beta").returncode == 0 and nodes(project)["draft-beta"]["status"] == "archived"
    shown = cli(project, "show", "active-one").stdout
    assert "active-one  (active, HIGH, checklist)" in shown and "- [ ] do active-one" in shown
    for args, message in [(("promote", "nope"), "no knowledge item has the id 'nope'"),
                          (("promote", "draft-"), "ambiguous"),
                          (("promote", "old-draft", "URGENT"), "invalid priority"),
                          (("archive", "draft-beta"), "already archived")]:
        run = cli(project, *args)
        assert run.returncode == 1 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1
        soft = cli(project, "--soft", *args)
        assert soft.returncode == 0 and message in soft.stdout


def test_archive_drafts_older_than(project):
    out = cli(project, "archive-drafts", "--older-than", "365").stdout
    assert "archived 1 draft(s)" in out and "old-draft" in out
    assert nodes(project)["old-draft"]["status"] == "archived" and nodes(project)["draft-alpha"]["status"] == "draft"


def test_add_validates_and_list_filters(project):
    ok = cli(project, "add", "--label", "Run pip-compile", "--type", "checklist", "--priority", "high", "--tools", "Edit",
             "--files", "requirements.in", "--item", "pip-compile requirements.in")
    assert ok.returncode == 0, ok.stderr
    bad = cli(project, "add", "--label", "x", "--type", "pattern", "--files", "#nope")
    assert bad.returncode == 1 and "not added" in bad.stderr
    listed = json.loads(cli(project, "list", "--status", "active", "--format", "json").stdout)
    assert {row["id"] for row in listed} == {"active-one", "checklist-run-pip-compile"}


def test_explain_shows_terms_gates_and_the_text(project):
    out = cli(project, "explain", "--tool", "Write", "--file", ".claude-plugin/plugin.json").stdout
    assert "active-one → injected" in out and "<forewarn-knowledge>" in out
    readme = json.loads(cli(project, "explain", "--tool", "Write", "--file", "README.md", "--format", "json").stdout)
    (row,) = readme["items"]
    assert row["injected"] is False and "matches none" in row["reason"] and readme["additionalContext"] == ""
    hook_json = json.dumps({"tool_name": "Read", "tool_input": {"file_path": str(project / "plugin.json")}, "cwd": str(project)})
    run = subprocess.run([sys.executable, BIN, "--project", str(project), "explain", "--json", "-"], input=hook_json,
                         capture_output=True, text=True, env=dict(os.environ))
    assert "read-only tool" in run.stdout


def test_validate_names_file_node_and_field(project):
    bad = node("broken")
    bad["priority"] = "URGENT"
    (project / ".claude" / "graphs" / "bad.json").write_text(json.dumps({"nodes": [bad]}))
    (project / ".claude" / "graphs" / "torn.json").write_text('{"nodes": [')
    run = cli(project, "validate")
    assert run.returncode == 1
    assert "bad.json: node broken: priority:" in run.stdout and "torn.json: not valid JSON" in run.stdout


def test_degraded_without_pydantic(project):
    run = cli(project, "validate", python_flags=("-S",))
    assert run.returncode == 0 and "pydantic is not installed here" in run.stdout
    schema = cli(project, "schema", "--out", str(project / "schemas"), python_flags=("-S",))
    assert schema.returncode == 1 and "needs pydantic" in schema.stderr
    assert cli(project, "drafts", python_flags=("-S",)).returncode == 0


def test_doctor_and_index(project):
    run = cli(project, "index")
    assert run.returncode == 0 and "1 active item(s) indexed" in run.stdout
    doctor = json.loads(cli(project, "doctor", "--format", "json").stdout)
    by_name = {row["check"]: row for row in doctor}
    assert by_name["index"]["status"] == "ok" and by_name["hooks"]["status"] == "ok" and by_name["data folder"]["status"] == "ok"
    assert "1 active, 3 draft" in by_name["graphs"]["detail"]


def test_python_m_entry_point(project):
    assert cli(project, "list", entry="-m").returncode == 0


def test_concurrent_promote_and_appends_lose_nothing(project):
    from forewarn import graphs

    path = str(project / ".claude" / "graphs" / "lessons_graph.json")
    os.environ["FOREWARN_DATA_DIR"] = os.environ["FOREWARN_DATA_DIR"]

    def append(i):
        graphs.update_graph(path, lambda doc: doc["nodes"].append(node("extra-%d" % i, "draft")))

    with ThreadPoolExecutor(4) as pool:
        runs = [pool.submit(cli, project, "promote", "draft-alpha")] + [pool.submit(append, i) for i in range(10)]
        [r.result() for r in runs]
    final = nodes(project)
    assert final["draft-alpha"]["status"] == "active" and all("extra-%d" % i in final for i in range(10))


def test_explain_last_reads_the_hooks_trace(project):
    hook = os.path.join(REPO, "hooks", "pre_experience_injection.py")
    for rel in (".claude-plugin/plugin.json", "README.md"):
        payload = json.dumps({"session_id": "S9", "cwd": str(project), "tool_name": "Write",
                              "tool_input": {"file_path": str(project / rel), "content": "x"}})
        subprocess.run([sys.executable, "-S", hook], input=payload, text=True, capture_output=True, env=dict(os.environ))
    out = cli(project, "explain", "--last", "5", "--session", "S9").stdout
    lines = out.splitlines()
    assert "Write .claude-plugin/plugin.json" in lines[0] and "injected active-one" in lines[0]
    assert any("Write README.md" in line and "injected nothing" in line for line in lines)
    assert json.loads(cli(project, "explain", "--last", "1", "--format", "json").stdout)[0]["path"] == "README.md"
