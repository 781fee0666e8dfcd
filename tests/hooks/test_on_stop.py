"""hooks/on_stop.py as a subprocess with real transcripts: drafts, repeats, offsets, concurrency, bad input."""

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import graph, checklist, log_text, run_hook

HOOK = "on_stop.py"


def human(text):
    return {"type": "user", "message": {"role": "user", "content": text}}


def reply(text="Done."):
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}


def edit(path):
    return {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "Edit", "input": {"file_path": path, "old_string": "a", "new_string": "b"}}]}}


def append(path, *records, raw=""):
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
        handle.write(raw)


def stop(project, transcript, session="S1", **extra):
    payload = {"session_id": session, "transcript_path": str(transcript), "cwd": str(project), "hook_event_name": "Stop",
               "stop_hook_active": False, "last_assistant_message": "Done."}
    payload.update(extra)
    return payload


def lessons(project):
    path = project / ".claude" / "graphs" / "lessons_graph.json"
    return json.loads(path.read_text())["nodes"] if path.exists() else []


def test_correction_becomes_a_draft_and_the_user_is_told(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, human("bump the version"), edit(str(project / ".claude-plugin" / "plugin.json")),
           human("You forgot to update marketplace.json."))
    run = run_hook(HOOK, stop(project, transcript))
    assert run.returncode == 0
    out = run.json()
    assert list(out) == ["systemMessage"] and "draft lesson" in out["systemMessage"]
    (node,) = lessons(project)
    assert node["status"] == "draft" and node["priority"] == "CRITICAL"
    assert node["trigger_conditions"]["file_patterns"] == ["**/plugin.json", "**/marketplace.json"]  # the edited file, the named one
    assert node["source"]["session_id"] == "S1"


def test_a_correction_takes_its_triggers_from_the_turn_the_previous_stop_read(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, human("bump the version"), edit(str(project / ".claude-plugin" / "plugin.json")))
    assert run_hook(HOOK, stop(project, transcript)).stdout == b""  # turn 1 taught nothing
    append(transcript, human("You forgot to update marketplace.json."), edit(str(project / "README.md")))
    run_hook(HOOK, stop(project, transcript))
    (node,) = lessons(project)
    assert node["trigger_conditions"]["file_patterns"] == ["**/plugin.json", "**/marketplace.json"]
    assert "Edit" in node["trigger_conditions"]["tool_names"]


def test_repeated_stop_events_never_duplicate(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, reply(), human("you forgot to run the linter before committing"))
    for _ in range(3):
        assert run_hook(HOOK, stop(project, transcript)).returncode == 0
    assert len(lessons(project)) == 1 and lessons(project)[0].get("occurrences", 1) == 1


def test_the_same_correction_in_a_later_turn_counts_as_a_repeat(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, edit(str(project / "requirements.txt")), human("you forgot to regenerate requirements.lock"))
    run_hook(HOOK, stop(project, transcript))
    append(transcript, edit(str(project / "requirements.txt")), human("again you forgot to regenerate requirements.lock!"))
    run = run_hook(HOOK, stop(project, transcript))
    assert "seen again" in run.json()["systemMessage"]
    (node,) = lessons(project)
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


def test_a_bare_again_in_a_later_stop_counts_only_when_it_repeats_a_stored_lesson(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    sync = str(project / "app" / "sync.py")
    append(transcript, human("skip hikes older than 30 days"), edit(sync),
           human("no datetime.utcnow(), it's naive. datetime.now(timezone.utc)"), edit(sync))
    run_hook(HOOK, stop(project, transcript))
    assert len(lessons(project)) == 1
    append(transcript, human("stamp last_synced_at after a sync"), edit(sync), human("utcnow again. aware datetimes only pls"))
    run = run_hook(HOOK, stop(project, transcript))
    assert "seen again" in run.json()["systemMessage"]
    (node,) = lessons(project)
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"
    append(transcript, edit(sync), human("the other endpoint again, same treatment for hikes.py"))
    assert run_hook(HOOK, stop(project, transcript)).stdout.decode() == ""  # repeats nothing stored: no lesson
    assert len(lessons(project)) == 1 and lessons(project)[0]["occurrences"] == 2


def test_half_written_last_line_is_read_next_time(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, human("hello"), reply(), raw=json.dumps(human("you forgot to add the migration"))[:30])
    run_hook(HOOK, stop(project, transcript))
    assert lessons(project) == []
    with open(transcript, "a") as handle:
        handle.write(json.dumps(human("you forgot to add the migration"))[30:] + "\n")
    run_hook(HOOK, stop(project, transcript))
    assert [n["label"] for n in lessons(project)] == ["Add the migration"]


def test_process_knowledge_in_last_assistant_message(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, human("do it"))
    block = "[PROCESS_KNOWLEDGE]\ntype: requirement\npriority: HIGH\nlabel: Keep API_TOKEN=abcd1234secret out of logs\nrequirement:\n  constraint: Never log request headers\n[/PROCESS_KNOWLEDGE]"
    run_hook(HOOK, stop(project, transcript, last_assistant_message=block))
    (node,) = lessons(project)
    assert node["process_type"] == "requirement" and "abcd1234secret" not in json.dumps(node)


def test_stop_hook_active_and_bad_inputs_do_nothing(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, human("you forgot the tests"))
    assert run_hook(HOOK, stop(project, transcript, stop_hook_active=True)).stdout == b""
    for payload in (b"", b"[]", b"not json", json.dumps({"session_id": 5}).encode(),
                    json.dumps(stop(project, tmp_path / "missing.jsonl")).encode(),
                    json.dumps(stop(project, tmp_path))  # a folder as transcript
                    .encode()):
        run = run_hook(HOOK, payload)
        assert run.returncode == 0
    assert lessons(project) == []


def test_corrupt_lessons_graph_is_never_overwritten(project, tmp_path):
    corrupt = project / ".claude" / "graphs" / "lessons_graph.json"
    corrupt.write_text('{"nodes": [ {"id": "precious"')
    transcript = tmp_path / "t.jsonl"
    append(transcript, reply(), human("you forgot to bump the version"))
    run = run_hook(HOOK, stop(project, transcript))
    assert run.returncode == 0 and run.stdout == b""
    assert corrupt.read_text() == '{"nodes": [ {"id": "precious"'
    assert "lessons_graph.json" in log_text()


def test_concurrent_stop_hooks_lose_no_draft(project, tmp_path):
    graph(project, [checklist()])
    payloads = []
    for i in range(8):
        transcript = tmp_path / ("t%d.jsonl" % i)
        append(transcript, edit(str(project / ("module%d.py" % i))), human("you forgot to add a test for module%d parser%d" % (i, i)))
        payloads.append(stop(project, transcript, session="S%d" % i))
    with ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda p: run_hook(HOOK, p), payloads))
    assert all(r.returncode == 0 for r in runs)
    nodes = lessons(project)
    assert len(nodes) == 8 and len({n["id"] for n in nodes}) == 8


