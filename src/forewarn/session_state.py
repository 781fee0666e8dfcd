"""Per-session memory of what was injected, so an item is not repeated.

One small text file per session under ``<data>/sessions/``, a line per
injection (``<item id>\\t<path>``).  :func:`claim` holds an exclusive
``flock`` while it reads the file, lets the caller choose, and appends the
choice, so parallel hooks (subagents) never inject the same item for the
same file twice.  If the folder is not writable, nothing is remembered and
nothing fails.  Files untouched for 30 days are removed by :func:`sweep`.
"""

import os

from . import paths

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no cross-process dedupe
    fcntl = None

MAX_AGE_SECONDS = 30 * 86400


def _file(session_id):
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in session_id)[:80] or "unknown"
    return os.path.join(paths.data_dir(), "sessions", safe + ".injected")


def claim(session_id, choose):
    """Call ``choose(already) -> [(item_id, path), ...]`` under the session lock; record the result.

    ``already`` is a set of ``(item_id, path)`` pairs injected earlier in
    this session.  Returns what ``choose`` returned.
    """
    if not isinstance(session_id, str) or not session_id:
        return choose(set())
    path = _file(session_id)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError:
        return choose(set())
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        chunks = []
        os.lseek(fd, 0, 0)
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        already = set()
        for line in b"".join(chunks).decode("utf-8", "replace").splitlines():
            item_id, _, target = line.partition("\t")
            already.add((item_id, target))
        chosen = choose(already)
        if chosen:
            os.write(fd, "".join("%s\t%s\n" % pair for pair in chosen).encode("utf-8"))
        return chosen
    finally:
        os.close(fd)  # closing releases the lock


def sweep(now=None):
    """Remove session files older than 30 days; returns how many were removed."""
    from .storage import remove_older_than

    return remove_older_than(os.path.join(paths.data_dir(), "sessions"), MAX_AGE_SECONDS, now)
