"""Unit tests of the lesson-capture modules: YAML subset, redaction, transcript reading, inference, merging."""

import json

import pytest

from forewarn.learning import capture, inference, markers, redact, transcript, yamlish
from forewarn.learning.corrections import find_corrections


# ---------------------------------------------------------------- yamlish

def test_yaml_subset_nested_mappings_lists_and_scalars():
    doc = yamlish.parse(
        "type: checklist  # a comment\n"
        "priority: 'HIGH'\n"
        "n: 3\nok: true\nnothing: null\n"
        "trigger_conditions:\n"
        "  tool_names: [Write, \"Edit\"]\n"
        "  file_patterns:\n"
        "    - '**/plugin.json'\n"
        "    - \"src/**/*.py\"\n"
        "checklist:\n"
        "  items:\n"
        "    - Update marketplace.json\n"
        "    - item: Add CHANGELOG entry\n"
        "      required: false\n"
        "description: |\n"
        "  first line\n"
        "    indented\n"
    )
    assert doc["priority"] == "HIGH" and doc["n"] == 3 and doc["ok"] is True and doc["nothing"] is None
    assert doc["trigger_conditions"]["tool_names"] == ["Write", "Edit"]
    assert doc["trigger_conditions"]["file_patterns"] == ["**/plugin.json", "src/**/*.py"]
    assert doc["checklist"]["items"] == ["Update marketplace.json", {"item": "Add CHANGELOG entry", "required": False}]
    assert doc["description"] == "first line\n  indented"


@pytest.mark.parametrize("bad", ["", "key: [unclosed", "key: 'unclosed", "a: 1\n    b: 2", "just a sentence"])
def test_yaml_subset_rejects_what_it_does_not_support(bad):
    with pytest.raises(yamlish.YamlError):
        yamlish.parse(bad)


def test_checklist_item_with_colon_stays_text():
    fields, _problems = markers.to_node_fields(yamlish.parse("type: checklist\nlabel: x\nchecklist:\n  items:\n    - Run tests: pytest -q\n"))
    assert fields["checklist"]["items"] == ["Run tests: pytest -q"]


def test_block_missing_type_and_label_is_inferred_and_reported():
    fields, problems = markers.to_node_fields({"checklist": {"items": ["a", "b"]}})
    assert fields["process_type"] == "checklist" and fields["label"] == "a"
    assert any("label" in p for p in problems)


# ---------------------------------------------------------------- redact

@pytest.mark.parametrize("secret", [
    "sk-ant-api03-abcdefghijklmnopqrstuvwx", "ghp_abcdefghijklmnopqrstuvwxyz012345", "AKIAIOSFODNN7EXAMPLE",
    "xoxb-1234567890-abcdefghij", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
])
def test_tokens_are_redacted(secret):
    assert secret not in redact.redact("use %s here" % secret)


def test_assignments_urls_and_keys_are_redacted():
    text = ("DATABASE_PASSWORD=hunter22 and api_key: 'abcd1234efgh' via https://bob:s3cretpw@db.example.com/x\n"
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----")
    out = redact.redact(text)
    for secret in ("hunter22", "abcd1234efgh", "s3cretpw", "MIIEow"):
        assert secret not in out
    assert "DATABASE_PASSWORD=[REDACTED]" in out and "https://bob:[REDACTED]@db.example.com" in out


def test_ordinary_words_survive_redaction():
    text = "the password policy needs a token bucket; see docs/auth.md"
    assert redact.redact(text) == text


def test_redact_node_reaches_nested_strings():
    node = {"a": ["x sk-abcdefghijklmnopqrstuvwx"], "b": {"c": "TOKEN=abcdef123456"}}
    assert "abcdefghijklmnop" not in json.dumps(redact.redact_node(node))


# ---------------------------------------------------------------- transcript

def write_lines(path, records, tail=""):
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail)


