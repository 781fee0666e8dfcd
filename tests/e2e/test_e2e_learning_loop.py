"""Scenario 5: the learning loop across three sessions in one HOME and project (Sandbox.run_sessions).

A ``[PROCESS_KNOWLEDGE]`` block at the end of a turn → a draft (Stop hook)
→ ``/forewarn:knowledge-review-drafts`` lists it → ``/forewarn:knowledge-promote``
makes it active → the next matching tool call gets it injected.
"""

import json
import os

from fake_anthropic import all_text, text_turn, tool_turn

LESSON_BLOCK = """I have updated the lockfile. Noting the lesson:

[PROCESS_KNOWLEDGE]
type: checklist
priority: HIGH
label: Regenerate the lockfile after editing requirements
trigger_conditions:
  tool_names: [Write, Edit]
  file_patterns: ["**/requirements.txt"]
checklist:
  items:
    - Run pip-compile to regenerate requirements.lock
    - Commit requirements.lock with requirements.txt
[/PROCESS_KNOWLEDGE]"""


def _lessons(sandbox):
    with open(sandbox.path(".claude", "graphs", "lessons_graph.json")) as handle:
        return json.load(handle)["nodes"]


def test_learning_loop_across_three_sessions(sandbox):
    # Session 1: the assistant ends its turn with a [PROCESS_KNOWLEDGE] block; the Stop hook drafts it.
    (first,) = sandbox.run_sessions([
        ("add requests to requirements", [
            tool_turn("Write", {"file_path": sandbox.path("requirements.txt"), "content": "requests\n"}),
            text_turn(LESSON_BLOCK),
        ]),
    ])
    assert first.completed, first.describe()
    drafts = [n for n in _lessons(sandbox) if n.get("status") == "draft"]
    assert [n["label"] for n in drafts] == ["Regenerate the lockfile after editing requirements"]
    draft_id = drafts[0]["id"]

    # Session 2: the review command shows it to the model; promote makes it active.
    review, promote = sandbox.run_sessions([
        ("/forewarn:knowledge-review-drafts", [text_turn("One draft is worth keeping.")]),
        ("/forewarn:knowledge-promote %s" % draft_id, [text_turn("Promoted.")]),
    ])
    assert review.completed, review.describe()
    assert draft_id in all_text(review.first_request)
    assert promote.completed, promote.describe()
    assert "is active" in all_text(promote.first_request)
    assert [n["status"] for n in _lessons(sandbox) if n["id"] == draft_id] == ["active"]

    # Session 3: a matching tool call gets the lesson injected.
    (third,) = sandbox.run_sessions([
        ("pin requests", [
            tool_turn("Read", {"file_path": sandbox.path("requirements.txt")}),
            tool_turn("Edit", {"file_path": sandbox.path("requirements.txt"), "old_string": "requests", "new_string": "requests==2.32.3"}),
            text_turn("Pinned."),
        ]),
    ])
    assert third.completed, third.describe()
    injected = third.hook_contexts("PreToolUse:Edit", after_tool=1)
    assert len(injected) == 1 and "Run pip-compile to regenerate requirements.lock" in injected[0], third.after_tool_text(1)


def test_pushback_after_an_edit_is_drafted_with_the_edited_file(sandbox):
    """A correction without a correction phrase, typed in the next turn of the same session (``--continue``):
    the Stop hook reads the real transcript, finds the edit of the turn before and drafts the correction with its
    file and tool as triggers."""
    badge = sandbox.path("web", "src", "CartBadge.vue")
    os.makedirs(os.path.dirname(badge))
    first, second = sandbox.run_sessions([
        ("make the cart badge show the item count", [
            tool_turn("Write", {"file_path": badge, "content": "<script>\nexport default { data() { return { n: 0 } } }\n</script>\n"}),
            text_turn("The badge now shows the count."),
        ]),
        ("ok it works. but we use <script setup> + composition api everywhere in web/, not the options api. redo it that way",
         [text_turn("Redoing it with <script setup>.")], {"args": ("--continue",)}),
    ])
    assert first.completed, first.describe()
    assert second.completed, second.describe()
    corrections = [n for n in _lessons(sandbox) if n["source"]["kind"] == "user_correction"]
    assert len(corrections) == 1, _lessons(sandbox)
    (node,) = corrections
    assert node["status"] == "draft" and "script setup" in node["description"].lower()
    assert node["trigger_conditions"]["file_patterns"] == ["**/CartBadge.vue"] and "Write" in node["trigger_conditions"]["tool_names"]
