"""The pydantic schema, the standard-library checker the hooks use, and docs/schemas: all in agreement."""

import copy
import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forewarn import knowledge, schema

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = {
    "id": "n1", "type": "Concept", "label": "A lesson", "process_type": "checklist", "priority": "HIGH",
    "trigger_conditions": {"tool_names": ["Write"], "file_patterns": ["src/**/*.py"]},
    "checklist": {"title": "t", "items": ["one", {"item": "two", "required": True, "file": "a.py"}]},
}


def variant(**changes):
    node = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is KeyError:
            node.pop(key, None)
        else:
            node[key] = value
    return node


CASES = [
    GOOD,
    variant(status="draft"), variant(status="archived"), variant(status="paused"), variant(status=None),
    variant(priority="LOW"), variant(priority="urgent"), variant(priority="high"), variant(priority=KeyError), variant(priority=None),
    variant(id=""), variant(id=KeyError), variant(id=3), variant(id="\x1c"), variant(label=" "), variant(label=KeyError),
    variant(process_type="howto"), variant(process_type=None), variant(process_type="pattern"),
    variant(process_type="pattern", pattern={"situation": "s"}), variant(process_type="pattern", pattern={}),
    variant(process_type="pattern", pattern={"situation": ""}), variant(process_type="pattern", pattern={"action": " "}),
    variant(process_type="warning", warning={"risk": "r"}), variant(process_type="warning", warning={"risk": 5}),
    variant(process_type="requirement", requirement={"constraint": "c"}), variant(process_type="requirement", requirement="c"),
    variant(process_type="requirement", requirement={"constraint": "c"}, checklist="not read for a requirement"),
    variant(checklist=None), variant(checklist=KeyError), variant(checklist={"items": []}), variant(checklist={"items": "abc"}),
    variant(checklist={"items": [""]}), variant(checklist={"items": [" "]}), variant(checklist={"items": [3]}),
    variant(checklist={"items": [{"required": True}]}), variant(checklist={"items": [{"item": ""}]}),
    variant(checklist={"items": [{"text": "older graphs"}]}), variant(checklist={"items": [{"item": "", "text": "t"}]}),
    variant(checklist={"items": [{"item": 5, "text": "t"}]}), variant(checklist={"items": ["x"], "title": 3}),
    variant(checklist={"items": ["x"], "format": None}), variant(checklist={"items": ["x"], "x_note": 1}),
    variant(trigger_conditions={"tool_names": "Write"}), variant(trigger_conditions={"tool_names": [1]}),
    variant(trigger_conditions={"tool_names": None}), variant(trigger_conditions={"file_patterns": [""]}),
    variant(trigger_conditions={"file_patterns": ["#x"]}), variant(trigger_conditions={"file_patterns": ["!x", "*.md"]}),
    variant(trigger_conditions={"x_weight": 2}), variant(trigger_conditions=[]), variant(trigger_conditions=KeyError),
    variant(confidence=0.5), variant(confidence=1), variant(confidence=1.5), variant(confidence=-0.1), variant(confidence=True),
    variant(confidence="0.5"), variant(confidence=math.nan),
    variant(evidence=["e"]), variant(evidence=[{"excerpt": "e"}]), variant(evidence="e"), variant(evidence=5), variant(evidence={}),
    variant(description=None), variant(description=5), variant(created_at="2026-11-22T00:00:00Z"), variant(created_by=1),
    variant(source={"kind": "manual"}), variant(occurrences=3), variant(x_extra={"kept": True}),
    variant(occurrences=0), variant(occurrences="2"), variant(occurrences=True), variant(occurrences=1.5),
    variant(checklist={"items": [{"item": "x", "required": "yes"}]}), variant(checklist={"items": [{"item": "x", "required": False}]}),
    variant(checklist={"items": [{"item": "x", "file": 3}]}), variant(checklist={"items": [{"item": 0, "text": "t"}]}),
    variant(priority=[]), variant(priority={}), variant(process_type=["checklist"]),
]

# Beyond JSON Schema: str.strip()'s idea of whitespace, glob syntax, and NaN (not JSON, though Python's json reads it).
BEYOND_JSON_SCHEMA = [variant(id="\x1c"), variant(confidence=math.nan), variant(trigger_conditions={"file_patterns": [""]}), variant(trigger_conditions={"file_patterns": ["#x"]})]


def agree(node):
    errors, problems = schema.node_errors(node), knowledge.problems(node)
    assert bool(errors) == bool(problems), (node, errors, problems)


@pytest.mark.parametrize("node", CASES, ids=range(len(CASES)))
def test_schema_and_stdlib_checker_agree(node):
    agree(node)


# ---------------------------------------------------------------- a generated corpus

# A valid node from every part of the schema, then up to two faults (a field replaced by junk or removed), so
# most examples sit on the valid/invalid boundary where a disagreement would show.

