"""Data derived from a shipped file, cached with :mod:`marshal` in forewarn's data folder.

Parsing a large JSON file costs every hook process that needs it (the reply
model's ~24,000 weights: 11–14 ms with ``json`` in a fresh process, about
4 ms with ``marshal``).  :func:`load` parses it once per change of the
source and reads the cache after that.

Contract: ``load(source, name, build)`` returns ``build(source)``.  It reads
``<data folder>/cache/<name>.<interpreter tag>.marshal`` when that file was
made from ``source`` (same absolute path, size and modification time) by
this interpreter's marshal format; otherwise it calls ``build`` and writes
the cache atomically, ignoring any failure to write (a read-only or missing
data folder only costs the parse).  A stale, truncated or foreign cache is
never trusted.  ``build``'s exceptions propagate; the value must be what
marshal can write (dicts, lists, tuples, strings, numbers).  Standard
library only: the Stop hook uses this module.
"""

import marshal
import os
import sys

from . import paths, storage

FORMAT = "forewarn-marshal-cache-1"


def cache_file(name):
    """Where the cache called ``name`` lives for this interpreter."""
    tag = sys.implementation.cache_tag or "python"
    return os.path.join(paths.data_dir(), "cache", "%s.%s.marshal" % (name, tag))


def load(source, name, build):
    """``build(source)``, from the cache when it was made from ``source`` as it is now."""
    source = os.path.abspath(source)
    stat = os.stat(source)
    key = (FORMAT, source, stat.st_size, stat.st_mtime_ns)
    path = cache_file(name)
    try:
        with open(path, "rb") as handle:
            cached = marshal.loads(handle.read())
        if isinstance(cached, tuple) and len(cached) == 2 and cached[0] == key:
            return cached[1]
    except (OSError, ValueError, EOFError, TypeError):
        pass
    value = build(source)
    try:
        storage.atomic_write_bytes(path, marshal.dumps((key, value)))
    except (OSError, ValueError):
        pass
    return value
