"""Deterministic synthetic knowledge and project for the benchmarks.

:func:`generate` writes a throw-away project whose knowledge imitates a large,
long-lived knowledge base (same seed, same bytes):

* tools: about half the items are about edits (``Write``/``Edit``/
  ``MultiEdit``), a quarter about ``Bash`` commands, a few about MCP tools
  (``mcp__github__*`` prefixes and exact names) and subagents; the rest name
  file patterns or keywords only;
* file patterns of every shape the format allows: literal names at any depth
  (``**/package.json``, shared by many items, and module files), extensions
  under a folder (``services/billing3/**/*.py``), folders (``migrations/``),
  wildcards (``**/test_orders*.py``, ``config/*.yml``) and a few negations;
* action and context keywords, single words and phrases (``git push``);
* priorities 5 % CRITICAL, 25 % HIGH, 50 % MEDIUM, 20 % LOW; statuses 80 %
  active, 15 % draft, 5 % archived (the lessons graph holds most drafts);
* four project graph files of unequal size plus one user graph
  (``FOREWARN_USER_GRAPHS``), with non-process entity nodes and links mixed
  in, as other tools leave them;
* a project layout (``.git``, sources, migrations, a plugin manifest) and a
  Claude Code transcript, so the hook reads a real conversation tail.

Exactly ``count`` process nodes are written; one of them is this
repository's CRITICAL version-bump checklist, so a Write to
``.claude-plugin/plugin.json`` containing ``"version"`` really injects.  No
pattern or tool-only item matches a Write to ``notes/todo.txt``.
"""

import json
import os
import random

MODULES = ["billing", "auth", "orders", "search", "payments", "users", "inventory", "reports", "notifications",
           "shipping", "catalog", "checkout", "pricing", "accounts", "sessions", "exports", "imports", "audit",
           "webhooks", "scheduler"]
COMMON_NAMES = ["package.json", "pyproject.toml", "Dockerfile", "Makefile", "settings.py", "schema.sql",
                "conftest.py", "docker-compose.yml", "tsconfig.json", "alembic.ini", "Cargo.toml", "go.mod",
                "requirements.txt", "setup.cfg", "manage.py", "urls.py", "models.py", "index.ts", "plugin.json",
                ".env.example", "Chart.yaml", "main.tf"]
EXTS = [".py", ".ts", ".tsx", ".go", ".rs", ".yaml", ".sql", ".md", ".java", ".rb", ".css", ".sh", ".proto"]
DIRS = ["services", "lib", "app", "deploy", "infra", "scripts", "api", "web", "cmd", "packages", "charts"]
COMMANDS = ["git push", "git rebase", "npm publish", "npm install", "pytest", "docker build", "docker push",
            "kubectl apply", "kubectl delete", "terraform apply", "terraform destroy", "alembic upgrade",
            "make release", "cargo publish", "helm upgrade", "psql", "redis-cli", "aws s3", "gh release",
            "pip install", "rm -rf", "chmod", "curl", "ssh", "rsync"]
WORDS = ["deploy", "release", "migrate", "publish", "secret", "token", "rollback", "cache", "schema", "lint",
         "format", "build", "backup", "queue", "retry", "version", "config", "timeout", "password", "locale",
         "feature flag", "rate limit", "api key", "dependency", "index", "transaction", "encoding", "timezone"]
MCP_TOOLS = [["mcp__github__*"], ["mcp__github__create_pull_request"], ["mcp__postgres__query"], ["mcp__slack__*"],
             ["mcp__linear__create_issue", "mcp__linear__update_issue"]]
GRAPH_FILES = [("team_process.json", 0.40), ("deploy_knowledge.json", 0.20), ("lessons_graph.json", 0.15),
               ("imported_design.json", 0.10)]  # the user graph holds the remaining 15 %
USER_GRAPH = "personal.json"


def _file_pattern(i, rng):
    shape = rng.random()
    module = rng.choice(MODULES)
    if shape < 0.15:
        return "**/" + rng.choice(COMMON_NAMES)
    if shape < 0.40:
        return "**/%s_%s.py" % (module, rng.choice(["service", "views", "tasks", "client", "handlers"]) + str(i % 50))
    if shape < 0.70:
        return "%s/%s%d/**/*%s" % (rng.choice(DIRS), module, i % 40, rng.choice(EXTS))
    if shape < 0.85:
        return rng.choice(["migrations/", "deploy/%s%d/" % (module, i % 30), "charts/%s/" % module, "vendor/%s/" % module])
    return rng.choice(["**/test_%s*.py" % module, "config/%s*.yml" % module, "**/*.lock",
                       "docs/**/%s-*.md" % module, "src/%s/**/[a-m]*.ts" % module, "**/%s?.sql" % module])