ABSENT = object()
scalar_junk = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 3), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", " ", "\t", "\x1c", "\u2003", "0.5", "high", "URGENT", "paused", "Concept"]), st.text(max_size=4),
)
junk = st.one_of(
    scalar_junk, st.lists(st.one_of(st.integers(0, 2), st.sampled_from(["", "x"])), max_size=2),
    st.dictionaries(st.sampled_from(["item", "text", "x", ""]), st.one_of(st.integers(0, 2), st.text(max_size=2)), max_size=2),
)
text = st.one_of(st.sampled_from(["ok", " x ", "é", "version bump", "\u2003y"]), st.text(max_size=8))
non_blank = text.filter(str.strip)
good_globs = st.sampled_from(["**/*.py", "!src/", "a/**/b", "*.md", "docs/", "[ab].txt", "src/*.py", "**/plugin.json", "\\#x"])
json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), text), lambda inner: st.lists(inner, max_size=2), max_leaves=4)


def fields(must=None, **optional):
    """Dicts with every key of ``must`` and any of the ``optional`` ones."""
    def keep(pair):
        must, may = pair
        return dict(must, **{k: v for k, v in may.items() if v is not ABSENT})
    may = st.fixed_dictionaries({k: st.one_of(st.just(ABSENT), v) for k, v in optional.items()})
    return st.tuples(st.fixed_dictionaries(must or {}), may).map(keep)


def optional_str():
    return st.one_of(st.none(), text)


entry = st.one_of(
    st.text(min_size=1, max_size=8),
    fields({"item": st.text(min_size=1, max_size=8)}, required=st.one_of(st.none(), st.booleans()), file=optional_str(), text=junk),
    fields({"text": st.text(min_size=1, max_size=8)}, item=st.sampled_from([None, ""]), required=st.booleans()),
)


def block_of(names):
    """A pattern/warning/requirement block: one field set to a non-empty string, the others optional."""
    return st.sampled_from(names).flatmap(
        lambda first: fields({first: st.text(min_size=1, max_size=8)}, **{n: optional_str() for n in names if n != first}))


BLOCKS = {
    "checklist": fields({"items": st.lists(entry, min_size=1, max_size=3)}, title=optional_str(), format=optional_str(), x_note=json_values),
    "pattern": block_of(knowledge.CONTENT_FIELDS["pattern"]),
    "warning": block_of(knowledge.CONTENT_FIELDS["warning"]),
    "requirement": block_of(knowledge.CONTENT_FIELDS["requirement"]),
}
strings = st.one_of(st.none(), st.lists(text, max_size=2))
valid_triggers = st.one_of(st.none(), fields(
    tool_names=strings, action_keywords=strings, context_keywords=strings, triad_names=strings,
    file_patterns=st.one_of(st.none(), st.lists(good_globs, max_size=3)), x_weight=json_values,
))


@st.composite
def valid_nodes(draw):
    ptype = draw(st.sampled_from(knowledge.PROCESS_TYPES))
    node = draw(fields(
        {"id": non_blank, "label": non_blank, "type": st.just("Concept"), "process_type": st.just(ptype), ptype: BLOCKS[ptype]},
        description=optional_str(), created_by=optional_str(), created_at=optional_str(),
        priority=st.sampled_from(["CRITICAL", "HIGH", "MEDIUM", "LOW"]), status=st.sampled_from([None, "draft", "active", "archived"]),
        trigger_conditions=valid_triggers, evidence=st.one_of(st.none(), text, st.lists(json_values, max_size=2)),
        confidence=st.one_of(st.none(), st.floats(0, 1), st.sampled_from([0, 1])), source=json_values,
        occurrences=st.one_of(st.none(), st.integers(1, 9)), x_extra=json_values,
        **{other: junk for other in knowledge.PROCESS_TYPES if other != ptype},  # another type's block is not read
    ))
    return node


def fault_sites(node):
    """Paths where a fault can go: every field, the trigger lists, the content block and its fields and entries."""
    sites = [(key,) for key in node if key not in ("type",)]
    ptype = node["process_type"]
    sites += [("trigger_conditions", key) for key in knowledge.TRIGGER_LISTS if isinstance(node.get("trigger_conditions"), dict)]
    block = node[ptype]
    sites += [(ptype, key) for key in list(block) + list(knowledge.CONTENT_FIELDS[ptype])]
    if ptype == "checklist":
        sites += [("checklist", "items", i) for i in range(len(block["items"]))]
        sites += [("checklist", "items", i, "item") for i, e in enumerate(block["items"]) if isinstance(e, dict) and "item" in e]
    return sites


def apply_fault(node, path, value):
    """Set the field at ``path`` to ``value`` (remove it for ABSENT); a path an earlier fault broke is left alone."""
    *steps, last = path
    target = node
    for step in steps:
        try:
            target = target[step]
        except (KeyError, IndexError, TypeError):
            return
    if isinstance(target, dict):
        if value is ABSENT:
            target.pop(last, None)
        else:
            target[last] = value
    elif isinstance(target, list) and isinstance(last, int) and last < len(target):
        if value is ABSENT:
            del target[last]
        else:
            target[last] = value


