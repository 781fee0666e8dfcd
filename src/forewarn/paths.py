"""Where things live: the project, its graphs, the user's graphs, the data folder.

Contract: nothing here looks at the process's working directory.  Hooks run
with Claude Code's cwd, which may be the plugin cache (hookify #5707), so the
project comes from ``CLAUDE_PROJECT_DIR`` or from the hook input's ``cwd``.
All functions are cheap (a few ``stat`` calls) and never raise for a missing
folder.
"""

import os

GRAPHS_SUBDIR = os.path.join(".claude", "graphs")
PLUGIN_DATA_NAMES = ("forewarn-forewarn", "forewarn-inline")  # <plugin>-<marketplace>, as Claude Code names them
PROJECT_MARKERS = (".git", GRAPHS_SUBDIR)


def project_root(hook_cwd=None):
    """The project folder for a hook call or a CLI run.

    ``CLAUDE_PROJECT_DIR`` wins when it names a folder.  Otherwise walk up from
    ``hook_cwd`` to the nearest folder holding ``.git`` or ``.claude/graphs``;
    if none does, ``hook_cwd`` itself.  Returns None when neither is usable.
    """
    env = os.environ.get("CLAUDE_PROJECT_DIR")
    if env and os.path.isdir(env):
        return os.path.abspath(env)
    if not hook_cwd or not isinstance(hook_cwd, str) or not os.path.isabs(hook_cwd):
        return None
    start = os.path.normpath(hook_cwd)
    folder = start
    while True:
        for marker in PROJECT_MARKERS:
            if os.path.exists(os.path.join(folder, marker)):
                return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start if os.path.isdir(start) else None
        folder = parent


def project_graphs_dir(root):
    """The project's own knowledge folder: ``<root>/.claude/graphs``."""
    return os.path.join(root, GRAPHS_SUBDIR)


def user_graphs_dir():
    """The user's knowledge shared by every project (``FOREWARN_USER_GRAPHS`` or ``~/.claude/graphs``)."""
    return os.environ.get("FOREWARN_USER_GRAPHS") or os.path.join(
        os.path.expanduser("~"), GRAPHS_SUBDIR
    )


def graph_dirs(root):
    """Folders searched for ``*.json`` graphs, most specific first (project, then user)."""
    dirs = []
    if root:
        dirs.append(project_graphs_dir(root))
    user = user_graphs_dir()
    if user not in dirs:
        dirs.append(user)
    return dirs


def data_dir():
    """forewarn's writable state: index cache, trace log, session state, hook log.

    ``FOREWARN_DATA_DIR`` (tests, CLI overrides), else Claude Code's
    ``CLAUDE_PLUGIN_DATA`` (set for hooks; survives plugin updates), else —
    for the CLI, which Claude Code does not give that variable — the folder
    Claude Code uses for this plugin: ``forewarn-forewarn`` when installed
    from its marketplace, ``forewarn-inline`` under ``--plugin-dir``, the
    first that exists.  The folder may not exist yet and may not be
    writable; callers cope.
    """
    chosen = os.environ.get("FOREWARN_DATA_DIR") or os.environ.get("CLAUDE_PLUGIN_DATA")
    if chosen:
        return chosen
    base = os.path.join(os.path.expanduser("~"), ".claude", "plugins", "data")
    for name in PLUGIN_DATA_NAMES:
        if os.path.isdir(os.path.join(base, name)):
            return os.path.join(base, name)
    return os.path.join(base, PLUGIN_DATA_NAMES[0])


def scan_graph_files(dirs, skipped=None):
    """Every ``*.json`` graph file in ``dirs`` as ``(path, mtime_ns, size)``, sorted per folder.

    The triples are the freshness key of the compiled index: any change of
    content, a new file or a removed file changes the list.  Unreadable
    folders and entries that are not regular files (a folder or a FIFO
    named ``x.json``) are skipped; if ``skipped`` is a list, a
    ``"<path>: <reason>"`` line is appended to it for each (a missing
    folder is not one).
    """
    found = []
    for folder in dirs:
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        except OSError as exc:
            if skipped is not None:
                skipped.append("%s: cannot list (%s)" % (folder, exc.strerror or exc))
            continue
        batch = []
        for entry in entries:
            name = entry.name
            if not name.endswith(".json") or name.startswith("."):
                continue
            try:
                st = entry.stat()
            except OSError as exc:
                if skipped is not None:
                    skipped.append("%s: cannot stat (%s)" % (entry.path, exc.strerror or exc))
                continue
            if (st.st_mode & 0o170000) != 0o100000:  # regular files only
                if skipped is not None:
                    skipped.append("%s: not a regular file" % entry.path)
                continue
            batch.append((entry.path, st.st_mtime_ns, st.st_size))
        batch.sort()
        found.extend(batch)
    return found
