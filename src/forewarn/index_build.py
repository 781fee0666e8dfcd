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
import sys
import time

from . import config, globs, keywords, knowledge, render, storage
from .command_aliases import same_act
from .graphs import GraphError, iter_nodes
from .index import FORMAT, MAGIC, R_ACTION, R_BEST_NO_FILE, R_PATTERNS, R_TOOLS, current_sources, index_file, pack_entry
from .reach import best_score
from .relevance import ANY_TOOL, FILE_EDIT_TOOLS, PRODUCTION, SECRET_BUCKET, SHELL_TOOLS
from .secret_signal import about_secrets

MAX_LISTED_PROBLEMS = 20  # the header is read on every tool call: keep it small
MAX_LISTED_CRITICAL = 5


def procedure_files(node, trig):
    """The file patterns a checklist's steps name, for a checklist that names file patterns and either edits
    (Write, Edit, …) or runs shell commands (a release: ``gem push`` keyed on the gem's ``version.rb``).

    "Plugin version bump" keyed on ``**/plugin.json`` whose steps say "set
    the same version in .claude-plugin/marketplace.json" and "add a
    CHANGELOG.md entry": editing those files is a step of the same
    procedure, so the checklist is filed for them too (``**/marketplace.json``,
    ``**/CHANGELOG.md``).  A shell checklist's step files are anchored in the
    package folder its patterns share (``gems/client/**/CHANGELOG.md``): the
    release of one package is not a step of another's.  They come before the
    item's own patterns, so its negations still apply.  Other items: ``[]``.
    """
    if node.get("process_type") != "checklist" or not trig["file_patterns"]:
        return []
    tools = {t.strip().lower() for t in trig["tool_names"]}
    if FILE_EDIT_TOOLS.isdisjoint(tools) and not (tools and SHELL_TOOLS.issuperset(tools)):
        return []
    block = node.get("checklist")
    items = block.get("items") if isinstance(block, dict) else None
    text = " ".join(knowledge.checklist_item_text(i) for i in items or ())
    if "." not in text:
        return []
    from .learning.inference import FILE_MENTION, path_to_glob

    package = _package_folder(trig["file_patterns"]) if FILE_EDIT_TOOLS.isdisjoint(tools) else ""
    if FILE_EDIT_TOOLS.isdisjoint(tools) and not package:
        return []  # a release whose files lie anywhere: its steps' CHANGELOG.md could be any package's
    found = []
    for match in FILE_MENTION.finditer(text):
        glob = path_to_glob(match.group(1))
        if glob and package:
            glob = package + "/" + glob  # the package's CHANGELOG.md, not every CHANGELOG.md
        if glob and glob not in found and glob not in trig["file_patterns"]:
            found.append(glob)
    return found


def _package_folder(patterns):
    """The folder a release checklist's patterns share, two levels at most (``gems/client/lib/x/version.rb``
    gives ``gems/client``; ``sdk/package.json`` gives ``sdk``), or ``""`` when they name files anywhere."""
    folders = set()
    for pattern in patterns:
        if pattern.startswith("!"):
            continue
        parts = pattern.strip("/").split("/")[:-1][:2]
        if not parts or parts[0] == "**":
            return ""
        folders.add("/".join(parts))
    return folders.pop() if len(folders) == 1 else ""


