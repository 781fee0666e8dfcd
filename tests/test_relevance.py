"""forewarn.relevance: each term, each gate, the multipliers, the threshold's edge, ranking, and when the
conversation is read.  Records are built by the index builder from real node dicts; ranking and candidate
selection run on a real index compiled in a temporary project."""

import itertools
import json

import pytest

from forewarn import index, index_build, knowledge, relevance
from forewarn.toolcall import ToolCall
from support import isolated_project

ROOT = "/p"


def node(node_id="n", priority="MEDIUM", tools=(), files=(), actions=(), context=()):
    return {"id": node_id, "type": "Concept", "label": node_id, "process_type": "requirement", "priority": priority,
            "trigger_conditions": {"tool_names": list(tools), "file_patterns": list(files),
                                   "action_keywords": list(actions), "context_keywords": list(context)},
            "requirement": {"constraint": "text of " + node_id}}


def record(*args, **kwargs):
    return index_build._record(0, node(*args, **kwargs), (0, 0, 0), "test.json")


def write(path, content=""):
    return ToolCall({"tool_name": "Write", "tool_input": {"file_path": ROOT + "/" + path, "content": content}}, ROOT)


def edit(path, new, old="x", tool="Edit"):
    return ToolCall({"tool_name": tool, "tool_input": {"file_path": ROOT + "/" + path, "old_string": old, "new_string": new}}, ROOT)


def bash(command, description=""):
    return ToolCall({"tool_name": "Bash", "tool_input": {"command": command, "description": description}}, ROOT)


def tool(name, **tool_input):
    return ToolCall({"tool_name": name, "tool_input": tool_input}, ROOT)


def never():
    raise AssertionError("the conversation was read although it could not decide anything")


def talk(text):
    """A conversation callable that records how often it is read."""
    def conversation():
        conversation.reads += 1
        return " " + text + " "
    conversation.reads = 0
    return conversation


def score(rec, call, conversation=never, threshold=0.7, **kw):
    return relevance.score(rec, call, threshold, conversation, **kw)


# --- the terms ------------------------------------------------------------------------------------------------

def test_all_four_terms_and_the_weights():
    rec = record(priority="MEDIUM", tools=["Write"], files=["**/a.json"], actions=["bump"], context=["release"])
    v = score(rec, write("x/a.json", "bump it"), talk("the release"), threshold=2.0)  # unreachable: context decides nothing
    assert (v.tool, v.file, v.action, v.context) == (True, True, " bump ", None)
    assert v.score == pytest.approx(0.9)
    v = score(rec, write("x/a.json", "bump it"), talk("the release"), always_context=True)
    assert v.context == " release " and v.score == pytest.approx(1.0)
    assert v.terms() == {"tool": 1, "file": 1, "action": "bump", "context": "release"}


@pytest.mark.parametrize("tools,call,hit", [
    (["Edit"], edit("a", "x", tool="MultiEdit"), True),  # Edit covers MultiEdit and NotebookEdit
    (["Edit"], tool("NotebookEdit", notebook_path=ROOT + "/n.ipynb"), True),
    (["MultiEdit"], edit("a", "x"), False),  # but not the other way round
    (["Bash"], tool("PowerShell", command="ls"), True),
    (["Task"], tool("Agent", prompt="x"), True),
    (["Agent"], tool("Task", prompt="x"), True),
    (["mcp__github__*"], tool("mcp__github__create_issue"), True),
    (["mcp__github__*"], tool("mcp__gitlab__create_issue"), False),
    (["mcp__github__merge_pull_request"], tool("mcp__github__merge_pull_request"), True),
    (["write"], write("a"), True),  # names ignore case
])
def test_tool_term(tools, call, hit):
    assert score(record(priority="CRITICAL", tools=tools), call).tool is hit


def test_file_term_uses_project_relative_paths_and_negations():
    rec = record(priority="HIGH", tools=["Write"], files=["admin/src/**/*.tsx", "!admin/src/**/*.test.tsx"])
    assert score(rec, write("admin/src/pages/Home.tsx")).file
    assert not score(rec, write("admin/src/pages/Home.test.tsx")).file
    outside = ToolCall({"tool_name": "Write", "tool_input": {"file_path": "/elsewhere/admin/src/a.tsx"}}, ROOT)
    assert not score(rec, outside).file  # an anchored pattern never matches outside the project
    anywhere = record(priority="HIGH", tools=["Write"], files=["**/plugin.json"])
    assert score(anywhere, ToolCall({"tool_name": "Write", "tool_input": {"file_path": "/tmp/x/plugin.json"}}, ROOT)).file
    assert score(record(priority="HIGH", tools=["Bash"], files=["infra/**"]), bash("terraform fmt infra/main.tf")).file


