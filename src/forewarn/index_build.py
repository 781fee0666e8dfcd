"""Compile the graphs into the index file read by :mod:`forewarn.index`.

Runs when a source changed (in whichever hook notices first, or from
``forewarn index``).  Reads every graph with :mod:`forewarn.graphs`, checks
each process node with :mod:`forewarn.knowledge` (invalid nodes are skipped
and listed in the header for ``doctor``), compiles triggers, pre-renders
texts and writes the file atomically.  Standard library only.
"""

import binascii
import marshal
import os
import time

from . import config, globs, keywords, knowledge, render, storage
from .graphs import GraphError, load_graph, process_nodes
from .index import FORMAT, MAGIC

MAX_LISTED_PROBLEMS = 500


def _record(no, node, text_entry, source):
    trig = knowledge.triggers_of(node)
    tools = tuple(sorted({t.strip().lower() for t in trig["tool_names"] if t.strip()}))
    patterns = tuple(globs.compile_glob(p) for p in trig["file_patterns"])
    action = tuple(k for k in (keywords.fold_keyword(w) for w in trig["action_keywords"]) if k)
    context = tuple(k for k in (keywords.fold_keyword(w) for w in trig["context_keywords"]) if k)
    priority = node.get("priority", "MEDIUM")
    return (
        no,
        node["id"],
        knowledge.PRIORITY_MULTIPLIER[priority],
        priority,
        tools,
        patterns,
        action,
        context,
        text_entry,
        " ".join(node["label"].split()),
        source,
    )


def _bucket_keys(record):
    tools, patterns = record[4], record[5]
    keys = ["all"]
    for tool in tools:
        if tool.endswith("*"):
            keys.append("tp")
        else:
            keys.append(("tf:" if patterns else "t0:") + tool)
    for compiled in patterns:
        if compiled[0]:  # negations only narrow; never a reason to be a candidate
            continue
        kind, value = globs.index_keys(compiled)
        keys.append("g" if kind == "g" else "%s:%s" % (kind, value))
    seen = set()
    return [k for k in keys if not (k in seen or seen.add(k))]


def collect(root, sources):
    """Read the sources: ``(active_nodes_with_source, summary)``.

    ``summary`` counts statuses, lists problems as ``(file, node_id, text)``
    and names the CRITICAL active items (for SessionStart).  The first
    definition of an id wins (project graphs come before the user's).
    """
    active = []
    problems = []
    counts = {"active": 0, "draft": 0, "archived": 0}
    seen = {}
    for path, _mtime, _size in sources:
        if path == config.config_path(root):
            continue
        try:
            doc = load_graph(path)
        except GraphError as exc:
            problems.append((path, "", str(exc)))
            continue
        for node in process_nodes(doc):
            found = knowledge.problems(node)
            if found:
                problems.append((path, str(node.get("id", "")), "; ".join(found)))
                continue
            status = knowledge.status_of(node)
            counts[status] += 1
            if status != "active":
                continue
            if node["id"] in seen:
                problems.append((path, node["id"], "duplicate id; the one in %s is used" % seen[node["id"]]))
                continue
            seen[node["id"]] = path
            active.append((node, path))
    return active, {"counts": counts, "problems": problems}


def build_bytes(root, sources):
    """The complete index file for ``root`` built from ``sources``."""
    started = time.perf_counter()
    settings, notes = config.load_file_config(root)
    active, summary = collect(root, sources)
    texts = bytearray()
    records = []
    critical = []
    for node, path in active:
        text = render.render_item(node).encode("utf-8")
        entry = (len(texts), len(text), binascii.crc32(text) & 0xFFFFFFFF)
        texts += text
        rec = _record(len(records), node, entry, path)
        records.append(rec)
        if rec[3] == "CRITICAL":
            description = " ".join(str(node.get("description") or "").split())
            critical.append((rec[1], rec[9], description))
    buckets = {}
    for rec in records:
        for key in _bucket_keys(rec):
            buckets.setdefault(key, []).append(rec)
    data = bytearray(texts)
    directory = {}
    for key in sorted(buckets):
        blob = marshal.dumps(tuple(buckets[key]))
        directory[key] = (len(data), len(blob), binascii.crc32(blob) & 0xFFFFFFFF)
        data += blob
    header = {
        "format": FORMAT,
        "root": root,
        "sources": sources,
        "settings": settings,
        "notes": notes,
        "counts": summary["counts"],
        "problems": summary["problems"][:MAX_LISTED_PROBLEMS],
        "problem_count": len(summary["problems"]),
        "critical": critical,
        "items": len(records),
        "buckets": directory,
        "built_at": time.time(),
        "build_seconds": time.perf_counter() - started,
    }
    head = marshal.dumps(header)
    prefix = MAGIC + len(head).to_bytes(4, "little") + (binascii.crc32(head) & 0xFFFFFFFF).to_bytes(4, "little")
    return prefix + head + bytes(data)


def store(path, blob):
    """Write the index atomically; False (and no exception) if the data folder is not writable."""
    try:
        storage.atomic_write_bytes(path, blob)
        return True
    except OSError:
        return False
