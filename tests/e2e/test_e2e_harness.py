"""The harness itself: the scripted API on its own, then Claude Code with a probe plugin (not forewarn).

The probe plugin's hooks echo their environment as additionalContext, so
these tests show that the harness delivers hooks' output to the request
bodies independently of forewarn's own hooks, and pin what Claude Code sets
CLAUDE_PLUGIN_DATA to (claude_code.py's docstring).
"""

import json
import os
import urllib.error
import urllib.request

import pytest

from claude_code import INLINE_DATA
from fake_anthropic import FINAL_TEXT, SIDE_CALL_TEXT, FakeAnthropic, all_text, hook_contexts, text_turn, tool_turn, tools_turn

# ---------------------------------------------------------------- the scripted API, no Claude Code


def _post(url, body, path="/v1/messages?beta=true"):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers.get("Content-Type"), response.read().decode()


def _sse(text):
    events = []
    for chunk in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_fake_api_streams_the_script_in_order_and_side_calls_do_not_consume_it():
    script = [tool_turn("Write", {"file_path": "/p/a.txt", "content": "x"}), text_turn("All done.")]
    with FakeAnthropic(script) as api:
        _, kind, first = _post(api.url, {"stream": True, "tools": [{"name": "Write"}], "messages": []})
        _, _, side = _post(api.url, {"stream": True, "messages": [{"role": "user", "content": "title?"}]}, path="/v1/messages")
        _, _, second = _post(api.url, {"stream": True, "tools": [{"name": "Write"}], "messages": []})
        _, _, exhausted = _post(api.url, {"stream": False, "tools": [{"name": "Write"}], "messages": []})
    assert kind == "text/event-stream"
    events = _sse(first)
    assert [name for name, _ in events] == ["message_start", "content_block_start", "content_block_delta",
                                           "content_block_stop", "message_delta", "message_stop"]
    assert events[1][1]["content_block"]["type"] == "tool_use"
    assert json.loads(events[2][1]["delta"]["partial_json"]) == {"file_path": "/p/a.txt", "content": "x"}
    assert events[4][1]["delta"]["stop_reason"] == "tool_use" and "usage" in events[4][1]
    assert _sse(side)[2][1]["delta"] == {"type": "text_delta", "text": SIDE_CALL_TEXT}
    assert _sse(second)[2][1]["delta"]["text"] == "All done."
    assert _sse(second)[4][1]["delta"]["stop_reason"] == "end_turn"
    assert json.loads(exhausted)["content"] == [{"type": "text", "text": FINAL_TEXT}]
    assert len(api.requests) == 4 and len(api.agent_requests) == 3
    assert [call["name"] for call in api.tool_calls] == ["Write"]


def test_fake_api_answers_the_other_endpoints_without_hanging():
    with FakeAnthropic() as api:
        status, _, body = _post(api.url, {"messages": [{"role": "user", "content": "hi"}]}, path="/v1/messages/count_tokens?beta=true")
        assert status == 200 and json.loads(body)["input_tokens"] > 0
        with urllib.request.urlopen(api.url + "/v1/models", timeout=10) as response:
            assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as missing:
            _post(api.url, {}, path="/v1/unknown")
        assert missing.value.code == 404
    assert ("GET", "/v1/models") in api.calls


def test_several_tool_calls_in_one_turn():
    with FakeAnthropic([tools_turn([("Read", {"file_path": "/a"}), ("Read", {"file_path": "/b"})])]) as api:
        _, _, first = _post(api.url, {"stream": True, "tools": [{"name": "Read"}], "messages": []})
    starts = [data["content_block"] for name, data in _sse(first) if name == "content_block_start"]
    assert [block["name"] for block in starts] == ["Read", "Read"]
    assert len({block["id"] for block in starts}) == 2


def test_all_text_and_hook_contexts_read_what_claude_code_sends():
    request = {
        "system": [{"type": "text", "text": "You are Claude Code."}],
        "tools": [{"name": "Write", "description": "TOOL-SCHEMA-TEXT"}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "<system-reminder>\ngit status\n</system-reminder>"},
                                         {"type": "text", "text": "bump it"}]},
            {"role": "system", "content": "SessionStart hook additional context: BRIEFING\n\n# Environment\nplatform linux"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Write", "input": {"file_path": "/p/x"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "RESULT"}]}]},
            {"role": "system", "content": [{"type": "text", "text": "PreToolUse:Write hook additional context: ONE\nTWO\n\n"
                                                                    "PostToolUse:Write hook additional context: POST"}]},
        ],
    }
    text = all_text(request)
    for piece in ("You are Claude Code.", "git status", "bump it", "BRIEFING", "/p/x", "RESULT", "ONE", "POST"):
        assert piece in text
    assert "TOOL-SCHEMA-TEXT" not in text
    assert hook_contexts(request, "SessionStart") == ["BRIEFING"]
    assert hook_contexts(request, "PreToolUse:Write") == ["ONE\nTWO"]
    assert hook_contexts(request, "PreToolUse") == ["ONE\nTWO"]
    assert hook_contexts(request, "PostToolUse:Write") == ["POST"]
    assert hook_contexts(request, "PreToolUse:Edit") == []


# ---------------------------------------------------------------- Claude Code with a probe plugin

PROBE_HOOK = r'''
import json, os, sys
data = json.loads(sys.stdin.buffer.read().decode("utf-8"))
event = data["hook_event_name"]
folder = os.environ.get("CLAUDE_PLUGIN_DATA", "")
try:
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "probe.log"), "a") as handle:
        handle.write(event + "\n")
    wrote = True
except OSError:
    wrote = False
seen = {"data": folder, "root": os.environ.get("CLAUDE_PLUGIN_ROOT"), "wrote": wrote,
        "leaked": sorted(k for k in os.environ if k.startswith("E2E_OUTER_"))}
print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": "PROBE " + json.dumps(seen)}}))
'''