@pytest.mark.parametrize("call,hit", [
    (bash("git push --force origin main"), " push force "),
    (bash("git push origin main --force"), " push force "),  # a keyword's words apart, in one shell command
    (bash("git push origin feature/force"), None),  # never part of a shell word
    (bash("git push origin main && ./force.sh"), None),  # never across commands
    (bash("ls", description="force push the branch"), None),
    (write("notes.md", "we never push --force"), " push force "),
    (write("notes.md", "push the branch, then --force"), None),  # in written text a keyword is a phrase
])
def test_action_term(call, hit):
    assert score(record(priority="CRITICAL", tools=["Bash", "Write"], actions=["push --force"]), call).action == hit


# --- the multipliers and the threshold ------------------------------------------------------------------------

@pytest.mark.parametrize("priority,expected", [("CRITICAL", 1.6), ("HIGH", 1.2), ("MEDIUM", 0.8), ("LOW", 0.4)])
def test_priority_multipliers(priority, expected):
    v = score(record(priority=priority, tools=["Write"], files=["**/a.json"]), write("a.json"))
    assert v.score == expected
    assert v.eligible is (expected >= 0.7)


@pytest.mark.parametrize("threshold,priority,terms", [
    (0.75, "HIGH", dict(tools=["Bash"], actions=["deploy"])),  # (0.4 + 0.1) × 1.5
    (0.6, "MEDIUM", dict(tools=["Bash"], actions=["deploy"], context=["prod"])),  # 0.4 + 0.1 + 0.1 in floating point
    (0.9, "MEDIUM", dict(tools=["Bash"], files=["deploy/**"], actions=["deploy"])),
])
def test_a_score_exactly_at_the_threshold_is_injected(threshold, priority, terms):
    v = score(record(priority=priority, **terms), bash("deploy deploy/app.yaml"), talk("prod"), threshold=threshold)
    assert v.score == threshold and v.eligible
    assert not score(record(priority=priority, **terms), bash("deploy deploy/app.yaml"), talk("prod"),
                     threshold=threshold + 1e-6).eligible


def test_no_score_lies_between_the_default_threshold_and_its_neighbours():
    """At 0.7 the nearest scores are 0.6 (not injected) and 0.75 (injected): nothing sits on the edge."""
    scores = {round((0.4 * t + 0.4 * f + 0.1 * a + 0.1 * c) * m, 6)
              for t, f, a, c in itertools.product((0, 1), repeat=4) for m in knowledge.PRIORITY_MULTIPLIER.values()}
    assert max(s for s in scores if s < 0.7) == 0.6 and min(s for s in scores if s >= 0.7) == 0.75


@pytest.mark.parametrize("priority,terms,best", [
    ("LOW", dict(tools=["Write"], files=["*"], actions=["a"], context=["c"]), 0.5),  # LOW never reaches 0.7
    ("CRITICAL", dict(context=["c"]), 0.2),  # context keywords alone never do
    ("MEDIUM", dict(actions=["a"], context=["c"]), 0.6),  # keywords alone fire from HIGH up
    ("LOW", dict(tools=["Write"]), 0.4),  # LOW even with only tools (every call of them)
    ("MEDIUM", dict(tools=["Write"], actions=["a"], context=["c"]), 0.6),  # MEDIUM needs a file
])
def test_what_can_never_fire_at_the_default_threshold(priority, terms, best):
    rec = record(priority=priority, **terms)
    assert rec[index.R_BEST] == best < 0.7
    v = score(rec, write("a", "a"), talk("c"), always_context=True)
    assert v.score <= best and not v.eligible


# --- the gates ------------------------------------------------------------------------------------------------

def test_tool_gate():
    v = score(record(priority="CRITICAL", tools=["Edit"], files=["**/a.json"]), write("a.json"))
    assert v.score == 0.8 and v.gate.startswith("tool Write is not among")
    assert score(record(priority="CRITICAL", files=["**/a.json"]), write("a.json")).eligible  # no tools named: no gate


def test_file_gate_applies_to_file_bearing_calls_only():
    rec = record(priority="CRITICAL", tools=["Write", "Bash"], files=["**/a.json"], actions=["version"])
    v = score(rec, write("README.md", "version"))
    assert v.score == 1.0 and v.gate.startswith("path README.md matches none")
    assert score(rec, bash("npm version patch")).eligible  # a shell command may name no file at all


def test_action_gate():
    rec = record(priority="CRITICAL", tools=["Write", "Edit"], files=["**/plugin.json"], actions=["version"])
    v = score(rec, write("plugin.json", '{"description": "x"}'))
    assert v.score == 1.6 and v.gate == "none of its action keywords occur in the tool input"
    assert score(rec, write("plugin.json", '{"version": "2"}')).eligible
    assert score(rec, edit("plugin.json", "1.4.0", old="1.3.0")).eligible  # an input without words cannot be judged


