"""Graph files: NetworkX node-link JSON, read leniently, written back whole.

Contract:

* :func:`load_graph` returns the parsed document, or raises
  :class:`GraphError` naming the file for anything that is not a node-link
  object (unreadable, not JSON, not an object, ``nodes`` not a list);
* nodes and links are dicts kept exactly as read: fields forewarn does not
  know (the original design's, other tools') survive a write;
* :func:`update_graph` is the only way forewarn changes a graph: a locked,
  atomic read-modify-write (see :mod:`forewarn.storage`), creating the file
  as an empty directed graph if it does not exist.

Standard library only (the Stop hook writes drafts through this module).
"""

import json

from . import storage
from .knowledge import is_process_node


class GraphError(ValueError):
    """A graph file that cannot be used; the message names the file."""


def empty_graph():
    """A new, empty directed node-link graph."""
    return {"directed": True, "multigraph": False, "graph": {}, "nodes": [], "links": []}


def check_shape(doc, path):
    """Raise GraphError unless ``doc`` is a node-link graph object."""
    if not isinstance(doc, dict):
        raise GraphError("%s: a graph file holds a JSON object, not %s" % (path, type(doc).__name__))
    if not isinstance(doc.get("nodes", []), list):
        raise GraphError("%s: 'nodes' must be a list" % path)
    links = doc.get("links", doc.get("edges", []))
    if not isinstance(links, list):
        raise GraphError("%s: 'links' must be a list" % path)
    return doc


def load_graph(path):
    """Parse the graph at ``path``; GraphError if it cannot be used."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise GraphError("%s: cannot read (%s)" % (path, exc.strerror or exc)) from exc
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise GraphError("%s: not UTF-8 (%s)" % (path, exc)) from exc
    except ValueError as exc:
        raise GraphError("%s: not valid JSON (%s)" % (path, exc)) from exc
    return check_shape(doc, path)


def process_nodes(doc):
    """The process-knowledge nodes of a graph, in file order."""
    return [n for n in doc.get("nodes", []) if is_process_node(n)]


def find_node(doc, node_id):
    """The node dict with this exact id, or None."""
    for node in doc.get("nodes", []):
        if isinstance(node, dict) and node.get("id") == node_id:
            return node
    return None


class _MutateError(Exception):
    """Carries a ValueError raised by an update's ``mutate`` past the JSON error handling."""


def update_graph(path, mutate, timeout=5.0):
    """Locked, atomic ``mutate(doc) -> result`` on the graph at ``path``.

    ``mutate`` changes ``doc`` in place and returns a result; it may raise
    to abandon the change (nothing is written), and its exception reaches
    the caller unchanged.  A file that exists but is not a usable graph is
    never overwritten: GraphError is raised instead.
    """

    def apply(current):
        doc = empty_graph() if current is None else check_shape(current, path)
        doc.setdefault("nodes", [])
        if "edges" not in doc:  # NetworkX writes "edges" when asked to: do not add an empty "links" beside it
            doc.setdefault("links", [])
        try:
            result = mutate(doc)
        except ValueError as exc:  # not the file's fault: keep it apart from the JSON errors below
            raise _MutateError(exc) from exc
        return doc, result

    try:
        return storage.update_json(path, apply, default=None, timeout=timeout)
    except _MutateError as carried:
        raise carried.args[0]
    except ValueError as exc:
        if isinstance(exc, GraphError):
            raise
        raise GraphError("%s: not valid JSON (%s); left untouched" % (path, exc)) from exc
