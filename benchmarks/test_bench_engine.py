"""In-process benchmarks (pytest-benchmark) of the parts the hooks are made of.

    python3 -m pytest benchmarks -p no:cacheprovider --benchmark-only

Not collected by the test run (``testpaths`` is ``tests``).  Whole-process
timings against the interpreter's start are in ``run_hook_bench.py``.
Knowledge comes from :mod:`generate` at 100, 1,000 and 10,000 process nodes:

* ``index``: compiling the graphs into the index (the rebuild's work, no
  write), also with ``orjson`` parsing the graphs instead of ``json``;
* ``open``: reading the stored index's header, as every hook call does;
* ``decide``: one PreToolUse decision after the header (``ToolCall`` and
  ``relevance.evaluate``), and ``handle``: the whole in-process hook
  (``inject.handle``: index, decision, dedupe, trace), per scenario;
* ``parse``: hook payloads of three realistic sizes and a 10,000-node graph
  file, from bytes, with forewarn's ``fastjson`` (the hooks' parser), ``json``
  and ``orjson``.
"""

import itertools
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

from generate import generate  # noqa: E402

from forewarn import fastjson, graphs, index, index_build, inject, relevance  # noqa: E402
from forewarn.toolcall import ToolCall  # noqa: E402

SIZES = [100, 1000, 10000]
SESSIONS = itertools.count()


@pytest.fixture(scope="module", params=SIZES, ids=lambda n: "%dnodes" % n)
def project(request, tmp_path_factory):
    """A generated project with a stored, current index; FOREWARN_* point at its temp folders."""
    root = str(tmp_path_factory.mktemp("project"))
    user = str(tmp_path_factory.mktemp("user"))
    transcript = generate(root, user, request.param)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOREWARN_DATA_DIR", str(tmp_path_factory.mktemp("data")))
        patch.setenv("FOREWARN_USER_GRAPHS", user)
        patch.delenv("CLAUDE_PROJECT_DIR", raising=False)
        assert index_build.rebuild(root)
        yield root, transcript