def test_specificity_gate():
    rec = record(priority="CRITICAL", tools=["Bash"], files=["migrations/**"])
    v = score(rec, bash("ls"))
    assert v.score == 0.8 and v.gate == "none of its file patterns or keywords occur in this call"
    assert score(rec, bash("alembic upgrade migrations/env.py")).eligible
    assert score(record(priority="CRITICAL", tools=["Bash"]), bash("ls")).eligible  # tools only: the tool decides
    by_context = record(priority="CRITICAL", tools=["Bash"], context=["production"])
    assert score(by_context, bash("./run.sh"), talk("on production")).eligible
    assert score(by_context, bash("ls"), talk("on production")).gate.startswith("the command only reads")  # no act
    assert not score(by_context, bash("ls"), talk("on staging")).eligible


@pytest.mark.parametrize("call, elsewhere", [
    (bash("kubectl apply -k deploy/k8s/overlays/staging"), "staging"),
    (bash("kubectl apply -f scheduler.yaml -n clinic-staging"), "staging"),
    (bash('psql -h localhost -U app app_dev -c "DELETE FROM sessions"'), "dev"),
    (bash("kubectl apply -f api.yaml", description="Apply on the local dev cluster"), "dev"),
    (edit("deploy/k8s/overlays/staging/patch.yaml", "replicas: 2"), "staging"),
    (bash("kubectl apply -k deploy/k8s/overlays/production"), None),
    (bash("kubectl --context prod-eu apply -k overlays/staging-like"), None),  # production named too: not gated
    (bash("kubectl apply -f api.yaml"), None),  # no environment named: the item may well apply
    (bash("kubectl --context kind-clinic apply -f scheduler.yaml"), "kind-clinic"),  # kind's and k3d's contexts
    (bash("kubectl apply -f api.yaml --context=k3d-clinic"), "k3d-clinic"),
    (bash("kubectl config use-context docker-desktop && kubectl apply -f api.yaml"), "docker-desktop"),
    (bash("kubectl apply -f kind-of-config.yaml"), None),
])
def test_environment_gate(call, elsewhere):
    prod = record(priority="CRITICAL", tools=["Bash", "Edit"], actions=["kubectl apply", "DELETE FROM", "replicas"],
                  context=["production"])
    v = score(prod, call, talk("rolling out"))
    assert relevance.other_environment(prod, call) == elsewhere
    assert v.eligible is (elsewhere is None)
    if elsewhere:
        assert v.gate == "the call names %s, not production; the item is about production" % elsewhere
    plain = record(priority="CRITICAL", tools=["Bash", "Edit"], actions=["kubectl apply", "DELETE FROM", "replicas"])
    assert score(plain, call, talk("x")).eligible  # an item that does not name production is never gated for it


def test_text_a_command_only_writes_is_no_act_but_is_the_content_of_its_file():
    note = bash("echo '- never TRUNCATE on prod without a snapshot' >> docs/runbook.md")
    act = record(priority="CRITICAL", tools=["Bash"], actions=["TRUNCATE"])
    assert score(act, note).gate == "none of its action keywords occur in the tool input"
    assert score(act, bash('psql "$PROD_URL" -c "TRUNCATE sessions"')).eligible
    about_the_file = record(priority="CRITICAL", tools=["Bash", "Edit"], files=["docs/runbook.md"], actions=["TRUNCATE"])
    assert score(about_the_file, note).eligible


def test_a_dry_run_is_not_production():
    prod = record(priority="CRITICAL", tools=["Bash"], actions=["helm upgrade", "migrate"], context=["prod-eu-1"])
    for command in ("helm upgrade api charts/api --kube-context prod-eu-1 --dry-run",
                    "helm diff upgrade api charts/api --kube-context prod-eu-1", "python manage.py migrate --plan"):
        assert relevance.other_environment(prod, bash(command)) == relevance.DRY_RUN
        assert score(prod, bash(command), talk("x")).gate == "the call is a dry run; the item is about the act it rehearses"
    assert score(prod, bash("helm upgrade api charts/api --kube-context prod-eu-1"), talk("x")).eligible
    only_context = record(priority="CRITICAL", tools=["Bash"], context=["production"])
    assert score(only_context, bash("helm upgrade api --dry-run"), talk("on production")).gate == \
        "the call is a dry run; the item is about production"
    plain = record(priority="CRITICAL", tools=["Bash"], actions=["npm publish"])
    assert score(plain, bash("npm publish --dry-run"), talk("x")).gate.startswith("the call is a dry run")  # no publish
    assert score(plain, bash("npm publish"), talk("x")).eligible
    assert score(plain, bash("npm publish --dry-run && npm publish"), talk("x")).eligible


def test_project_knowledge_stays_out_of_a_command_run_outside_the_project(monkeypatch):
    monkeypatch.setenv("FOREWARN_USER_GRAPHS", "/home/u/.claude/graphs")
    nd = node(priority="CRITICAL", tools=["Bash"], actions=["push --force", "push -f"])
    project_item = index_build._record(0, nd, (0, 0, 0), ROOT + "/.claude/graphs/team.json")
    users_item = index_build._record(0, nd, (0, 0, 0), "/home/u/.claude/graphs/mine.json")
    away = ToolCall({"tool_name": "Bash", "tool_input": {"command": "cd ~/src/dotfiles && git push -f"}, "cwd": ROOT}, ROOT)
    v = score(project_item, away)
    assert v.gate == "the command runs outside the project; the item is the project's knowledge"
    assert score(users_item, away).eligible  # the user's own knowledge goes wherever the user goes
    assert score(project_item, bash("git push -f origin main")).eligible
    assert not relevance.users_own(project_item) and relevance.users_own(users_item)
    monkeypatch.setenv("FOREWARN_USER_GRAPHS", "/home/u/.claude/graphs/")
    assert relevance.users_own(users_item)


def test_gates_are_reported_in_order():
    rec = record(priority="CRITICAL", tools=["Edit"], files=["**/a.json"], actions=["version"])
    assert score(rec, write("b.json", "name")).gate.startswith("tool ")  # the first gate that applies is named


# --- the conversation is read lazily --------------------------------------------------------------------------

def test_context_is_read_only_when_it_can_decide():
    # HIGH, file only: 0.6 alone, 0.75 with context: the conversation decides
    conversation = talk("we prepare the release")
    v = score(record(priority="HIGH", files=["**/a.json"], context=["release"]), write("a.json"), conversation)
    assert v.context == " release " and v.eligible and conversation.reads == 1
    # CRITICAL tool and file: 1.6 either way; LOW: 0.5 at most; gated by the tool: never read
    score(record(priority="CRITICAL", tools=["Write"], files=["**/a.json"], context=["release"]), write("a.json"))
    score(record(priority="LOW", tools=["Write"], files=["**/a.json"], context=["release"]), write("a.json"))
    score(record(priority="HIGH", tools=["Edit"], files=["**/a.json"], context=["release"]), write("a.json"))
    # ... unless explain asks for every term
    conversation = talk("release")
    assert score(record(priority="CRITICAL", tools=["Write"], context=["release"]), write("a"), conversation,
                 always_context=True).context == " release "
    assert conversation.reads == 1


def test_an_empty_or_missing_conversation_matches_nothing():
    v = score(record(priority="HIGH", files=["**/a.json"], context=["release"]), write("a.json"), lambda: "")
    assert v.context is None and not v.eligible


# --- ranking and candidates on a real index -------------------------------------------------------------------

@pytest.fixture
def project(tmp_path, monkeypatch):
    root = isolated_project(tmp_path, monkeypatch)

    def build(nodes):
        (root / ".claude" / "graphs" / "g.json").write_text(json.dumps({"directed": True, "nodes": nodes, "links": []}))
        idx, _state = index.open_fresh(str(root))
        return idx

    build.root = str(root)
    return build


def test_ranking_is_score_then_priority_then_id(project):
    nodes = [node("b-high", "HIGH", tools=["Write"], files=["*.py"], actions=["x"]),  # 1.35
             node("z-crit", "CRITICAL", tools=["Write"], files=["*.py"]),  # 1.6
             node("a-crit", "CRITICAL", tools=["Write"], files=["*.py"]),  # 1.6
             node("c-med", "MEDIUM", tools=["Write"], files=["*.py"], actions=["x"], context=["y"]),  # 1.0 with context
             node("d-crit", "CRITICAL", tools=["Write"], actions=["x"])]  # 1.0
    for order in (nodes, nodes[::-1], nodes[2:] + nodes[:2]):
        idx = project(order)
        call = ToolCall({"tool_name": "Write", "tool_input": {"file_path": project.root + "/m.py", "content": "x"}}, project.root)
        verdicts = relevance.evaluate(idx, call, 0.7, lambda: " y ")
        idx.close()
        assert [v.record[index.R_ID] for v in verdicts] == ["a-crit", "z-crit", "b-high", "d-crit", "c-med"]


def test_an_item_that_names_only_tools_is_about_every_call_of_them():
    brief = record(priority="MEDIUM", tools=["Task", "Agent"])  # "when you brief a subagent, …"
    v = score(brief, tool("Task", prompt="Refactor the slots module", description="refactor"))
    assert v.tool and v.file and v.score == 0.8 and v.eligible  # its tool match is all it asks: file term met too
    assert score(brief, bash("ls")).gate.startswith("tool Bash is not among")
    assert score(record(priority="LOW", tools=["Task"]), tool("Task", prompt="x")).score == 0.4  # LOW never fires
    narrowed = record(priority="MEDIUM", tools=["Task"], actions=["deploy"])  # names more than tools: unchanged
    assert score(narrowed, tool("Task", prompt="deploy it"), talk("x")).score == 0.5


