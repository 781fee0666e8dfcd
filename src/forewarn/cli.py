"""The ``forewarn`` command: explain, doctor, list, add, validate, index, and the lifecycle.

Contract: every command prints its result on stdout and exits 0; an error
is one line ``forewarn: <what is wrong>`` on stderr and exit 1 (2 for bad
usage).  With ``--soft`` (used by the slash commands, where a non-zero exit
would abort the whole command) the error line goes to stdout and the exit
is 0.  Only the standard library is needed, except for ``validate``'s
schema messages and ``schema``, which use pydantic when it is importable
and otherwise say so in one line.
"""

import argparse
import os
import sys

from . import __version__, paths

PRIORITIES = ("CRITICAL", "HIGH", "MEDIUM", "LOW")
TYPES = ("checklist", "pattern", "warning", "requirement")


class UserError(Exception):
    """An error whose message is the whole story for the user."""


def _root(args):
    if args.project:
        root = os.path.abspath(args.project)
        if not os.path.isdir(root):
            raise UserError("--project %s is not a folder" % args.project)
        return root
    root = paths.project_root(os.getcwd())
    if not root:
        raise UserError("no project found from %s; pass --project DIR" % os.getcwd())
    return root


def _print_json(value):
    import json

    print(json.dumps(value, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- explain


def cmd_explain(args):
    from . import explain

    if args.last:
        decisions = explain.recorded(args.last, args.session)
        if args.format == "json":
            _print_json(decisions)
        else:
            print(explain.format_recorded(decisions))
        return
    root = _root(args)
    if args.json:
        import json

        raw = sys.stdin.buffer.read() if args.json == "-" else open(args.json, "rb").read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            raise UserError("--json: not a hook input (%s)" % exc)
        if not isinstance(data, dict):
            raise UserError("--json: a hook input is a JSON object")
    elif args.tool:
        data = explain.hook_input(root, args.tool, args.file, args.command, args.content, args.transcript)
    else:
        raise UserError("give --tool (with --file/--command/--content), --json FILE, or --last N")
    result = explain.explain(root, data)
    if args.format == "json":
        _print_json(result)
    else:
        print(explain.format_text(result))


# ---------------------------------------------------------------- doctor


def cmd_doctor(args):
    from . import doctor

    root = paths.project_root(os.path.abspath(args.project)) if args.project else paths.project_root(os.getcwd())
    found = doctor.checks(root)
    if args.format == "json":
        _print_json([{"check": n, "status": s, "detail": d} for n, s, d in found])
    else:
        print(doctor.format_text(found))
    return 1 if any(status == "fail" for _n, status, _d in found) else 0


# ---------------------------------------------------------------- list / show


def _triggers_line(node):
    trig = node.get("trigger_conditions") or {}
    parts = []
    for key, name in (("tool_names", "tools"), ("file_patterns", "files"), ("action_keywords", "actions"), ("context_keywords", "context")):
        if trig.get(key):
            parts.append("%s=%s" % (name, ",".join(map(str, trig[key]))))
    return " ".join(parts) or "(no triggers)"


def cmd_list(args):
    from . import lifecycle
    from .knowledge import status_of

    root = _root(args)
    rows = []
    for path, node in lifecycle.all_items(root):
        status = status_of(node)
        if args.status and status != args.status:
            continue
        if args.priority and node.get("priority", "MEDIUM") != args.priority.upper():
            continue
        if args.type and node.get("process_type") != args.type:
            continue
        rows.append((node, status, path))
    if args.format == "json":
        _print_json([{"id": n.get("id"), "label": n.get("label"), "priority": n.get("priority", "MEDIUM"), "type": n.get("process_type"), "status": s, "file": p} for n, s, p in rows])
        return
    if not rows:
        print("No knowledge items match.")
        return
    for node, status, path in rows:
        print("%-32s %-8s %-11s %-9s %s" % (str(node.get("id"))[:32], status, node.get("process_type"), node.get("priority", "MEDIUM"), " ".join(str(node.get("label", "")).split())[:70]))
    print("%d item(s)" % len(rows))


def cmd_show(args):
    import json

    from . import lifecycle, render
    from .knowledge import problems, status_of

    root = _root(args)
    path, node = lifecycle.resolve(root, args.id)
    print("%s  (%s, %s, %s)  in %s" % (node["id"], status_of(node), node.get("priority", "MEDIUM"), node.get("process_type"), path))
    print("triggers: " + _triggers_line(node))
    found = problems(node)
    if found:
        print("problems: " + "; ".join(found))
    else:
        print()
        print(render.render_item(node))
    print()
    print(json.dumps(node, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- lifecycle


def cmd_drafts(args):
    from . import lifecycle

    root = _root(args)
    items = lifecycle.drafts(root)
    if args.format == "json":
        _print_json([dict(n, _file=p) for p, n in items])
        return
    if not items:
        print("No drafts wait for review.")
        return
    for path, node in items:
        age = lifecycle.age_days(node)
        evidence = node.get("evidence") or []
        excerpt = evidence[0] if isinstance(evidence, list) and evidence else evidence if isinstance(evidence, str) else ""
        source = node.get("source") if isinstance(node.get("source"), dict) else {}
        excerpt = excerpt or source.get("excerpt") or ""
        print("%s  [%s %s]  %s" % (node.get("id"), node.get("priority", "MEDIUM"), node.get("process_type"), " ".join(str(node.get("label", "")).split())))
        print("    triggers: %s" % _triggers_line(node))
        if excerpt:
            print("    evidence: %s" % " ".join(str(excerpt).split())[:200])
        print("    age: %s; from: %s; file: %s" % ("%d day(s)" % age if age is not None else "unknown", source.get("kind", node.get("created_by", "?")), os.path.relpath(path, root) if path.startswith(root) else path))
    print("%d draft(s). Promote with /forewarn:knowledge-promote <id> [priority], archive with /forewarn:knowledge-archive <id>." % len(items))


def cmd_promote(args):
    from . import index_build, lifecycle

    root = _root(args)
    path, node = lifecycle.promote(root, args.id, args.priority)
    index_build.rebuild(root)
    print("%s is active (%s): %s" % (node["id"], node.get("priority", "MEDIUM"), node.get("label")))


def cmd_archive(args):
    from . import index_build, lifecycle

    root = _root(args)
    path, node = lifecycle.archive(root, args.id)
    index_build.rebuild(root)
    print("%s is archived: %s" % (node["id"], node.get("label")))


def cmd_archive_drafts(args):
    from . import index_build, lifecycle

    root = _root(args)
    ids = lifecycle.archive_drafts(root, args.older_than)
    index_build.rebuild(root)
    print("archived %d draft(s) older than %d day(s)%s" % (len(ids), args.older_than, (": " + ", ".join(ids)) if ids else ""))


# ---------------------------------------------------------------- add


def _slug(text):
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return "-".join(words[:6]) or "item"


def cmd_add(args):
    import time

    from . import index_build, lifecycle
    from .knowledge import problems

    root = _root(args)
    node = {
        "id": args.id or "%s-%s" % (args.type, _slug(args.label)),
        "type": "Concept",
        "label": args.label,
        "description": args.description or "",
        "process_type": args.type,
        "priority": args.priority.upper(),
        "status": "draft" if args.draft else "active",
        "trigger_conditions": {
            "tool_names": args.tools or [],
            "file_patterns": args.files or [],
            "action_keywords": args.action_keywords or [],
            "context_keywords": args.context_keywords or [],
        },
        "created_by": "forewarn-cli",
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "confidence": 1.0,
        "source": {"kind": "manual"},
    }
    if args.type == "checklist":
        node["checklist"] = {"title": args.label, "items": args.item or [], "format": "markdown"}
    elif args.type == "pattern":
        node["pattern"] = {"situation": args.situation, "action": args.action, "rationale": args.rationale, "example": args.example}
    elif args.type == "warning":
        node["warning"] = {"risk": args.risk, "severity": args.severity, "detection": args.detection, "mitigation": args.mitigation}
    else:
        node["requirement"] = {"constraint": args.constraint, "rationale": args.rationale, "validation": args.validation}
    block = node[args.type]
    for key in [k for k, v in block.items() if v is None]:
        del block[key]
    found = _schema_errors(node) or problems(node)
    if found:
        raise UserError("not added: " + "; ".join(found))
    path = lifecycle.add(root, node, args.file)
    index_build.rebuild(root)
    print("added %s (%s, %s) to %s" % (node["id"], node["status"], node["priority"], path))


# ---------------------------------------------------------------- validate / index / schema


def _schema_errors(node):
    """pydantic's messages for a node, or None when pydantic is not importable."""
    try:
        from .schema import node_errors
    except ImportError:
        return None
    return node_errors(node)


def cmd_validate(args):
    from . import graphs
    from .knowledge import is_process_node, problems

    root = _root(args)
    try:
        import pydantic  # noqa: F401

        checker = _schema_errors
    except ImportError:
        print("forewarn: pydantic is not installed here; checking with the built-in rules (the hooks use the same).")
        checker = problems
    files = [p for p, _m, _s in paths.scan_graph_files(paths.graph_dirs(root))]
    bad = 0
    nodes = 0
    for path in files:
        try:
            doc = graphs.load_graph(path)
        except graphs.GraphError as exc:
            print(str(exc))
            bad += 1
            continue
        for node in doc.get("nodes", []):
            if not is_process_node(node):
                continue
            nodes += 1
            for problem in checker(node):
                print("%s: node %s: %s" % (path, node.get("id", "?"), problem))
                bad += 1
    print("%d file(s), %d process node(s), %d problem(s)" % (len(files), nodes, bad))
    return 1 if bad else 0


def cmd_index(args):
    from . import index, index_build

    root = _root(args)
    path = index.index_file(root)
    blob = index_build.build_bytes(root, index.current_sources(root))
    stored = index_build.store(path, blob)
    idx, _state = index.open_fresh(root, rebuild=False)
    header = idx.header if idx else index._parse(__import__("io").BytesIO(blob)).header
    if idx:
        idx.close()
    print(
        "%d active item(s) indexed in %.3fs (%d draft, %d archived, %d problem(s)); %s"
        % (header["items"], header["build_seconds"], header["counts"]["draft"], header["counts"]["archived"], header["problem_count"], path if stored else "not stored: data folder not writable")
    )


def cmd_schema(args):
    import json

    try:
        from .schema import json_schemas
    except ImportError:
        raise UserError("schema export needs pydantic: pip install 'pydantic>=2.6' (or wait for forewarn's environment)")
    stale = []
    for name, schema in json_schemas().items():
        text = json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        target = os.path.join(args.out, name)
        if args.check:
            try:
                with open(target, encoding="utf-8") as handle:
                    if handle.read() != text:
                        stale.append(target)
            except OSError:
                stale.append(target)
            continue
        os.makedirs(args.out, exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
        print("wrote " + target)
    if stale:
        raise UserError("out of date: %s (run forewarn schema --out %s)" % (", ".join(stale), args.out))


# ---------------------------------------------------------------- parser


def build_parser():
    parser = argparse.ArgumentParser(prog="forewarn", description="Procedural memory for Claude Code.")
    parser.add_argument("--version", action="version", version="forewarn " + __version__)
    parser.add_argument("--project", help="project folder (default: found from the current directory)")
    parser.add_argument("--soft", action="store_true", help="print errors on stdout and exit 0 (for slash commands)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def add(name, func, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    p = add("explain", cmd_explain, "dry-run a tool call: every item, each score term, what would be injected and why")
    p.add_argument("--tool", help="tool name, e.g. Write, Edit, Bash")
    p.add_argument("--file", help="file path of the call (absolute, or relative to the project)")
    p.add_argument("--command", help="Bash command")
    p.add_argument("--content", help="text written or edited")
    p.add_argument("--transcript", help="transcript JSONL for context keywords")
    p.add_argument("--json", metavar="FILE", help="a PreToolUse hook input (- for stdin)")
    p.add_argument("--last", type=int, metavar="N", help="show the hook's last N recorded decisions from the trace")
    p.add_argument("--session", help="with --last: only this session's decisions")
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = add("doctor", cmd_doctor, "check python, graphs, index, hooks, data folder, recent errors, optional tools")
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = add("list", cmd_list, "list knowledge items")
    p.add_argument("--status", choices=("draft", "active", "archived"))
    p.add_argument("--priority", type=str.upper, choices=PRIORITIES)
    p.add_argument("--type", choices=TYPES)
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = add("show", cmd_show, "show one item (id or unique prefix)")
    p.add_argument("id")

    p = add("drafts", cmd_drafts, "list drafts waiting for review")
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = add("promote", cmd_promote, "make a draft active, optionally with a new priority")
    p.add_argument("id")
    p.add_argument("priority", nargs="?")

    p = add("archive", cmd_archive, "archive an item")
    p.add_argument("id")

    p = add("archive-drafts", cmd_archive_drafts, "archive drafts older than N days")
    p.add_argument("--older-than", type=int, required=True, metavar="DAYS")

    p = add("add", cmd_add, "create a knowledge item (validated)")
    p.add_argument("--id")
    p.add_argument("--label", required=True)
    p.add_argument("--type", choices=TYPES, required=True)
    p.add_argument("--priority", type=str.upper, choices=PRIORITIES, default="MEDIUM")
    p.add_argument("--description")
    p.add_argument("--tools", nargs="+", metavar="TOOL")
    p.add_argument("--files", nargs="+", metavar="GLOB")
    p.add_argument("--action-keywords", nargs="+", metavar="WORD")
    p.add_argument("--context-keywords", nargs="+", metavar="WORD")
    p.add_argument("--item", action="append", help="checklist item (repeat)")
    for name in ("situation", "action", "rationale", "example", "risk", "severity", "detection", "mitigation", "constraint", "validation"):
        p.add_argument("--" + name)
    p.add_argument("--draft", action="store_true", help="add as a draft instead of active")
    p.add_argument("--file", default="knowledge.json", help="graph file in .claude/graphs (default knowledge.json)")

    add("validate", cmd_validate, "check every graph; name file, node and field of each problem")
    add("index", cmd_index, "rebuild the compiled index now")

    p = add("schema", cmd_schema, "export the JSON Schemas (needs pydantic)")
    p.add_argument("--out", default=os.path.join("docs", "schemas"))
    p.add_argument("--check", action="store_true", help="fail if the files differ from a fresh export")
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    from .graphs import GraphError
    from .lifecycle import LifecycleError
    from .storage import LockTimeout

    try:
        code = args.func(args) or 0
    except (UserError, LifecycleError, GraphError, LockTimeout, OSError) as exc:
        message = "forewarn: %s" % exc
        if args.soft:
            print(message)
            return 0
        print(message, file=sys.stderr)
        return 1
    return 0 if args.soft else code


if __name__ == "__main__":
    sys.exit(main())
