"""The knowledge lifecycle on real graph files: id lookup, draft → active → archived, bulk archive, add."""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from support import isolated_project

from forewarn import graphs, lifecycle

DAY = 86400


def node(node_id, status="draft", created="2026-11-01T00:00:00Z", **extra):
    body = {"id": node_id, "type": "Concept", "label": "Label " + node_id, "process_type": "pattern", "priority": "MEDIUM",
            "pattern": {"situation": "s", "action": "a"}, "created_at": created}
    if status is not None:
        body["status"] = status
    body.update(extra)
    return body


@pytest.fixture
def root(tmp_path, monkeypatch):
    project = isolated_project(tmp_path, monkeypatch)
    write(project / ".claude" / "graphs" / "lessons.json", [
        node("lint-before-commit"), node("lint-config"), node("deploy-checklist", status=None),
        {"id": "entity-7", "type": "Entity", "name": "not knowledge", "observations": [1, 2]},
    ], extra={"graph": {"name": "original design", "x_meta": {"v": 3}}, "links": [{"source": "entity-7", "target": "lint-config", "w": 1}]})
    write(tmp_path / "user-graphs" / "mine.json", [node("user-wide-tip", status="archived")])
    return project


def write(path, nodes, extra=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"directed": True, "multigraph": False, "graph": {}, "nodes": nodes, "links": []}
    doc.update(extra or {})
    path.write_text(json.dumps(doc))
    return path


def doc(path):
    return json.loads(path.read_text())


def test_resolve_exact_prefix_ambiguous_unknown(root):
    assert lifecycle.resolve(str(root), "lint-config")[1]["id"] == "lint-config"
    assert lifecycle.resolve(str(root), "deploy")[1]["id"] == "deploy-checklist"
    assert lifecycle.resolve(str(root), "user")[0].endswith("mine.json")  # the user's graphs are searched too
    with pytest.raises(lifecycle.LifecycleError, match=r"'lint' is ambiguous: lint-before-commit, lint-config"):
        lifecycle.resolve(str(root), "lint")
    with pytest.raises(lifecycle.LifecycleError, match="no knowledge item has the id 'nope'"):
        lifecycle.resolve(str(root), "nope")
    with pytest.raises(lifecycle.LifecycleError, match="no id given"):
        lifecycle.resolve(str(root), "  ")
    with pytest.raises(lifecycle.LifecycleError, match="no knowledge item"):
        lifecycle.resolve(str(root), "entity")  # only process nodes have lifecycle ids


def test_an_exact_id_wins_over_longer_ids_it_prefixes(root):
    write(root / ".claude" / "graphs" / "more.json", [node("lint")])
    assert lifecycle.resolve(str(root), "lint")[1]["id"] == "lint"


def test_an_id_defined_twice_is_named_not_guessed(root, tmp_path):
    write(tmp_path / "user-graphs" / "dup.json", [node("lint-config")])
    with pytest.raises(lifecycle.LifecycleError, match="'lint-config' is defined in 2 places .*lessons.json.*dup.json"):
        lifecycle.promote(str(root), "lint-config")


def test_promote_changes_only_what_it_must(root):
    path = root / ".claude" / "graphs" / "lessons.json"
    before = doc(path)
    found_path, promoted = lifecycle.promote(str(root), "lint-b", "high")
    assert found_path == str(path) and promoted["status"] == "active" and promoted["priority"] == "HIGH"
    after = doc(path)
    changed = after["nodes"][0]
    assert changed.pop("promoted_at").endswith("Z")
    assert changed == dict(before["nodes"][0], status="active", priority="HIGH")
    assert after["nodes"][1:] == before["nodes"][1:] and after["links"] == before["links"] and after["graph"] == before["graph"]


def test_promote_errors(root):
    with pytest.raises(lifecycle.LifecycleError, match="invalid priority 'URGENT': use CRITICAL, HIGH, MEDIUM or LOW"):
        lifecycle.promote(str(root), "lint-config", "urgent")
    with pytest.raises(lifecycle.LifecycleError, match="deploy-checklist is already active"):
        lifecycle.promote(str(root), "deploy-checklist")  # no status means active
    assert lifecycle.promote(str(root), "deploy-checklist", "LOW")[1]["priority"] == "LOW"  # re-prioritising is allowed


def test_archive_and_bring_back_from_the_users_graphs(root, tmp_path):
    assert lifecycle.archive(str(root), "lint-config")[1]["status"] == "archived"
    with pytest.raises(lifecycle.LifecycleError, match="lint-config is already archived"):
        lifecycle.archive(str(root), "lint-config")
    path, revived = lifecycle.promote(str(root), "user-wide-tip")
    assert path == str(tmp_path / "user-graphs" / "mine.json") and doc(tmp_path / "user-graphs" / "mine.json")["nodes"][0]["status"] == "active"