def test_an_item_that_names_only_keywords_fires_on_its_act_by_any_tool(project):
    """Its action keyword is its tool match: the act it names, whatever tool does it (a Bash command, a subagent's
    brief, an MCP call); an item that also names files or tools is unchanged."""
    idx = project([node("deploy", "CRITICAL", actions=["fly deploy"], context=["production"]),
                   node("quiet", "MEDIUM", actions=["fly deploy"]), node("filed", "HIGH", files=["fly.toml"], actions=["fly deploy"])])
    try:
        for call in (bash("fly deploy -a api-prod"), tool("Task", prompt="Run fly deploy -a api-prod and watch it"),
                     tool("mcp__github__run_workflow", workflow_id="fly deploy")):
            verdicts = relevance.evaluate(idx, call, 0.7, talk("x"))
            eligible = [v.record[index.R_ID] for v in verdicts if v.eligible]
            assert eligible == ["deploy"], call.tool  # MEDIUM: (0.4 + 0.1) × 1.0 stays below 0.7; "filed" needs its file
            assert verdicts[0].tool and verdicts[0].score == 1.0
        assert not [v for v in relevance.evaluate(idx, bash("fly status -a api-prod"), 0.7, talk("x")) if v.eligible]
        assert relevance.evaluate(idx, bash("fly deploy"), 0.7, talk("on production"))[0].score == 1.2
    finally:
        idx.close()


def test_items_that_cannot_reach_the_threshold_are_not_scored(project):
    idx = project([node("low", "LOW", tools=["Write"], files=["*.py"]), node("crit", "CRITICAL", tools=["Write"], files=["*.py"]),
                   node("other-tool", "CRITICAL", tools=["Bash"]), node("kw-only", "CRITICAL", actions=["x"])])
    call = ToolCall({"tool_name": "Write", "tool_input": {"file_path": project.root + "/m.py", "content": "y"}}, project.root)
    try:
        assert [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, never)] == ["crit"]
        everything = relevance.evaluate(idx, call, 0.7, never, everything=True)
        assert [v.record[index.R_ID] for v in everything] == ["crit", "low", "kw-only", "other-tool"]  # eligible, then by score
        assert [v.eligible for v in everything] == [True, False, False, False]
        assert {v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.3, never)} >= {"crit", "low", "kw-only"}
    finally:
        idx.close()


def test_candidate_keys():
    keys = relevance.candidate_keys(write("src/app/x.py"), 0.7)
    assert {"t0:write", "g", "n:src", "n:x.py", "e:.py", "wg", "wn:x.py", "we:.py"} <= set(keys) and "tf:write" not in keys
    reading = relevance.candidate_keys(bash("pytest tests/test_x.py"), 0.7)
    assert "e:.py" in reading and not [k for k in reading if k.startswith("w")]  # edit-only items need an edit
    writing = relevance.candidate_keys(bash("sed -i s/a/b/ src/x.py && cat README.md"), 0.7)
    assert {"wn:x.py", "we:.py", "e:.md"} <= set(writing) and "we:.md" not in writing
    mcp = tool("mcp__github__get_issue")
    assert "tp:mcp__github__" in relevance.candidate_keys(mcp, 0.7, {}, ("mcp__github__", "mcp__slack__"))
    assert not [k for k in relevance.candidate_keys(write("a"), 0.7, {}, ("mcp__github__",)) if k.startswith("tp:")]
    assert "tf:bash" in relevance.candidate_keys(bash("ls"), 0.7)
    assert "t0l:write" in relevance.candidate_keys(write("a"), 0.5)
    assert relevance.candidate_keys(write("a"), 0.3) is None  # keywords alone can reach it: read everything
    words = {"tf:bash": frozenset({"git", "terraform"}), "t0:bash": frozenset({"npm"})}
    keys = relevance.candidate_keys(bash("git push --force"), 0.7, words)
    assert "tf:bash|w:git" in keys and "tf:bash|w:terraform" not in keys and "t0:bash|w:npm" not in keys
    assert "tf:bash|kw" in relevance.candidate_keys(bash("1.2.3"), 0.7, words)


def test_a_keyword_apart_in_a_shell_command_is_found_through_the_index(project):
    idx = project([node("force", "CRITICAL", tools=["Bash"], actions=["push --force"])])
    call = ToolCall({"tool_name": "Bash", "tool_input": {"command": "git push origin main --force"}}, project.root)
    try:
        assert [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, never) if v.eligible] == ["force"]
    finally:
        idx.close()