@st.composite
def faulty_nodes(draw):
    node = copy.deepcopy(draw(valid_nodes()))
    sites = st.sampled_from(fault_sites(node))
    for _ in range(draw(st.integers(0, 2))):
        path = draw(sites)
        removable = path != ("process_type",)
        apply_fault(node, path, draw(st.one_of(st.just(ABSENT), junk) if removable else junk))
    return node


def test_schema_and_stdlib_checker_agree_on_generated_nodes():
    seen = set()

    @settings(max_examples=600, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(faulty_nodes())
    def check(node):
        assert knowledge.is_process_node(node)
        agree(node)
        seen.add((repr(node["process_type"]), not knowledge.problems(node)))

    check()
    # the corpus holds valid and invalid nodes of every type, or this test would prove little
    assert {(repr(t), v) for t in knowledge.PROCESS_TYPES for v in (True, False)} <= seen


@settings(max_examples=300, deadline=None)
@given(valid_nodes())
def test_valid_nodes_round_trip_unchanged(node):
    """A valid node comes back from the model exactly, extra fields included."""
    assert knowledge.problems(node) == [] and schema.node_errors(node) == []
    assert schema.process_node.dump_python(schema.process_node.validate_python(node), exclude_unset=True) == node


# ---------------------------------------------------------------- messages, graphs, exported schemas


@pytest.mark.parametrize("node, expected", [
    (variant(priority="urgent"), "priority: Input should be 'CRITICAL', 'HIGH', 'MEDIUM' or 'LOW'"),
    (variant(process_type="howto"), "process_type: must be one of checklist|pattern|warning|requirement"),
    (variant(checklist=KeyError), "checklist: Field required"),
    (variant(checklist={"items": ["a", {"item": "b", "required": "yes"}]}), "checklist.items.1.required: Input should be a valid boolean"),
    (variant(checklist={"items": ["a", ""]}), "checklist.items.1: String should have at least 1 character"),
    (variant(trigger_conditions={"file_patterns": ["#x"]}), "trigger_conditions.file_patterns: '#x' is not a usable glob"),
    (variant(process_type="warning", warning={}), "warning: needs at least one of risk, severity, detection, mitigation"),
    (variant(label=" "), "label: must be a non-empty string"),
    (variant(evidence=5), "evidence: must be a list or a string"),
])
def test_errors_name_the_field_path(node, expected):
    errors = schema.node_errors(node)
    assert len(errors) == 1 and errors[0].startswith(expected), errors


def original_design_graph():
    return {
        "directed": True, "multigraph": False, "graph": {"name": "triads", "x_version": 3},
        "nodes": [
            {"id": "entity-1", "type": "Entity", "name": "pyproject.toml", "observations": ["x"]},
            dict(GOOD, triad_id="t-9", embedding=[0.1, 0.2], trigger_conditions={"tool_names": ["Write"], "triad_names": ["build"]}),
            {"id": "episode-2", "type": "Episode", "content": {"nested": [1, {"deep": None}]}},
        ],
        "links": [{"source": "entity-1", "target": "n1", "type": "RELATES_TO", "weight": 0.5}],
        "x_top_level": {"kept": True},
    }


def test_graph_model_keeps_every_field():
    doc = original_design_graph()
    assert schema.Graph.model_validate(doc).model_dump(exclude_unset=True) == doc
    assert schema.node_errors(doc["nodes"][1]) == []


def test_committed_json_schemas_are_current():
    proc = subprocess.run([sys.executable, "-m", "forewarn", "schema", "--check", "--out", os.path.join(REPO, "docs", "schemas")],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "src")))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_exported_schemas_validate_graphs_with_an_independent_validator():
    """docs/schemas/*.json as an editor would use them: the repository's graphs pass, bad nodes fail."""
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    loaded = {name: json.load(open(os.path.join(REPO, "docs", "schemas", name))) for name in schema.SCHEMA_FILES}
    registry = referencing.Registry().with_resources(
        (body["$id"], referencing.Resource.from_contents(body)) for body in loaded.values())
    graph_validator = jsonschema.Draft202012Validator(loaded["graph.schema.json"], registry=registry)
    node_validator = jsonschema.Draft202012Validator(loaded["process-node.schema.json"], registry=registry)
    for name in os.listdir(os.path.join(REPO, ".claude", "graphs")):
        graph_validator.validate(json.load(open(os.path.join(REPO, ".claude", "graphs", name))))
    graph_validator.validate(original_design_graph())
    bad_graph = original_design_graph()
    bad_graph["nodes"][1]["priority"] = "URGENT"
    assert not graph_validator.is_valid(bad_graph)
    for node in CASES:
        if node not in BEYOND_JSON_SCHEMA:
            assert node_validator.is_valid(node) == (not schema.node_errors(node)), (node, schema.node_errors(node))


def test_repository_knowledge_is_valid():
    for name in os.listdir(os.path.join(REPO, ".claude", "graphs")):
        doc = json.load(open(os.path.join(REPO, ".claude", "graphs", name)))
        for node in doc["nodes"]:
            assert schema.node_errors(node) == [] and knowledge.problems(node) == []
