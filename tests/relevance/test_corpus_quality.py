"""The relevance rule measured on the labelled corpora in tests/relevance/<name>/.

Each corpus is a knowledge graph (``graph.json``), PreToolUse hook inputs
labelled with the items a careful engineer would want to see
(``calls.jsonl``) and the transcripts some calls need.  ``ledger`` was
labelled blind, after the rule was designed (two changes were later made
with its misses in view); ``clinic`` and ``clinic2`` were labelled blind
later still, by two authors independently, and measured once, as were
``fleet``, ``reel``, ``harbor``, ``grid``, ``bazaar`` and ``quarry``; ``shop`` is the set the action
and specificity gates were designed on (``held_out.jsonl`` was written after
them).  See each corpus's README.md.

The shipped rule runs through the hook's own code, :func:`forewarn.inject.handle`,
in a real temporary project, with a fresh session per call so per-session
dedupe never hides an item; the decision is read back from the trace.  For
comparison the same index is scored with the original design's formula and
some or none of the gates (:func:`formula_decisions`, here and not in
``src``).  Micro precision and recall over injected items, CRITICAL recall
and the false-positive rate (injected items not labelled relevant / injected
items) are printed; docs/relevance.md quotes them as measured.
"""

import itertools
import json
import os
from pathlib import Path

import pytest

from forewarn import config, index, inject, knowledge, paths, relevance, render, trace
from forewarn.conversation import recent_text
from forewarn.keywords import fold
from forewarn.toolcall import ToolCall

HERE = Path(__file__).parent
ALL_GATES = frozenset({"tool", "file", "action", "specificity", "environment"})
RUNS = itertools.count()  # every hook run gets a session never used before


class Corpus:
    """One corpus folder: its graph, its labelled calls and the placeholder project root they use."""

    def __init__(self, name, placeholder_root):
        self.name = name
        self.folder = HERE / name
        self.placeholder_root = placeholder_root
        graph = json.loads((self.folder / "graph.json").read_text())
        self.graph = graph
        self.nodes = [n for n in graph["nodes"] if knowledge.is_process_node(n)]
        self.active = {n["id"] for n in self.nodes if knowledge.status_of(n) == "active"}
        self.critical = {n["id"] for n in self.nodes if n["id"] in self.active and n["priority"] == "CRITICAL"}
        self.priority = {n["id"]: n.get("priority", "MEDIUM") for n in self.nodes}

    def calls(self, filename="calls.jsonl"):
        with open(self.folder / filename, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]


LEDGER = Corpus("ledger", "/home/dev/ledger")
SHOP = Corpus("shop", "/home/dev/shop")
CLINIC = Corpus("clinic", "/home/dev/clinic")
CLINIC2 = Corpus("clinic2", "/home/dev/clinic")
FLEET = Corpus("fleet", "/home/dev/fleet")
REEL = Corpus("reel", "/home/dev/reel")
HARBOR = Corpus("harbor", "/home/dev/harbor")
GRID = Corpus("grid", "/home/dev/grid")
BAZAAR = Corpus("bazaar", "/home/dev/bazaar")
QUARRY = Corpus("quarry", "/home/dev/quarry")


def windows_root(record):
    """The Windows project root of a call made on Windows (its ``cwd`` has a drive letter), else None."""
    cwd = record["hook"].get("cwd") or ""
    return cwd if len(cwd) > 2 and cwd[1] == ":" else None


