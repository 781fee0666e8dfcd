"""The compiled index: every active item's triggers, precompiled, in one file.

The PreToolUse hook runs on every tool call, so it never parses graph JSON.
It reads this index, which holds each active item's triggers (globs compiled
by :mod:`forewarn.globs`, keywords folded by :mod:`forewarn.keywords`) and
its pre-rendered text, grouped in buckets so a call reads only the buckets
its tool and path can match:

``t0:<tool>``  items that name the tool and no file patterns
``tf:<tool>``  items that name the tool and file patterns
``t0l:``/``tfl:<tool>``  the same, for items that cannot reach the default
               threshold without a file match (read only below it)
``tp:<prefix>``  items whose tool names end in ``*`` (prefix match; the
               header's ``tool_prefixes`` lists the prefixes)
``n:<name>``   items with a pattern whose last literal segment is ``name``
``e:<.ext>``   items with a pattern ending in ``*.ext``
``g``          items with any other pattern
``wn:``/``we:``/``wg``  the same, for items that name only file-editing
               tools (read only for an edit, or a shell command that writes)
``k``          items with neither tools nor file patterns (keywords only)
``<tool bucket>|w:<word>``  tool-bucket items whose action keywords start
               with ``word`` (they need a keyword; the header's
               ``keyword_words`` lists the words per tool bucket)
``<tool bucket>|kw``  all of those, for an input without any word
``ta|w:<word>``  items that name only action keywords, by their first words

Every active item is in at least one bucket; :meth:`Index.all_records`
walks them all (``explain``, and thresholds low enough that keywords alone
can reach them).

File layout: ``MAGIC`` (8 bytes), header length and CRC-32 (4 bytes each,
little-endian), the :mod:`marshal`-ed header, then the data region: one
marshal-ed list of records per bucket and the rendered texts, each with its
own CRC-32.  The header records the sources it was built from
(``(path, mtime_ns, size)`` of every graph and of the settings file), so
:func:`open_fresh` can tell in a few ``stat`` calls whether it is current.

Contract: a corrupt, truncated or foreign index is never used; it is
rebuilt (written atomically, so racing hooks each produce a whole file and
the last rename wins).  A stale index is rebuilt before use, except above
``INLINE_BUILD_LIMIT`` bytes of graphs in the PreToolUse hook, which answers
from it while a detached process rebuilds.  If the data folder is not
writable the index is built and used in memory.
"""

import binascii
import marshal
import os

from . import paths

FORMAT = 16
MAGIC = b"FWIDX\x00\x00\x09"
_PREFIX = len(MAGIC) + 8

# Record layout (a tuple per item).
R_NO, R_ID, R_MULT, R_RANK, R_TOOLS, R_PATTERNS, R_ACTION, R_CONTEXT, R_TEXT, R_LABEL, R_SOURCE, R_BEST, R_BEST_NO_FILE, \
    R_PRODUCTION, R_CAPITALS, R_LITERAL = range(16)
# R_BEST: the score the item reaches when every term it has matches (R_BEST_NO_FILE: all but the file
# term); below the threshold it can never fire, so the hook does not score it.  R_PRODUCTION: the item is about
# production (a keyword holds the word prod or production; the environment gate).  R_CAPITALS: the folded action
# keywords the author wrote in capitals (UPDATE, DELETE FROM): in a shell command's prose description they count
# only in capitals.  R_LITERAL: ``(folded, as written)`` for keywords whose punctuation is their meaning (``-delete``,
# ``.delete()``): folded they are the bare word, so a match must hold them as written.


def pack_entry(offset, length, crc):
    """A bucket's directory entry: offset, length and CRC-32 as 12 little-endian bytes (one object per bucket in
    the header, which every hook call unmarshals: a third of the time a tuple of three ints takes)."""
    return offset.to_bytes(4, "little") + length.to_bytes(4, "little") + crc.to_bytes(4, "little")


def unpack_entry(entry):
    """``(offset, length, crc)`` of a directory entry (:func:`pack_entry`)."""
    if not isinstance(entry, bytes) or len(entry) != 12:
        raise CorruptIndex("bucket directory entry corrupt")
    return int.from_bytes(entry[:4], "little"), int.from_bytes(entry[4:8], "little"), int.from_bytes(entry[8:], "little")


class CorruptIndex(Exception):
    """The index file is unusable (corrupt, truncated, foreign format)."""


def index_file(root):
    """Where the index for project ``root`` lives in the data folder."""
    key = "%08x" % (binascii.crc32(os.fsencode(root or "")) & 0xFFFFFFFF)
    name = os.path.basename((root or "").rstrip("/\\")) or "root"
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:40]
    return os.path.join(paths.data_dir(), "index", "%s-%s.idx" % (safe, key))


def current_sources(root):
    """The freshness key: every graph file and the settings file as ``(path, mtime_ns, size)``."""
    sources = paths.scan_graph_files(paths.graph_dirs(root))
    if root:
        cfg = os.path.join(root, ".claude", "forewarn.json")
        try:
            st = os.stat(cfg)
            sources.append((cfg, st.st_mtime_ns, st.st_size))
        except OSError:
            pass
    return sources


