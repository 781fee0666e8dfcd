"""forewarn.knowledge: what a process node is, and every reason one cannot be used.

The property that keeps a bad node from taking good ones down with it:
:func:`knowledge.problems` never raises, whatever JSON a field holds, and a
node it passes can be compiled and rendered.
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn import index_build, knowledge, render


def valid(ptype="checklist", **changes):
    node = {
        "id": "n1", "type": "Concept", "label": "A label", "process_type": ptype, "priority": "HIGH", "status": "active",
        "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["**/a.json"], "action_keywords": ["go"],
                               "context_keywords": ["soon"], "triad_names": []},
        "checklist": {"title": "t", "items": ["x"], "format": "markdown"},
        "pattern": {"situation": "s", "action": "a"},
        "warning": {"risk": "r", "severity": "high"},
        "requirement": {"constraint": "c"},
        "confidence": 0.5, "evidence": ["seen twice"], "description": "d", "created_by": "me", "created_at": "2024-01-01",
    }
    node.update(changes)
    return node


@pytest.mark.parametrize("ptype", knowledge.PROCESS_TYPES)
def test_a_complete_node_of_each_type_has_no_problem(ptype):
    assert knowledge.problems(valid(ptype)) == []


def test_the_smallest_valid_node():
    assert knowledge.problems({"id": "a", "label": "L", "process_type": "warning", "warning": {"risk": "r"}}) == []


PROBLEMS = [
    ({"id": ""}, "id: must be a non-empty string"),
    ({"id": 3}, "id: must be a non-empty string"),
    ({"label": "  "}, "label: must be a non-empty string"),
    ({"description": 5}, "description: must be a string"),
    ({"created_at": ["2024"]}, "created_at: must be a string"),
    ({"process_type": "recipe"}, "process_type: must be one of checklist|pattern|warning|requirement, not 'recipe'"),
    ({"process_type": ["checklist"]}, "process_type: must be one of checklist|pattern|warning|requirement, not ['checklist']"),
    ({"process_type": {"k": 1}}, "process_type: must be one of"),
    ({"priority": "URGENT"}, "priority: must be one of CRITICAL|HIGH|MEDIUM|LOW, not 'URGENT'"),
    ({"priority": ["HIGH"]}, "priority: must be one of CRITICAL|HIGH|MEDIUM|LOW, not ['HIGH']"),
    ({"priority": {}}, "priority: must be one of"),
    ({"priority": None}, "priority: must be one of"),
    ({"status": "live"}, "status: must be one of draft|active|archived, not 'live'"),
    ({"status": ["active"]}, "status: must be one of"),
    ({"trigger_conditions": ["Write"]}, "trigger_conditions: must be an object"),
    ({"trigger_conditions": {"tool_names": "Write"}}, "trigger_conditions.tool_names: must be a list of strings"),
    ({"trigger_conditions": {"action_keywords": ["ok", 3]}}, "trigger_conditions.action_keywords: must be a list of strings"),
    ({"trigger_conditions": {"file_patterns": [""]}}, "trigger_conditions.file_patterns: '' is not a usable glob (empty pattern)"),
    ({"trigger_conditions": {"file_patterns": ["a\\"]}}, "trigger_conditions.file_patterns: 'a\\\\' is not a usable glob (trailing backslash)"),
    ({"confidence": 1.5}, "confidence: must be a number from 0 to 1"),
    ({"confidence": True}, "confidence: must be a number from 0 to 1"),
    ({"confidence": float("nan")}, "confidence: must be a number from 0 to 1"),
    ({"confidence": "high"}, "confidence: must be a number from 0 to 1"),
    ({"evidence": 3}, "evidence: must be a list or a string"),
    ({"checklist": None}, "checklist: a checklist node needs a checklist object"),
    ({"checklist": {"items": []}}, "checklist.items: must be a non-empty list"),
    ({"checklist": {"items": "x"}}, "checklist.items: must be a non-empty list"),
    ({"checklist": {"items": ["ok", ""]}}, "checklist.items: each item is a non-empty string or an object with 'item'"),
    ({"checklist": {"items": [{"required": True}]}}, "checklist.items: each item is"),
    ({"checklist": {"items": ["x"], "title": 3}}, "checklist.title: must be a string"),
]


@pytest.mark.parametrize("change, message", PROBLEMS, ids=[str(c) for c, _m in PROBLEMS])
def test_each_problem_is_named_by_field(change, message):
    found = knowledge.problems(valid(**change))
    assert len(found) >= 1 and any(p.startswith(message) for p in found), found


@pytest.mark.parametrize("ptype, block, message", [
    ("pattern", {}, "pattern: needs at least one of situation, action, rationale, example"),
    ("warning", {"risk": ""}, "warning: needs at least one of risk, severity, detection, mitigation"),
    ("requirement", {"constraint": 3}, "requirement.constraint: must be a string"),
    ("warning", "risky", "warning: a warning node needs a warning object"),
])
def test_content_blocks_of_the_other_types(ptype, block, message):
    assert message in knowledge.problems(valid(ptype, **{ptype: block}))


def test_several_problems_are_all_listed():
    found = knowledge.problems({"id": "", "process_type": "x", "priority": "Y"})
    assert [p.split(":")[0] for p in found] == ["id", "label", "process_type", "priority"]


def test_unknown_fields_are_allowed():
    assert knowledge.problems(valid(x_original={"anything": [1]}, triad_names=["t"])) == []


def test_lookups_of_old_and_odd_nodes():
    assert knowledge.is_process_node({"type": "Concept", "process_type": None})
    assert not knowledge.is_process_node({"type": "Entity", "process_type": "checklist"})
    assert not knowledge.is_process_node(["type", "Concept"])
    assert knowledge.status_of({}) == "active" and knowledge.status_of({"status": "draft"}) == "draft"
    assert knowledge.triggers_of({"trigger_conditions": {"tool_names": ("Write",), "file_patterns": None}}) == {
        "tool_names": ["Write"], "file_patterns": [], "action_keywords": [], "context_keywords": [], "triad_names": []}
    assert knowledge.triggers_of({}) == {key: [] for key in knowledge.TRIGGER_LISTS}
    assert [knowledge.checklist_item_text(i) for i in ("a", {"item": "b"}, {"text": "c"}, {"item": 3}, 4, None)] == ["a", "b", "c", "", "", ""]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
FIELD_PATHS = [("id",), ("label",), ("process_type",), ("priority",), ("status",), ("description",), ("confidence",),
               ("evidence",), ("trigger_conditions",), ("checklist",), ("warning",)] + \
              [("trigger_conditions", key) for key in knowledge.TRIGGER_LISTS] + \
              [("checklist", key) for key in ("items", "title", "format")] + [("warning", "risk")]


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["checklist", "warning"]),
       st.lists(st.tuples(st.sampled_from(FIELD_PATHS), json_values | st.lists(st.text(max_size=10), max_size=3)), max_size=3))
def test_problems_never_raise_and_what_passes_compiles(ptype, edits):
    node = copy.deepcopy(valid(ptype))
    for path, value in edits:
        target = node
        for key in path[:-1]:
            target = target.get(key) if isinstance(target, dict) else None
        if isinstance(target, dict):
            target[path[-1]] = value
    found = knowledge.problems(node)
    assert all(isinstance(p, str) and ": " in p for p in found)
    if not found:  # what the index build does with a node that passed
        text = render.render_item(node)
        assert text.startswith("[%s] " % node.get("priority", "MEDIUM"))
        index_build._record(0, node, (0, len(text), 0), "g.json")
