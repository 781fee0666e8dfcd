"""Compiled regular expressions kept from one process to the next.

The Stop hook is a new process at the end of every turn.  Compiling the
lesson detectors' large patterns cost a turn with a correction about 33 ms
(the pushback alternation alone 12 ms) — more than reading the turn and
everything else the hook does.  ``re`` has no public way to keep a compiled
pattern, so this module keeps what ``re.compile`` builds before its last
step — the opcode list, flags and groups made by the standard library's
``re._compiler`` (``sre_compile`` before Python 3.11) — and hands them to
``_sre.compile``, the step ``re.compile`` itself ends with.

Contract:

* :func:`compile` returns a pattern that behaves as
  ``re.compile(pattern, flags)``: read from the cache when this interpreter
  (cache tag and ``_sre.MAGIC``) and this forewarn version compiled it
  before, else compiled here and remembered.  Any failure — a private
  function missing from an interpreter, a corrupt or foreign cache file, an
  opcode list the C side rejects (it validates every list it is given and
  raises, it never crashes) — ends in a plain ``re.compile``.
* :func:`save` writes the cache (``<data folder>/cache/regex.<tag>.marshal``,
  atomically) when this process compiled a pattern it did not hold; a
  write that fails is ignored.  Two processes saving at once lose at most
  each other's new entries, which the next process compiles again.

Standard library only: the Stop hook uses this module.
"""

import marshal
import re
import sys

from . import __version__, marshal_cache, storage

try:
    import _sre

    try:
        from re import _compiler, _parser
    except ImportError:  # Python 3.10
        import sre_compile as _compiler
        import sre_parse as _parser
except ImportError:  # pragma: no cover - an interpreter without CPython's regular expression engine
    _sre = _compiler = _parser = None

# {(pattern, flags, rewritten): (compiled pattern, final flags, opcodes, groups, groupindex, indexgroup)} once read
_entries = None
_added = False


def cache_file():
    return marshal_cache.cache_file("regex")  # one folder and naming for every marshal copy


def _header():
    return ("forewarn-regex-cache-1", __version__, sys.implementation.cache_tag, getattr(_sre, "MAGIC", None))


def _read():
    global _entries
    _entries = {}
    try:
        with open(cache_file(), "rb") as handle:
            header, entries = marshal.loads(handle.read())
        if header == _header() and isinstance(entries, dict):
            _entries = entries
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return _entries


def compile(pattern, flags=0, rewrite=None):  # noqa: A001 - the name re.compile has
    """``re.compile(pattern, flags)`` — of ``rewrite(pattern)`` when a rewrite is given (an exact one, such as
    :func:`forewarn.learning.lazy_regex.shared_boundary`: a cached pattern skips it too) — from the cache when it
    holds the pattern."""
    global _added
    if _sre is None or not isinstance(pattern, str) or not isinstance(flags, int):
        return re.compile(rewrite(pattern) if rewrite else pattern, flags)
    flags = int(flags)  # re.I is an enum; the parser is slower with one and marshal cannot write it
    entries = _entries if _entries is not None else _read()
    key = (pattern, flags, rewrite is not None)
    entry = entries.get(key)
    if entry is not None:
        try:
            return _sre.compile(*entry)
        except Exception:
            del entries[key]
    written = rewrite(pattern) if rewrite else pattern
    try:
        parsed = _parser.parse(written, flags)
        code = [int(word) for word in _compiler._code(parsed, flags)]  # opcodes are an int subclass marshal cannot write
        indexgroup = [None] * parsed.state.groups
        for name, index in parsed.state.groupdict.items():
            indexgroup[index] = name
        entry = (written, flags | parsed.state.flags, code, parsed.state.groups - 1, dict(parsed.state.groupdict),
                 tuple(indexgroup))
        compiled = _sre.compile(*entry)
    except re.error:
        raise
    except Exception:  # a private function that changed: the public way
        return re.compile(written, flags)
    entries[key] = entry
    _added = True
    return compiled


def save():
    """Write the cache if this process compiled a pattern it did not hold (failures are ignored)."""
    global _added
    if not _added or _entries is None:
        return
    try:
        storage.atomic_write_bytes(cache_file(), marshal.dumps((_header(), _entries)))
        _added = False
    except (OSError, ValueError):
        pass
