"""A generated knowledge base of 10,000 process nodes (benchmarks/generate.py): what the shortcuts must not change.

The index build reads graphs one node at a time (graphs.iter_nodes), and
the hook reads only candidate buckets (tool, keyword, file name and
extension, edit-only file buckets) and skips tool-gated items before
scoring.  Here both are checked against the plain way on the benchmarks'
knowledge: the index holds what a build from whole parsed documents holds,
and for hundreds of tool calls built from the knowledge's own triggers, the
pruned evaluation injects exactly what scoring every item would, and
``inject.handle`` prints the same text.
"""

import marshal
import os
import random
import sys

import pytest

from forewarn import graphs, index, index_build, inject, relevance
from forewarn.toolcall import ToolCall

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
sys.path.insert(0, BENCHMARKS)
from generate import generate  # noqa: E402

SIZE = 10000


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    work = tmp_path_factory.mktemp("kb")
    project, user = str(work / "project"), str(work / "user")
    transcript = generate(project, user, SIZE)
    env = {"FOREWARN_DATA_DIR": str(work / "data"), "FOREWARN_USER_GRAPHS": user}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        mp.delenv("CLAUDE_PROJECT_DIR", raising=False)
        mp.delenv("DISABLE_EXPERIENCE_INJECTION", raising=False)
        yield project, transcript


def contents(chunks):
    """An index file's meaning: header without build times, each bucket's records, the texts."""
    blob = b"".join(chunks)
    length = int.from_bytes(blob[8:12], "little")
    header = marshal.loads(blob[16 : 16 + length])
    data = blob[16 + length :]
    del header["built_at"], header["build_seconds"]
    entries = {key: index.unpack_entry(entry) for key, entry in header.pop("buckets").items()}
    buckets = {key: marshal.loads(data[off : off + size]) for key, (off, size, _crc) in entries.items()}
    texts = data[: min(off for off, _size, _crc in entries.values())]
    return header, buckets, texts


def test_the_index_holds_what_a_build_from_whole_documents_holds(kb, monkeypatch):
    project, _ = kb
    sources = index.current_sources(project)
    streamed = contents(index_build.build_chunks(project, sources))
    monkeypatch.setattr(index_build, "iter_nodes", lambda path: iter(graphs.load_graph(path).get("nodes", [])))
    whole = contents(index_build.build_chunks(project, list(sources)))
    assert streamed == whole
    assert streamed[0]["items"] > 7000


def calls(project, count, seed=7):
    """Tool calls aimed at the knowledge: paths made from its file patterns, inputs with its keywords."""
    rng = random.Random(seed)
    patterns, words = set(), set()
    for path, _mtime, _size in index.current_sources(project):
        if not path.endswith("forewarn.json"):
            for node in graphs.process_nodes(graphs.load_graph(path)):
                trig = node.get("trigger_conditions") or {}
                patterns.update(p for p in trig.get("file_patterns") or () if isinstance(p, str))
                words.update(w for key in ("action_keywords", "context_keywords") for w in trig.get(key) or () if isinstance(w, str))
    patterns, words = sorted(patterns), sorted(words)

    def a_path():
        pat = rng.choice(patterns).lstrip("!/").replace("**/", rng.choice(["", "src/", "a/b/"])).replace("**", "x")
        for wild, concrete in (("*", rng.choice(["", "x", "billing"])), ("?", "q"), ("[a-m]", "c"), ("[!a]", "b")):
            pat = pat.replace(wild, concrete)
        return pat.rstrip("/") + ("/file.txt" if pat.endswith("/") else "")

    tools = ["Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Task", "mcp__github__create_issue", "mcp__github__merge_pull_request", "WebFetch"]
    for n in range(count):
        tool = rng.choice(tools)
        text = " ".join(rng.sample(words, 3)) if rng.random() < 0.7 else "1.3.0 -> 1.4.0"
        if tool == "Bash":
            writes = rng.choice(["%s %s", "sed -i s/a/b/ %s # %s", "echo x >> %s; %s", "rm -rf %s && %s"])
            tool_input = {"command": "%s && %s" % (rng.choice(words), writes % (a_path(), text))}
        elif tool in ("Write", "Edit", "MultiEdit", "NotebookEdit"):
            tool_input = {"file_path": os.path.join(project, a_path()), "content": text, "old_string": "", "new_string": text}
        else:
            tool_input = {"prompt": text, "title": text}
        yield {"session_id": "equiv-%d" % n, "tool_name": tool, "tool_input": tool_input, "cwd": project}


def test_pruned_evaluation_decides_as_scoring_every_item_does(kb):
    project, transcript = kb
    idx, _state = index.open_fresh(project)
    conversation = "deploy the billing service after the migration; release notes and version bump"
    injected = 0
    try:
        for data in calls(project, 120):
            call = ToolCall(data, project)
            for threshold in (0.7, 1.2):
                pruned = [v.record[index.R_ID] for v in relevance.evaluate(idx, call, threshold, lambda: conversation) if v.eligible]
                every = [v.record[index.R_ID] for v in relevance.evaluate(idx, call, threshold, lambda: conversation, everything=True) if v.eligible]
                assert pruned == every, data
                injected += bool(pruned)
    finally:
        idx.close()
    assert injected > 40  # the calls do reach the knowledge


def test_inject_handle_prints_what_the_unpruned_evaluation_would(kb, monkeypatch):
    project, transcript = kb
    pruned, every = [], []
    for data in calls(project, 50, seed=11):
        data = dict(data, transcript_path=transcript)
        pruned.append(inject.handle(dict(data, session_id=data["session_id"] + "-a")))
    evaluate = relevance.evaluate
    monkeypatch.setattr(relevance, "evaluate", lambda *a, **k: [v for v in evaluate(*a, **dict(k, everything=True)) if v.eligible])
    for data in calls(project, 50, seed=11):
        data = dict(data, transcript_path=transcript)
        every.append(inject.handle(dict(data, session_id=data["session_id"] + "-b")))
    assert pruned == every
    assert sum(text is not None for text in pruned) > 10
