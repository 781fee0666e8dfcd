"""Deterministic synthetic knowledge for the benchmarks: N process nodes in a throw-away project.

The mix imitates a large real knowledge base: most items are about edits
(Write/Edit) with file patterns (literal names at any depth, extensions under
a folder, whole folders), some about Bash commands with keywords, a few
about MCP tools, some keyword-only; priorities and statuses spread as in a
reviewed graph.  The repository's own version-bump checklist is included so
a Write to ``.claude-plugin/plugin.json`` really injects something, and
nothing matches ``notes/todo.txt``.
"""

import json
import os
import random

NAMES = ["plugin.json", "package.json", "pyproject.toml", "Dockerfile", "Makefile", "settings.py", "schema.sql",
         "conftest.py", "docker-compose.yml", "tsconfig.json", "webpack.config.js", "alembic.ini", "Cargo.toml",
         "go.mod", "requirements.txt", "setup.cfg", "manage.py", "urls.py", "models.py", "index.ts"]
EXTS = [".py", ".ts", ".tsx", ".go", ".rs", ".yaml", ".sql", ".md", ".java", ".rb", ".css", ".sh"]
DIRS = ["src", "lib", "app", "migrations", "deploy", "tests", "docs", "infra", "scripts", "api", "web", "cmd"]
WORDS = ["deploy", "release", "migrate", "publish", "secret", "token", "rollback", "cache", "schema", "lint",
         "format", "test", "build", "docker", "helm", "terraform", "backup", "index", "queue", "retry"]


def _node(i, rng):
    kind = rng.random()
    tools, files = [], []
    if kind < 0.55:
        tools = rng.choice([["Write", "Edit"], ["Write"], ["Edit", "MultiEdit"]])
        shape = rng.random()
        if shape < 0.4:
            files = ["**/%s%d" % (rng.choice(NAMES), i % 97) if rng.random() < 0.7 else "**/" + rng.choice(NAMES)]
        elif shape < 0.8:
            files = ["%s/**/*%s" % (rng.choice(DIRS) + str(i % 31), rng.choice(EXTS))]
        else:
            files = ["%s%d/" % (rng.choice(DIRS), i % 53)]
    elif kind < 0.8:
        tools = ["Bash"]
        if rng.random() < 0.3:
            files = ["%s/**" % (rng.choice(DIRS) + str(i % 29))]
    elif kind < 0.85:
        tools = ["mcp__github__*"]
    elif kind < 0.95:
        files = ["**/%s%d" % (rng.choice(NAMES), i % 89)]
    words = rng.sample(WORDS, 2) + ["kw%d" % (i % 400)]
    priority = rng.choices(["CRITICAL", "HIGH", "MEDIUM", "LOW"], [10, 30, 40, 20])[0]
    status = rng.choices(["active", "draft", "archived"], [80, 15, 5])[0]
    ptype = rng.choice(["checklist", "pattern", "warning", "requirement"])
    content = {
        "checklist": {"title": "Steps %d" % i, "items": ["Step %d of lesson %d: %s" % (k, i, rng.choice(WORDS)) for k in range(4)]},
        "pattern": {"situation": "When touching area %d" % i, "action": "Do the careful thing number %d" % i, "rationale": "It broke before (%d)." % i},
        "warning": {"risk": "Risk %d: %s can break" % (i, rng.choice(WORDS)), "severity": "high", "mitigation": "Check %d first" % i},
        "requirement": {"constraint": "Constraint %d must hold" % i, "validation": "run check-%d" % i},
    }[ptype]
    return {
        "id": "bench-%05d" % i, "type": "Concept", "label": "Lesson %d about %s" % (i, words[0]),
        "description": "Synthetic lesson %d for the benchmarks." % i, "process_type": ptype,
        "priority": priority, "status": status,
        "trigger_conditions": {"tool_names": tools, "file_patterns": files, "action_keywords": words[:2], "context_keywords": [words[2]]},
        ptype: content, "created_by": "benchmark", "created_at": "2026-11-22T00:00:00Z", "confidence": 0.8,
    }


def generate(project, count, files=5, seed=20261122):
    """Write ``count`` process nodes (plus the version-bump checklist) into ``project/.claude/graphs``."""
    rng = random.Random(seed)
    folder = os.path.join(project, ".claude", "graphs")
    os.makedirs(folder, exist_ok=True)
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    nodes = [_node(i, rng) for i in range(count - 1)]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(here, ".claude", "graphs", "forewarn_process.json")) as handle:
        nodes.append(json.load(handle)["nodes"][0])
    for k in range(files):
        with open(os.path.join(folder, "graph%d.json" % k), "w") as handle:
            json.dump({"directed": True, "multigraph": False, "graph": {}, "nodes": nodes[k::files], "links": []}, handle)
    return folder