def _record(no, node, text_entry, source):
    trig = knowledge.triggers_of(node)
    tools = tuple(sorted({t.strip().lower() for t in trig["tool_names"] if t.strip()}))
    patterns = tuple(globs.compile_glob(p) for p in procedure_files(node, trig) + trig["file_patterns"])
    context = tuple(k for k in (keywords.fold_keyword(w) for w in trig["context_keywords"]) if k)
    about_production = any(not PRODUCTION.isdisjoint(k.split()) for k in context) or \
        any(not PRODUCTION.isdisjoint(keywords.fold(w).split()) for w in trig["action_keywords"])
    action = tuple(k for k in (keywords.fold_keyword(w) for w in same_act(trig["action_keywords"], about_production)) if k)
    priority = node.get("priority", "MEDIUM")
    mult = knowledge.PRIORITY_MULTIPLIER[priority]
    return (
        no,
        node["id"],
        mult,
        knowledge.PRIORITY_RANK[priority],
        tools,
        patterns,
        action,
        context,
        text_entry,
        " ".join(node["label"].split()),
        source,
        best_score(tools, patterns, action, context, priority),
        best_score(tools, (), action, context, priority),
        about_production,
        tuple(k for k in (keywords.fold_keyword(w) for w in trig["action_keywords"] if keywords.written_in_capitals(w)) if k),
        tuple((keywords.fold_keyword(w), w.strip().lower()) for w in trig["action_keywords"]
              if keywords.punctuation_is_meaning(w) and keywords.fold_keyword(w)),
    )


def _bucket_keys(record):
    """The buckets an item is filed under (see forewarn.index).

    File buckets of items that name only file-editing tools (Write, Edit,
    MultiEdit, NotebookEdit) carry a ``w`` prefix, so a call that edits no
    file (a Bash command that only reads) does not read them.  Tool buckets
    are split at the default threshold: an item that cannot
    reach it without a file match goes to ``t0l:``/``tfl:``, which the hook
    reads only when the threshold is set lower.  An item with action
    keywords, which must match (the action gate), is filed under the first
    word of each keyword (``<tool bucket>|w:<word>``) and under
    ``<tool bucket>|kw`` for inputs without any word; an item that names
    only keywords, under ``ta|w:<word>`` (any tool).  A subagent brief reads
    the keyword buckets of every tool (forewarn.relevance.candidate_keys).
    """
    tools, patterns = record[R_TOOLS], record[R_PATTERNS]
    low = "l" if record[R_BEST_NO_FILE] < config.DEFAULTS["threshold"] else ""
    keys = []
    for tool in tools:
        if tool.endswith("*"):
            keys.append("tp:" + tool[:-1])
            continue
        base = ("tf" if patterns else "t0") + low + ":" + tool
        if record[R_ACTION]:
            keys.append(base + "|kw")
            keys.extend(base + "|w:" + keyword.split()[0] for keyword in record[R_ACTION])
        else:
            keys.append(base)
    if not tools and not patterns and record[R_ACTION]:  # keywords only: an action keyword is its tool match, any tool
        keys.extend(ANY_TOOL + low + "|w:" + keyword.split()[0] for keyword in record[R_ACTION])
    edit_only = bool(tools) and all(tool in FILE_EDIT_TOOLS for tool in tools)
    for compiled in patterns:
        if compiled[0]:  # negations only narrow; never a reason to be a candidate
            continue
        kind, value = globs.index_keys(compiled)
        key = "g" if kind == "g" else "%s:%s" % (kind, value)
        keys.append("w" + key if edit_only else key)
    if not keys:
        keys.append("k")  # context keywords only: reachable only under a low threshold
    if about_secrets(record[R_ACTION]):
        keys.append(SECRET_BUCKET)  # read for a call that writes a secret, whatever its tool, path or words
    seen = set()
    return [k for k in keys if not (k in seen or seen.add(k))]


def iter_active(root, sources, summary):
    """Yield ``(node, path)`` for every valid, active process node, one node in memory at a time.

    Fills ``summary``: status counts, problems as ``(file, node_id, text)``
    and a count of them.  The first definition of an id wins (project graphs
    come before the user's); later ones are reported as duplicates.  Graphs
    are streamed (:func:`forewarn.graphs.iter_nodes`): a file that turns out
    to be unusable part-way is reported, and the nodes before the fault are
    kept, as they would be if the file had ended there.
    """
    seen = {}
    settings_file = config.config_path(root)
    for path, _mtime, _size in sources:
        if path == settings_file:
            continue
        try:
            for node in iter_nodes(path):
                if not knowledge.is_process_node(node):
                    continue
                found = knowledge.problems(node)
                if found:
                    summary["problems"].append((path, str(node.get("id", "")), "; ".join(found)))
                    continue
                status = knowledge.status_of(node)
                summary["counts"][status] += 1
                if status != "active":
                    continue
                if node["id"] in seen:
                    summary["problems"].append((path, node["id"], "duplicate id; the one in %s is used" % seen[node["id"]]))
                    continue
                seen[node["id"]] = path
                yield node, path
        except GraphError as exc:
            summary["problems"].append((path, "", str(exc)))


