"""``forewarn doctor``: is forewarn working here, and if not, why.

Each check is ``(name, status, detail)`` with status ``ok``, ``warn`` or
``fail``.  The checks answer the questions users of rule plugins ask when
nothing fires: which python, which graphs, are they valid, is the index
current, are the hooks registered and present, can forewarn write its data,
what went wrong recently, are the optional tools ready.
"""

import os
import sys

from . import environment, index, paths
from .index_build import iter_active

PLUGIN_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOK_SCRIPTS = ("pre_experience_injection.py", "on_stop.py", "session_start.py")


def _python():
    version = sys.version_info
    ok = version >= (3, 10)
    return ("python", "ok" if ok else "fail", "%d.%d.%d at %s%s" % (version[0], version[1], version[2], sys.executable, "" if ok else " (3.10 or newer needed)"))


def _graphs(root):
    checks = []
    sources = index.current_sources(root)
    graph_files = [s for s in sources if not s[0].endswith(os.path.join(".claude", "forewarn.json"))]
    dirs = paths.graph_dirs(root)
    checks.append(("graph folders", "ok", "; ".join(dirs)))
    if not graph_files:
        checks.append(("graphs", "warn", "no *.json graph found; nothing can be injected"))
        return checks
    summary = {"counts": {"active": 0, "draft": 0, "archived": 0}, "problems": []}
    active = sum(1 for _ in iter_active(root, sources, summary))
    counts = summary["counts"]
    checks.append(
        (
            "graphs",
            "ok" if active else "warn",
            "%d file(s): %d active, %d draft, %d archived" % (len(graph_files), active, counts["draft"], counts["archived"]),
        )
    )
    problems = summary["problems"]
    if problems:
        shown = ["%s: node %s: %s" % (os.path.basename(p), n or "-", text) for p, n, text in problems[:10]]
        checks.append(("invalid knowledge", "warn", "%d skipped by the hooks: %s" % (len(problems), " | ".join(shown))))
    else:
        checks.append(("invalid knowledge", "ok", "none"))
    return checks


def _index(root):
    idx, state = index.open_fresh(root, rebuild=False)
    if idx is None:
        return ("index", "warn", "missing or stale; the next hook call (or `forewarn index`) rebuilds it")
    try:
        header = idx.header
        return ("index", "ok", "fresh: %d items, built in %.3fs, %s" % (header["items"], header["build_seconds"], index.index_file(root)))
    finally:
        idx.close()


def _hooks():
    path = os.path.join(PLUGIN_ROOT, "hooks", "hooks.json")
    try:
        import json

        with open(path, "rb") as handle:
            events = json.loads(handle.read().decode("utf-8")).get("hooks", {})
    except (OSError, ValueError) as exc:
        return ("hooks", "fail", "cannot read %s: %s" % (path, exc))
    missing = [s for s in HOOK_SCRIPTS if not os.path.isfile(os.path.join(PLUGIN_ROOT, "hooks", s))]
    wanted = {"PreToolUse", "Stop", "SessionStart"}
    absent = sorted(wanted - set(events))
    if missing or absent:
        return ("hooks", "fail", "missing scripts %s; unregistered events %s" % (missing or "none", absent or "none"))
    return ("hooks", "ok", "PreToolUse, Stop, SessionStart registered in %s" % path)


def _data_dir():
    folder = paths.data_dir()
    try:
        os.makedirs(folder, exist_ok=True)
        probe = os.path.join(folder, ".doctor-probe")
        with open(probe, "w") as handle:
            handle.write("ok")
        os.unlink(probe)
        return ("data folder", "ok", "%s is writable" % folder)
    except OSError as exc:
        return ("data folder", "fail", "%s is not writable (%s): no dedupe, trace or index cache" % (folder, exc.strerror or exc))


def _recent_errors(limit=5):
    path = os.path.join(paths.data_dir(), "forewarn.log")
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 16384))
            lines = handle.read().decode("utf-8", "replace").splitlines()[-limit:]
    except OSError:
        return ("recent hook errors", "ok", "none logged")
    if not lines:
        return ("recent hook errors", "ok", "none logged")
    return ("recent hook errors", "warn", " | ".join(lines))


def _environment():
    state = environment.status()
    if state.get("state") == "ready":
        return ("optional tools", "ok", "pydantic ready in %s" % environment.env_dir())
    try:
        import pydantic  # noqa: F401

        return ("optional tools", "ok", "pydantic importable by this interpreter")
    except ImportError:
        pass
    return ("optional tools", "warn", "%s%s (schema validation degrades to the built-in checks)" % (state.get("state"), (": " + state["error"][:200]) if state.get("error") else ""))


def checks(root):
    """Every check for project ``root``, in reading order."""
    found = [_python(), ("project", "ok" if root else "warn", root or "no project found")]
    if root:
        found.extend(_graphs(root))
        found.append(_index(root))
    found.extend([_hooks(), _data_dir(), _recent_errors(), _environment()])
    return found


def format_text(found):
    mark = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}
    return "\n".join("%s  %-19s %s" % (mark[status], name, detail) for name, status, detail in found)
