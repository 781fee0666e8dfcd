"""A scripted stand-in for the Anthropic Messages API, on 127.0.0.1, for end-to-end tests.

:class:`FakeAnthropic` serves ``POST /v1/messages`` (with or without
``?beta=true``) as Claude Code calls it: streaming SSE (``message_start``,
``content_block_start`` / ``_delta`` / ``_stop`` with one ``text_delta`` or
one ``input_json_delta`` holding a tool call's whole input, ``message_delta``
with the stop reason and usage, ``message_stop``), or one JSON message when
the request does not ask for a stream.

The script is a list of assistant turns (:func:`text_turn`,
:func:`tool_turn`, :func:`tools_turn`).  Requests that carry ``tools`` are
the agent's turns and consume the script in order; once it is exhausted they
get a plain final text (:data:`FINAL_TEXT`).  Requests without ``tools``
(titles, summaries and other side calls) get a short text and leave the
script alone.  ``count_tokens`` gets a token count, other GETs and HEADs an
empty 200, anything else a JSON 404, so Claude Code never waits on us.

Every parsed request body is kept in :attr:`FakeAnthropic.requests` (and,
given ``log_path``, appended to a JSON-lines file) so a test can assert what
the model was shown: :func:`all_text` flattens one request, :func:`hook_contexts`
picks the hook blocks out of it, :func:`tool_result_messages` finds what came
back to the model with one tool call's result.

Standard library only; binds a free loopback port and never touches the network.

What Claude Code 2.1.328 sends, as observed: hook ``additionalContext`` is
not in the top-level ``system`` but in ``role: "system"`` entries of
``messages``: the SessionStart one (a string, ``"SessionStart hook
additional context: ..."``, followed by Claude Code's own environment
section) right after the first user message, and a PreToolUse/PostToolUse
one (a list of text blocks, ``"PreToolUse:Write hook additional context:
..."``) right after the ``tool_result`` it belongs to.
"""

import gzip
import itertools
import json
import re
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL_TEXT = "Done."
SIDE_CALL_TEXT = "forewarn e2e"


def text_turn(text):
    """An assistant turn that says ``text`` and ends the turn (stop_reason ``end_turn``)."""
    return [{"type": "text", "text": text}]


def tool_turn(name, tool_input, text=None):
    """An assistant turn that calls one tool (optionally after some text); stop_reason ``tool_use``."""
    return tools_turn([(name, tool_input)], text=text)


def tools_turn(calls, text=None):
    """An assistant turn with several tool calls at once: ``calls`` is a list of ``(name, input)``."""
    blocks = [{"type": "text", "text": text}] if text else []
    return blocks + [{"type": "tool_use", "name": name, "input": tool_input} for name, tool_input in calls]


def _strings(value, out):
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("cache_control", "id", "tool_use_id", "signature"):
                _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def message_text(message):
    """Every string in one message: text blocks, tool_use inputs, tool_result content (nested too)."""
    out = []
    _strings(message.get("content"), out)
    return "\n".join(out)


def all_text(request):
    """The model's whole view in one request as a string: system prompt, then every message.

    Includes system-reminder text blocks, ``role: "system"`` hook blocks,
    tool inputs and tool_result content; leaves out the tool schemas and
    request metadata.
    """
    out = []
    _strings(request.get("system"), out)
    for message in request.get("messages", []):
        _strings(message.get("content"), out)
    return "\n".join(out)


def flatten(value):
    """Every string anywhere inside ``value`` (a request, a message, a list of messages), joined."""
    out = []
    _strings(value, out)
    return "\n".join(out)


def _texts_of(message):
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [block.get("text", "") for block in content or [] if isinstance(block, dict) and block.get("type") == "text"]


CLAUDE_CODE_ENVIRONMENT = "\n\n# Environment\n"
HOOK_HEADER = re.compile(r"(?m)^(\w+(?::[^\s:]+)?) hook additional context: ?")


def hook_contexts(messages, event):
    """The hook context blocks for ``event`` in ``messages`` (a request body or a list of messages).

    ``event`` is the label Claude Code puts in front: ``"SessionStart"``,
    ``"PreToolUse:Write"``, ``"PostToolUse:Edit"``; ``"PreToolUse"`` alone
    matches every tool.  Returns, in order, the text under each
    ``"<label> hook additional context: "`` header up to the next such
    header (several hooks of one event share a header, their texts joined by
    newlines).  The SessionStart block is cut where Claude Code's own
    environment section starts (it shares that system message).
    """
    if isinstance(messages, dict):
        messages = messages.get("messages", [])
    found = []
    for message in messages:
        for text in _texts_of(message):
            headers = list(HOOK_HEADER.finditer(text))
            for here, following in zip(headers, headers[1:] + [None]):
                label = here.group(1)
                if label == event or (":" not in event and label.startswith(event + ":")):
                    block = text[here.end():following.start() if following else len(text)]
                    found.append(block.split(CLAUDE_CODE_ENVIRONMENT, 1)[0].rstrip("\n"))
    return found