def _keywords(rng, pool, low, high):
    return rng.sample(pool, rng.randint(low, high))


def _triggers(i, rng):
    kind = rng.random()
    tools, files, action, context = [], [], [], []
    if kind < 0.50:
        tools = rng.choice([["Write", "Edit"], ["Write", "Edit", "MultiEdit"], ["Edit"], ["Write"]])
        files = [_file_pattern(i, rng) for _ in range(rng.choice([1, 1, 1, 2]))]
        if rng.random() < 0.05:
            files.append("!**/vendor/**")
        action = _keywords(rng, WORDS + MODULES, 0, 2)
        context = _keywords(rng, WORDS + MODULES, 0, 2)
    elif kind < 0.75:
        tools = ["Bash"]
        action = [rng.choice(COMMANDS)] + _keywords(rng, WORDS + MODULES, 0, 2)
        context = _keywords(rng, WORDS, 0, 1)
        if rng.random() < 0.2:
            files = ["%s/**" % rng.choice(DIRS)]
    elif kind < 0.80:
        tools = rng.choice(MCP_TOOLS)
        action = _keywords(rng, WORDS + MODULES, 0, 1)
    elif kind < 0.82:
        tools = ["Task"]
        action = _keywords(rng, WORDS, 1, 2)
    elif kind < 0.92:
        files = [_file_pattern(i, rng)]
        context = _keywords(rng, WORDS, 0, 1)
    else:
        action = _keywords(rng, WORDS + MODULES, 1, 2)
        context = _keywords(rng, WORDS + MODULES, 1, 2)
    return {"tool_names": tools, "file_patterns": files, "action_keywords": action, "context_keywords": context}


def _content(ptype, i, rng):
    module, word = rng.choice(MODULES), rng.choice(WORDS)
    if ptype == "checklist":
        return {"title": "%s %s steps" % (module, word),
                "items": ["Step %d for %s: check the %s before continuing (lesson %d)" % (k + 1, module, rng.choice(WORDS), i)
                          for k in range(rng.randint(2, 6))], "format": "markdown"}
    if ptype == "pattern":
        return {"situation": "When changing %s code that touches %s" % (module, word),
                "action": "Go through the %s %s helper instead of doing it inline (lesson %d)." % (module, word, i),
                "rationale": "Doing it inline broke %s twice; the helper handles retries and logging." % module}
    if ptype == "warning":
        return {"risk": "Changing %s without %s can corrupt %s data (lesson %d)" % (word, rng.choice(WORDS), module, i),
                "severity": rng.choice(["low", "medium", "high"]),
                "mitigation": "Run the %s checks and ask for a review from the %s owners." % (word, module)}
    return {"constraint": "Every %s change in %s needs a %s entry (lesson %d)" % (word, module, rng.choice(WORDS), i),
            "rationale": "Audits read it.", "validation": "make check-%s" % module}


def _node(i, rng, status):
    ptype = rng.choice(["checklist", "pattern", "warning", "requirement"])
    triggers = _triggers(i, rng)
    topic = (triggers["action_keywords"] or triggers["file_patterns"] or triggers["tool_names"] or ["general"])[0]
    return {
        "id": "%s-%s-%05d" % (ptype, rng.choice(MODULES), i), "type": "Concept",
        "label": "%s: %s lesson %d" % (topic, rng.choice(MODULES), i),
        "description": "Learned while working on %s; applies when %s is involved." % (rng.choice(MODULES), topic),
        "process_type": ptype,
        "priority": rng.choices(["CRITICAL", "HIGH", "MEDIUM", "LOW"], [5, 25, 50, 20])[0],
        "status": status,
        "trigger_conditions": triggers,
        ptype: _content(ptype, i, rng),
        "evidence": ["Session excerpt %d: the %s step was missed." % (i, topic)],
        "created_by": rng.choice(["alice", "bob", "forewarn-stop-hook", "carol"]),
        "created_at": "2026-%02d-%02dT10:00:00Z" % (1 + i % 12, 1 + i % 28),
        "confidence": round(rng.uniform(0.5, 1.0), 2),
    }


