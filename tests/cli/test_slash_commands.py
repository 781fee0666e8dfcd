"""The four slash commands in the real Claude Code binary (tests/e2e/README.md), from a plugin folder with a space in its path.

Bash is not among the session's allowed tools, so each command runs only
because its own ``allowed-tools`` covers it; errors (unknown id, missing
argument) must reach the model instead of aborting the command.
"""

import json
import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e"))
from claude_code import REPO, Sandbox, Unavailable, ensure_claude, write_graph  # noqa: E402
from fake_anthropic import flatten, text_turn  # noqa: E402

pytestmark = pytest.mark.e2e

DRAFT = {
    "id": "checklist-regenerate-the-lockfile", "type": "Concept", "label": "Regenerate the lockfile after editing requirements",
    "process_type": "checklist", "priority": "MEDIUM", "status": "draft", "created_at": "2026-11-20T00:00:00Z",
    "trigger_conditions": {"tool_names": ["Edit"], "file_patterns": ["**/requirements*.txt"]},
    "checklist": {"items": ["Run pip-compile"]}, "evidence": ["you forgot to regenerate requirements.lock again"],
    "source": {"kind": "user_correction"},
}


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """A copy of the plugin in a folder whose path has a space in it."""
    target = tmp_path_factory.mktemp("plugins") / "fore warn"
    shutil.copytree(REPO, target, ignore=shutil.ignore_patterns(".git", ".venv", ".cache", ".hypothesis", "__pycache__", "tests", "benchmarks"))
    return str(target)


@pytest.fixture
def sandbox(tmp_path):
    try:
        claude = ensure_claude()
    except Unavailable as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("end-to-end tests must run in CI: %s" % exc)
        pytest.skip(str(exc))
    box = Sandbox(claude, tmp_path)
    write_graph(box.project, [DRAFT, dict(DRAFT, id="warning-other", label="Other", status="active")], name="lessons_graph.json")
    return box


def command_prompt(sandbox, plugin, prompt):
    """What the model received for one slash command (the command's body with the CLI's output in it)."""
    result = sandbox.run(prompt, [text_turn("Noted.")], plugin_dir=plugin, tools="Read")
    assert result.returncode == 0 and result.json and result.json.get("is_error") is False, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.agent_requests, "the command never reached the model: %s" % result.json.get("result")
    return flatten(result.agent_requests[0])


def statuses(sandbox):
    with open(sandbox.path(".claude", "graphs", "lessons_graph.json")) as handle:
        return {n["id"]: (n.get("status"), n.get("priority")) for n in json.load(handle)["nodes"]}


def test_review_show_promote_archive(sandbox, plugin):
    review = command_prompt(sandbox, plugin, "/forewarn:knowledge-review-drafts")
    assert "checklist-regenerate-the-lockfile  [MEDIUM checklist]" in review and "evidence: you forgot to regenerate" in review
    assert "Do not promote or archive anything yourself." in review
    shown = command_prompt(sandbox, plugin, "/forewarn:knowledge-show checklist-regen")
    assert "checklist-regenerate-the-lockfile  (draft, MEDIUM, checklist)" in shown and "- [ ] Run pip-compile" in shown
    promoted = command_prompt(sandbox, plugin, "/forewarn:knowledge-promote checklist-regen high")
    assert "checklist-regenerate-the-lockfile is active (HIGH)" in promoted
    assert statuses(sandbox)["checklist-regenerate-the-lockfile"] == ("active", "HIGH")
    archived = command_prompt(sandbox, plugin, "/forewarn:knowledge-archive warning-other")
    assert "warning-other is archived" in archived and statuses(sandbox)["warning-other"] == ("archived", "MEDIUM")


def test_errors_reach_the_model_instead_of_aborting(sandbox, plugin):
    unknown = command_prompt(sandbox, plugin, "/forewarn:knowledge-promote nothing-like-this")
    assert "forewarn: no knowledge item has the id 'nothing-like-this'" in unknown
    missing = command_prompt(sandbox, plugin, "/forewarn:knowledge-archive")
    assert "forewarn archive: the following arguments are required: id" in missing
    assert statuses(sandbox)["checklist-regenerate-the-lockfile"] == ("draft", "MEDIUM")


def test_the_model_is_offered_only_the_commands_that_change_nothing(sandbox, plugin):
    listing = sandbox.run("hello", [text_turn("Hi.")], plugin_dir=plugin, tools="Read Skill")
    offered = flatten(listing.agent_requests[0])
    assert "forewarn:knowledge-review-drafts" in offered and "forewarn:knowledge-show" in offered
    assert "forewarn:knowledge-promote" not in offered and "forewarn:knowledge-archive" not in offered  # disable-model-invocation