def tool_result_messages(requests, tool_use_id):
    """What came back to the model with one tool call: the messages from its ``tool_result`` on.

    Looks in the first request that holds a ``tool_result`` for
    ``tool_use_id`` and returns that message and the ones after it up to the
    next assistant message (the hook blocks Claude Code attaches to the
    result), or None if no request holds it.
    """
    for request in requests:
        messages = request.get("messages", [])
        for index, message in enumerate(messages):
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            if any(isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id for b in content):
                tail = []
                for later in messages[index:]:
                    if later.get("role") == "assistant":
                        break
                    tail.append(later)
                return tail
    return None


def _read_body(handler):
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        chunks = []
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                break
            chunks.append(handler.rfile.read(size))
            handler.rfile.readline()
        raw = b"".join(chunks)
    else:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
    encoding = handler.headers.get("Content-Encoding", "").lower()
    if encoding == "gzip":
        raw = gzip.decompress(raw)
    elif encoding == "deflate":
        raw = zlib.decompress(raw)
    return raw


class FakeAnthropic:
    """The server; use as a context manager.  ``url`` is the value for ANTHROPIC_BASE_URL.

    After (or during) a session: :attr:`requests` holds every ``/v1/messages``
    body in arrival order, :attr:`agent_requests` those that carried
    ``tools``, :attr:`tool_calls` each scripted tool call served (``id``,
    ``name``, ``input``) in order, and :attr:`calls` every HTTP request as
    ``(method, path)``.
    """

    def __init__(self, script=(), log_path=None):
        self.script = [list(turn) for turn in script]
        self.requests = []
        self.agent_requests = []
        self.tool_calls = []
        self.calls = []
        self.log_path = log_path
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                server._note("HEAD", self.path)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                server._note("GET", self.path)
                self._json(200, {"data": [], "has_more": False})

            def do_POST(self):
                server._note("POST", self.path)
                raw = _read_body(self)
                try:
                    body = json.loads(raw.decode("utf-8")) if raw else {}
                except ValueError:
                    body = {}
                path = self.path.split("?")[0].rstrip("/")
                if path.endswith("/messages/count_tokens"):
                    self._json(200, {"input_tokens": max(1, len(json.dumps(body)) // 4)})
                elif path.endswith("/v1/messages"):
                    blocks = server._answer(body)
                    if body.get("stream"):
                        self._stream(body, blocks)
                    else:
                        self._json(200, server._message(body, blocks))
                else:
                    self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "no %s here" % path}})

            def _json(self, status, value):
                data = json.dumps(value).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, body, blocks):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for name, data in server._events(body, blocks):
                    self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode("utf-8"))
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self._server.server_address[1]

    def _note(self, method, path):
        with self._lock:
            self.calls.append((method, path))

    def _answer(self, body):
        with self._lock:
            self.requests.append(body)
            if self.log_path:
                with open(self.log_path, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(body) + "\n")
            if not body.get("tools"):
                return text_turn(SIDE_CALL_TEXT)
            self.agent_requests.append(body)
            turn = self.script.pop(0) if self.script else text_turn(FINAL_TEXT)
            blocks = []
            for block in turn:
                block = dict(block)
                if block["type"] == "tool_use":
                    block["id"] = "toolu_e2e_%04d" % next(self._ids)
                    self.tool_calls.append({"id": block["id"], "name": block["name"], "input": block["input"]})
                blocks.append(block)
            return blocks

    @staticmethod
    def _stop_reason(blocks):
        return "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"

    def _usage(self, output_tokens=20):
        return {"input_tokens": 100, "output_tokens": output_tokens, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}

    def _message(self, body, blocks):
        return {
            "id": "msg_e2e_%04d" % next(self._ids),
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-test"),
            "content": [
                {"type": "text", "text": b["text"]} if b["type"] == "text"
                else {"type": "tool_use", "id": b["id"], "name": b["name"], "input": b["input"]}
                for b in blocks
            ],
            "stop_reason": self._stop_reason(blocks),
            "stop_sequence": None,
            "usage": self._usage(),
        }

    def _events(self, body, blocks):
        start = dict(self._message(body, []), stop_reason=None, usage=self._usage(output_tokens=1))
        yield "message_start", {"type": "message_start", "message": start}
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                opening = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": block["text"]}
            else:
                opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
            yield "content_block_stop", {"type": "content_block_stop", "index": index}
        yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": self._stop_reason(blocks), "stop_sequence": None},
                                "usage": {"output_tokens": 20}}
        yield "message_stop", {"type": "message_stop"}

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        return False