def build_chunks(root, sources):
    """The index file for ``root`` built from ``sources``, as a list of byte strings to write in order."""
    started = time.perf_counter()
    settings, notes = config.load_file_config(root)
    summary = {"counts": {"active": 0, "draft": 0, "archived": 0}, "problems": []}
    texts = bytearray()
    buckets = {}
    critical = []
    count = 0
    for node, path in iter_active(root, sources, summary):
        text = render.render_item(node).encode("utf-8")
        entry = (len(texts), len(text), binascii.crc32(text) & 0xFFFFFFFF)
        texts += text
        rec = _record(count, node, entry, path)
        count += 1
        for key in _bucket_keys(rec):
            buckets.setdefault(key, []).append(rec)
        if node.get("priority") == "CRITICAL":
            critical.append((rec[1], rec[9], " ".join(str(node.get("description") or "").split())))
    data = [bytes(texts)]  # the data region, in pieces: never copied into one buffer
    del texts
    size = len(data[0])
    directory = {}
    for key in sorted(buckets):
        blob = marshal.dumps(tuple(buckets.pop(key)))
        directory[key] = pack_entry(size, len(blob), binascii.crc32(blob) & 0xFFFFFFFF)
        size += len(blob)
        data.append(blob)
    keyword_words = {}
    for key in directory:
        base, sep, word = key.partition("|w:")
        if sep:
            keyword_words.setdefault(base, set()).add(word)
    header = {
        "format": FORMAT,
        "root": root,
        "sources": sources,
        "settings": settings,
        "notes": notes,
        "counts": summary["counts"],
        "problems": summary["problems"][:MAX_LISTED_PROBLEMS],
        "problem_count": len(summary["problems"]),
        "critical": critical[:MAX_LISTED_CRITICAL],
        "critical_count": len(critical),
        "items": count,
        "buckets": directory,
        "keyword_words": {base: frozenset(words) for base, words in keyword_words.items()},
        "tool_prefixes": tuple(sorted(k[3:] for k in directory if k.startswith("tp:"))),
        "built_at": time.time(),
        "build_seconds": round(time.perf_counter() - started, 6),
    }
    head = marshal.dumps(header)
    prefix = MAGIC + len(head).to_bytes(4, "little") + (binascii.crc32(head) & 0xFFFFFFFF).to_bytes(4, "little")
    return [prefix, head] + data


def build_bytes(root, sources):
    """The complete index file for ``root`` built from ``sources``, as one bytes object."""
    return b"".join(build_chunks(root, sources))


def store(path, blob):
    """Write the index (bytes or a list of chunks) atomically; False (no exception) if the data folder is not writable."""
    try:
        storage.atomic_write_bytes(path, blob)
        return True
    except OSError:
        return False


def rebuild(root):
    """Build and store the index for ``root``; True if built.

    False, never an exception, when another builder holds the lock or the
    index folder cannot be made or locked.
    """
    path = index_file(root)
    try:
        with storage.locked(path + ".build", timeout=0):
            return store(path, build_chunks(root, current_sources(root)))
    except storage.LockTimeout:
        return False
    except OSError as exc:
        from .log import log

        log("index", "cannot lock %s for a rebuild: %s" % (path, exc))
        return False


if __name__ == "__main__":  # the background rebuild started by forewarn.index.open_fresh
    try:
        rebuild(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None)
    except Exception as exc:  # pragma: no cover - logged, never raised into a session
        from .log import log

        log("index", "background rebuild failed: %s: %s" % (type(exc).__name__, exc))
