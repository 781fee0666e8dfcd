"""The hook contract shared by every entry point: read, decide, answer, exit 0.

Claude Code feeds a hook one JSON object on stdin and reads at most one JSON
object from stdout.  forewarn only advises, so every path ends in exit 0:

* :func:`run` arms an internal deadline (``SIGALRM`` where the platform has
  it), calls the handler, and turns any exception, including the deadline,
  into a log line and an empty answer;
* :func:`read_input` reads stdin as bytes, decodes UTF-8 (invalid bytes are
  replaced, not fatal) and returns the object, or None for empty, oversized,
  non-JSON or non-object input;
* the handler returns the text of ``additionalContext`` or None, and
  :func:`run` writes the one envelope Claude Code delivers to the model:
  ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}``;
  a handler may instead return a dict of top-level fields for the user
  (the Stop hook's ``{"systemMessage": ...}``), written as it is.
  Nothing here ever writes a permission or blocking decision.

Only :mod:`_signal` (not :mod:`signal`, which imports :mod:`enum`) is used, to
keep the PreToolUse start-up cost near the interpreter's own.
"""

import os
import sys

from . import fastjson
from .log import log

try:
    import _signal
except ImportError:  # pragma: no cover - every CPython has it
    _signal = None

MAX_STDIN_BYTES = 8 << 20


class DeadlineExceeded(BaseException):
    """Raised by the alarm; a BaseException so no ``except Exception`` swallows it."""


def _on_alarm(signum, frame):
    raise DeadlineExceeded()


def _arm(seconds):
    if _signal is None or not hasattr(_signal, "setitimer"):
        return False
    try:
        _signal.signal(_signal.SIGALRM, _on_alarm)
        _signal.setitimer(_signal.ITIMER_REAL, seconds)
        return True
    except (ValueError, OSError):  # not the main thread, or no timer
        return False


def _disarm():
    try:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
    except Exception:
        pass


def read_input(stream=None, limit=MAX_STDIN_BYTES):
    """Return the hook's input object, or None when there is none worth reading."""
    stream = stream if stream is not None else sys.stdin.buffer
    raw = stream.read(limit + 1)
    if not raw or not raw.strip():
        log("input", "empty stdin")
        return None
    if len(raw) > limit:
        log("input", "stdin larger than %d bytes; ignored" % limit)
        return None
    text = raw.decode("utf-8", "replace")
    try:
        data = fastjson.loads(text)
    except (ValueError, RecursionError) as exc:
        log("input", "stdin is not JSON: %s" % exc)
        return None
    if not isinstance(data, dict):
        log("input", "stdin JSON is a %s, not an object" % type(data).__name__)
        return None
    return data


def envelope(event, context):
    """The exact stdout bytes that give ``context`` to the model for ``event``."""
    return fastjson.dumps(
        {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}
    ).encode("ascii")


def run(event, handler, deadline=0.45, stdin=None, stdout=None):
    """Run ``handler(input_dict) -> str | dict | None`` as a fail-open hook; always exit 0.

    The deadline bounds everything after start-up, including reading stdin.
    Nothing is written unless the handler finished in time with a non-empty
    answer; the answer is written in one call.
    """
    out = b""
    armed = _arm(deadline)
    try:
        try:
            data = read_input(stdin)
            if data is not None:
                answer = handler(data)
                if isinstance(answer, dict):
                    out = fastjson.dumps(answer).encode("ascii") if answer else b""
                elif answer:
                    out = envelope(event, answer)
        except DeadlineExceeded:
            raise
        except BaseException as exc:  # fail open, even on SystemExit(2), which would block the tool call
            out = b""
            log(event, "error: %s: %s" % (type(exc).__name__, exc))
    except DeadlineExceeded:  # outside the handler above: the alarm may also fire while it logs
        out = b""
        log(event, "internal deadline of %.2fs reached; no output" % deadline)
    finally:
        if armed:
            _disarm()
    if out:
        try:
            target = stdout if stdout is not None else sys.stdout.buffer
            target.write(out)
            target.flush()
        except Exception:
            pass
    return 0


def main(event, handler, deadline=0.45):
    """Entry-point helper: :func:`run`, then exit 0 whatever happened, skipping interpreter clean-up."""
    try:
        run(event, handler, deadline)
    finally:
        try:
            sys.stdout.flush()
        except Exception:
            pass
        os._exit(0)