def test_incremental_reading_keeps_partial_lines_for_later(tmp_path):
    path = tmp_path / "t.jsonl"
    write_lines(path, [{"type": "user", "message": {"content": "one"}}], tail='{"type": "user", "mess')
    records, offset = transcript.read_new_records(str(path), 0, 1 << 20)
    assert [transcript.text_of(r) for r in records] == ["one"]
    with open(path, "a") as handle:
        handle.write('age": {"content": "two"}}\n')
    records, offset2 = transcript.read_new_records(str(path), offset, 1 << 20)
    assert [transcript.text_of(r) for r in records] == ["two"] and offset2 == path.stat().st_size
    assert transcript.read_new_records(str(path), offset2, 1 << 20) == ([], offset2)


def test_missing_file_and_truncated_file(tmp_path):
    assert transcript.read_new_records(str(tmp_path / "none.jsonl"), 7, 100) == ([], 7)
    path = tmp_path / "t.jsonl"
    write_lines(path, [{"type": "user", "message": {"content": "new file"}}])
    records, _offset = transcript.read_new_records(str(path), 10_000, 1 << 20)  # beyond the end: restart
    assert [transcript.text_of(r) for r in records] == ["new file"]


def test_human_prompt_classification():
    human = {"type": "user", "message": {"content": "fix it"}}
    assert transcript.is_human_prompt(human)
    assert not transcript.is_human_prompt(dict(human, isMeta=True))
    assert not transcript.is_human_prompt({"type": "user", "message": {"content": [{"type": "tool_result", "content": "x"}]}})
    assert not transcript.is_human_prompt({"type": "user", "message": {"content": "<command-name>/x</command-name>"}})
    assert not transcript.is_human_prompt({"type": "user", "message": {"content": "[Request interrupted by user]"}})
    assert not transcript.is_human_prompt({"type": "attachment", "message": {"content": "you forgot"}})


# ---------------------------------------------------------------- inference

@pytest.mark.parametrize("path,glob", [
    ("/abs/path/.claude-plugin/plugin.json", "**/plugin.json"),
    ("C:\\proj\\src\\app.py", "**/app.py"),
    ("relative/name[1].txt", "**/name\\[1\\].txt"),
])
def test_path_to_glob(path, glob):
    assert inference.path_to_glob(path) == glob


def test_priority_and_type_rules():
    assert inference.infer_priority("user_correction", "you forgot the migration") == "CRITICAL"
    assert inference.infer_priority("user_correction", "you forgot the docstring") == "HIGH"
    assert inference.infer_priority("user_correction", "you forgot marketplace.json", task="bump the version") == "CRITICAL"
    assert inference.infer_priority("lesson_statement", "from now on consider using pathlib") == "MEDIUM"
    assert inference.infer_process_type("careful: this can corrupt the cache") == "warning"
    assert inference.infer_process_type("you must never commit .env") == "requirement"
    assert inference.infer_process_type("1. build\n2. test\n3. tag") == "checklist"
    assert inference.infer_process_type("always run the linter before pushing") == "pattern"


def test_corrections_join_a_terse_sentence_with_the_next():
    assert find_corrections("Wrong file. The config is in settings.toml.") == ["Wrong file. The config is in settings.toml."]


# ---------------------------------------------------------------- merging

def correction(text, session="s", files=("**/plugin.json",)):
    fields = capture._inferred("user_correction", text, [("Edit", {"file_path": "/p/" + f[3:]}) for f in files], "")
    return capture._node("user_correction", text, fields, session, "2026-11-20T10:00:00Z", text)


def test_same_lesson_and_merge_raise_occurrences_to_critical():
    first = correction("you forgot to update the marketplace.json version")
    first["priority"] = "HIGH"
    again = correction("you forgot the marketplace.json version again", session="s2")
    assert capture.same_lesson(first, again)
    merged = capture.merge_occurrence(first, again)
    assert merged["occurrences"] == 2 and merged["priority"] == "CRITICAL"
    assert capture.already_counted(merged, again)
    assert not capture.same_lesson(first, correction("you forgot to close the database cursor", files=("**/db.py",)))


def test_ids_are_stable_for_the_same_lesson():
    assert correction("you forgot the changelog")["id"] == correction("You forgot the CHANGELOG!")["id"]