class Project:
    """A real project on disk holding one corpus's graph, and the hook inputs rewritten to point into it."""

    def __init__(self, corpus, root, scratch):
        self.corpus = corpus
        self.root = root
        self.scratch = scratch
        (root / ".git").mkdir(parents=True)
        (root / ".claude" / "graphs").mkdir(parents=True)
        (root / ".claude" / "graphs" / (corpus.name + ".json")).write_text(json.dumps(corpus.graph))

    def hook_input(self, record):
        """The call's hook JSON with the placeholder root replaced, a session of its own and its transcript."""
        text = json.dumps(record["hook"]).replace(self.corpus.placeholder_root, str(self.root))
        data = json.loads(text)
        data["session_id"] = "corpus-%s-%s-%d" % (self.corpus.name, record["id"], next(RUNS))
        if record.get("transcript"):
            data["transcript_path"] = str(self.corpus.folder / "transcripts" / record["transcript"])
        else:
            data["transcript_path"] = str(self.scratch / "no-transcript.jsonl")  # as early in a session: not written yet
        return data

    def call_root(self, record):
        """The project root the hook sees for this call: the Windows root for a Windows call."""
        return windows_root(record) or str(self.root)


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    """One project per corpus, with forewarn's data and user graphs in temporary folders."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FOREWARN_DATA_DIR", str(tmp_path_factory.mktemp("data")))
        mp.setenv("FOREWARN_USER_GRAPHS", str(tmp_path_factory.mktemp("user-graphs")))
        mp.setenv("FOREWARN_NO_BOOTSTRAP", "1")
        for var in ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_DATA", "DISABLE_EXPERIENCE_INJECTION") + tuple(config.ENV.values()):
            mp.delenv(var, raising=False)
        scratch = tmp_path_factory.mktemp("scratch")
        yield {c.name: Project(c, tmp_path_factory.mktemp(c.name) / c.name, scratch) for c in (LEDGER, SHOP, CLINIC, CLINIC2, FLEET, REEL, HARBOR, GRID, BAZAAR,
                                                                                                    QUARRY)}


def shipped_decisions(project, records):
    """The ids ``inject.handle`` injects for each call, read back from its trace line.

    Claude Code sets ``CLAUDE_PROJECT_DIR`` for every hook.  A call made on
    Windows cannot have its Windows root on this machine, so for those the
    hook is told that root (``paths.project_root``) and given the index
    compiled from the same graph (``index.open_fresh``); everything else
    runs as it would there.
    """
    real_open_fresh = index.open_fresh
    decisions = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CLAUDE_PROJECT_DIR", str(project.root))
        for record in records:
            data = project.hook_input(record)
            win = windows_root(record)
            if win:
                mp.setattr(paths, "project_root", lambda cwd=None, _root=win: _root)
                mp.setattr(index, "open_fresh", lambda root, **kw: real_open_fresh(str(project.root), **kw))
            before = _trace_size()
            inject.handle(data)
            lines = _trace_lines_from(before)
            if win:
                mp.undo()
                mp.setenv("CLAUDE_PROJECT_DIR", str(project.root))
            if inject.read_only(data["tool_name"]):
                assert not lines
                decisions.append([])
                continue
            assert len(lines) == 1, (record["id"], lines)
            entry = json.loads(lines[0])
            assert entry["session"] == data["session_id"] and not entry["repeats"]
            decisions.append(entry["injected"])
    return decisions


def _trace_size():
    try:
        return os.path.getsize(trace.trace_file())
    except OSError:
        return 0


def _trace_lines_from(offset):
    try:
        with open(trace.trace_file(), "rb") as handle:
            handle.seek(offset)
            return handle.read().decode("utf-8").splitlines()
    except OSError:
        return []


def formula_decisions(project, records, gates):
    """The top 3 by the original formula over every item, applying only the named ``gates``.

    The terms are the engine's own (``relevance.evaluate`` with every item
    scored and the conversation always read); which gates apply is decided
    here from the terms, so ``gates=ALL_GATES`` must reproduce the hook.
    """
    idx, _state = index.open_fresh(str(project.root))
    threshold = config.DEFAULTS["threshold"]
    decisions = []
    try:
        for record in records:
            data = project.hook_input(record)
            if inject.read_only(data["tool_name"]):
                decisions.append([])
                continue
            call = ToolCall(data, project.call_root(record))
            text = fold(recent_text(data["transcript_path"], config.DEFAULTS["context_bytes"]))
            verdicts = relevance.evaluate(idx, call, threshold, lambda: text, everything=True, always_context=True)
            kept = [v for v in verdicts if v.score >= threshold and not blocked(v, call, gates, lambda: text)]
            kept.sort(key=relevance.rank_key)
            picked = kept[: config.DEFAULTS["top_k"]]
            texts = [idx.text(v.record) for v in picked]  # as the hook: what the character budget leaves out is not shown
            context = render.fence(inject.heading(call, len(picked)), texts, config.DEFAULTS["max_chars"]) if picked else ""
            decisions.append([v.record[index.R_ID] for v, t in zip(picked, texts) if t.split("\n", 1)[0] in context])
    finally:
        idx.close()
    return decisions


def blocked(verdict, call, gates, conversation):
    """True if one of ``gates`` stops this verdict (the gates of docs/relevance.md, from the terms alone)."""
    rec = verdict.record
    tools, patterns, actions, contexts = rec[index.R_TOOLS], rec[index.R_PATTERNS], rec[index.R_ACTION], rec[index.R_CONTEXT]
    if "tool" in gates and tools and not verdict.tool:
        return True
    if "file" in gates and patterns and call.file_bearing and not verdict.file and not verdict.secret:
        return True
    if "action" in gates and actions and verdict.action is None and not call.wordless:
        return True
    if "specificity" in gates and (patterns or actions or contexts) and not (verdict.file or verdict.action or verdict.context):
        return True
    if "environment" in gates and (relevance.other_environment(rec, call) or call.runs_outside and not relevance.users_own(rec)
                                   or actions and verdict.action is not None and call.dry_run() or (patterns or actions or contexts) and call.only_reads()
                                   or relevance.session_environment(rec, call, conversation)):
        return True
    return False


def measure(corpus, records, decisions):
    """Micro precision and recall, CRITICAL recall, false-positive rate, and the calls that went wrong."""
    injected = hits = wanted_total = critical_total = critical_hits = 0
    by_priority = {p: [0, 0] for p in knowledge.PRIORITY_MULTIPLIER}
    wrong = []
    for record, chosen in zip(records, decisions):
        wanted, chosen = set(record["relevant"]), set(chosen)
        injected += len(chosen)
        hits += len(wanted & chosen)
        wanted_total += len(wanted)
        critical_total += len(wanted & corpus.critical)
        critical_hits += len(wanted & chosen & corpus.critical)
        for item in wanted:
            by_priority[corpus.priority[item]][0] += 1
            by_priority[corpus.priority[item]][1] += item in chosen
        if wanted != chosen:
            wrong.append((record, sorted(chosen - wanted), sorted(wanted - chosen)))
    precision = hits / injected if injected else 1.0
    return {
        "calls": len(records), "labels": wanted_total, "injected": injected, "hits": hits,
        "precision": precision, "recall": hits / wanted_total if wanted_total else 1.0,
        "critical_recall": critical_hits / critical_total if critical_total else 1.0,
        "critical": (critical_hits, critical_total),
        "fp_rate": (injected - hits) / injected if injected else 0.0,
        "by_priority": by_priority, "wrong": wrong,
    }


def table(title, rows):
    lines = ["", title, "| rule | injected | correct | precision | recall | CRITICAL recall | false-positive rate |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, m in rows:
        lines.append("| %s | %d | %d | %.3f | %.3f | %.3f (%d/%d) | %.3f |" % (
            name, m["injected"], m["hits"], m["precision"], m["recall"], m["critical_recall"],
            m["critical"][0], m["critical"][1], m["fp_rate"]))
    return "\n".join(lines)


def describe(record):
    hook = record["hook"]
    inp = hook.get("tool_input") or {}
    target = inp.get("file_path") or inp.get("notebook_path") or inp.get("command") or inp.get("prompt") or ""
    return "%s %s %s" % (record["id"], hook["tool_name"], target[:100])


def report(m):
    lines = ["recall by priority: " + ", ".join(
        "%s %d/%d" % (p, got, total) for p, (total, got) in m["by_priority"].items() if total)]
    for record, extra, missed in m["wrong"]:
        lines.append("  %s: extra %s, missed %s" % (describe(record), extra, missed))
    return "\n".join(lines)


RULES = (
    ("shipped rule (all five gates)", ALL_GATES),
    ("tool and file gates only", frozenset({"tool", "file"})),
    ("original formula, no gates", frozenset()),
)
THRESHOLDS = (0.6, 0.7, 0.75, 0.8, 1.0)


@pytest.fixture(scope="module")
def results(projects):
    """Every rule measured once per corpus file: ``{(corpus, filename): [(rule, metrics), ...]}``."""
    out = {}
    for corpus, filename in ((LEDGER, "calls.jsonl"), (SHOP, "calls.jsonl"), (SHOP, "held_out.jsonl"), (CLINIC, "calls.jsonl"),
                                 (CLINIC2, "calls.jsonl"), (FLEET, "calls.jsonl"), (REEL, "calls.jsonl"),
                             (HARBOR, "calls.jsonl"), (GRID, "calls.jsonl"), (BAZAAR, "calls.jsonl"),
                             (QUARRY, "calls.jsonl")):
        project, records = projects[corpus.name], corpus.calls(filename)
        rows = [(RULES[0][0], measure(corpus, records, shipped_decisions(project, records)))]
        rows += [(name, measure(corpus, records, formula_decisions(project, records, gates))) for name, gates in RULES[1:]]
        print(table("%s %s (%d calls, %d labels)" % (corpus.name, filename, len(records), rows[0][1]["labels"]), rows))
        print(report(rows[0][1]))
        out[corpus.name, filename] = rows
    return out


@pytest.mark.parametrize("corpus", [LEDGER, SHOP, CLINIC, CLINIC2, FLEET, REEL, HARBOR, GRID, BAZAAR, QUARRY], ids=lambda c: c.name)
def test_corpus_is_well_formed(corpus):
    """Enough nodes and calls; valid nodes; labels name active items; hook inputs have the documented shape."""
    calls = corpus.calls()
    assert len(corpus.nodes) >= 30 and len(calls) >= 150
    assert {n["process_type"] for n in corpus.nodes} == set(knowledge.PROCESS_TYPES)
    assert {n["priority"] for n in corpus.nodes} == set(knowledge.PRIORITY_MULTIPLIER)
    for node in corpus.nodes:
        assert knowledge.problems(node) == [], node["id"]
    ids = [r["id"] for r in calls]
    assert len(ids) == len(set(ids))
    for record in calls:
        assert set(record["relevant"]) <= corpus.active, record["id"]
        hook = record["hook"]
        assert hook["hook_event_name"] == "PreToolUse" and isinstance(hook["tool_input"], dict)
        assert {"session_id", "transcript_path", "cwd", "tool_name", "tool_use_id"} <= set(hook)
        if record.get("transcript"):
            assert (corpus.folder / "transcripts" / record["transcript"]).is_file()


def test_comparison_scores_like_the_hook(projects):
    """The gates as applied here reproduce inject.handle exactly, so the comparison rows measure the same terms."""
    for project in projects.values():
        records = project.corpus.calls()
        assert formula_decisions(project, records, ALL_GATES) == shipped_decisions(project, records)


def test_gates_cut_the_noise(results):
    """On every corpus the shipped rule injects a smaller share of irrelevant items than the formula alone or with only
    the tool and file gates (which two of those is worse depends on the corpus: on grid the formula alone is), and
    fewer than a third of the irrelevant items the tool and file gates let through."""
    for rows in results.values():
        shipped, file_gates, formula = (m for _name, m in rows)
        assert shipped["fp_rate"] < min(file_gates["fp_rate"], formula["fp_rate"])
        assert shipped["injected"] - shipped["hits"] < (file_gates["injected"] - file_gates["hits"]) / 3


def test_development_corpus_meets_the_targets(results):
    """The corpus the gates were designed on: CRITICAL recall 100 %, under 10 % of injected items irrelevant."""
    shipped = results["shop", "calls.jsonl"][0][1]
    assert shipped["critical_recall"] == 1.0
    assert shipped["fp_rate"] < 0.10


def test_blind_corpora_do_not_regress(results):
    """The calls labelled after the rule was designed: never worse than docs/relevance.md reports."""
    ledger = results["ledger", "calls.jsonl"][0][1]
    assert ledger["critical"][0] >= 41 and ledger["hits"] >= 91 and ledger["injected"] - ledger["hits"] <= 14
    clinic = results["clinic", "calls.jsonl"][0][1]  # blind when first run: docs/relevance.md
    assert clinic["critical"][0] >= 52 and clinic["hits"] >= 83 and clinic["injected"] - clinic["hits"] <= 31
    clinic2 = results["clinic2", "calls.jsonl"][0][1]  # blind when first run
    assert clinic2["critical"][0] >= 53 and clinic2["hits"] >= 100 and clinic2["injected"] - clinic2["hits"] <= 16
    fleet = results["fleet", "calls.jsonl"][0][1]  # blind when first run
    assert fleet["critical"][0] >= 51 and fleet["hits"] >= 91 and fleet["injected"] - fleet["hits"] <= 12
    reel = results["reel", "calls.jsonl"][0][1]  # blind when first run
    assert reel["critical"][0] >= 43 and reel["hits"] >= 72 and reel["injected"] - reel["hits"] <= 14
    harbor = results["harbor", "calls.jsonl"][0][1]  # blind when first run
    assert harbor["critical"][0] >= 38 and harbor["hits"] >= 60 and harbor["injected"] - harbor["hits"] <= 12
    grid = results["grid", "calls.jsonl"][0][1]  # blind when first run: 21/67, 38 correct, 19 irrelevant
    assert grid["critical"][0] >= 38 and grid["hits"] >= 67 and grid["injected"] - grid["hits"] <= 17
    bazaar = results["bazaar", "calls.jsonl"][0][1]  # blind: 14/67, 35 correct, 16 irrelevant with the rule before it
    assert bazaar["critical"][0] >= 33 and bazaar["hits"] >= 67 and bazaar["injected"] - bazaar["hits"] <= 25
    quarry = results["quarry", "calls.jsonl"][0][1]  # blind, measured once: 22/70, 39 correct, 18 irrelevant at 73e17e8
    assert quarry["critical"][0] >= 30 and quarry["hits"] >= 47 and quarry["injected"] - quarry["hits"] <= 14
    held_out = results["shop", "held_out.jsonl"][0][1]
    assert held_out["critical"][0] >= 9 and held_out["hits"] >= 15 and held_out["injected"] - held_out["hits"] <= 1


@pytest.mark.parametrize("name", ["ledger", "clinic", "clinic2", "fleet", "reel", "harbor", "grid", "bazaar", "quarry"])
@pytest.mark.xfail(strict=True, reason="not met on the corpora labelled after the rule was designed (ledger: CRITICAL "
                   "recall 41/47, 14 of 105 injected items irrelevant; clinic 52/63, 31 of 114; clinic2 53/64, 16 of "
                   "116; fleet 51/68, 12 of 103; reel 43/70, 14 of 86; harbor 38/66, 12 of 72; grid 38/67, 17 of 84; bazaar "
                   "33/67, 25 of 92; quarry 30/70, 14 of 61): "
                   "docs/relevance.md")
def test_blind_corpus_meets_the_issue_targets(results, name):
    """The issue's targets on the corpora labelled afterwards: CRITICAL recall 100 %, under 10 % irrelevant."""
    shipped = results[name, "calls.jsonl"][0][1]
    assert shipped["critical_recall"] == 1.0 and shipped["fp_rate"] < 0.10


def test_threshold_sweep(projects):
    """What the threshold changes (printed for docs/relevance.md).

    Fewer items as it rises; 0.70 and 0.75 decide alike, because no score
    the weights and multipliers can produce lies in between (0.6 and 0.75
    are the nearest to 0.7).
    """
    for corpus in (LEDGER, SHOP):
        records = corpus.calls()
        rows, decisions = [], {}
        with pytest.MonkeyPatch.context() as mp:
            for threshold in THRESHOLDS:
                mp.setenv("FOREWARN_THRESHOLD", str(threshold))
                decisions[threshold] = shipped_decisions(projects[corpus.name], records)
                rows.append(("threshold %.2f" % threshold, measure(corpus, records, decisions[threshold])))
        print(table("%s calls.jsonl, shipped rule by threshold" % corpus.name, rows))
        injected = [m["injected"] for _name, m in rows]
        assert injected == sorted(injected, reverse=True) and injected[0] > injected[-1]
        assert decisions[0.7] == decisions[0.75]
