"""The pydantic schema, the standard-library checker the hooks use, and docs/schemas: all in agreement."""

import copy
import json
import os
import subprocess
import sys

import pytest

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
    variant(status="draft"), variant(status="archived"), variant(status="paused"),
    variant(priority="LOW"), variant(priority="urgent"), variant(priority=KeyError),
    variant(id=""), variant(id=KeyError), variant(id=3), variant(label=" "), variant(label=KeyError),
    variant(process_type="howto"), variant(process_type="pattern"),
    variant(process_type="pattern", pattern={"situation": "s"}), variant(process_type="pattern", pattern={}),
    variant(process_type="warning", warning={"risk": "r"}), variant(process_type="warning", warning={"risk": 5}),
    variant(process_type="requirement", requirement={"constraint": "c"}), variant(process_type="requirement", requirement="c"),
    variant(checklist={"items": []}), variant(checklist={"items": [""]}), variant(checklist={"items": [{"required": True}]}),
    variant(checklist={"items": ["x"], "title": 3}),
    variant(trigger_conditions={"tool_names": "Write"}), variant(trigger_conditions={"file_patterns": [""]}),
    variant(trigger_conditions={"file_patterns": ["#x"]}), variant(trigger_conditions=[]), variant(trigger_conditions=KeyError),
    variant(confidence=0.5), variant(confidence=1.5), variant(confidence=True), variant(confidence="high"),
    variant(evidence=["e"]), variant(evidence="e"), variant(evidence=5),
    variant(description=None), variant(description=5), variant(created_at="2026-11-22T00:00:00Z"), variant(created_by=1),
    variant(x_extra={"kept": True}),
]


@pytest.mark.parametrize("node", CASES, ids=range(len(CASES)))
def test_schema_and_stdlib_checker_agree(node):
    assert bool(schema.node_errors(node)) == bool(knowledge.problems(node)), (schema.node_errors(node), knowledge.problems(node))


def test_errors_name_the_field():
    errors = schema.node_errors(variant(priority="urgent"))
    assert errors and errors[0].startswith("priority:")


def test_committed_json_schemas_are_current():
    proc = subprocess.run([sys.executable, "-m", "forewarn", "schema", "--check", "--out", os.path.join(REPO, "docs", "schemas")],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "src")))
    assert proc.returncode == 0, proc.stderr
    exported = json.load(open(os.path.join(REPO, "docs", "schemas", "process-node.schema.json")))
    assert set(exported["required"]) >= {"id", "type", "label", "process_type"}
    assert '"CRITICAL"' in json.dumps(exported["properties"]["priority"])


def test_repository_knowledge_is_valid():
    for name in os.listdir(os.path.join(REPO, ".claude", "graphs")):
        doc = json.load(open(os.path.join(REPO, ".claude", "graphs", name)))
        for node in doc["nodes"]:
            assert schema.node_errors(node) == [] and knowledge.problems(node) == []