def hook_input(root, transcript, scenario):
    inputs = {
        "matching Write": ("Write", {"file_path": root + "/.claude-plugin/plugin.json", "content": '{\n  "name": "shop",\n  "version": "0.2.0"\n}\n'}),
        "non-matching Write": ("Write", {"file_path": root + "/notes/todo.txt", "content": "buy milk\ncall the plumber\n"}),
        "Bash": ("Bash", {"command": "pytest tests/test_billing.py -q && git push origin main", "description": "Run the billing tests, then push"}),
    }
    tool, tool_input = inputs[scenario]
    return {"session_id": "bench-%d" % next(SESSIONS), "transcript_path": transcript, "cwd": root, "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input}


@pytest.mark.benchmark(group="index: build (compile every graph, no write)", min_rounds=10)
def test_index_build(benchmark, project):
    root, _ = project
    sources = index.current_sources(root)
    assert benchmark(index_build.build_bytes, root, sources).startswith(index.MAGIC)


@pytest.mark.benchmark(group="index: build (compile every graph, no write)", min_rounds=10)
def test_index_build_with_orjson(benchmark, project, monkeypatch, tmp_path):
    """The same build with each graph parsed by ``orjson.loads(bytes)`` instead of ``json.loads(text)``."""
    orjson = pytest.importorskip("orjson")
    root, _ = project

    def load_graph_with_orjson(path):
        with open(path, "rb") as handle:
            return graphs.check_shape(orjson.loads(handle.read()), path)

    sources = index.current_sources(root)
    monkeypatch.setattr(index_build, "load_graph", load_graph_with_orjson)
    with_orjson = benchmark(index_build.build_bytes, root, sources)
    monkeypatch.undo()
    assert _content(with_orjson, tmp_path) == _content(index_build.build_bytes(root, sources), tmp_path)


def _content(blob, folder):
    """An index file's header without its timestamps, and its size: equal for equal content."""
    path = os.path.join(str(folder), "probe.idx")
    with open(path, "wb") as handle:
        handle.write(blob)
    idx = index.open_index_file(path)
    idx.close()
    return {k: v for k, v in idx.header.items() if k not in ("built_at", "build_seconds")}, len(blob)


@pytest.mark.benchmark(group="open: stored index header (every hook call)")
def test_open_index(benchmark, project):
    root, _ = project

    def run():
        idx, state = index.open_fresh(root, rebuild=False)
        idx.close()
        return state

    assert benchmark(run) == "fresh"


@pytest.mark.parametrize("scenario", ["matching Write", "non-matching Write", "Bash"])
@pytest.mark.benchmark(group="decide: ToolCall + relevance.evaluate (header already read)")
def test_decide(benchmark, project, scenario):
    root, transcript = project
    data = hook_input(root, transcript, scenario)
    idx, _ = index.open_fresh(root, rebuild=False)

    def run():
        idx._cache.clear()  # a hook process reads its buckets afresh: do not time the cache of the previous round
        return relevance.evaluate(idx, ToolCall(data, root), 0.7, lambda: "")

    try:
        verdicts = benchmark(run)
    finally:
        idx.close()
    eligible = [v.record[index.R_ID] for v in verdicts if v.eligible]
    if scenario == "matching Write":
        assert "checklist-version-bump-sync" in eligible
    if scenario == "non-matching Write":
        assert eligible == []


@pytest.mark.parametrize("scenario", ["matching Write", "non-matching Write", "Bash"])
@pytest.mark.benchmark(group="handle: inject.handle, the whole in-process hook")
def test_handle(benchmark, project, scenario):
    root, transcript = project
    text = benchmark(lambda: inject.handle(hook_input(root, transcript, scenario)))  # a new session each call: no dedupe
    if scenario == "matching Write":
        assert "Version bump" in text
    if scenario == "non-matching Write":
        assert text is None


def _payload(kind):
    if kind == "Bash 0.3 KB":
        tool_input = {"command": "pytest tests/test_billing.py -q && git push origin main", "description": "Run the billing tests, then push"}
    else:
        lines = 300 if kind == "Write 12 KB" else 2500
        tool_input = {"file_path": "/home/dev/shop/src/billing/service.py",
                      "content": "".join("    value_%d = compute(order, %d)  # keep in step\n" % (i, i) for i in range(lines))}
    return json.dumps({"session_id": "0b7d1e0c-6a0e-4c31-9f77-6f1f0e3f2a11", "transcript_path": "/home/dev/.claude/projects/shop/0b7d.jsonl",
                       "cwd": "/home/dev/shop", "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Bash" if kind.startswith("Bash") else "Write", "tool_input": tool_input,
                       "tool_use_id": "toolu_01"}).encode()


PAYLOADS = ["Bash 0.3 KB", "Write 12 KB", "Write 100 KB"]
PARSERS = ["fastjson", "json", "orjson"]


def _parser(name):
    if name == "fastjson":
        return lambda raw: fastjson.loads(raw.decode("utf-8"))  # as hookio.read_input does
    if name == "json":
        return json.loads
    return pytest.importorskip("orjson").loads


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("kind", PAYLOADS)
def test_parse_hook_payload(benchmark, kind, parser):
    benchmark.group = "parse: PreToolUse payload, " + kind
    raw = _payload(kind)
    assert benchmark(_parser(parser), raw) == json.loads(raw)


@pytest.fixture(scope="module")
def graph_10000(tmp_path_factory):
    """One graph file holding all 10,000 process nodes (and their entities), as forewarn writes it (indent 2)."""
    root, user = str(tmp_path_factory.mktemp("g")), str(tmp_path_factory.mktemp("u"))
    generate(root, user, 10000)
    folders = [os.path.join(root, ".claude", "graphs"), user]
    doc = {"directed": True, "multigraph": False, "graph": {}, "nodes": [], "links": []}
    for path in sorted(os.path.join(f, n) for f in folders for n in os.listdir(f)):
        with open(path) as handle:
            part = json.load(handle)
        doc["nodes"] += part["nodes"]
        doc["links"] += part["links"]
    return json.dumps(doc, indent=2).encode()


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.benchmark(min_rounds=20)
def test_parse_graph_10000(benchmark, graph_10000, parser):
    benchmark.group = "parse: graph file of 10,000 process nodes (%.1f MB)" % (len(graph_10000) / 1e6)
    doc = benchmark(_parser(parser), graph_10000)
    assert sum(1 for n in doc["nodes"] if n.get("process_type")) == 10000
