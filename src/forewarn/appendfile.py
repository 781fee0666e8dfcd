"""Append-only files that rotate at a size limit: the hook log and the decision trace.

Contract of :func:`append`: one ``write`` on an ``O_APPEND`` descriptor per
call, so lines of parallel hooks never interleave.  Once the file is past
``limit`` bytes it becomes ``<path>.1`` (replacing the previous one) and the
line starts a new file.  When several hooks find the limit passed at once,
exactly one renames: the rename happens under an ``flock`` of the full file
and only while that file is still the one at ``path``, so a second rename
can never put a nearly empty file over the rotated one.  A line written by
a hook that lost that race lands in ``<path>.1``; none is lost.  Raises
OSError when the line cannot be written.
"""

import os

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: rotation without the lock
    fcntl = None


def append(path, data, limit):
    """Append the bytes ``data`` to ``path``, rotating it first if it is past ``limit`` bytes."""
    fd = _open(path)
    try:
        if os.fstat(fd).st_size <= limit or not _rotate(fd, path):
            os.write(fd, data)
            return
    finally:
        os.close(fd)
    fd = _open(path)  # rotated: the line starts the new file
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _open(path):
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
    try:
        return os.open(path, flags, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return os.open(path, flags, 0o600)


def _rotate(fd, path):
    """Rename the full file open as ``fd`` to ``path.1`` unless another hook is doing or did so; True if renamed."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when fd is closed
        except OSError:
            return False
    try:
        if os.stat(path).st_ino != os.fstat(fd).st_ino:
            return False
        os.replace(path, path + ".1")
        return True
    except OSError:
        return False
