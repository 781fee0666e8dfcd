"""hooks/session_start.py as a subprocess: the briefing for every source, within its budget."""

import pytest

from conftest import checklist, graph, run_hook

HOOK = "session_start.py"


def start(project, source="startup"):
    return {"session_id": "S", "transcript_path": "", "cwd": str(project), "hook_event_name": "SessionStart", "source": source}


@pytest.mark.parametrize("source", ["startup", "resume", "clear", "compact"])
def test_briefing_lists_critical_items_and_drafts(project, source):
    graph(project, [checklist("ck-a"), checklist("d-1", status="draft"), checklist("d-2", status="draft"), checklist("h", priority="HIGH")])
    run = run_hook(HOOK, start(project, source))
    assert run.returncode == 0
    out = run.json()["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    text = out["additionalContext"]
    assert "[CRITICAL] Version bump ck-a" in text and "Version bump h" not in text
    assert "2 draft lessons" in text and "/forewarn:knowledge-review-drafts" in text


def test_top_five_within_budget(project):
    graph(project, [dict(checklist("c%02d" % i), description="d" * 400) for i in range(12)])
    text = run_hook(HOOK, start(project)).json()["hookSpecificOutput"]["additionalContext"]
    assert len(text) <= 2000
    assert text.count("[CRITICAL]") == 5 and "and 7 more" in text


def test_nothing_to_say_is_silence(project):
    graph(project, [checklist("h", priority="HIGH")])
    assert run_hook(HOOK, start(project)).stdout == b""


def test_the_off_switch_silences_the_briefing(project):
    graph(project, [checklist("ck-a"), checklist("d-1", status="draft")])
    assert "[CRITICAL]" in run_hook(HOOK, start(project)).json()["hookSpecificOutput"]["additionalContext"]
    run = run_hook(HOOK, start(project), env={"DISABLE_EXPERIENCE_INJECTION": "1"})
    assert run.returncode == 0 and run.stdout == b""


def test_invalid_nodes_are_mentioned(project):
    bad = checklist("bad")
    bad["priority"] = "URGENT"
    graph(project, [bad, checklist("ok")])
    text = run_hook(HOOK, start(project)).json()["hookSpecificOutput"]["additionalContext"]
    assert "could not be used" in text and "forewarn validate" in text


def test_degraded_notice_while_the_optional_environment_is_prepared(project, monkeypatch):
    import json
    import os

    graph(project, [checklist("h", priority="HIGH")])
    data = os.environ["FOREWARN_DATA_DIR"]
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "venv-status.json"), "w") as handle:
        json.dump({"state": "building"}, handle)
    monkeypatch.delenv("FOREWARN_NO_BOOTSTRAP")
    text = run_hook(HOOK, start(project)).json()["hookSpecificOutput"]["additionalContext"]
    assert "optional tools (schema validation) are being prepared" in text
    with open(os.path.join(data, "venv-status.json"), "w") as handle:
        json.dump({"state": "failed", "error": "pip could not reach the index"}, handle)
    text = run_hook(HOOK, start(project)).json()["hookSpecificOutput"]["additionalContext"]
    assert "unavailable (pip could not reach the index)" in text


def test_unwritable_data_folder_is_a_notice(project, tmp_path):
    graph(project, [checklist()])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = run_hook(HOOK, start(project), env={"FOREWARN_DATA_DIR": str(blocker / "data")})
    assert "not writable" in run.json()["hookSpecificOutput"]["additionalContext"]


def test_bad_input_exits_zero(project):
    for payload in (b"", b"{", b"[]", b'{"cwd": 3}'):
        run = run_hook(HOOK, payload)
        assert run.returncode == 0