# --- shell commands that edit files ------------------------------------------------------------------------

VERSION_BUMP = dict(priority="CRITICAL", tools=["Write", "Edit", "MultiEdit"], files=["**/.claude-plugin/plugin.json"],
                    actions=["version", "bump"])


def test_a_shell_command_that_writes_a_matching_file_is_an_edit_of_it():
    rec = record(**VERSION_BUMP)
    v = score(rec, bash("""sed -i 's/"version": "0.4.0"/"version": "0.5.0"/' .claude-plugin/plugin.json"""))
    assert v.eligible and (v.tool, v.file, v.action.strip()) == (True, True, "version") and v.score == 1.8
    appended = score(rec, bash("echo '\"version\": 2' >> .claude-plugin/plugin.json"))
    assert appended.eligible and appended.tool


@pytest.mark.parametrize("command", [
    "cat .claude-plugin/plugin.json | jq .version",  # reads the file
    "sed 's/version/v/' .claude-plugin/plugin.json",  # prints, does not write in place
    "sed -i 's/version/v/' README.md",  # writes another file
])
def test_a_shell_command_that_only_reads_the_file_or_writes_another_stays_behind_the_tool_gate(command):
    v = score(record(**VERSION_BUMP), bash(command))
    assert not v.tool and v.gate.startswith("tool Bash is not among")


def test_an_item_for_other_tools_is_not_reached_by_a_shell_write():
    v = score(record(priority="CRITICAL", tools=["mcp__github__push_files"], files=["**/plugin.json"]),
              bash("sed -i 's/a/b/' .claude-plugin/plugin.json"))
    assert not v.tool and not v.eligible


def test_a_recursive_deletion_by_any_name_reads_as_rm_rf(project):
    idx = project([node("rm", "CRITICAL", tools=["Bash"], actions=["rm -rf"])])
    try:
        for command, tool_name in (("find exports -name '*.csv' -delete", "Bash"), ("git clean -fdx", "Bash"),
                                   ("Remove-Item -Recurse -Force exports\\2026", "PowerShell")):
            call = ToolCall({"tool_name": tool_name, "tool_input": {"command": command}}, project.root)
            assert [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, never) if v.eligible] == ["rm"], command
        call = ToolCall({"tool_name": "Bash", "tool_input": {"command": "find exports -name '*.csv'"}}, project.root)
        assert not [v for v in relevance.evaluate(idx, call, 0.7, never) if v.eligible]
    finally:
        idx.close()


def test_a_shell_write_reaches_an_edit_item_through_the_index(project):
    idx = project([node(**dict(VERSION_BUMP, node_id="bump"))])
    call = ToolCall({"tool_name": "Bash", "tool_input": {"command": "sed -i 's/\"version\": \"1\"/\"version\": \"2\"/' .claude-plugin/plugin.json"},
                     "cwd": project.root}, project.root)
    try:
        assert [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, never) if v.eligible] == ["bump"]
    finally:
        idx.close()


def test_items_to_inject_are_ranked_by_their_whole_score(project):
    a = node("a", "CRITICAL", tools=["Write"], files=["**/a.json"], context=["release"])  # 1.6, 1.8 with context
    b = node("b", "CRITICAL", tools=["Write"], files=["**/a.json"], actions=["version"])  # 1.8
    idx = project([a, b])
    call = ToolCall({"tool_name": "Write", "tool_input": {"file_path": str(project.root) + "/a.json", "content": "version"}},
                    project.root)
    try:
        for text, order in (("cutting the release today", ["a", "b"]), ("fixing a typo", ["b", "a"])):
            verdicts = [v for v in relevance.evaluate(idx, call, 0.7, talk(text)) if v.eligible]
            assert [v.record[index.R_ID] for v in verdicts] == order, text
    finally:
        idx.close()


def test_a_subagent_brief_that_names_the_act_is_a_call_of_the_items_tools(project):
    """Task and Agent delegate: the subagent runs the tools, so a brief that names an item's act meets its tool term
    (and a brief that names one of its files, its file term); a brief that asks only to look is no act."""
    idx = project([node("helm", "CRITICAL", tools=["Bash"], actions=["helm upgrade"], context=["production"]),
                   node("bump", "CRITICAL", tools=["Edit", "Write"], files=["sdk/pyproject.toml"], actions=["version"]),
                   node("brief", "MEDIUM", tools=["Task", "Agent"])])

    def fired(description, prompt, tool_name="Task"):
        call = ToolCall({"tool_name": tool_name, "tool_input": {"description": description, "prompt": prompt}}, project.root)
        return sorted(v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, talk("x")) if v.eligible)

    try:
        assert fired("Roll out ingest", "Run helm upgrade ingest charts/ingest --kube-context prod-us", "Agent") == ["brief", "helm"]
        assert fired("Bump the SDK", "Set the version in sdk/pyproject.toml to 2.5.0") == ["brief", "bump"]
        assert fired("Bump the SDK", "Set the version in pyproject.toml to 2.5.0") == ["brief", "bump"]  # its file name
        assert fired("Bump the plugin", "Set the version in .claude-plugin/plugin.json to 1.3.0") == ["brief"]  # another file
        assert fired("Find helm calls", "List every script that runs helm upgrade") == ["brief"]  # a report, not an act
        assert fired("Roll out ingest", "Run helm upgrade ingest on the staging cluster") == ["brief"]  # environment gate
    finally:
        idx.close()


