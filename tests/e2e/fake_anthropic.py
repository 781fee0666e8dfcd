"""A scripted stand-in for the Anthropic Messages API, on 127.0.0.1, for end-to-end tests.

:class:`FakeAnthropic` serves ``POST /v1/messages`` as Claude Code calls it:
streaming SSE (``message_start``, ``content_block_start`` / ``_delta`` /
``_stop`` with ``text_delta`` or one ``input_json_delta`` per tool call,
``message_delta``, ``message_stop``), or one JSON message when the request
does not ask for a stream.  Requests that carry ``tools`` are the agent's
turns and consume the script in order (an exhausted script answers
"Done."); requests without tools (titles and other side calls) get a short
text and leave the script alone.  Every request body is kept in
:attr:`FakeAnthropic.requests` so a test can assert what the model was shown.
Standard library only; it binds a free loopback port and never touches the
network.
"""

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def text_turn(text):
    """An assistant turn that says ``text`` and ends the turn."""
    return [{"type": "text", "text": text}]


def tool_turn(name, tool_input, text=None):
    """An assistant turn that calls one tool (optionally after some text)."""
    blocks = [{"type": "text", "text": text}] if text else []
    return blocks + [{"type": "tool_use", "name": name, "input": tool_input}]


def flatten(value):
    """Every string inside a request body (system, messages, tool results, reminders), joined."""
    out = []

    def walk(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for item in v.values():
                walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)

    walk(value)
    return "\n".join(out)


class FakeAnthropic:
    """The server; use as a context manager.  ``url`` is the base URL for ANTHROPIC_BASE_URL."""

    def __init__(self, script=()):
        self.script = [list(turn) for turn in script]
        self.requests = []  # every parsed request body, in arrival order
        self.agent_requests = []  # those that carried tools
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                self._json(200, {"data": [], "has_more": False})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw.decode("utf-8")) if raw else {}
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith("/count_tokens"):
                    self._json(200, {"input_tokens": 100})
                    return
                if not path.endswith("/v1/messages"):
                    self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
                    return
                blocks = server._answer(body)
                if body.get("stream"):
                    self._stream(body, blocks)
                else:
                    self._json(200, server._message(body, blocks))

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
                message = server._message(body, [])
                events = [("message_start", {"type": "message_start", "message": message})]
                for index, block in enumerate(blocks):
                    if block["type"] == "text":
                        events.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}))
                        events.append(("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": block["text"]}}))
                    else:
                        start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                        events.append(("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}))
                        events.append(("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
                    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
                stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
                events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 20}}))
                events.append(("message_stop", {"type": "message_stop"}))
                for name, data in events:
                    self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode("utf-8"))
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self._server.server_address[1]

    def _answer(self, body):
        with self._lock:
            self.requests.append(body)
            if not body.get("tools"):
                return text_turn("forewarn e2e")
            self.agent_requests.append(body)
            turn = self.script.pop(0) if self.script else text_turn("Done.")
        blocks = []
        for block in turn:
            block = dict(block)
            if block["type"] == "tool_use":
                block["id"] = "toolu_%04d" % next(self._ids)
            blocks.append(block)
        return blocks

    def _message(self, body, blocks):
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        return {
            "id": "msg_%04d" % next(self._ids),
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-test"),
            "content": [
                {"type": "text", "text": b["text"]} if b["type"] == "text" else {"type": "tool_use", "id": b["id"], "name": b["name"], "input": b["input"]}
                for b in blocks
            ],
            "stop_reason": stop if blocks else None,
            "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        return False
