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


_DECODER = json.JSONDecoder()


def _read_text(path):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise GraphError("%s: cannot read (%s)" % (path, exc.strerror or exc)) from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GraphError("%s: not UTF-8 (%s)" % (path, exc)) from exc


def _parse(text, path):
    try:
        return json.loads(text)
    except ValueError as exc:
        raise GraphError("%s: not valid JSON (%s)" % (path, exc)) from exc


def load_graph(path):
    """Parse the graph at ``path``; GraphError if it cannot be used."""
    return check_shape(_parse(_read_text(path), path), path)


def iter_nodes(path):
    """The entries of the graph's ``nodes`` list, parsed and yielded one at a time.

    For the index build, which must not hold a whole 10,000-node document:
    only the file's text and one node are in memory at once (each value is
    parsed by ``json``'s own scanner).  Raises GraphError for what
    :func:`load_graph` refuses, with the same message; an error that lies
    after some nodes (a syntax error near the end, a ``links`` that is not a
    list) is raised after those nodes were yielded, so a reader uses what
    precedes it.  A document that names ``nodes`` twice is refused.
    """
    text = _read_text(path)
    decode = _DECODER.raw_decode
    end = len(text)
    whitespace = json.decoder.WHITESPACE.match

    def skip(i):
        return whitespace(text, i).end()

    def after_value(i, closer):
        """``(index of the next value, False)`` after a comma, or ``(index past closer, True)``."""
        i = skip(i)
        if i < end and text[i] == ",":
            return skip(i + 1), False
        if i < end and text[i] == closer:
            return i + 1, True
        raise ValueError("Expecting ',' delimiter: char %d" % i)

    i = skip(0)
    if i >= end or text[i] != "{":
        check_shape(_parse(text, path), path)  # raises: not JSON, or JSON but not an object
    seen_nodes = edges_not_a_list = has_links = False
    try:
        i = skip(i + 1)
        closed = i < end and text[i] == "}"
        if closed:
            i += 1
        while not closed:
            if i >= end or text[i] != '"':
                raise ValueError("Expecting property name enclosed in double quotes: char %d" % i)
            key, i = json.decoder.scanstring(text, i + 1)
            i = skip(i)
            if i >= end or text[i] != ":":
                raise ValueError("Expecting ':' delimiter: char %d" % i)
            i = skip(i + 1)
            if key == "nodes":
                if seen_nodes:
                    raise GraphError("%s: 'nodes' is given twice" % path)
                seen_nodes = True
                if i >= end or text[i] != "[":
                    raise GraphError("%s: 'nodes' must be a list" % path)
                i = skip(i + 1)
                more = not (i < end and text[i] == "]")
                if not more:
                    i += 1
                while more:
                    node, i = decode(text, i)
                    yield node
                    i, last = after_value(i, "]")
                    more = not last
            else:
                value, i = decode(text, i)
                if key == "links":
                    has_links = True
                    if not isinstance(value, list):
                        raise GraphError("%s: 'links' must be a list" % path)
                elif key == "edges":
                    edges_not_a_list = not isinstance(value, list)
            i, closed = after_value(i, "}")
        if skip(i) != end:
            raise ValueError("Extra data: char %d" % i)
        if edges_not_a_list and not has_links:
            raise GraphError("%s: 'links' must be a list" % path)
    except GraphError:
        raise
    except (ValueError, IndexError) as exc:
        raise GraphError("%s: not valid JSON (%s)" % (path, exc)) from exc


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
