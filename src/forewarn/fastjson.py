"""JSON for the hot path without importing :mod:`json`.

``import json`` pulls in :mod:`re` and costs about as much as the interpreter's
own start (measured: +11 ms on a 12 ms ``python -S -c pass``).  The C
accelerator :mod:`_json` that :mod:`json` itself uses is importable on its
own, so the hooks parse and write JSON through it and fall back to
:mod:`json` only where the accelerator is missing (alternative interpreters).

Contract: :func:`loads` accepts what ``json.loads`` accepts (one value,
surrounding white space) except the non-standard constants ``NaN`` and
``Infinity`` and numbers too large for a float (which it would read as
infinite), and raises :class:`ValueError` otherwise (RecursionError for
nesting too deep, as ``json.loads`` does); :func:`dumps` writes plain data (dict with string keys, list,
tuple, str, int, float, bool, None) as compact UTF-8-ready text.
"""

try:
    import _json
except ImportError:  # pragma: no cover - CPython always has it
    _json = None

_WS = " \t\n\r"
_INF = float("inf")


class _ScannerContext:
    """The attributes ``_json.make_scanner`` reads, as ``json.JSONDecoder`` sets them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_int = int

    def __init__(self):
        self.memo = {}

    @staticmethod
    def parse_constant(name):
        raise ValueError("non-standard JSON constant: " + name)

    @staticmethod
    def parse_float(text):
        value = float(text)
        if value in (_INF, -_INF):  # 1E400: json.loads gives inf, which JSON cannot hold, like Infinity
            raise ValueError("number out of range: " + text)
        return value


if _json is not None:
    _scan = _json.make_scanner(_ScannerContext())
    _quote = _json.encode_basestring_ascii
else:  # pragma: no cover
    import json as _std

    _scan = None
    _quote = _std.encoder.encode_basestring_ascii


def loads(text):
    """Parse one JSON document from ``text`` (str); raise ValueError if it is not one."""
    if _scan is None:  # pragma: no cover
        return _std.loads(text)
    length = len(text)
    start = 0
    while start < length and text[start] in _WS:
        start += 1
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError("not a JSON document") from exc
    except SystemError as exc:
        # Python <= 3.11: the accelerator raises its syntax errors through json.decoder, looked up in
        # sys.modules only; without it (the point of this module) the error becomes a SystemError.
        raise ValueError("not a JSON document (malformed within a value)") from exc
    while end < length and text[end] in _WS:
        end += 1
    if end != length:
        raise ValueError("extra data after the JSON document")
    return value


def dumps(value):
    """Serialise plain data as compact JSON text (non-ASCII escaped, so any encoding is safe)."""
    parts = []
    _write(value, parts.append)
    return "".join(parts)


def _write(value, out):
    if isinstance(value, str):
        out(_quote(value))
    elif value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            out("null")
        else:
            out(repr(value))
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(",")
            first = False
            out(_quote(str(key)))
            out(":")
            _write(item, out)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        for i, item in enumerate(value):
            if i:
                out(",")
            _write(item, out)
        out("]")
    else:
        out(_quote(str(value)))