class Index:
    """A readable index: ``header`` plus lazily read buckets and texts."""

    def __init__(self, handle, header, base):
        self._handle = handle
        self.header = header
        self._base = base
        self._cache = {}

    def _read(self, off, length, crc):
        self._handle.seek(self._base + off)
        blob = self._handle.read(length)
        if len(blob) != length or (binascii.crc32(blob) & 0xFFFFFFFF) != crc:
            raise CorruptIndex("data region corrupt")
        return blob

    def bucket(self, key):
        """The records of one bucket (empty tuple if the bucket does not exist)."""
        records = self._cache.get(key)
        if records is None:
            entry = self.header["buckets"].get(key)
            if entry is None:
                records = ()
            else:
                try:
                    records = marshal.loads(self._read(*unpack_entry(entry)))
                except (ValueError, EOFError, TypeError) as exc:
                    raise CorruptIndex("bucket %s corrupt: %s" % (key, exc)) from exc
            self._cache[key] = records
        return records

    def all_records(self):
        """Every active item once, in build order."""
        seen = {}
        for key in self.header["buckets"]:
            for record in self.bucket(key):
                seen.setdefault(record[R_NO], record)
        return [seen[no] for no in sorted(seen)]

    def text(self, record):
        """The pre-rendered text of one item."""
        off, length, crc = record[R_TEXT]
        return self._read(off, length, crc).decode("utf-8")

    def close(self):
        try:
            self._handle.close()
        except Exception:
            pass


def _parse(handle):
    prefix = handle.read(_PREFIX)
    if len(prefix) != _PREFIX or prefix[: len(MAGIC)] != MAGIC:
        raise CorruptIndex("not a forewarn index of format %d" % FORMAT)
    length = int.from_bytes(prefix[8:12], "little")
    crc = int.from_bytes(prefix[12:16], "little")
    # read() allocates what it is asked for: a damaged length must not ask for gigabytes
    if length > handle.seek(0, 2) - _PREFIX:
        raise CorruptIndex("header length beyond the end of the file")
    handle.seek(_PREFIX)
    blob = handle.read(length)
    if len(blob) != length or (binascii.crc32(blob) & 0xFFFFFFFF) != crc:
        raise CorruptIndex("header corrupt")
    try:
        header = marshal.loads(blob)
    except (ValueError, EOFError, TypeError) as exc:
        raise CorruptIndex("header corrupt: %s" % exc) from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CorruptIndex("foreign header")
    return Index(handle, header, _PREFIX + length)


def open_index_file(path):
    """Open and verify an index file's header; raise CorruptIndex or OSError."""
    handle = open(path, "rb")
    try:
        return _parse(handle)
    except BaseException:
        handle.close()
        raise


def sweep(max_age_seconds=30 * 86400, now=None):
    """Remove index files not rebuilt for ``max_age_seconds`` (projects left behind); returns how many.

    An index still in use but unchanged that long is simply rebuilt on its next use.
    """
    from .storage import remove_older_than

    return remove_older_than(os.path.join(paths.data_dir(), "index"), max_age_seconds, now, (".idx", ".lock"))


def discard(root):
    """Remove the stored index for ``root`` (found corrupt while reading); never raises."""
    try:
        os.unlink(index_file(root))
    except OSError:
        pass


INLINE_BUILD_LIMIT = 2 << 20  # bytes of graph JSON the PreToolUse hook compiles itself (~4,000 nodes)


def open_fresh(root, rebuild=True, inline_limit=None):
    """The index to use for ``root``: ``(index, state)``.

    ``state`` is ``"fresh"`` when the cached file's recorded sources equal
    the current ones, ``"rebuilt"`` when it was missing, stale or corrupt and
    was built now (and stored if the data folder is writable), ``"stale"``
    when the sources are larger than ``inline_limit`` bytes: then a detached
    process rebuilds it and the previous index, if any, is returned (None
    if there is none).  With ``rebuild=False`` a stale or missing index
    gives ``(None, "stale")``.
    """
    sources = current_sources(root)
    path = index_file(root)
    try:
        idx = open_index_file(path)
    except (OSError, CorruptIndex):
        idx = None
    if idx is not None:
        if idx.header.get("sources") == sources and idx.header.get("root") == root:
            return idx, "fresh"
        if idx.header.get("root") != root:
            idx.close()
            idx = None
    if not rebuild:
        if idx is not None:
            idx.close()
        return None, "stale"
    if inline_limit is not None and sum(s[2] for s in sources) > inline_limit:
        from .detached import spawn  # not index_build: its imports (json, re, ...) cost the hook more than the rebuild saves

        spawn("index_build", root or "")  # python -S -m forewarn.index_build ROOT, detached
        return idx, "stale"
    if idx is not None:
        idx.close()
    from .index_build import build_bytes, store

    blob = build_bytes(root, sources)
    stored = store(path, blob)
    import io

    idx = _parse(io.BytesIO(blob))
    _log_rebuild(root, idx.header, stored, path)
    return idx, "rebuilt"


def _log_rebuild(root, header, stored, path):
    """One hook-log line when a rebuild met what the hooks cannot use (``doctor`` reads the header's list)."""
    reasons = ["%s: %s" % (node, text) if node else text for _file, node, text in header["problems"][:3]]
    skipped = []
    paths.scan_graph_files(paths.graph_dirs(root), skipped)
    reasons.extend(skipped[:3])
    if not stored:
        reasons.append("cannot write %s; the index is built in memory on every call" % path)
    if reasons:
        from .log import log

        count = header["problem_count"] + len(skipped) + (not stored)
        log("index", "rebuilt for %s with %d problem(s): %s" % (root, count, " | ".join(reasons)))