def test_archive_drafts_by_age(root):
    write(root / ".claude" / "graphs" / "new.json", [node("fresh", created="2026-11-20T00:00:00Z"), node("undated", created=None),
                                                     node("garbled", created="last tuesday")])
    now = lifecycle.parse_time("2026-11-22T00:00:00Z")
    assert lifecycle.archive_drafts(str(root), 30, now=now) == []
    assert sorted(lifecycle.archive_drafts(str(root), 2, now=now)) == ["fresh", "lint-before-commit", "lint-config"]
    statuses = {n["id"]: n.get("status") for _p, n in lifecycle.all_items(str(root))}
    assert statuses["undated"] == statuses["garbled"] == "draft"  # no age, never archived in bulk
    assert statuses["deploy-checklist"] is None  # active items are not drafts
    with pytest.raises(lifecycle.LifecycleError, match="0 or more"):
        lifecycle.archive_drafts(str(root), -1)


@pytest.mark.parametrize("stamp, expected", [
    ("2026-11-22T10:00:00Z", 1795341600), ("2026-11-22T10:00:00.123456+00:00", 1795341600), ("2026-11-22", None), ("", None), (None, None), (5, None),
])
def test_parse_time(stamp, expected):
    assert lifecycle.parse_time(stamp) == expected


def test_age_days():
    now = lifecycle.parse_time("2026-11-22T10:00:00Z")
    assert lifecycle.age_days({"created_at": "2026-11-20T11:00:00Z"}, now) == 1
    assert lifecycle.age_days({"created_at": "2027-01-01T00:00:00Z"}, now) == 0  # a clock ahead is not a negative age
    assert lifecycle.age_days({}, now) is None


def test_drafts_oldest_first(root):
    write(root / ".claude" / "graphs" / "old.json", [node("ancient", created="2020-01-01T00:00:00Z")])
    assert [n["id"] for _p, n in lifecycle.drafts(str(root))] == ["ancient", "lint-before-commit", "lint-config"]


def test_add_creates_the_file_and_refuses_duplicates_and_odd_names(root):
    path = lifecycle.add(str(root), node("brand-new"))
    assert path == str(root / ".claude" / "graphs" / "knowledge.json")
    assert graphs.load_graph(path)["nodes"][0]["id"] == "brand-new"
    with pytest.raises(lifecycle.LifecycleError, match="exists already"):
        lifecycle.add(str(root), node("user-wide-tip"))
    for name in ("../escape.json", "notes.txt", "sub/x.json", ".hidden.json"):
        with pytest.raises(lifecycle.LifecycleError, match="--file takes a graph file name"):
            lifecycle.add(str(root), node("another"), name)
    assert not (root / ".claude" / "escape.json").exists()


def test_add_checks_the_id_again_under_the_lock(root, monkeypatch):
    monkeypatch.setattr(lifecycle, "all_items", lambda _root: [])  # as if the other writer came after the first check
    before = (root / ".claude" / "graphs" / "lessons.json").read_bytes()
    with pytest.raises(lifecycle.LifecycleError, match="exists already"):
        lifecycle.add(str(root), node("lint-config"), "lessons.json")
    assert (root / ".claude" / "graphs" / "lessons.json").read_bytes() == before


def test_a_torn_graph_is_skipped_by_lookups_and_never_overwritten(root):
    torn = root / ".claude" / "graphs" / "torn.json"
    torn.write_text('{"nodes": [')
    assert lifecycle.resolve(str(root), "lint-config")[1]["id"] == "lint-config"
    with pytest.raises(graphs.GraphError):
        lifecycle.add(str(root), node("x"), "torn.json")
    assert torn.read_text() == '{"nodes": ['


def test_concurrent_processes_lose_no_update(root):
    """Eight processes each promote or archive one draft while eight others append drafts to the same file."""
    path = root / ".claude" / "graphs" / "lessons.json"
    write(path, [node("race-%d" % i) for i in range(8)])
    script = textwrap.dedent("""
        import sys
        from forewarn import graphs, lifecycle
        root, path, i = sys.argv[1], sys.argv[2], int(sys.argv[3])
        if i < 8:
            (lifecycle.promote if i % 2 else lifecycle.archive)(root, "race-%d" % i)
        else:
            graphs.update_graph(path, lambda doc: doc["nodes"].append({"id": "added-%d" % i, "type": "Concept", "label": "x",
                                "process_type": "pattern", "pattern": {"action": "a"}, "status": "draft"}))
    """)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(lifecycle.__file__)))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(root), str(path), str(i)], env=env) for i in range(16)]
    assert [p.wait(60) for p in procs] == [0] * 16
    final = {n["id"]: n.get("status") for n in doc(path)["nodes"]}
    assert {final["race-%d" % i] for i in range(0, 8, 2)} == {"archived"} and {final["race-%d" % i] for i in range(1, 8, 2)} == {"active"}
    assert all(final.get("added-%d" % i) == "draft" for i in range(8, 16))
