"""Stop: turn what the session taught into draft knowledge for a person to review.

:func:`handle` is the whole Stop hook after :mod:`forewarn.hookio`:

1. honour ``stop_hook_active`` (another hook is making Claude continue; the
   turn is not over) and do nothing;
2. under a per-session lock, read only the transcript bytes not processed
   yet (the offset is kept in ``<data>/sessions/<id>.stop``), so repeated
   Stop events in one session never see a record twice; at most 16 MiB per
   Stop, oldest first, so a 50 MB backlog costs a few Stops, never one slow one;
3. extract lesson candidates (:mod:`forewarn.learning.capture`), already
   redacted, with the turn before the offset as context (a correction in
   this turn is about the tool calls of that one);
4. for each candidate, find an existing item that records the same lesson
   (same id, or the learning matcher) in the project's graphs: raise its
   occurrence count (two or more make it CRITICAL) instead of adding a
   duplicate; otherwise append it as a draft to
   ``.claude/graphs/lessons_graph.json``; every write is a locked atomic
   update (:func:`forewarn.graphs.update_graph`);
5. advance the offset only after the graphs were written, refresh the
   compiled index so the next tool call does not pay for the rebuild, and
   tell the user (``systemMessage``, never the model, never a block) what
   was captured.
"""

import os
import time

from . import graphs, index, paths, storage
from .knowledge import is_process_node
from .log import log

LESSONS_FILE = "lessons_graph.json"
MAX_NEW_BYTES = 16 << 20  # per Stop: a larger backlog (a long session before install) is read over several Stops
REVIEW_COMMAND = "/forewarn:knowledge-review-drafts"


def _offset_file(session_id):
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in session_id)[:80] or "unknown"
    return os.path.join(paths.data_dir(), "sessions", safe + ".stop")


def _read_offset(path, transcript):
    try:
        with open(path, "r", encoding="utf-8") as handle:
            stored_path, _, offset = handle.read().strip().partition("\t")
        if stored_path == transcript:
            return int(offset)
    except (OSError, ValueError):
        pass
    return 0


def _write_offset(path, transcript, offset):
    try:
        storage.atomic_write_bytes(path, ("%s\t%d\n" % (transcript, offset)).encode("utf-8"), mode=0o600)
    except OSError as exc:
        log("Stop", "could not save the transcript offset: %s" % exc)


def _turn_before(transcript, path, offset):
    """The ``context`` for :func:`forewarn.learning.capture.extract_lessons`.

    ``[]`` at offset 0 (the new records start the session, so a first prompt
    is an instruction, not a correction); else the turn before ``offset``,
    which the previous Stop read and whose tool calls a correction in the
    new records is about.  A previous Stop means the assistant has spoken:
    if that turn shows no assistant reply (a backlog cut mid-turn, an
    unreadable file), None says "unknown" rather than "session start".
    """
    if offset <= 0:
        return []
    context = transcript.read_turn_before(path, offset)
    return context if any(transcript.role(r) == "assistant" for r in context if isinstance(r, dict)) else None


def _existing_items(graph_dir):
    """``(path, node)`` for every process node in the project's graphs, lessons file first."""
    found = []
    lessons = os.path.join(graph_dir, LESSONS_FILE)
    files = [p for p, _m, _s in paths.scan_graph_files([graph_dir])]
    files.sort(key=lambda p: (p != lessons, p))
    for path in files:
        try:
            doc = graphs.load_graph(path)
        except graphs.GraphError as exc:
            log("Stop", str(exc))
            continue
        found.extend((path, node) for node in doc.get("nodes", []) if is_process_node(node))
    return found


def _plan(candidates, existing, session_id):
    """Decide per candidate: ``("merge", path, node_id, candidate)`` or ``("add", lessons, None, candidate)``."""
    from .learning import capture

    plans = []
    for candidate in candidates:
        target = None
        for path, node in existing:
            if node.get("id") == candidate["id"] or capture.same_lesson(node, candidate):
                target = (path, node)
                break
        if target is None:
            plans.append(("add", None, None, candidate))
            existing.append((None, candidate))
        elif target[0] is None:
            continue  # the same lesson twice in this batch: already planned
        else:
            plans.append(("merge", target[0], target[1]["id"], candidate))
    return plans


def _apply(plans, lessons_path, session_id):
    from .learning import capture

    added, merged = [], []
    by_file = {}
    for kind, path, node_id, candidate in plans:
        by_file.setdefault(lessons_path if kind == "add" else path, []).append((kind, node_id, candidate))
    for path, items in by_file.items():

        def mutate(doc, items=items):
            for kind, node_id, candidate in items:
                if kind == "add":
                    if graphs.find_node(doc, candidate["id"]) is None:
                        doc["nodes"].append(candidate)
                        added.append(candidate)
                    continue
                node = graphs.find_node(doc, node_id)
                if node is None:
                    continue
                if capture.already_counted(node, candidate):
                    continue
                updated = capture.merge_occurrence(node, candidate)
                node.clear()
                node.update(updated)
                merged.append(node)
            return None

        graphs.update_graph(path, mutate)
    return added, merged


def _summary(added, merged):
    parts = []
    if added:
        parts.append(
            "%d draft lesson%s captured (%s)"
            % (len(added), "" if len(added) == 1 else "s", "; ".join(n["label"][:60] for n in added[:3]))
        )
    for node in merged[:3]:
        parts.append("seen again: %s (x%s, %s)" % (node["label"][:60], node.get("occurrences", "?"), node.get("priority")))
    if not parts:
        return None
    return "forewarn: " + "; ".join(parts) + ". Review: " + REVIEW_COMMAND


def handle(data):
    """The Stop decision: capture drafts; return a user-facing ``systemMessage`` dict or None."""
    if data.get("stop_hook_active"):
        return None
    session_id = data.get("session_id")
    if not isinstance(session_id, str) or not session_id:
        return None
    root = paths.project_root(data.get("cwd"))
    if not root:
        return None
    from .learning import capture, transcript

    transcript_path = data.get("transcript_path")
    transcript_path = transcript_path if isinstance(transcript_path, str) else ""
    offset_path = _offset_file(session_id)
    last = data.get("last_assistant_message")
    with storage.locked(offset_path, timeout=10):
        offset = _read_offset(offset_path, transcript_path)
        records, new_offset = transcript.read_new_records(transcript_path, offset, MAX_NEW_BYTES)
        context = _turn_before(transcript, transcript_path, offset)
        graph_dir = paths.project_graphs_dir(root)
        loaded = []

        def existing():
            if not loaded:
                loaded.append(_existing_items(graph_dir))
            return loaded[0]

        candidates, problems = capture.extract_lessons(
            records, last if isinstance(last, str) else "", session_id, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            context=context, earlier=lambda: [node for _path, node in existing()],
        )
        for problem in problems:
            log("Stop", problem)
        added = merged = ()
        if candidates:
            plans = _plan(candidates, list(existing()), session_id)
            added, merged = _apply(plans, os.path.join(graph_dir, LESSONS_FILE), session_id)
        if new_offset != offset:
            _write_offset(offset_path, transcript_path, new_offset)
    if added or merged:
        try:
            from .index_build import rebuild

            rebuild(root)
        except Exception as exc:
            log("Stop", "index refresh failed: %s" % exc)
    from . import regex_cache

    regex_cache.save()  # the detectors' patterns this Stop compiled, for the next Stops
    message = _summary(added, merged)
    return {"systemMessage": message} if message else None
