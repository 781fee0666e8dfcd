"""fastjson against json; atomic, locked storage under concurrent writers."""

import json
import multiprocessing
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn import fastjson, graphs, storage

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(json_values)
def test_fastjson_round_trips_like_json(value):
    text = json.dumps(value)
    assert fastjson.loads(text) == json.loads(text)
    assert json.loads(fastjson.dumps(value)) == value


@pytest.mark.parametrize("bad", ["", "{", "[1,]", "{}x", "NaN", "Infinity", "{'a': 1}", "1 2"])
def test_fastjson_rejects_what_json_rejects(bad):
    with pytest.raises(ValueError):
        fastjson.loads(bad)


def test_atomic_write_replaces_whole_file(tmp_path):
    path = tmp_path / "g.json"
    storage.atomic_write_bytes(str(path), b"first")
    storage.atomic_write_bytes(str(path), b"second")
    assert path.read_bytes() == b"second"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temp file left behind


def test_lock_timeout(tmp_path):
    path = str(tmp_path / "g.json")
    with storage.locked(path):
        with pytest.raises(storage.LockTimeout):
            with storage.locked(path, timeout=0.05):
                pass


def _append_nodes(args):
    path, worker, count = args
    for i in range(count):
        graphs.update_graph(path, lambda doc, i=i: doc["nodes"].append({"id": "w%d-%d" % (worker, i), "type": "Other"}), timeout=30)
    return worker


def _reader(args):
    path, rounds = args
    bad = 0
    for _ in range(rounds):
        try:
            with open(path, "rb") as handle:
                json.loads(handle.read())
        except FileNotFoundError:
            continue
        except ValueError:
            bad += 1
    return bad


def test_concurrent_updates_lose_nothing_and_never_leave_half_a_file(tmp_path):
    path = str(tmp_path / "lessons_graph.json")
    with multiprocessing.get_context("fork").Pool(9) as pool:
        reader = pool.apply_async(_reader, ((path, 400),))
        pool.map(_append_nodes, [(path, w, 25) for w in range(8)])
        assert reader.get() == 0
    doc = graphs.load_graph(path)
    assert len(doc["nodes"]) == 200 and len({n["id"] for n in doc["nodes"]}) == 200


def test_corrupt_graph_is_never_overwritten(tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"nodes": [')
    with pytest.raises(graphs.GraphError):
        graphs.update_graph(str(path), lambda doc: doc["nodes"].append({}))
    assert path.read_text() == '{"nodes": ['


def test_unknown_fields_and_legacy_shapes_survive_a_round_trip(tmp_path):
    legacy = {
        "directed": True, "multigraph": False, "graph": {"name": "original design", "custom": [1, 2]},
        "nodes": [
            {"id": "e1", "type": "Entity", "name": "some entity", "observations": ["x"]},
            {"id": "p1", "type": "Concept", "label": "Old", "process_type": "checklist", "priority": "HIGH",
             "checklist": {"title": "t", "items": ["plain", {"item": "obj", "required": True, "file": "a.py"}], "format": "markdown"},
             "triad_names": ["t1"], "x_original_field": {"nested": True}},
        ],
        "links": [{"source": "e1", "target": "p1", "relation": "uses", "weight": 0.5}],
        "extra_top_level": "kept",
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(legacy))
    graphs.update_graph(str(path), lambda doc: graphs.find_node(doc, "p1").update(status="archived"))
    after = json.loads(path.read_text())
    legacy["nodes"][1]["status"] = "archived"
    assert after == legacy
