"""``forewarn doctor``: is forewarn working here, and if not, why.

Each check is ``(name, status, detail)`` with status ``ok``, ``warn`` or
``fail``.  The checks answer the questions users of rule plugins ask when
nothing fires: which python, which graphs, are they valid, is the index
current, are the hooks registered and present, can forewarn write its data,
what went wrong recently, are the optional tools ready.
"""

import os
import sys

from . import config, environment, index, paths
from .index_build import iter_active
from .reach import unreachable

PLUGIN_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOK_EVENTS = ("PreToolUse", "Stop", "SessionStart")


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
    threshold = config.effective(config.load_file_config(root)[0])["threshold"]
    active, silent = 0, []
    for node, _path in iter_active(root, sources, summary):
        active += 1
        if unreachable(node, threshold):
            silent.append(str(node.get("id")))
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
    if silent:
        checks.append(("knowledge reach", "warn", "%d active item(s) can never be injected at threshold %.2f: %s%s "
                       "(`forewarn validate` says why)" % (len(silent), threshold, ", ".join(silent[:5]), " …" if len(silent) > 5 else "")))
    else:
        checks.append(("knowledge reach", "ok", "every active item can reach the threshold %.2f" % threshold))
    return checks


def _index(root):
    idx, state = index.open_fresh(root, rebuild=False)
    if idx is None:
        return ("index", "warn", "missing or stale; the next hook call (or `forewarn index`) rebuilds it")
    try:
        header = idx.header
        return ("index", "ok", "fresh: %d items, built in %.1f ms, %s" % (header["items"], header["build_seconds"] * 1000, index.index_file(root)))
    finally:
        idx.close()


def _hook_scripts(events):
    """``(event, script path)`` for every command in hooks.json that runs a file under ``${CLAUDE_PLUGIN_ROOT}``."""
    found = []
    for event, groups in events.items():
        for group in groups if isinstance(groups, list) else ():
            for hook in (group.get("hooks") if isinstance(group, dict) else None) or ():
                command = hook.get("command") if isinstance(hook, dict) else None
                for token in str(command or "").replace('"', " ").replace("'", " ").split():
                    if token.startswith("${CLAUDE_PLUGIN_ROOT}/"):
                        found.append((event, os.path.join(PLUGIN_ROOT, *token.split("/")[1:])))
    return found


def _hooks():
    import json

    path = os.path.join(PLUGIN_ROOT, "hooks", "hooks.json")
    try:
        with open(path, "rb") as handle:
            events = json.loads(handle.read().decode("utf-8")).get("hooks", {})
    except (OSError, ValueError, AttributeError) as exc:
        return ("hooks", "fail", "cannot read %s: %s" % (path, exc))
    scripts = _hook_scripts(events if isinstance(events, dict) else {})
    missing = ["%s: %s" % (event, script) for event, script in scripts if not os.path.isfile(script)]
    absent = [event for event in HOOK_EVENTS if event not in {e for e, _s in scripts}]
    if missing or absent:
        return ("hooks", "fail", "%s%s in %s" % ("scripts missing: " + ", ".join(missing) + "; " if missing else "",
                                                 "events without a hook script: " + ", ".join(absent) if absent else "", path))
    return ("hooks", "ok", "%s registered in %s; their %d script(s) exist" % (", ".join(HOOK_EVENTS), path, len({s for _e, s in scripts})))


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


def _recent_errors(limit=3, days=7, now=None):
    """The hook log's lines of the last ``days`` days (the log holds only problems)."""
    import calendar
    import time

    path = os.path.join(paths.data_dir(), "forewarn.log")
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            handle.seek(max(0, handle.tell() - 65536))
            lines = handle.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ("recent hook errors", "ok", "none logged")
    since = (time.time() if now is None else now) - days * 86400
    recent = []
    for line in lines:
        try:
            stamp = calendar.timegm(time.strptime(line[:20], "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            continue
        if stamp >= since:
            recent.append(line)
    if not recent:
        return ("recent hook errors", "ok", "none in the last %d days (%s)" % (days, path))
    return ("recent hook errors", "warn", "%d in the last %d days, latest: %s (%s)" % (len(recent), days, " | ".join(recent[-limit:]), path))


def _environment():
    state = environment.status()
    if state.get("state") == "ready":
        return ("optional tools", "ok", "pydantic %s ready in %s" % (state.get("pydantic", ""), environment.env_dir()))
    try:
        import pydantic  # noqa: F401

        return ("optional tools", "ok", "pydantic importable by this interpreter")
    except ImportError:
        pass
    if state.get("state") == "building":
        what = "being prepared in the background"
    else:
        what = "%s%s; `forewarn env --bootstrap` prepares it" % (state.get("state"), (" (" + " ".join(state["error"].split())[:200] + ")") if state.get("error") else "")
    return ("optional tools", "warn", "pydantic: %s (until then validate uses the built-in checks)" % what)


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
