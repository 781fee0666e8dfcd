"""forewarn.hookio: read, decide, answer, exit 0, whatever the input or the handler does."""

import io
import json
import os
import subprocess
import sys
import time

import pytest
from support import isolated_project

from forewarn import hookio


@pytest.fixture
def log(tmp_path, monkeypatch):
    """A reader for the hook log of a private data folder."""
    isolated_project(tmp_path, monkeypatch)

    def text():
        path = tmp_path / "data" / "forewarn.log"
        return path.read_text() if path.exists() else ""

    return text


def run(handler, stdin=b'{"tool_name": "Write"}', deadline=0.45):
    out = io.BytesIO()
    code = hookio.run("PreToolUse", handler, deadline, stdin=stdin if hasattr(stdin, "read") else io.BytesIO(stdin), stdout=out)
    return code, out.getvalue()


@pytest.mark.parametrize("raw, why", [
    (b"", "empty stdin"),
    (b" \r\n\t", "empty stdin"),
    (b"x" * 101, "stdin larger than 100 bytes; ignored"),
    (b"{'a': 1}", "stdin is not JSON"),
    (b'{"a": 1,}', "stdin is not JSON"),
    (b'{"a": "\xff"', "stdin is not JSON"),
    (b"[" * 50 + b"]" * 50, "stdin JSON is a list, not an object"),
    (b"[" * 50000 + b"]" * 50000, "stdin is not JSON"),  # RecursionError, as json.loads raises
    (b"true", "stdin JSON is a bool, not an object"),
])
def test_read_input_refuses_what_is_not_one_object(log, raw, why):
    assert hookio.read_input(io.BytesIO(raw), limit=100 if len(raw) == 101 else hookio.MAX_STDIN_BYTES) is None
    assert why in log()


def test_read_input_decodes_utf8_and_replaces_invalid_bytes(log):
    raw = '{"tool_name": "Write", "tool_input": {"file_path": "dossier/été.json", "content": "'.encode() + b"\xff\xfe" + b'"}}'
    data = hookio.read_input(io.BytesIO(raw))
    assert data["tool_input"] == {"file_path": "dossier/été.json", "content": "\ufffd\ufffd"}
    assert log() == ""


def test_read_input_reads_at_most_the_limit(log):
    stream = io.BytesIO(b"{" + b" " * 200 + b"}")
    assert hookio.read_input(stream, limit=100) is None
    assert stream.tell() == 101  # never more than limit + 1 bytes, whatever follows


def test_envelope_is_exactly_the_pretooluse_shape():
    raw = hookio.envelope("PreToolUse", "héllo\n<tag>")
    assert raw.isascii()
    assert json.loads(raw) == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "héllo\n<tag>"}}


def test_text_answer_is_written_as_the_envelope(log):
    code, out = run(lambda data: "advice for " + data["tool_name"])
    assert code == 0 and json.loads(out) == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "advice for Write"}}


def test_dict_answer_is_written_as_it_is(log):
    assert json.loads(run(lambda data: {"systemMessage": "saved 1 draft"})[1]) == {"systemMessage": "saved 1 draft"}


@pytest.mark.parametrize("answer", [None, "", {}])
def test_nothing_to_say_writes_nothing(log, answer):
    assert run(lambda data: answer) == (0, b"")


@pytest.mark.parametrize("error", [ValueError("bad"), KeyError("k"), MemoryError(), SystemExit(2), KeyboardInterrupt()],
                         ids=["ValueError", "KeyError", "MemoryError", "SystemExit(2)", "KeyboardInterrupt"])
def test_any_error_in_the_handler_is_logged_and_silent(log, error):
    def handler(data):
        raise error

    assert run(handler) == (0, b"")
    assert "PreToolUse error: %s" % type(error).__name__ in log()


def test_slow_handler_hits_the_deadline(log):
    def handler(data):
        time.sleep(5)
        return "too late"

    start = time.perf_counter()
    assert run(handler, deadline=0.1) == (0, b"")
    assert time.perf_counter() - start < 1
    assert "internal deadline of 0.10s reached; no output" in log()
    time.sleep(0.15)  # the timer was disarmed: no alarm arrives after run() returned


def test_slow_stdin_hits_the_deadline(log):
    class NeverEnds:
        def read(self, size):
            time.sleep(5)

    start = time.perf_counter()
    assert run(None, stdin=NeverEnds(), deadline=0.1) == (0, b"")
    assert time.perf_counter() - start < 1 and "internal deadline" in log()


def test_deadline_while_logging_an_error_still_returns(log):
    # The alarm can fire while the error of a handler that failed late is being logged (a slow disk, a
    # slow __str__): that too must end in a log line and exit 0, not a DeadlineExceeded traceback.
    class SlowToDescribe(Exception):
        def __str__(self):
            time.sleep(1)
            return "described"

    def handler(data):
        raise SlowToDescribe()

    assert run(handler, deadline=0.1) == (0, b"")
    assert "internal deadline of 0.10s reached" in log()


def test_main_exits_zero_even_on_system_exit_2(tmp_path):
    # Exit code 2 from a PreToolUse hook blocks the tool call: main() must never let one through.
    script = tmp_path / "hook.py"
    script.write_text(
        "import sys\nsys.path.insert(0, %r)\nfrom forewarn import hookio\n"
        "def handler(data):\n    sys.exit(2)\n"
        "hookio.main('PreToolUse', handler)\n" % os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    )
    env = dict(os.environ, FOREWARN_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-S", str(script)], input=b'{"tool_name": "Write"}', capture_output=True, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert "SystemExit" in (tmp_path / "data" / "forewarn.log").read_text()
