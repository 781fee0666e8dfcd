"""Durable writes: atomic replace under an advisory lock.

Contract:

* :func:`atomic_write_bytes` writes to a temporary file in the target's
  folder, fsyncs it and renames it over the target, so a reader sees the old
  file or the new one, never half of either;
* :func:`locked` serialises writers of one file across processes (hooks of
  parallel subagents, a hook and a CLI command) with an ``fcntl`` lock on a
  sibling ``.lock`` file (``msvcrt`` on Windows), waiting at most ``timeout``
  seconds before raising :class:`LockTimeout`;
* :func:`update_json` is the read-modify-write every graph mutation goes
  through: under the lock it re-reads the file, applies the caller's
  function and writes the result atomically, so concurrent updates are never
  lost.

Standard library only: the Stop hook uses this module.
"""

import json
import os
import time

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt


class LockTimeout(OSError):
    """Another process held the lock for longer than the caller would wait."""


def _create_temp(folder, name):
    """``(fd, path)`` of a new, exclusively created ``.<name>.<random>.tmp`` in ``folder``.

    What tempfile.mkstemp does, without its import (shutil, random and the
    compression modules: a few milliseconds of every hook that writes).
    """
    for _attempt in range(100):
        tmp = os.path.join(folder, ".%s.%s.tmp" % (name, os.urandom(6).hex()))
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError("no free temporary name in %s" % folder)


def atomic_write_bytes(path, data, mode=0o644):
    """Replace ``path`` with ``data`` (bytes, or a list of bytes written in order) atomically (temp file + fsync + rename)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = _create_temp(folder, os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in data if isinstance(data, list) else (data,):
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class locked:
    """Context manager: hold the advisory lock for ``path`` (``path + '.lock'``)."""

    def __init__(self, path, timeout=5.0):
        self.lock_path = path + ".lock"
        self.timeout = timeout
        self._fd = None

    def __enter__(self):
        os.makedirs(os.path.dirname(os.path.abspath(self.lock_path)), exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                else:  # pragma: no cover
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout("could not lock %s within %.1fs" % (self.lock_path, self.timeout))
                time.sleep(0.01)
        self._fd = fd
        return self

    def __exit__(self, *exc):
        fd, self._fd = self._fd, None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            else:  # pragma: no cover
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)
        return False


def read_json(path, default=None):
    """Parse the JSON file at ``path``; ``default`` if it does not exist.

    A file that exists but is not valid JSON raises ValueError: callers that
    write must not overwrite data they could not read.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return default
    return json.loads(raw.decode("utf-8"))


def dump_json_bytes(value):
    """The on-disk form of a graph or state file: indented, UTF-8, newline-terminated."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def update_json(path, mutate, default=None, timeout=5.0):
    """Locked read-modify-write of a JSON file; returns what ``mutate`` returned.

    ``mutate(value)`` receives the current content (or ``default``) and may
    change it in place; it returns ``(new_value, result)``.  When
    ``new_value`` is None nothing is written.
    """
    with locked(path, timeout):
        current = read_json(path, default)
        new_value, result = mutate(current)
        if new_value is not None:
            atomic_write_bytes(path, dump_json_bytes(new_value))
        return result


def remove_older_than(folder, max_age_seconds, now=None, suffixes=None):
    """Delete files in ``folder`` (ending in one of ``suffixes``, if given) not modified for ``max_age_seconds``.

    Returns how many were removed; a missing folder or a file that vanished
    meanwhile is not an error.
    """
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if suffixes and not entry.name.endswith(suffixes):
            continue
        try:
            if now - entry.stat().st_mtime > max_age_seconds:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed
