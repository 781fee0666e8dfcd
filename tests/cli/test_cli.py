"""The forewarn CLI as users and the slash commands run it: bin/forewarn and python -m forewarn, as subprocesses."""

import json
import os
import subprocess
import sys
import time
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


@pytest.fixture(params=["bin/forewarn", "python -m forewarn"])
def entry(request):
    return request.param


def cli(project, *args, python_flags=(), entry="bin/forewarn", cwd=None, stdin=None, project_flag=True):
    command = [BIN] if entry == "bin/forewarn" else ["-m", "forewarn"]
    flags = ["--project", str(project)] if project_flag else []
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "src"))
    return subprocess.run([sys.executable, *python_flags, *command, *flags, *args], capture_output=True, text=True, env=env,
                          timeout=60, cwd=cwd, input=stdin)


def one_error_line(run, code=1):
    assert run.returncode == code, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


def nodes(project, name="lessons_graph.json"):
    return {n["id"]: n for n in json.loads((project / ".claude" / "graphs" / name).read_text())["nodes"]}


# ---------------------------------------------------------------- lifecycle


def test_drafts_lists_id_priority_type_triggers_evidence_age(project, entry):
    out = cli(project, "drafts", entry=entry).stdout
    assert out.splitlines()[0] == "old-draft  [HIGH checklist]  Label old-draft"  # oldest first
    assert "triggers: tools=Write files=**/plugin.json" in out and "evidence: you forgot draft-alpha" in out
    assert "from: user_correction; file: .claude/graphs/lessons_graph.json" in out
    assert "age: %d day(s); from" % ((time.time() - 1577836800) // 86400) in out  # old-draft, created 2020-01-01
    assert "active-one" not in out and "3 draft(s)" in out
    listed = json.loads(cli(project, "drafts", "--format", "json", entry=entry).stdout)
    assert [d["id"] for d in listed] == ["old-draft", "draft-alpha", "draft-beta"] and all(d["_age_days"] > 0 for d in listed)


def test_promote_archive_show(project, entry):
    run = cli(project, "promote", "draft-al", "critical", entry=entry)
    assert run.stdout == "draft-alpha is active (CRITICAL): Label draft-alpha\n" and run.returncode == 0
    assert nodes(project)["draft-alpha"]["status"] == "active" and nodes(project)["draft-alpha"]["priority"] == "CRITICAL"
    assert cli(project, "archive", "draft-beta", entry=entry).stdout == "draft-beta is archived: Label draft-beta\n"
    assert nodes(project)["draft-beta"]["status"] == "archived"
    shown = cli(project, "show", "active", entry=entry).stdout
    assert shown.startswith("active-one  (active, HIGH, checklist)  in .claude/graphs/lessons_graph.json\n")
    assert "- [ ] do active-one" in shown and '"source": {' in shown


@pytest.mark.parametrize("args, message", [
    (("promote", "nope"), "forewarn: no knowledge item has the id 'nope' (forewarn list shows them)"),
    (("promote", "draft-"), "forewarn: 'draft-' is ambiguous: draft-alpha, draft-beta"),
    (("promote", "old-draft", "URGENT"), "forewarn: invalid priority 'URGENT': use CRITICAL, HIGH, MEDIUM or LOW"),
    (("promote", "active-one"), "forewarn: active-one is already active"),
    (("archive", "nope"), "forewarn: no knowledge item has the id 'nope'"),
    (("show", "draft-"), "forewarn: 'draft-' is ambiguous"),
])
def test_lifecycle_errors_are_one_line_and_soft_for_slash_commands(project, args, message):
    assert one_error_line(cli(project, *args)).startswith(message)
    soft = cli(project, "--soft", *args)
    assert soft.returncode == 0 and soft.stdout.startswith(message) and soft.stderr == ""


@pytest.mark.parametrize("args, message", [
    (("promote",), "forewarn promote: the following arguments are required: id (see forewarn promote --help)"),
    (("frobnicate",), "forewarn: argument COMMAND: invalid choice: 'frobnicate'"),
    (("list", "--priority", "urgent"), "forewarn list: argument --priority: invalid choice: 'URGENT'"),
    (("archive-drafts", "--older-than", "soon"), "forewarn archive-drafts: argument --older-than: invalid int value: 'soon'"),
])
def test_usage_errors_are_one_line_too(project, args, message):
    assert one_error_line(cli(project, *args), code=2).startswith(message)
    soft = cli(project, "--soft", *args)
    assert soft.returncode == 0 and soft.stdout.startswith(message)


def test_archive_drafts_older_than(project, entry):
    out = cli(project, "archive-drafts", "--older-than", "365", entry=entry).stdout
    assert out == "archived 1 draft(s) older than 365 day(s): old-draft\n"
    assert nodes(project)["old-draft"]["status"] == "archived" and nodes(project)["draft-alpha"]["status"] == "draft"
    assert cli(project, "archive-drafts", "--older-than", "365").stdout == "archived 0 draft(s) older than 365 day(s)\n"


def test_concurrent_promote_and_appends_lose_nothing(project):
    from forewarn import graphs

    path = str(project / ".claude" / "graphs" / "lessons_graph.json")

    def append(i):
        graphs.update_graph(path, lambda doc: doc["nodes"].append(node("extra-%d" % i, "draft")))

    with ThreadPoolExecutor(4) as pool:
        runs = [pool.submit(cli, project, "promote", "draft-alpha")] + [pool.submit(append, i) for i in range(10)]
        assert runs[0].result().returncode == 0
        [r.result() for r in runs[1:]]
    final = nodes(project)
    assert final["draft-alpha"]["status"] == "active" and all("extra-%d" % i in final for i in range(10))


# ---------------------------------------------------------------- add / list


def test_add_validates_and_list_filters(project, entry):
    ok = cli(project, "add", "--label", "Run pip-compile", "--type", "checklist", "--priority", "high", "--tools", "Edit",
             "--files", "requirements.in", "--item", "pip-compile requirements.in", entry=entry)
    assert ok.stdout == "added checklist-run-pip-compile (active, HIGH) to .claude/graphs/knowledge.json\n", ok.stderr
    added = nodes(project, "knowledge.json")["checklist-run-pip-compile"]
    assert added["checklist"]["items"] == ["pip-compile requirements.in"] and added["source"] == {"kind": "manual"}
    draft = cli(project, "add", "--id", "w1", "--label", "Careful with migrations", "--type", "warning", "--risk", "data loss",
                "--files", "migrations/*.py", "--draft", "--file", "team.json", entry=entry)
    assert draft.returncode == 0 and nodes(project, "team.json")["w1"]["status"] == "draft"
    listed = json.loads(cli(project, "list", "--status", "active", "--format", "json", entry=entry).stdout)
    assert {row["id"] for row in listed} == {"active-one", "checklist-run-pip-compile"}
    table = cli(project, "list", "--type", "warning", entry=entry).stdout.splitlines()
    assert table[0].split() == ["ID", "STATUS", "TYPE", "PRIORITY", "LABEL"] and table[1].split()[:4] == ["w1", "draft", "warning", "MEDIUM"]
    assert table[-1] == "1 item(s)"
    assert cli(project, "list", "--priority", "low").stdout == "No knowledge items match.\n"


@pytest.mark.parametrize("args, message", [
    (("--label", "x", "--type", "pattern", "--files", "#nope"), "forewarn: not added: "),
    (("--label", "x", "--type", "pattern", "--situation", "s", "--files", "#nope"), "forewarn: not added: trigger_conditions.file_patterns: '#nope' is not a usable glob"),
    (("--label", "x", "--type", "checklist"), "forewarn: not added: checklist.items"),
    (("--label", "x", "--type", "pattern", "--risk", "r"), "forewarn: not added: --risk is not for a pattern"),
    (("--label", "x", "--type", "checklist", "--item", "a", "--file", "../x.json"), "forewarn: --file takes a graph file name"),
    (("--id", "active-one", "--label", "x", "--type", "checklist", "--item", "a"), "forewarn: an item with the id 'active-one' exists already"),
])
def test_add_errors(project, args, message):
    assert one_error_line(cli(project, "add", *args)).startswith(message)
    assert not (project / ".claude" / "x.json").exists()


# ---------------------------------------------------------------- explain


def test_explain_shows_terms_gates_and_the_text(project, entry):
    out = cli(project, "explain", "--tool", "Write", "--file", ".claude-plugin/plugin.json", entry=entry).stdout
    assert "tool call: Write .claude-plugin/plugin.json" in out and "active-one → injected" in out and "<forewarn-knowledge>" in out
    readme = json.loads(cli(project, "explain", "--tool", "Write", "--file", "README.md", "--format", "json", entry=entry).stdout)
    (row,) = readme["items"]
    assert row["injected"] is False and row["reason"] == "path README.md matches none of its file patterns"
    assert row["terms"] == {"tool": 1, "file": 0, "action": None, "context": None} and readme["additionalContext"] == ""


def test_explain_takes_hook_json_from_stdin_or_a_file(project, tmp_path):
    hook_json = json.dumps({"tool_name": "Read", "tool_input": {"file_path": str(project / "plugin.json")}, "cwd": str(project)})
    assert "read-only tool: the hook injects nothing" in cli(project, "explain", "--json", "-", stdin=hook_json).stdout
    saved = tmp_path / "call.json"
    saved.write_text(json.dumps({"tool_name": "Write", "tool_input": {"file_path": "a/plugin.json"}, "cwd": str(project)}))
    assert "active-one → injected" in cli(project, "explain", "--json", str(saved)).stdout
    assert one_error_line(cli(project, "explain", "--json", str(tmp_path / "missing.json"))).startswith("forewarn: --json ")
    assert one_error_line(cli(project, "explain", "--json", "-", stdin="[1]")) == "forewarn: --json: a hook input is a JSON object"
    assert one_error_line(cli(project, "explain")).startswith("forewarn: explain needs --tool")


def test_explain_relative_paths_from_a_subfolder(project):
    (project / "pkg" / ".claude-plugin").mkdir(parents=True)
    out = cli(project, "explain", "--tool", "Write", "--file", ".claude-plugin/plugin.json", cwd=project / "pkg", project_flag=False).stdout
    assert "project:   %s" % project in out and "tool call: Write pkg/.claude-plugin/plugin.json" in out


def test_explain_says_when_injection_is_switched_off(project):
    env_off = dict(os.environ, DISABLE_EXPERIENCE_INJECTION="1", PYTHONPATH=os.path.join(REPO, "src"))
    run = subprocess.run([sys.executable, BIN, "--project", str(project), "explain", "--tool", "Write", "--file", "x/plugin.json"],
                         capture_output=True, text=True, env=env_off)
    assert "DISABLE_EXPERIENCE_INJECTION is set: the hook injects nothing" in run.stdout and "Nothing would be injected." in run.stdout


def test_explain_on_this_repository_fires_the_version_bump_checklist_only_for_the_manifest(tmp_path, monkeypatch):
    """This repository's own .claude/graphs: the CRITICAL version-bump checklist for plugin.json, gated for README.md."""
    isolated_project(tmp_path, monkeypatch)  # data folder and user graphs in tmp_path
    manifest = json.loads(cli(REPO, "explain", "--tool", "Write", "--file", ".claude-plugin/plugin.json", "--content",
                              '{"name": "forewarn", "version": "0.2.0"}', "--format", "json").stdout)
    rows = {row["id"]: row for row in manifest["items"]}
    bump = rows["checklist-version-bump-sync"]
    assert bump["injected"] and bump["reason"] == "injected" and bump["priority"] == "CRITICAL"
    assert bump["terms"]["tool"] == 1 and bump["terms"]["file"] == 1 and bump["terms"]["action"] == "version"
    assert "[CRITICAL] Version bump: keep the manifests and changelog in step" in manifest["additionalContext"]
    readme = json.loads(cli(REPO, "explain", "--tool", "Write", "--file", "README.md", "--content", "forewarn 0.2.0: see the new version",
                            "--format", "json").stdout)
    gated = {row["id"]: row for row in readme["items"]}["checklist-version-bump-sync"]
    assert not gated["injected"] and gated["reason"] == "path README.md matches none of its file patterns"
    assert "Version bump" not in readme["additionalContext"]


def test_explain_last_reads_the_hooks_trace(project):
    hook = os.path.join(REPO, "hooks", "pre_experience_injection.py")
    for rel in (".claude-plugin/plugin.json", "README.md"):
        payload = json.dumps({"session_id": "S9", "cwd": str(project), "tool_name": "Write",
                              "tool_input": {"file_path": str(project / rel), "content": "x"}})
        subprocess.run([sys.executable, "-S", hook], input=payload, text=True, capture_output=True, env=dict(os.environ))
    lines = cli(project, "explain", "--last", "5", "--session", "S9").stdout.splitlines()
    assert "Write .claude-plugin/plugin.json" in lines[0] and "injected active-one" in lines[0]
    assert any("Write README.md" in line and "injected nothing" in line for line in lines)
    assert json.loads(cli(project, "explain", "--last", "1", "--format", "json").stdout)[0]["path"] == "README.md"
    assert cli(project, "explain", "--last", "3", "--session", "other").stdout.startswith("No recorded decisions")


# ---------------------------------------------------------------- validate / index / doctor / schema / env


def test_validate_names_file_node_and_field(project, tmp_path, entry):
    bad = node("broken")
    bad["priority"] = "URGENT"
    (project / ".claude" / "graphs" / "bad.json").write_text(json.dumps({"nodes": [bad, node("active-one"), "not an object"]}))
    (project / ".claude" / "graphs" / "torn.json").write_text('{"nodes": [')
    (tmp_path / "user-graphs").mkdir()
    user_bad = node("user-item")
    user_bad["checklist"] = {"items": ["ok", {"item": "x", "required": "yes"}]}
    (tmp_path / "user-graphs" / "mine.json").write_text(json.dumps({"nodes": [user_bad]}))
    run = cli(project, "validate", entry=entry)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert ".claude/graphs/bad.json: node broken: priority: Input should be 'CRITICAL', 'HIGH', 'MEDIUM' or 'LOW'" in lines
    assert ".claude/graphs/lessons_graph.json: node active-one: id: already defined in .claude/graphs/bad.json; ids must be unique" in lines
    assert ".claude/graphs/bad.json: node #2: node: a node-link node is an object, not str" in lines
    assert any(line.startswith(".claude/graphs/torn.json: not valid JSON") for line in lines)
    assert "%s: node user-item: checklist.items.1.required: Input should be a valid boolean" % (tmp_path / "user-graphs" / "mine.json") in lines
    assert lines[-1] == "4 file(s), 7 process node(s), 5 problem(s)"


def test_validate_passes_on_clean_graphs(project):
    run = cli(project, "validate")
    assert run.returncode == 0 and run.stdout == "1 file(s), 4 process node(s), 0 problem(s)\n"


def test_degraded_without_pydantic(project):
    """python3 -S: no site-packages, so no pydantic; everything works except the two documented degradations."""
    assert subprocess.run([sys.executable, "-S", "-c", "import pydantic"], capture_output=True).returncode == 1
    run = cli(project, "validate", python_flags=("-S",))
    assert run.returncode == 0 and run.stdout.startswith(
        "forewarn: pydantic is not installed here; checking with the built-in rules (the ones the hooks use).\n")
    (project / ".claude" / "graphs" / "bad.json").write_text(json.dumps({"nodes": [dict(node("b"), priority="URGENT")]}))
    bad = cli(project, "validate", python_flags=("-S",))
    assert bad.returncode == 1 and ".claude/graphs/bad.json: node b: priority: must be one of CRITICAL|HIGH|MEDIUM|LOW, not 'URGENT'" in bad.stdout
    schema = cli(project, "schema", "--out", str(project / "schemas"), python_flags=("-S",))
    assert one_error_line(schema).startswith("forewarn: schema export needs pydantic: pip install 'pydantic>=2.6,<3'")
    for args in (("drafts",), ("list",), ("show", "active-one"), ("promote", "draft-alpha"), ("archive", "draft-beta"),
                 ("add", "--label", "x", "--type", "pattern", "--action", "y"), ("explain", "--tool", "Write", "--file", "a/plugin.json"),
                 ("index",), ("archive-drafts", "--older-than", "1"), ("env",)):
        run = cli(project, *args, python_flags=("-S",))
        assert run.returncode == 0, (args, run.stderr)
    add_bad = cli(project, "add", "--label", "x", "--type", "pattern", python_flags=("-S",))
    assert one_error_line(add_bad) == "forewarn: not added: pattern: needs at least one of situation, action, rationale, example"


def test_index_and_promote_with_an_unwritable_data_folder(project, tmp_path):
    run = cli(project, "index")
    assert run.returncode == 0 and run.stdout.startswith("1 active item(s) indexed in ") and "(3 draft, 0 archived, 0 problem(s))" in run.stdout
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    env = dict(os.environ, FOREWARN_DATA_DIR=str(blocker / "data"), PYTHONPATH=os.path.join(REPO, "src"))
    run = subprocess.run([sys.executable, BIN, "--project", str(project), "index"], capture_output=True, text=True, env=env)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("kept in memory: the data folder is not writable")
    run = subprocess.run([sys.executable, BIN, "--project", str(project), "promote", "draft-alpha"], capture_output=True, text=True, env=env)
    assert run.returncode == 0 and nodes(project)["draft-alpha"]["status"] == "active", run.stderr


def test_doctor(project, tmp_path):
    cli(project, "index")
    (project / ".claude" / "graphs" / "bad.json").write_text(json.dumps({"nodes": [dict(node("b"), priority="URGENT")]}))
    data = tmp_path / "data"
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    (data / "forewarn.log").write_text("2020-01-01T00:00:00Z PreToolUse old trouble\n%s PreToolUse index unusable (bucket t0:write corrupt)\n" % now)
    run = cli(project, "doctor", "--format", "json")
    by_name = {row["check"]: row for row in json.loads(run.stdout)}
    assert run.returncode == 0
    assert by_name["python"]["status"] == "ok" and by_name["hooks"]["status"] == "ok" and by_name["data folder"]["status"] == "ok"
    assert by_name["graphs"]["detail"] == "2 file(s): 1 active, 3 draft, 0 archived"
    assert by_name["invalid knowledge"]["status"] == "warn" and "bad.json: node b: priority: must be one of" in by_name["invalid knowledge"]["detail"]
    assert by_name["index"]["status"] == "warn"  # bad.json arrived after the index was built
    assert by_name["recent hook errors"]["status"] == "warn" and "1 in the last 7 days" in by_name["recent hook errors"]["detail"]
    assert "old trouble" not in by_name["recent hook errors"]["detail"]
    text = cli(project, "doctor").stdout
    assert "WARN  invalid knowledge" in text and "ok    hooks" in text


def test_schema_export_and_check(project):
    out = project / "schemas"
    assert cli(project, "schema", "--out", str(out)).stdout.splitlines() == ["wrote %s" % (out / "process-node.schema.json"),
                                                                            "wrote %s" % (out / "graph.schema.json")]
    assert cli(project, "schema", "--out", str(out), "--check").stdout == "%s: current\n" % out
    (out / "graph.schema.json").write_text("{}")
    assert one_error_line(cli(project, "schema", "--out", str(out), "--check")).startswith("forewarn: out of date: %s" % (out / "graph.schema.json"))


def test_env_status(project):
    run = cli(project, "env")
    assert run.stdout.splitlines()[0] == "optional environment: missing" and "forewarn env --bootstrap" in run.stdout


def test_project_errors(tmp_path):
    assert one_error_line(cli(tmp_path / "absent", "list")) == "forewarn: --project %s is not a folder" % (tmp_path / "absent")


# ---------------------------------------------------------------- items that can never be injected


def _silent(node_id, status):
    silent = node(node_id, status)
    silent["trigger_conditions"] = {"context_keywords": ["staging"]}
    return silent


def test_validate_drafts_promote_and_doctor_name_items_that_can_never_fire(project):
    graph = project / ".claude" / "graphs" / "lessons_graph.json"
    doc = json.loads(graph.read_text())
    doc["nodes"] += [_silent("quiet-draft", "draft"), _silent("quiet-active", "active")]
    graph.write_text(json.dumps(doc))
    run = cli(project, "validate")
    assert run.returncode == 0  # a warning, not a problem
    lines = run.stdout.splitlines()
    for node_id in ("quiet-draft", "quiet-active"):
        assert (".claude/graphs/lessons_graph.json: node %s: warning: can never be injected: it names only context keywords, "
                "and at HIGH its best score is 0.15, below the threshold 0.70; it would fire with tool_names or file_patterns or "
                "action_keywords"
                % node_id) in lines
    assert lines[-1] == "1 file(s), 6 process node(s), 0 problem(s), 2 warning(s)"
    drafts = cli(project, "drafts").stdout
    assert drafts.count("cannot fire:") == 1 and "    cannot fire: it names only context keywords" in drafts
    promoted = cli(project, "promote", "quiet-draft").stdout.splitlines()
    assert promoted[1].startswith("cannot fire: it names only context keywords") and promoted[1].endswith(
        "(forewarn show quiet-draft names its triggers)")
    assert cli(project, "promote", "draft-alpha").stdout.count("\n") == 1  # an item that can fire: one line
    doctor = cli(project, "doctor").stdout
    assert "WARN  knowledge reach     2 active item(s) can never be injected at threshold 0.70: quiet-draft, quiet-active" in doctor


def test_the_project_threshold_decides_what_can_fire(project):
    graph = project / ".claude" / "graphs" / "lessons_graph.json"
    doc = json.loads(graph.read_text())
    doc["nodes"].append(_silent("quiet-active", "active"))
    graph.write_text(json.dumps(doc))
    (project / ".claude" / "forewarn.json").write_text(json.dumps({"threshold": 0.15}))
    assert "warning" not in cli(project, "validate").stdout
    assert "ok    knowledge reach     every active item can reach the threshold 0.15" in cli(project, "doctor").stdout


def test_explain_says_when_a_secret_written_stood_in_for_the_file_match(project):
    secrets = {"id": "req-no-secrets", "type": "Concept", "label": "No secrets in the repository", "process_type": "requirement",
               "priority": "CRITICAL", "requirement": {"constraint": "Secrets come from the environment"},
               "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/.env"], "action_keywords": ["password"]}}
    (project / ".claude" / "graphs" / "secrets.json").write_text(json.dumps({"directed": True, "nodes": [secrets], "links": []}))
    out = cli(project, "explain", "--tool", "Write", "--file", "config/app.yaml", "--content", 'dbPassword: "hunter2x9!"').stdout
    row = next(line for line in out.splitlines() if "req-no-secrets" in line)
    assert " sec " in row and "a secret writ" in row and "injected" in row
    placeholder = cli(project, "explain", "--tool", "Write", "--file", "config/app.yaml", "--content", "dbPassword: ${DB_PASSWORD}").stdout
    assert "req-no-secrets → injected" not in placeholder
