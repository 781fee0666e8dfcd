"""forewarn.render: how an item reads, and the fence that holds the chosen items within a budget."""

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import isolated_project

from forewarn import inject, render

MARKER = "\n[... cut to fit the budget]"


def test_checklist_reads_as_a_priority_marked_list():
    node = {"id": "ck", "label": "Bump  the\nversion", "process_type": "checklist", "priority": "CRITICAL",
            "checklist": {"title": "Release steps", "items": ["Update marketplace.json", {"item": "Tag", "file": "CHANGELOG.md"},
                                                             {"item": "Announce", "required": False}]}}
    assert render.render_item(node) == (
        "[CRITICAL] Bump the version (checklist ck)\nRelease steps\n- [ ] Update marketplace.json\n"
        "- [ ] Tag (CHANGELOG.md)\n- [ ] Announce (optional)"
    )


def test_title_equal_to_the_label_is_not_repeated():
    node = {"id": "ck", "label": "Steps", "process_type": "checklist", "checklist": {"title": "Steps", "items": ["a"]}}
    assert render.render_item(node) == "[MEDIUM] Steps (checklist ck)\n- [ ] a"


@pytest.mark.parametrize("ptype, block, lines", [
    ("pattern", {"situation": "s", "action": "a", "rationale": "r", "example": "e"}, ["When: s", "Do: a", "Why: r", "Example: e"]),
    ("warning", {"risk": "r", "mitigation": "m  \n more"}, ["Risk: r", "Mitigate: m more"]),
    ("requirement", {"constraint": "c", "validation": "v"}, ["Must: c", "Check: v"]),
])
def test_other_types_read_one_fact_per_line(ptype, block, lines):
    node = {"id": "x", "label": "L", "process_type": ptype, "priority": "LOW", ptype: block}
    assert render.render_item(node).split("\n") == ["[LOW] L (%s x)" % ptype] + lines


# --- fence ----------------------------------------------------------------------------------------------------------

HEAD = "forewarn: heading."


def test_items_that_fit_are_joined_whole_inside_the_fence():
    text = render.fence(HEAD, ["[HIGH] a (pattern a)\nDo: x", "[LOW] b (pattern b)"], 1500)
    assert text == HEAD + "\n<forewarn-knowledge>\n[HIGH] a (pattern a)\nDo: x\n\n[LOW] b (pattern b)\n</forewarn-knowledge>"


def test_exact_budget_fits_and_one_less_cuts():
    items = ["[HIGH] a (pattern a)\nDo: x", "[LOW] b (pattern b)\nDo: y"]
    whole = render.fence(HEAD, items, 10000)
    assert render.fence(HEAD, items, len(whole)) == whole
    cut = render.fence(HEAD, items, len(whole) - 1)
    assert len(cut) < len(whole) and "(pattern b)" not in cut  # b's first line no longer fits beside the marker


def test_the_item_that_does_not_fit_is_cut_after_a_whole_line():
    long_item = "[HIGH] big (checklist big)\n" + "\n".join("- [ ] step %02d" % i for i in range(50))
    text = render.fence(HEAD, ["[LOW] small (pattern small)", long_item, "[LOW] after (pattern after)"], 300)
    assert len(text) <= 300 and text.endswith(MARKER + "\n</forewarn-knowledge>")
    kept = text.split("\n\n", 1)[1].split(MARKER)[0]
    assert long_item.startswith(kept + "\n")  # whole lines only
    assert "after" not in text


def test_a_first_line_that_does_not_fit_is_not_cut_in_the_middle():
    label_line = "[CRITICAL] " + "L" * 80 + " (checklist x)"
    for budget in range(100, 260, 5):
        text = render.fence("H" * 50, [label_line + "\n- [ ] a\n- [ ] b"], budget)
        assert text == "" or label_line in text, (budget, text)


def test_heading_larger_than_the_budget_gives_nothing():
    assert render.fence("h" * 2000, ["[LOW] a (pattern a)"], 1500) == ""
    assert render.fence(HEAD, [], 1500) == ""


line_chars = st.characters(blacklist_characters="\n", blacklist_categories=("Cs",))
item_lines = st.integers(min_value=1, max_value=150).flatmap(lambda n: st.text(alphabet=line_chars, min_size=n, max_size=n))
items = st.lists(st.lists(item_lines, min_size=1, max_size=6).map("\n".join), min_size=1, max_size=4)


@settings(max_examples=600, deadline=None)
@given(st.text(max_size=200), items, st.data())
def test_fence_properties(heading, texts, data):
    frame = len(heading) + len("\n<forewarn-knowledge>\n") + len("\n</forewarn-knowledge>")
    budget = frame + data.draw(st.integers(min_value=-20, max_value=sum(len(t) + 2 for t in texts)))  # around every cut
    text = render.fence(heading, texts, budget)
    assert len(text) <= budget
    if not text:
        return
    assert text.startswith(heading + "\n<forewarn-knowledge>\n") and text.endswith("\n</forewarn-knowledge>")
    body = text[len(heading) + len("\n<forewarn-knowledge>\n"): -len("\n</forewarn-knowledge>")]
    shown = body.split("\n\n") if MARKER not in body else body.split(MARKER)[0].split("\n\n")
    for i, part in enumerate(shown):  # every item shown is the i-th item, whole or cut after a whole line
        assert part == texts[i] or (i == len(shown) - 1 and MARKER in body and texts[i].startswith(part + "\n"))
        assert part.split("\n")[0] == texts[i].split("\n")[0]  # the first line is never cut


# --- what the model sees is what the trace and the session record say ------------------------------------------------


@pytest.mark.parametrize("budget", range(200, 800, 25))
def test_injected_text_trace_and_session_agree_at_any_budget(tmp_path, monkeypatch, budget):
    root = isolated_project(tmp_path, monkeypatch)
    nodes = [{"id": "item-%d-%s" % (i, "x" * 30), "type": "Concept", "label": "Lesson %d with a label long enough to be cut " % i * 3,
              "process_type": "checklist", "priority": "HIGH",
              "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/plugin.json"]},
              "checklist": {"items": ["step %d of a longer list" % j for j in range(6)]}} for i in range(3)]
    (root / ".claude" / "graphs" / "g.json").write_text(json.dumps({"nodes": nodes}))
    monkeypatch.setenv("FOREWARN_MAX_CHARS", str(budget))
    call = {"session_id": "s", "cwd": str(root), "tool_name": "Write",
            "tool_input": {"file_path": str(root / ".claude-plugin" / "plugin.json"), "content": "{}"}}
    text = inject.handle(call) or ""
    assert len(text) <= budget
    with open(os.path.join(os.environ["FOREWARN_DATA_DIR"], "trace.jsonl")) as handle:
        traced = json.loads(handle.read().splitlines()[-1])["injected"]
    seen = [n["id"] for n in nodes if "(checklist %s)" % n["id"] in text]
    assert traced == seen  # every item the model reads is recorded, and only those
    assert text.count("[HIGH] ") == len(seen)  # and it reads no part of an unrecorded one
    again = inject.handle(call) or ""  # ... so the next identical call repeats none of them
    assert not [i for i in seen if "(checklist %s)" % i in again]
