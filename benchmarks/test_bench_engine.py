"""In-process benchmarks (pytest-benchmark) of the parts the hooks are made of.

    python -m pytest benchmarks -p no:cacheprovider --benchmark-only

Not part of the test run (tests/ is the test path).  Whole-process timings
against the interpreter's start are in run_hook_bench.py.
"""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

from generate import generate  # noqa: E402

from forewarn import fastjson, index, index_build, relevance  # noqa: E402
from forewarn.toolcall import ToolCall  # noqa: E402

SIZES = [100, 1000, 10000]


@pytest.fixture(scope="module", params=SIZES)
def project(request, tmp_path_factory):
    root = str(tmp_path_factory.mktemp("bench%d" % request.param))
    generate(root, request.param)
    os.environ["FOREWARN_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    os.environ["FOREWARN_USER_GRAPHS"] = str(tmp_path_factory.mktemp("user"))
    return root


def test_index_build(benchmark, project):
    sources = index.current_sources(project)
    blob = benchmark(index_build.build_bytes, project, sources)
    assert blob.startswith(index.MAGIC)


def test_evaluate_matching_write(benchmark, project):
    index_build.rebuild(project)
    data = {"tool_name": "Write", "cwd": project, "tool_input": {"file_path": project + "/.claude-plugin/plugin.json", "content": "{}"}}

    def run():
        idx, _state = index.open_fresh(project)
        try:
            return relevance.evaluate(idx, ToolCall(data, project), 0.7, lambda: "")
        finally:
            idx.close()

    verdicts = benchmark(run)
    assert any(v.eligible for v in verdicts)


PAYLOAD = json.dumps({
    "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Write",
    "tool_input": {"file_path": "/p/src/app.py", "content": "x = 1\n" * 2000},
})


def test_parse_hook_input_fastjson(benchmark):
    assert benchmark(fastjson.loads, PAYLOAD)["tool_name"] == "Write"


def test_parse_hook_input_json(benchmark):
    assert benchmark(json.loads, PAYLOAD)["tool_name"] == "Write"


def test_parse_hook_input_orjson(benchmark):
    orjson = pytest.importorskip("orjson")
    assert benchmark(orjson.loads, PAYLOAD)["tool_name"] == "Write"


@pytest.fixture(scope="module")
def big_graph(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("graph10k"))
    folder = generate(root, 10000, files=1)
    with open(os.path.join(folder, "graph0.json"), "rb") as handle:
        return handle.read()


def test_parse_graph_json(benchmark, big_graph):
    assert len(benchmark(json.loads, big_graph)["nodes"]) == 10000


def test_parse_graph_orjson(benchmark, big_graph):
    orjson = pytest.importorskip("orjson")
    assert len(benchmark(orjson.loads, big_graph)["nodes"]) == 10000