def make_probe_plugin(folder, name="probe", marketplace="probemkt"):
    """A plugin whose SessionStart and PreToolUse(Write) hooks echo their environment as additionalContext."""
    os.makedirs(os.path.join(folder, ".claude-plugin"))
    os.makedirs(os.path.join(folder, "hooks"))
    manifest = {"name": name, "version": "0.0.1", "description": "e2e harness probe", "author": {"name": "e2e"}}
    market = {"name": marketplace, "owner": {"name": "e2e"},
              "plugins": [{"name": name, "source": "./", "description": "probe", "version": "0.0.1"}]}
    command = {"type": "command", "command": 'python3 -S "${CLAUDE_PLUGIN_ROOT}/hooks/probe.py"'}
    hooks = {"hooks": {"SessionStart": [{"hooks": [command]}], "PreToolUse": [{"matcher": "Write", "hooks": [command]}]}}
    for rel, value in ((".claude-plugin/plugin.json", manifest), (".claude-plugin/marketplace.json", market), ("hooks/hooks.json", hooks)):
        with open(os.path.join(folder, rel), "w") as handle:
            json.dump(value, handle)
    with open(os.path.join(folder, "hooks", "probe.py"), "w") as handle:
        handle.write(PROBE_HOOK)
    return folder


def _probe(contexts):
    assert len(contexts) == 1, contexts
    assert contexts[0].startswith("PROBE "), contexts
    return json.loads(contexts[0][len("PROBE "):])


def test_probe_plugin_hooks_reach_the_model_and_plugin_data_is_named_inline(sandbox, tmp_path, monkeypatch):
    monkeypatch.setenv("E2E_OUTER_CLAUDE_CONFIG_DIR", "x")  # an unrelated outer variable passes through ...
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "outer-config"))  # ... a CLAUDE* one does not
    plugin = make_probe_plugin(str(tmp_path / "probe-plugin"))
    result = sandbox.run("write a file", [tool_turn("Write", {"file_path": sandbox.path("a.txt"), "content": "x\n"})],
                         plugin_dir=plugin)
    assert result.completed, result.describe()
    started = _probe(result.hook_contexts("SessionStart"))
    assert started["data"] == sandbox.data_dir("probe-inline") and started["wrote"]
    assert started["root"] == plugin
    assert started["leaked"] == ["E2E_OUTER_CLAUDE_CONFIG_DIR"]
    assert not os.path.exists(tmp_path / "outer-config")
    assert _probe(result.hook_contexts("PreToolUse:Write", after_tool=0))["data"] == sandbox.data_dir("probe-inline")
    assert open(os.path.join(sandbox.data_dir("probe-inline"), "probe.log")).read().split() == ["SessionStart", "PreToolUse"]
    assert open(sandbox.path("a.txt")).read() == "x\n"
    assert result.json["result"] == FINAL_TEXT


def test_probe_plugin_installed_from_its_marketplace_gets_plugin_marketplace_data(sandbox, tmp_path):
    plugin = make_probe_plugin(str(tmp_path / "probe-plugin"))
    add, install = sandbox.install_plugin(plugin, "probe@probemkt")
    assert add.returncode == 0 and install.returncode == 0, add.stdout + add.stderr + (install.stdout + install.stderr if install else "")
    result = sandbox.run("hello", [text_turn("Hi.")], plugin_dir=None)
    assert result.completed, result.describe()
    seen = _probe(result.hook_contexts("SessionStart"))
    assert seen["data"] == sandbox.data_dir("probe-probemkt")
    # Installed from a local folder, the hooks run from that folder, not from the copy in ~/.claude/plugins/cache.
    assert seen["root"] == os.path.join(sandbox.root, "marketplace")
    assert os.path.isdir(os.path.join(sandbox.home, ".claude", "plugins", "cache", "probemkt", "probe", "0.0.1"))
    # --plugin-dir wins over the installed copy: one SessionStart, with the inline data folder.
    both = sandbox.run("hello", [text_turn("Hi.")], plugin_dir=plugin)
    assert _probe(both.hook_contexts("SessionStart"))["data"] == sandbox.data_dir("probe-inline")


def test_without_a_plugin_nothing_is_injected(sandbox):
    result = sandbox.run("write a file", [tool_turn("Write", {"file_path": sandbox.path("a.txt"), "content": "x\n"})], plugin_dir=None)
    assert result.completed, result.describe()
    assert result.hook_contexts("SessionStart") == []
    assert result.hook_contexts("PreToolUse", after_tool=0) == []
    assert not os.path.exists(sandbox.data_dir(INLINE_DATA))


def test_a_regular_file_in_place_of_the_data_folder_makes_every_write_fail(sandbox, tmp_path):
    """Tests run as root, so chmod cannot make a folder unwritable; a regular file at its path can (ENOTDIR/EEXIST)."""
    plugin = make_probe_plugin(str(tmp_path / "probe-plugin"))
    blocker = sandbox.data_dir("probe-inline")
    os.makedirs(os.path.dirname(blocker))
    with open(blocker, "w") as handle:
        handle.write("not a folder\n")
    result = sandbox.run("hello", [text_turn("Hi.")], plugin_dir=plugin)
    assert result.completed, result.describe()
    seen = _probe(result.hook_contexts("SessionStart"))
    assert seen["data"] == blocker and seen["wrote"] is False
    assert open(blocker).read() == "not a folder\n"
