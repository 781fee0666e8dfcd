"""The knowledge lifecycle: draft → active → archived, and the lookups the commands share.

Contract: every function takes the project root and works on the project's
and the user's graphs; ids resolve by exact match or by a unique prefix,
otherwise :class:`LifecycleError` carries one line a person can act on.
Every change is a locked, atomic update of the one file that holds the node
(:func:`forewarn.graphs.update_graph`).  Standard library only: the slash
commands run this on machines without pydantic.
"""

import os
import time

from . import graphs, paths
from .knowledge import PRIORITY_MULTIPLIER, is_process_node, status_of


class LifecycleError(Exception):
    """A request that cannot be carried out; the message is one line for the user."""


def all_items(root):
    """``(path, node)`` for every process node in the project's and the user's graphs."""
    found = []
    for path, _mtime, _size in paths.scan_graph_files(paths.graph_dirs(root)):
        try:
            doc = graphs.load_graph(path)
        except graphs.GraphError:
            continue
        found.extend((path, node) for node in doc.get("nodes", []) if is_process_node(node))
    return found


def resolve(root, ref, items=None):
    """The ``(path, node)`` whose id is ``ref`` or starts with it; LifecycleError otherwise."""
    ref = (ref or "").strip()
    if not ref:
        raise LifecycleError("no id given")
    items = all_items(root) if items is None else items
    exact = [(p, n) for p, n in items if n.get("id") == ref]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise LifecycleError("%r is defined in %d places (%s); `forewarn validate` lists duplicate ids" % (ref, len(exact), ", ".join(p for p, _n in exact)))
    matches = [(p, n) for p, n in items if isinstance(n.get("id"), str) and n["id"].startswith(ref)]
    if not matches:
        raise LifecycleError("no knowledge item has the id %r (forewarn list shows them)" % ref)
    if len(matches) > 1:
        ids = sorted({str(n.get("id")) for _p, n in matches})
        raise LifecycleError("%r is ambiguous: %s" % (ref, ", ".join(ids[:8]) + (" …" if len(ids) > 8 else "")))
    return matches[0]


def parse_time(text):
    """Seconds since the epoch for an ISO-8601 UTC stamp (``2026-11-22T10:00:00Z``), or None."""
    if not isinstance(text, str) or len(text) < 19:
        return None
    try:
        import calendar

        return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None


def age_days(node, now=None):
    """Whole days since ``created_at``, or None if it is missing or unreadable."""
    created = parse_time(node.get("created_at"))
    if created is None:
        return None
    return max(0, int(((time.time() if now is None else now) - created) // 86400))


def drafts(root):
    """Every draft, oldest first."""
    items = [(p, n) for p, n in all_items(root) if status_of(n) == "draft"]
    items.sort(key=lambda pn: (str(pn[1].get("created_at") or ""), str(pn[1].get("id"))))
    return items


def _set(path, node_id, changes):
    def mutate(doc):
        node = graphs.find_node(doc, node_id)
        if node is None:
            raise LifecycleError("%s changed meanwhile: %s is gone" % (path, node_id))
        node.update(changes)
        return dict(node)

    return graphs.update_graph(path, mutate)


def _stamp():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def promote(root, ref, priority=None):
    """Make a draft (or archived item) active, optionally with a new priority; returns the node."""
    if priority is not None:
        priority = priority.upper()
        if priority not in PRIORITY_MULTIPLIER:
            raise LifecycleError("invalid priority %r: use CRITICAL, HIGH, MEDIUM or LOW" % priority)
    path, node = resolve(root, ref)
    if status_of(node) == "active" and (priority is None or node.get("priority") == priority):
        raise LifecycleError("%s is already active" % node["id"])
    changes = {"status": "active", "promoted_at": _stamp()}
    if priority:
        changes["priority"] = priority
    return path, _set(path, node["id"], changes)


def archive(root, ref):
    """Archive an item (it is never injected again, and kept for the record); returns the node."""
    path, node = resolve(root, ref)
    if status_of(node) == "archived":
        raise LifecycleError("%s is already archived" % node["id"])
    return path, _set(path, node["id"], {"status": "archived", "archived_at": _stamp()})


def archive_drafts(root, older_than_days, now=None):
    """Archive every draft created more than ``older_than_days`` days ago; returns their ids."""
    if older_than_days < 0:
        raise LifecycleError("--older-than takes a number of days, 0 or more")
    by_file = {}
    for path, node in drafts(root):
        age = age_days(node, now)
        if age is not None and age >= older_than_days:
            by_file.setdefault(path, []).append(node["id"])
    archived = []
    stamp = _stamp()
    for path, ids in by_file.items():

        def mutate(doc, ids=ids):
            done = []
            for node_id in ids:
                node = graphs.find_node(doc, node_id)
                if node is not None and status_of(node) == "draft":
                    node.update({"status": "archived", "archived_at": stamp})
                    done.append(node_id)
            return done

        archived.extend(graphs.update_graph(path, mutate))
    return archived


def add(root, node, filename="knowledge.json"):
    """Append a new node to ``.claude/graphs/<filename>``; LifecycleError if the id exists anywhere.

    ``filename`` is a plain ``*.json`` name (the hooks read nothing else).
    """
    if os.path.basename(filename) != filename or not filename.endswith(".json") or filename.startswith("."):
        raise LifecycleError("--file takes a graph file name like knowledge.json (in .claude/graphs), not %r" % filename)
    taken = "an item with the id %r exists already" % node["id"]
    if any(n.get("id") == node["id"] for _p, n in all_items(root)):
        raise LifecycleError(taken)
    path = os.path.join(paths.project_graphs_dir(root), filename)

    def mutate(doc):
        if graphs.find_node(doc, node["id"]) is not None:  # added meanwhile
            raise LifecycleError(taken)
        doc["nodes"].append(node)
        return node

    graphs.update_graph(path, mutate)
    return path