def _entity(i, rng):
    return {"id": "entity-%05d" % i, "type": rng.choice(["Entity", "Episode"]), "label": "%s component %d" % (rng.choice(MODULES), i)}


def _version_bump_checklist():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(here, ".claude", "graphs", "forewarn_process.json")) as handle:
        nodes = json.load(handle)["nodes"]
    return next(n for n in nodes if n["id"] == "checklist-version-bump-sync")


def _layout(project, rng):
    files = {".claude-plugin/plugin.json": '{"name": "shop", "version": "0.1.0"}\n', "package.json": "{}\n",
             "pyproject.toml": "[project]\nname = 'shop'\n", "notes/todo.txt": "buy milk\n", "migrations/0001_init.sql": "create table t (id int);\n"}
    for module in MODULES:
        files["src/%s/__init__.py" % module] = ""
        files["src/%s/%s_service.py" % (module, module)] = "def run():\n    return %d\n" % rng.randint(0, 99)
        files["tests/test_%s.py" % module] = "def test_run():\n    pass\n"
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    for rel, text in files.items():
        path = os.path.join(project, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)


def _transcript(path, project, turns=300):
    """A Claude Code transcript (JSONL) of ``turns`` exchanges, ~0.5 MB."""
    with open(path, "w") as handle:
        for t in range(turns):
            records = [
                {"type": "user", "message": {"role": "user", "content": "Please update the %s module and keep the tests green (%d)." % (MODULES[t % len(MODULES)], t)}},
                {"type": "assistant", "message": {"role": "assistant", "content": [
                    {"type": "text", "text": "Looking at the code first. " + "The module handles retries and caching. " * 8},
                    {"type": "tool_use", "id": "toolu_%d" % t, "name": "Edit", "input": {
                        "file_path": os.path.join(project, "src", MODULES[t % len(MODULES)], "service.py"),
                        "old_string": "return 1\n" * 20, "new_string": "return 2\n" * 20}}]}},
                {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_%d" % t, "content": "ok " * 200}]}},
            ]
            for record in records:
                handle.write(json.dumps(record) + "\n")


def generate(project, user_graphs, count, seed=20261122):
    """Write ``count`` process nodes into ``project/.claude/graphs`` and ``user_graphs``, plus layout and transcript.

    Returns the transcript's path.  The same arguments always give the same files.
    """
    rng = random.Random(seed)
    _layout(project, rng)
    shares = [share for _name, share in GRAPH_FILES] + [1 - sum(share for _name, share in GRAPH_FILES)]
    targets = [os.path.join(project, ".claude", "graphs", name) for name, _share in GRAPH_FILES] + [os.path.join(user_graphs, USER_GRAPH)]
    docs = [{"directed": True, "multigraph": False, "graph": {"name": os.path.basename(t)}, "nodes": [], "links": []} for t in targets]
    docs[0]["nodes"].append(_version_bump_checklist())
    lessons = [name for name, _ in GRAPH_FILES].index("lessons_graph.json")
    for i in range(count - 1):
        k = rng.choices(range(len(docs)), shares)[0]
        drafts = 60 if k == lessons else 8
        status = rng.choices(["active", "draft", "archived"], [100 - drafts - 5, drafts, 5])[0]
        docs[k]["nodes"].append(_node(i, rng, status))
        if rng.random() < 0.1:
            entity = _entity(i, rng)
            docs[k]["nodes"].append(entity)
            docs[k]["links"].append({"source": docs[k]["nodes"][-2]["id"], "target": entity["id"], "relation": "about"})
    for path, doc in zip(targets, docs):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            json.dump(doc, handle, indent=2)
    transcript = os.path.join(project, ".transcript.jsonl")
    _transcript(transcript, project)
    return transcript


def change_a_graph(project, revision):
    """Edit one item of the lessons graph the way the CLI or the Stop hook would: a real change of content."""
    path = os.path.join(project, ".claude", "graphs", "lessons_graph.json")
    with open(path) as handle:
        doc = json.load(handle)
    node = next(n for n in doc["nodes"] if n.get("process_type"))
    node["description"] = "Learned while working on the project; revision %d." % revision
    tmp = path + ".tmp"
    with open(tmp, "w") as handle:
        json.dump(doc, handle, indent=2)
    os.replace(tmp, path)
