"""The ``forewarn`` command: explain, doctor, list, add, validate, index, and the lifecycle.

Contract: every command prints its result on stdout and exits 0 (``validate``
and ``doctor`` exit 1 when they find a problem); an error is one line
``forewarn: <what is wrong>`` on stderr and exit 1, or 2 for bad usage.  With
``--soft`` (used by the slash commands, where a non-zero exit would abort the
whole command) the error line goes to stdout and the exit is 0, bad usage
included.  Only the standard library is needed, except for ``validate``'s
schema messages and ``schema``, which use pydantic when it is importable
and otherwise say so in one line; pydantic is never imported at module level.
The project is ``--project DIR`` or the one found from the current directory.
"""

import argparse
import os
import sys

from . import __version__, paths

PRIORITIES = ("CRITICAL", "HIGH", "MEDIUM", "LOW")
TYPES = ("checklist", "pattern", "warning", "requirement")


class UserError(Exception):
    """An error whose message is the whole story for the user."""


class UsageError(Exception):
    """The command line does not parse; the message names the command and the problem."""


class Parser(argparse.ArgumentParser):
    """argparse, with usage errors raised as one line instead of usage text and exit 2."""

    def error(self, message):
        raise UsageError("%s: %s (see %s --help)" % (self.prog, message, self.prog))


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


def _inside(path, root):
    return bool(root) and (path + os.sep).startswith(root.rstrip(os.sep) + os.sep)


def _shown_path(path, root):
    """A graph path as the user reads it: relative inside the project, absolute elsewhere."""
    return os.path.relpath(path, root) if _inside(path, root) else path


def _one_line(value, limit):
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- explain


def _read_hook_json(name):
    import json

    try:
        if name == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        raise UserError("--json %s: cannot read (%s)" % (name, exc.strerror or exc))
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError as exc:
        raise UserError("--json: not a hook input (%s)" % exc)
    if not isinstance(data, dict):
        raise UserError("--json: a hook input is a JSON object")
    return data


def cmd_explain(args):
    from . import explain

    if args.last is not None:
        decisions = explain.recorded(args.last, args.session)
        if args.format == "json":
            _print_json(decisions)
        else:
            print(explain.format_recorded(decisions))
        return
    root = _root(args)
    if args.json:
        data = _read_hook_json(args.json)
    elif args.tool:
        cwd = os.getcwd()
        data = explain.hook_input(root, args.tool, args.file, args.command, args.content, args.transcript, cwd if _inside(cwd, root) else root)
    else:
        raise UserError("explain needs --tool (with --file/--command/--content), --json FILE, or --last N")
    result = explain.explain(root, data)
    if args.format == "json":
        _print_json(result)
    else:
        print(explain.format_text(result))


# ---------------------------------------------------------------- doctor


def cmd_doctor(args):
    from . import doctor

    root = _root(args) if args.project else paths.project_root(os.getcwd())
    found = doctor.checks(root)
    if args.format == "json":
        _print_json([{"check": n, "status": s, "detail": d} for n, s, d in found])
    else:
        print(doctor.format_text(found))
    return 1 if any(status == "fail" for _n, status, _d in found) else 0


# ---------------------------------------------------------------- list / show


def _triggers_line(node):
    trig = node.get("trigger_conditions") if isinstance(node.get("trigger_conditions"), dict) else {}
    parts = []
    for key, name in (("tool_names", "tools"), ("file_patterns", "files"), ("action_keywords", "actions"), ("context_keywords", "context")):
        if isinstance(trig.get(key), list) and trig[key]:
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
        if args.priority and node.get("priority", "MEDIUM") != args.priority:
            continue
        if args.type and node.get("process_type") != args.type:
            continue
        rows.append((node, status, path))
    if args.format == "json":
        _print_json([{"id": n.get("id"), "label": n.get("label"), "priority": n.get("priority", "MEDIUM"), "type": n.get("process_type"),
                      "status": s, "file": p} for n, s, p in rows])
        return
    if not rows:
        print("No knowledge items match.")
        return
    line = "%-36s %-8s %-11s %-8s %s"
    print(line % ("ID", "STATUS", "TYPE", "PRIORITY", "LABEL"))
    for node, status, _path in rows:
        print(line % (_one_line(node.get("id"), 36), status, node.get("process_type"), node.get("priority", "MEDIUM"), _one_line(node.get("label", ""), 70)))
    print("%d item(s)" % len(rows))