def test_a_brief_names_files_not_folders_versions_or_dotted_commands():
    call = tool("Task", description="Release 1.6.0", prompt="Bump libs/tariffs to 1.6.0, run `mix hex.publish`, "
                "tag tariffs-v1.6.0 and update lib/client/version.rb, then CHANGELOG.md.")
    assert call.brief_files() == [["lib", "client", "version.rb"], ["CHANGELOG.md"]]
    assert not tool("Bash", command="x").delegates and not tool("Task", description="Audit logging", prompt="x").delegates


@pytest.mark.parametrize("call", [
    bash("gh workflow run deploy.yml -f environment=production -f ref=2026.11.3"),
    bash("gh workflow run promote.yml -f app=prod-eu"),
    tool("mcp__github__run_workflow", owner="o", repo="r", workflow_id="deploy-prod.yml", inputs={"app": "api-prod"}),
])
def test_a_dispatched_deploy_workflow_is_a_deploy_by_whatever_tool_the_team_named(project, call):
    idx = project([node("argo", "CRITICAL", tools=["Bash"], actions=["argocd app sync"], context=["prod"]),
                   node("fly", "CRITICAL", actions=["fly deploy"]),
                   node("tf", "CRITICAL", tools=["Bash"], actions=["terraform apply"])])  # infrastructure: not a deploy
    try:
        eligible = sorted(v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, talk("x")) if v.eligible)
        assert eligible == (["fly"] if call.tool.startswith("mcp") else ["argo", "fly"])  # an MCP call is not Bash
    finally:
        idx.close()


def test_sql_that_destroys_rows_reads_as_any_destructive_keyword_of_an_item_about_production(project):
    idx = project([node("prod-sql", "CRITICAL", tools=["Bash"], actions=["DELETE FROM", "TRUNCATE"], context=["production"]),
                   node("local-sql", "CRITICAL", tools=["Bash"], actions=["DROP TABLE"])])  # not about production
    try:
        def fired(command):
            return sorted(v.record[index.R_ID] for v in relevance.evaluate(idx, bash(command), 0.7, talk("x")) if v.eligible)

        assert fired('psql "$PROD_DATABASE_URL" -c "UPDATE invoices SET status = \'void\' WHERE batch = 8"') == ["prod-sql"]
        assert fired('sqlx migrate revert --database-url "$PROD_DATABASE_URL"') == ["prod-sql"]
        assert fired('psql "$PROD_DATABASE_URL" -c "DROP TABLE tmp_backfill"') == ["local-sql", "prod-sql"]
        assert fired('psql "$PROD_DATABASE_URL" -c "SELECT count(*) FROM invoices"') == []
        assert fired("echo '- never TRUNCATE on prod' >> docs/runbook.md") == []  # printed text is no act
        assert fired('psql -h localhost -d app_dev -c "UPDATE users SET admin = true"') == []  # not production
    finally:
        idx.close()


def test_a_session_that_names_only_another_environment_gates_a_bare_production_command():
    """A call that names no environment means what the session works in: ``alembic upgrade head`` in a session about
    the local database gets no production warning; in a session that mentions production at all it does."""
    prod = record(priority="CRITICAL", tools=["Bash"], actions=["alembic upgrade"], context=["production"])
    bare = bash("alembic upgrade head")
    assert score(prod, bare, talk("let us try the migration against the local database first")).gate == \
        "the session names local, not production; the item is about production"
    assert score(prod, bare, talk("local looks fine, now run it on production")).eligible
    assert score(prod, bare, talk("")).eligible  # no conversation yet: nothing to go on
    assert score(prod, bash("alembic upgrade head  # prod"), talk("on staging")).gate != \
        "the session names staging, not production; the item is about production"  # the call itself decides
    plain = record(priority="CRITICAL", tools=["Bash"], actions=["alembic upgrade"])  # not about production
    assert score(plain, bare, talk("on staging")).eligible


