"""forewarn.command_aliases: the same act under another tool's name."""

from forewarn.command_aliases import SAME_ACT, same_act
from forewarn.keywords import fold


def test_a_command_keyword_brings_its_group_and_keeps_the_rest():
    assert same_act(["version", "npm publish"]) == ["version", "npm publish", "pnpm publish", "yarn publish",
                                                     "yarn npm publish", "bun publish"]
    assert same_act(["Twine  Upload"])[1:3] == ["uv publish", "poetry publish"]  # spacing and case do not matter
    assert same_act(["release"]) == ["release"]


def test_no_alias_is_made_of_words_a_flag_could_supply():
    """A keyword's words may stand apart in a command; an alias like ``cargo release`` would match ``--release``."""
    common_flags = {"release", "force", "install", "all", "dry", "run", "push", "apply"}
    for group in SAME_ACT:
        for name in group[1:]:
            words = fold(name).split()
            assert words[0] not in common_flags and not set(words[1:]) <= {"release", "all", "dry", "run"}, name


def test_pnpm_publish_gets_the_knowledge_written_for_npm_publish(tmp_path, monkeypatch):
    import json

    from forewarn import inject, index

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".claude" / "graphs").mkdir(parents=True)
    node = {"id": "ck-sdk-publish", "type": "Concept", "label": "SDK publish checklist", "process_type": "checklist",
            "priority": "CRITICAL", "trigger_conditions": {"tool_names": ["Bash"], "action_keywords": ["npm publish"]},
            "checklist": {"items": ["Bump sdk/package.json", "Tag sdk-vX.Y.Z"]}}
    (root / ".claude" / "graphs" / "k.json").write_text(json.dumps({"directed": True, "nodes": [node], "links": []}))
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("FOREWARN_USER_GRAPHS", str(tmp_path / "user"))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    idx, _state = index.open_fresh(str(root))
    idx.close()

    def decide(command, session):
        return inject.handle({"session_id": session, "transcript_path": "", "cwd": str(root), "hook_event_name": "PreToolUse",
                              "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"})

    assert "ck-sdk-publish" in decide("pnpm --filter @acme/sdk publish --no-git-checks", "a")
    assert not decide("pnpm --filter @acme/sdk build", "b")


def test_deploy_commands_meet_a_dispatched_deploy_and_destructive_sql_meets_every_destructive_statement():
    from forewarn.command_aliases import DATA_DESTROYED, DEPLOY_DISPATCH

    assert same_act(["argocd app sync"]) == ["argocd app sync", DEPLOY_DISPATCH]
    assert same_act(["terraform apply"]) == ["terraform apply", "tofu apply", "terragrunt apply"]  # infrastructure
    assert same_act(["TRUNCATE"], about_production=True) == ["TRUNCATE", DATA_DESTROYED]
    assert same_act(["TRUNCATE"]) == ["TRUNCATE"]  # on a scratch database a TRUNCATE destroys nothing anyone keeps
    assert not set(fold(DATA_DESTROYED).split()) & {"delete", "drop", "rm", "update", "truncate"}  # no keyword's word
