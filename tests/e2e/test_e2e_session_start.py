"""Scenario 2: the SessionStart briefing puts the project's CRITICAL active items in the model's first request."""

from claude_code import write_graph
from e2e_nodes import VERSION_BUMP, node
from fake_anthropic import all_text, text_turn


def test_session_start_shows_critical_items_in_first_request(sandbox):
    write_graph(sandbox.project, [VERSION_BUMP])
    result = sandbox.run("hello", [text_turn("Hi.")])
    assert result.completed, result.describe()
    briefing = result.hook_contexts("SessionStart")
    assert len(briefing) == 1, all_text(result.first_request)[-3000:]
    assert VERSION_BUMP["label"] in briefing[0]
    assert len(result.agent_requests) == 1  # the briefing is there before the model says anything


def test_no_briefing_without_the_plugin_or_for_an_archived_item(sandbox):
    write_graph(sandbox.project, [node(status="archived")])
    archived = sandbox.run("hello", [text_turn("Hi.")])
    assert archived.completed, archived.describe()
    assert all(VERSION_BUMP["label"] not in block for block in archived.hook_contexts("SessionStart"))

    write_graph(sandbox.project, [VERSION_BUMP])
    bare = sandbox.run("hello", [text_turn("Hi.")], plugin_dir=None)
    assert bare.completed, bare.describe()
    assert bare.hook_contexts("SessionStart") == []
    assert VERSION_BUMP["label"] not in all_text(bare.first_request)