def test_an_edit_that_sets_a_new_version_in_a_release_checklists_files_is_a_step_of_the_release(project):
    release = node("gem-release", "CRITICAL", tools=["Bash"], files=["gems/client/lib/client/version.rb"], actions=["gem push"])
    release["process_type"] = "checklist"
    release["checklist"] = {"items": ["Move Unreleased in CHANGELOG.md under the new version", "gem build", "gem push"]}
    idx = project([release])

    def fired(path, old, new):
        call = ToolCall({"tool_name": "Edit", "tool_input": {"file_path": project.root + "/" + path, "old_string": old,
                                                             "new_string": new}}, project.root)
        return [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, talk("x")) if v.eligible]

    try:
        assert fired("gems/client/lib/client/version.rb", 'VERSION = "2.3.1"', 'VERSION = "2.4.0"') == ["gem-release"]
        assert fired("gems/client/CHANGELOG.md", "## Unreleased", "## Unreleased\n\n## [2.4.0] - 2026-03-02") == ["gem-release"]
        assert fired("mobile/CHANGELOG.md", "## Unreleased", "## Unreleased\n\n## 4.12.0") == []  # another package's
        assert fired("gems/client/lib/client/version.rb", "# Client version", "# The client's version") == []  # no new one
    finally:
        idx.close()


@pytest.mark.parametrize("old, new, bumps", [
    ('version = "0.7.2"', 'version = "0.8.0"', True),
    ("version: 2.3.0+41", "version: 2.4.0+42", True),
    ("## Unreleased", "## Unreleased\n\n## [1.9.0] - 2026-11-20", True),
    ('{:decimal, "~> 2.0"},', '{:decimal, "~> 2.0"},\n{:nimble_csv, "~> 1.2"},', False),  # a dependency, not the version
    ('version = "0.8.0"', 'version = "0.8.0"\nedition = "2021"', False),  # the same version
])
def test_what_sets_a_new_version(old, new, bumps):
    assert edit("x/Cargo.toml", new, old).bumps_version() is bumps


def test_a_version_tag_or_a_sed_bump_of_a_package_is_a_step_of_its_release(project):
    release = node("hex", "CRITICAL", tools=["Bash"], files=["libs/tariffs/mix.exs"], actions=["mix hex.publish"])
    other = node("sdk", "CRITICAL", tools=["Bash"], files=["sdk/package.json"], actions=["npm publish"])
    idx = project([release, other])
    try:
        def fired(command):
            call = ToolCall({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": project.root}, project.root)
            return [v.record[index.R_ID] for v in relevance.evaluate(idx, call, 0.7, talk("x")) if v.eligible]

        assert fired("git tag tariffs-v1.5.0 && git push origin tariffs-v1.5.0") == ["hex"]
        assert fired("gh release create sdk-v2.4.0 --notes-file sdk/NOTES.md") == ["sdk"]
        assert fired("""sed -i 's/version: "1.4.2"/version: "1.5.0"/' libs/tariffs/mix.exs""") == ["hex"]
        assert fired("sed -i 's/:dev/:prod/' libs/tariffs/mix.exs") == []  # no version set
        assert fired("git tag v1.5.0") == []  # whose release?
    finally:
        idx.close()


def test_a_keyword_written_in_capitals_is_not_the_english_word_in_a_commands_description():
    sql = record(priority="CRITICAL", tools=["Bash"], actions=["UPDATE", "DELETE FROM"], context=["production"])
    assert score(sql, bash("git pull --rebase origin main", description="Update my branch from main"), talk("x")).action is None
    assert score(sql, bash("psql -f fix.sql", description="UPDATE the stuck rows on production"), talk("x")).action == " update "
    assert score(sql, bash('psql "$PROD_URL" -c "update journal set amount = 0"', description="Fix it"), talk("x")).action == " update "
    lower = record(priority="CRITICAL", tools=["Bash"], actions=["export"])  # written in lower case: searched as before
    assert score(lower, bash("bq query --destination_table=scratch.t", description="Export viewing history"), talk("x")).action


def test_a_keyword_whose_punctuation_is_its_meaning_matches_only_as_written():
    rm = record(priority="HIGH", tools=["Bash"], actions=["rm -rf", "-delete"])
    assert score(rm, bash("find sdk/dist -type f -delete"), talk("x")).action == " delete "
    assert score(rm, bash("kubectl --context prod delete pod -l app=x"), talk("x")).action is None  # the bare word
    assert score(rm, bash("rm -rf build"), talk("x")).action == " rm rf "
    orm = record(priority="CRITICAL", tools=["Bash"], actions=[".delete()", "DROP TABLE"])
    assert score(orm, bash("python manage.py shell -c 'Reminder.objects.filter(sent=False).delete()'"), talk("x")).action
    assert score(orm, bash("rm backend/old_views.py", description="Delete the old views"), talk("x")).action is None