def cmd_show(args):
    import json

    from . import lifecycle, render
    from .knowledge import problems, status_of

    root = _root(args)
    path, node = lifecycle.resolve(root, args.id)
    print("%s  (%s, %s, %s)  in %s" % (node["id"], status_of(node), node.get("priority", "MEDIUM"), node.get("process_type"), _shown_path(path, root)))
    print("triggers: " + _triggers_line(node))
    found = problems(node)
    if found:
        print("problems (the hooks skip this item): " + "; ".join(found))
    else:
        print()
        print(render.render_item(node))
    print()
    print(json.dumps(node, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- lifecycle


def _evidence_excerpt(node):
    evidence = node.get("evidence")
    latest = evidence[-1] if isinstance(evidence, list) and evidence else evidence
    if isinstance(latest, dict):
        latest = latest.get("excerpt") or latest.get("text")
    source = node.get("source") if isinstance(node.get("source"), dict) else {}
    return _one_line(latest or source.get("excerpt") or "", 200)


def cmd_drafts(args):
    from . import lifecycle

    root = _root(args)
    items = lifecycle.drafts(root)
    if args.format == "json":
        _print_json([dict(n, _file=p, _age_days=lifecycle.age_days(n)) for p, n in items])
        return
    if not items:
        print("No drafts wait for review.")
        return
    for path, node in items:
        age = lifecycle.age_days(node)
        source = node.get("source") if isinstance(node.get("source"), dict) else {}
        seen = node.get("occurrences")
        print("%s  [%s %s]  %s" % (node.get("id"), node.get("priority", "MEDIUM"), node.get("process_type"), _one_line(node.get("label", ""), 100)))
        print("    triggers: %s" % _triggers_line(node))
        excerpt = _evidence_excerpt(node)
        if excerpt:
            print("    evidence: %s" % excerpt)
        note = _reach_note(node, root)
        if note:
            print(note)
        print("    age: %s; from: %s%s; file: %s" % (
            "%d day(s)" % age if age is not None else "unknown", source.get("kind") or node.get("created_by") or "?",
            "; seen %d times" % seen if isinstance(seen, int) and seen > 1 else "", _shown_path(path, root)))
    print("%d draft(s). Promote with /forewarn:knowledge-promote <id> [priority], archive with /forewarn:knowledge-archive <id>." % len(items))


def _threshold(root):
    """The threshold the hooks use in ``root``: the project's settings file, then ``FOREWARN_THRESHOLD``."""
    from . import config

    return config.effective(config.load_file_config(root)[0])["threshold"]


def _reach_note(node, root):
    """``    cannot fire: …`` for an item that can never be injected here, else ""."""
    from .reach import unreachable

    why = unreachable(node, _threshold(root))
    return ("    cannot fire: " + why[len("can never be injected: "):]) if why else ""


def _reindex(root):
    """Rebuild the index after a change, so the next hook call finds it fresh; the change stands either way."""
    from . import index_build

    try:
        index_build.rebuild(root)
    except OSError:
        pass  # data folder not writable: each hook call builds the index in memory


def cmd_promote(args):
    from . import lifecycle

    root = _root(args)
    _path, node = lifecycle.promote(root, args.id, args.priority)
    _reindex(root)
    print("%s is active (%s): %s" % (node["id"], node.get("priority", "MEDIUM"), node.get("label")))
    note = _reach_note(node, root)
    if note:
        print(note.strip() + " (forewarn show %s names its triggers)" % node["id"])


def cmd_archive(args):
    from . import lifecycle

    root = _root(args)
    _path, node = lifecycle.archive(root, args.id)
    _reindex(root)
    print("%s is archived: %s" % (node["id"], node.get("label")))


def cmd_archive_drafts(args):
    from . import lifecycle

    root = _root(args)
    ids = lifecycle.archive_drafts(root, args.older_than)
    if ids:
        _reindex(root)
    print("archived %d draft(s) older than %d day(s)%s" % (len(ids), args.older_than, (": " + ", ".join(ids)) if ids else ""))


# ---------------------------------------------------------------- add


def _slug(text):
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return "-".join(words[:6]) or "item"


CONTENT_FLAGS = {
    "pattern": ("situation", "action", "rationale", "example"),
    "warning": ("risk", "severity", "detection", "mitigation"),
    "requirement": ("constraint", "rationale", "validation"),
}


def _new_node(args):
    import time

    node = {
        "id": args.id or "%s-%s" % (args.type, _slug(args.label)),
        "type": "Concept",
        "label": args.label,
        "description": args.description or "",
        "process_type": args.type,
        "priority": args.priority,
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
    else:
        node[args.type] = {name: getattr(args, name) for name in CONTENT_FLAGS[args.type] if getattr(args, name) is not None}
    given = {name for names in CONTENT_FLAGS.values() for name in names if getattr(args, name) is not None}
    stray = sorted(given - set(CONTENT_FLAGS.get(args.type, ())) | ({"item"} if args.item and args.type != "checklist" else set()))
    if stray:
        raise UserError("not added: --%s %s not for a %s" % (", --".join(stray), "is" if len(stray) == 1 else "are", args.type))
    return node


def cmd_add(args):
    from . import lifecycle
    from .knowledge import problems

    root = _root(args)
    node = _new_node(args)
    found = (_schema_checker() or problems)(node)
    if found:
        raise UserError("not added: " + "; ".join(found))
    path = lifecycle.add(root, node, args.file)
    _reindex(root)
    print("added %s (%s, %s) to %s" % (node["id"], node["status"], node["priority"], _shown_path(path, root)))


# ---------------------------------------------------------------- validate / index / schema / env


def _schema_checker():
    """:func:`forewarn.schema.node_errors` (pydantic's messages), or None when pydantic is not importable."""
    try:
        from .schema import node_errors
    except ImportError:
        return None
    return node_errors


def graph_problems(root, checker):
    """``(file, node id or None, "field: message")`` for every problem in the project's and the user's graphs.

    ``checker(node)`` lists a process node's problems.  Also reported:
    files that are not graphs, node entries that are not objects, and ids
    defined more than once (the hooks use the first; the lifecycle commands
    cannot tell them apart).  Returns ``(problems, files, process nodes)``.
    """
    from . import graphs
    from .knowledge import is_process_node

    found = []
    first_seen = {}
    files = [p for p, _m, _s in paths.scan_graph_files(paths.graph_dirs(root))]
    count = 0
    for path in files:
        try:
            doc = graphs.load_graph(path)
        except graphs.GraphError as exc:
            found.append((path, None, str(exc).replace(path + ": ", "", 1)))
            continue
        for position, node in enumerate(doc.get("nodes", [])):
            if not isinstance(node, dict):
                found.append((path, "#%d" % position, "node: a node-link node is an object, not %s" % type(node).__name__))
                continue
            if not is_process_node(node):
                continue
            count += 1
            node_id = node.get("id")
            found.extend((path, node_id, problem) for problem in checker(node))
            if isinstance(node_id, str) and node_id:
                if node_id in first_seen:
                    found.append((path, node_id, "id: already defined in %s; ids must be unique" % _shown_path(first_seen[node_id], root)))
                else:
                    first_seen[node_id] = path
    return found, files, count


def cmd_validate(args):
    from .knowledge import problems

    root = _root(args)
    checker = _schema_checker()
    if checker is None:
        print("forewarn: pydantic is not installed here; checking with the built-in rules (the ones the hooks use).")
        checker = problems
    found, files, count = graph_problems(root, checker)
    for path, node_id, problem in found:
        print("%s: %s%s" % (_shown_path(path, root), "" if node_id is None else "node %s: " % node_id, problem))
    warnings = unreachable_items(root, _threshold(root))
    for path, node_id, why in warnings:
        print("%s: node %s: warning: %s" % (_shown_path(path, root), node_id, why))
    print("%d file(s), %d process node(s), %d problem(s)%s" % (
        len(files), count, len(found), (", %d warning(s)" % len(warnings)) if warnings else ""))
    return 1 if found else 0


def unreachable_items(root, threshold):
    """``(file, node id, why)`` for every valid, not archived process node that can never be injected."""
    from . import graphs
    from .knowledge import is_process_node, problems, status_of
    from .reach import unreachable

    found = []
    for path in (p for p, _m, _s in paths.scan_graph_files(paths.graph_dirs(root))):
        try:
            nodes = graphs.load_graph(path).get("nodes", [])
        except graphs.GraphError:
            continue  # reported as a problem already
        for node in nodes:
            if isinstance(node, dict) and is_process_node(node) and not problems(node) and status_of(node) != "archived":
                why = unreachable(node, threshold)
                if why:
                    found.append((path, node.get("id"), why))
    return found


def cmd_index(args):
    import time

    from . import index

    root = _root(args)
    started = time.perf_counter()
    index.discard(root)
    idx, _state = index.open_fresh(root)
    seconds = time.perf_counter() - started
    try:
        header = idx.header
    finally:
        idx.close()
    stored = os.path.exists(index.index_file(root))
    counts = header["counts"]
    print("%d active item(s) indexed in %.1f ms (%d draft, %d archived, %d problem(s)); %s" % (
        header["items"], seconds * 1000, counts["draft"], counts["archived"], header["problem_count"],
        index.index_file(root) if stored else "kept in memory: the data folder is not writable"))
    if header["problem_count"]:
        print("`forewarn validate` names the problems.")


def cmd_schema(args):
    import json

    try:
        from .schema import json_schemas
    except ImportError:
        raise UserError("schema export needs pydantic: pip install 'pydantic>=2.6,<3', or `forewarn env --bootstrap`")
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
    if args.check:
        print("%s: current" % args.out)


def cmd_env(args):
    from . import environment

    if args.bootstrap:
        print("preparing %s (python -m venv, pip install %s) ..." % (environment.env_dir(), " ".join(environment.PACKAGES)), flush=True)
        environment.bootstrap()
    state = environment.status()
    print("optional environment: %s" % state["state"])
    for key in ("python", "pydantic", "error"):
        if state.get(key):
            print("  %s: %s" % (key, _one_line(state[key], 300)))
    if state["state"] in ("missing", "failed") and not args.bootstrap:
        print("`forewarn env --bootstrap` prepares it now; SessionStart does it in the background.")
    return 1 if args.bootstrap and state["state"] != "ready" else 0


# ---------------------------------------------------------------- parser


def build_parser():
    parser = Parser(prog="forewarn", description="Procedural memory for Claude Code.")
    parser.add_argument("--version", action="version", version="forewarn " + __version__)
    parser.add_argument("--project", help="project folder (default: found from the current directory)")
    parser.add_argument("--soft", action="store_true", help="print errors on stdout and exit 0 (for slash commands)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def add(name, func, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    def formats(p):
        p.add_argument("--format", choices=("text", "json"), default="text")

    p = add("explain", cmd_explain, "dry-run a tool call: every item, each score term, what would be injected and why")
    p.add_argument("--tool", help="tool name, e.g. Write, Edit, Bash")
    p.add_argument("--file", help="file path of the call (relative: from the current folder inside the project, else the project)")
    p.add_argument("--command", help="Bash command")
    p.add_argument("--content", help="text written or edited")
    p.add_argument("--transcript", help="transcript JSONL for context keywords")
    p.add_argument("--json", metavar="FILE", help="a PreToolUse hook input (- for stdin)")
    p.add_argument("--last", type=int, metavar="N", help="show the hook's last N recorded decisions from the trace")
    p.add_argument("--session", help="with --last: only this session's decisions")
    formats(p)

    p = add("doctor", cmd_doctor, "check python, graphs, index, hooks, data folder, recent errors, optional tools")
    formats(p)

    p = add("list", cmd_list, "list knowledge items")
    p.add_argument("--status", choices=("draft", "active", "archived"))
    p.add_argument("--priority", type=str.upper, choices=PRIORITIES)
    p.add_argument("--type", choices=TYPES)
    formats(p)

    p = add("show", cmd_show, "show one item (id or unique prefix)")
    p.add_argument("id")

    p = add("drafts", cmd_drafts, "list drafts waiting for review")
    formats(p)

    p = add("promote", cmd_promote, "make a draft active, optionally with a new priority")
    p.add_argument("id")
    p.add_argument("priority", nargs="?", help="CRITICAL, HIGH, MEDIUM or LOW")

    p = add("archive", cmd_archive, "archive an item (kept, never injected)")
    p.add_argument("id")

    p = add("archive-drafts", cmd_archive_drafts, "archive drafts older than N days")
    p.add_argument("--older-than", type=int, required=True, metavar="DAYS")

    p = add("add", cmd_add, "create a knowledge item (validated)")
    p.add_argument("--id", help="default: <type>-<words of the label>")
    p.add_argument("--label", required=True)
    p.add_argument("--type", choices=TYPES, required=True)
    p.add_argument("--priority", type=str.upper, choices=PRIORITIES, default="MEDIUM")
    p.add_argument("--description")
    p.add_argument("--tools", nargs="+", metavar="TOOL")
    p.add_argument("--files", nargs="+", metavar="GLOB")
    p.add_argument("--action-keywords", nargs="+", metavar="WORD")
    p.add_argument("--context-keywords", nargs="+", metavar="WORD")
    p.add_argument("--item", action="append", help="checklist item (repeat)")
    for name in sorted({n for names in CONTENT_FLAGS.values() for n in names}):
        p.add_argument("--" + name, help="%s field" % "/".join(t for t, names in CONTENT_FLAGS.items() if name in names))
    p.add_argument("--draft", action="store_true", help="add as a draft instead of active")
    p.add_argument("--file", default="knowledge.json", help="graph file in .claude/graphs (default knowledge.json)")

    add("validate", cmd_validate, "check every graph; name file, node and field of each problem")
    add("index", cmd_index, "rebuild the compiled index now")

    p = add("schema", cmd_schema, "export the JSON Schemas (needs pydantic)")
    p.add_argument("--out", default=os.path.join("docs", "schemas"))
    p.add_argument("--check", action="store_true", help="fail if the files differ from a fresh export")

    p = add("env", cmd_env, "the optional environment (pydantic) in the data folder: status, or --bootstrap to prepare it now")
    p.add_argument("--bootstrap", action="store_true", help="create or repair it now, in the foreground")
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    soft = "--soft" in argv[: argv.index("--")] if "--" in argv else "--soft" in argv
    from .graphs import GraphError
    from .lifecycle import LifecycleError
    from .storage import LockTimeout

    try:
        args = build_parser().parse_args(argv)
        code = args.func(args) or 0
    except UsageError as exc:
        return _fail(str(exc), soft, 2)
    except (UserError, LifecycleError, GraphError, LockTimeout, OSError) as exc:
        return _fail("forewarn: %s" % exc, soft, 1)
    return 0 if soft else code


def _fail(message, soft, code):
    if soft:
        print(message)
        return 0
    print(message, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