def test_ten_megabyte_transcript_is_processed(project, tmp_path):
    transcript = tmp_path / "big.jsonl"
    filler = {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "x" * 2000}]}}
    with open(transcript, "w") as handle:
        line = json.dumps(filler) + "\n"
        for _ in range((10 << 20) // len(line)):
            handle.write(line)
        handle.write(json.dumps(human("you forgot to update the lockfile")) + "\n")
    run = run_hook(HOOK, stop(project, transcript))
    assert run.returncode == 0 and [n["label"] for n in lessons(project)] == ["Update the lockfile"]


def test_a_fifty_megabyte_backlog_is_read_over_several_stops(project, tmp_path):
    transcript = tmp_path / "huge.jsonl"
    filler = json.dumps({"type": "progress", "data": {"type": "bash_progress", "output": "y" * 4000}}) + "\n"
    with open(transcript, "w") as handle:
        for _ in range((50 << 20) // len(filler)):
            handle.write(filler)
        handle.write(json.dumps(human("you forgot to pin the base image")) + "\n")
    runs = []
    while not lessons(project) and len(runs) < 6:
        runs.append(run_hook(HOOK, stop(project, transcript)))
    assert all(r.returncode == 0 for r in runs)
    assert [n["label"] for n in lessons(project)] == ["Pin the base image"]
    assert len(runs) == 4  # 16 MiB per Stop


def test_a_lost_offset_does_not_count_the_same_sighting_twice(project, tmp_path):
    transcript = tmp_path / "t.jsonl"
    append(transcript, reply(), human("you forgot to regenerate requirements.lock"))
    run_hook(HOOK, stop(project, transcript))
    # the data folder (and with it the offset) is gone, e.g. after a reinstall: the transcript is read again
    run = run_hook(HOOK, stop(project, transcript), env={"FOREWARN_DATA_DIR": str(tmp_path / "fresh-data")})
    assert run.returncode == 0
    (node,) = lessons(project)
    assert node.get("occurrences", 1) == 1 and "sightings" not in node


def test_the_detectors_compiled_patterns_and_the_reply_model_are_kept_for_the_next_stop(project, tmp_path, data_dir):
    """The first Stop writes the marshal copies (regex_cache, marshal_cache); a later Stop reads them and drafts the same."""
    cache = os.path.join(str(data_dir), "cache")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for transcript in (first, second):
        append(transcript, human("add the retry to the client"), edit(str(project / "src" / "client.py")),
               human("nope, we never retry POSTs. only idempotent GETs get a retry"))
    assert run_hook(HOOK, stop(project, first, session="A")).returncode == 0
    kept = sorted(name.split(".")[0] for name in os.listdir(cache))
    assert kept == ["regex", "reply_model"]
    stamps = {name: os.stat(os.path.join(cache, name)).st_mtime_ns for name in os.listdir(cache)}
    drafts = [n["label"] for n in lessons(project)]
    (project / ".claude" / "graphs" / "lessons_graph.json").unlink()
    assert run_hook(HOOK, stop(project, second, session="B")).returncode == 0
    assert [n["label"] for n in lessons(project)] == drafts and drafts
    assert {name: os.stat(os.path.join(cache, name)).st_mtime_ns for name in os.listdir(cache)} == stamps  # read, not rebuilt
