"""Unit tests of the lesson-capture modules: YAML subset, redaction, transcript reading, inference, merging."""

import json
import os
import re

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


# ================================================================ added with the second and third held-out sets

from forewarn.knowledge import problems as node_problems  # noqa: E402
from forewarn.learning.corrections import find_rejection_correction  # noqa: E402
from forewarn.learning.statements import find_statements  # noqa: E402

NOW = "2026-11-22T10:00:00Z"
REJECT = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
          "the new_string was NOT written to the file). To tell you how to proceed, the user said:\n")


def user(content, **extra):
    return dict({"type": "user", "message": {"role": "user", "content": content}}, **extra)


def assistant_text(text):
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}


def tool_use(name, tool_input, tool_id="toolu_1"):
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]}}


def tool_result(text, tool_id="toolu_1"):
    return user([{"type": "tool_result", "tool_use_id": tool_id, "content": text}])


# ---------------------------------------------------------------- yamlish, more of the subset

def test_wrapped_plain_scalars_are_folded():
    doc = yamlish.parse(
        "description: CI installs from uv.lock, so a dependency added only to\n"
        "  pyproject.toml fails.\n"
        "items:\n"
        "  - Run uv lock and commit\n"
        "    the updated uv.lock\n"
        "  - second\n"
    )
    assert doc["description"] == "CI installs from uv.lock, so a dependency added only to pyproject.toml fails."
    assert doc["items"] == ["Run uv lock and commit the updated uv.lock", "second"]


def test_folded_block_quotes_hashes_crlf_and_compact_lists():
    doc = yamlish.parse(
        "label: \"Fix issue #12: keep # in quotes\"  # trailing comment\r\n"
        "note: >\r\n  one\r\n  two\r\n"
        "tools:\r\n- Write\r\n- Edit\r\n"
        "flow: [\"a, b\", 'c', [d, e]]\r\n"
        "plain: C# analyzers\r\n"
    )
    assert doc["label"] == "Fix issue #12: keep # in quotes"
    assert doc["note"] == "one two"
    assert doc["tools"] == ["Write", "Edit"]
    assert doc["flow"] == ["a, b", "c", ["d", "e"]]
    assert doc["plain"] == "C# analyzers"


def test_lists_of_mappings_and_tabs():
    doc = yamlish.parse("items:\n\t- item: Bump version\n\t  required: true\n\t- Tag the release\n")
    assert doc["items"] == [{"item": "Bump version", "required": True}, "Tag the release"]


@pytest.mark.parametrize("bad", ["a: 1\n  b: x: y", "a: 1\n    - b", "a: \"unclosed\n  more"])
def test_yaml_subset_errors_name_the_line(bad):
    with pytest.raises(yamlish.YamlError):
        yamlish.parse(bad)


def test_two_keys_on_one_line_split_at_a_bar():
    body = "Type: workflow | Priority: HIGH\nLabel: Bump the chart version with every template change\nChecklist:\n1. a\n2. b\n"
    ((fields, error, _body),) = markers.find_blocks("[PROCESS_KNOWLEDGE]\n" + body + "[/PROCESS_KNOWLEDGE]")
    node, _problems = markers.to_node_fields(fields)
    assert error is None and node["priority"] == "HIGH" and fields["Type"] == "workflow"
    assert markers.find_blocks("[PROCESS_KNOWLEDGE]\nlabel: pipe a | b into c\nrisk: x\n[/PROCESS_KNOWLEDGE]")[0][0]["label"] == "pipe a | b into c"


def test_block_that_is_a_list_is_reported():
    found = markers.find_blocks("[PROCESS_KNOWLEDGE]\n- a\n- b\n[/PROCESS_KNOWLEDGE]")
    assert found[0][0] is None and "mapping" in found[0][1]


def test_fenced_json_block_and_prose_mention():
    text = "Like this:\n```json\n[PROCESS_KNOWLEDGE]\n{\"type\": \"warning\", \"label\": \"x\", \"risk\": \"y\"}\n[/PROCESS_KNOWLEDGE]\n```"
    (fields, error, _body), = markers.find_blocks(text)
    assert error is None and fields["type"] == "warning"
    assert markers.find_blocks("wrap it in [PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE] tags") == []
    (fields, error, _body), = markers.find_blocks("[PROCESS_KNOWLEDGE]\nlabel: [unclosed\n[/PROCESS_KNOWLEDGE]")
    assert fields is None and "malformed" in error


# ---------------------------------------------------------------- redact, more shapes

@pytest.mark.parametrize("text,secret", [
    ('SMTP_PASSWORD="correct horse battery"', "correct horse battery"),
    ("{\"api_key\": \"abcd1234efgh5678\"}", "abcd1234efgh5678"),
    ("DB_PASS=s3cr3tvalue", "s3cr3tvalue"),
    ("client_secret: 'qwertyuiop123'", "qwertyuiop123"),
    ("mysql --password hunter2hunter2 -h db", "hunter2hunter2"),
    ("curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1'", "dXNlcjpwYXNzd29yZDEyMzQ1"),
    ("curl -H 'Authorization: Bearer abc123def456ghi789jkl'", "abc123def456ghi789jkl"),
    ("stripe key sk_live_51Habcdefghijklmnop", "sk_live_51Habcdefghijklmnop"),
    ("post to https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXX"),
    ("https://api.example.com/v1?access_token=tok_9f8e7d6c5b&page=2", "tok_9f8e7d6c5b"),
    ("git clone https://x-access-token:gho_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r", "gho_abcdefghijklmnopqrstuvwxyz0123"),
    ('kafka:\n  saslPassword: "mK9#pz2LqV7w-prod"', "mK9#pz2LqV7w-prod"),  # camelCase names (fleet's values-prod.yaml)
    ("dbPassword=hunter2x9", "hunter2x9"),
    ('env:\n  - name: FHIR_CLIENT_SECRET\n    value: "9b1f0c0e7d4a"', "9b1f0c0e7d4a"),  # a Kubernetes env entry
    ("look with redis://:Qp7-cartPass@redis-master.prod.svc:6379/0, read only", "Qp7-cartPass"),  # a password, no user
])
def test_more_secret_shapes_are_redacted(text, secret):
    assert secret not in redact.redact(text)


@pytest.mark.parametrize("text", [
    "author: Jane Doe", "max_tokens: 4096", "bypass: true", "the passport office", "token bucket of size 10",
    "see docs/auth.md", "password reset emails are sent by the worker", "maxTokens: 4096", "useAuth: true",
    "requirePassword: false", "- name: LOG_LEVEL\n  value: debug",
])
def test_ordinary_text_is_not_redacted(text):
    assert redact.redact(text) == text


def test_redaction_is_idempotent_and_keeps_non_strings():
    once = redact.redact("TOKEN=abcdef123456 and sk-abcdefghijklmnopqrstuv")
    assert redact.redact(once) == once
    assert redact.redact_node({"n": 3, "b": True, "x": None, "t": ("sk-abcdefghijklmnopqrstuv",)}) == {"n": 3, "b": True, "x": None, "t": ["[REDACTED]"]}


def test_a_secret_cut_by_the_excerpt_limit_does_not_leak():
    secret = "ghp_" + "A1b2C3d4E5" * 4
    prompt = "you forgot to set the token. " + "x " * 230 + "GITHUB_TOKEN=" + secret
    nodes, _problems = capture.extract_lessons([assistant_text("done"), user(prompt)], "", "s", NOW)
    blob = json.dumps(nodes)
    assert secret[:12] not in blob


# ---------------------------------------------------------------- transcript, more

def test_a_line_longer_than_max_bytes_is_skipped_not_waited_on(tmp_path):
    path = tmp_path / "t.jsonl"
    write_lines(path, [{"type": "user", "message": {"content": "x" * 5000}}, {"type": "user", "message": {"content": "after"}}])
    records, offset = transcript.read_new_records(str(path), 0, 1000)
    assert records == [] and offset > 5000
    records, offset = transcript.read_new_records(str(path), offset, 1000)
    assert [transcript.text_of(r) for r in records] == ["after"] and offset == path.stat().st_size


def test_small_max_bytes_reads_everything_over_several_calls(tmp_path):
    path = tmp_path / "t.jsonl"
    write_lines(path, [{"type": "user", "message": {"content": "m%d" % i}} for i in range(50)])
    offset, seen = 0, []
    for _ in range(100):
        records, offset = transcript.read_new_records(str(path), offset, 120)
        seen.extend(transcript.text_of(r) for r in records)
    assert seen == ["m%d" % i for i in range(50)]


def test_a_half_line_that_is_still_being_written_is_waited_on(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"type": "user", "mess')
    assert transcript.read_new_records(str(path), 0, 1000) == ([], 0)


def test_bad_lines_bad_utf8_and_bad_offsets(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'not json\n[1, 2]\n{"type": "user", "message": {"content": "caf\xe9"}}\n')
    records, offset = transcript.read_new_records(str(path), -5, 1 << 20)
    assert len(records) == 1 and offset == path.stat().st_size
    assert transcript.read_new_records(None, 3, 10) == ([], 3)


def test_read_turn_before_returns_the_corrected_turn(tmp_path):
    path = tmp_path / "t.jsonl"
    first = [user("old task"), tool_use("Edit", {"file_path": "/p/a.py"}, "t0"), tool_result("ok", "t0"),
             user("bump the version"), tool_use("Edit", {"file_path": "/p/.claude-plugin/plugin.json"}), tool_result("ok"),
             assistant_text("Done.")]
    write_lines(path, first)
    offset = path.stat().st_size
    with open(path, "a") as handle:
        handle.write(json.dumps(user("you forgot marketplace.json")) + "\n")
    turn = transcript.read_turn_before(str(path), offset)
    assert transcript.text_of(turn[0]) == "bump the version" and len(turn) == 3  # the tool result is not parsed
    assert transcript.read_turn_before(str(path), 0) == []
    assert transcript.read_turn_before(str(tmp_path / "none"), 10) == []
    assert transcript.read_turn_before(str(path), offset, max_bytes=150)[-1]["type"] == "assistant"  # the tail of a long turn


def test_human_prompts_with_ide_context_sidechains_and_origins():
    ide = {"type": "text", "text": "<ide_opened_file>The user opened /p/a.py</ide_opened_file>"}
    reminder = {"type": "text", "text": "<system-reminder>you forgot nothing</system-reminder>"}
    prompt = user([ide, {"type": "text", "text": "you forgot the docs"}])
    assert transcript.is_human_prompt(prompt) and transcript.human_text(prompt) == "you forgot the docs"
    assert transcript.is_human_prompt(user([reminder, {"type": "text", "text": "fix it"}]))
    assert not transcript.is_human_prompt(user([reminder]))
    assert not transcript.is_human_prompt(user("make sure you check tests/", isSidechain=True))
    assert not transcript.is_human_prompt(user("x", origin={"kind": "task-notification"}))
    assert transcript.is_human_prompt(user("x", origin={"kind": "human"}))
    assert not transcript.is_human_prompt(user("This session is being continued from a previous conversation..."))


def test_rejection_reasons():
    assert transcript.rejection_reason(tool_result(REJECT + "use pnpm, not npm")) == "use pnpm, not npm"
    assert transcript.human_text(tool_result(REJECT + "use pnpm, not npm")) == "use pnpm, not npm"
    assert transcript.rejection_reason(tool_result(REJECT + "The user wants to clarify these questions.\n...")) == ""
    assert transcript.rejection_reason(tool_result("The user doesn't want to proceed with this tool use. STOP what you are doing")) == ""
    listed = user([{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": REJECT + "wrong file"}]}])
    assert transcript.rejection_reason(listed) == "wrong file"
    assert find_rejection_correction("no") == "" and find_rejection_correction("why not npm?") == ""
    assert find_rejection_correction("edit config/staging.yaml instead") == "edit config/staging.yaml instead"


def test_a_question_that_only_repeats_what_was_done_stays_with_the_no_after_it():
    echo = "0.0.0.0/0 on the patient records database? No. Add the reporting box's security group ID, nothing wider."
    assert find_rejection_correction(echo).startswith("0.0.0.0/0 on the patient records database? No.")
    (reply,) = find_corrections("s3:* on every bucket? No. Only PutObject on the extracts bucket, nothing wider.")
    assert reply.startswith("s3:* on every bucket?")
    # a question that asks (a question word, a polite request) is no part of the rule
    assert find_rejection_correction("What about the context manager? Use with open(path) as handle, always.") == (
        "Use with open(path) as handle, always.")
    assert find_rejection_correction("Could you check the bucket policy? Only PutObject on the extracts bucket, nothing wider.") == (
        "Only PutObject on the extracts bucket, nothing wider.")


# ---------------------------------------------------------------- detectors

# Everyday prompts (37, written to probe the broader rules for false positives) and pasted or reported text.
ORDINARY = [
    'add a dark mode toggle to the settings page',
    "No, that's fine, leave it.",
    'Actually that looks great, ship it',
    'No need to add tests for the prototype.',
    'the function is pure, not async, so you can call it from anywhere',
    "It's a draft, not final, so don't worry about the wording yet.",
    'can you check why the build is slow',
    'Why did you pick SQLite for this? Just curious.',
    'why do you think the cache misses? it was fine yesterday',
    'Wait, before that, show me the diff.',
    'Stop the dev server please',
    'Nope, no other changes needed.',
    'Wrong guess on my part, the bug is in the parser after all. Can you look there?',
    'run the migrations and tell me what happens',
    'The endpoint returns JSON, not XML, right?',
    "Let's use Postgres for this one.",
    'Hi, can you help me with the release notes?',
    'I think the issue is that the worker is a thread, not a process.',
    'ok now make the header sticky',
    'the test is flaky, not broken; rerun it a few times',
    "Remember the login bug from yesterday? It's back.",
    'From now on the API will be versioned, so plan for /v2.',
    "Next time we meet let's review the roadmap.",
    'Important: the client demo is on Friday.',
    'Note: the staging DB was reset this morning.',
    "Going forward, what's our plan for the mobile app?",
    'Use the same approach as in orders.py for the refunds.',
    'please make sure the PR description mentions the ticket',
    "That's right, the value is in cents.",
    'That was a good catch, thanks.',
    'No. 5 on the list is the most important one, start there.',
    "you didn't break anything, the CI failure is a known flake",
    'I asked you earlier about the cache, any news?',
    "nah, it's ok, the old name works too",
    "Why would you need a lock here? I don't see concurrent writers.",
    'The deploy is on Tuesday, not Monday, so we have time.',
    'The dashboard is slow, not broken.',
]
PASTED_OR_REPORTED = [
    "Why would you need a lock here? I don't see concurrent writers.",
    "Actually, let's also add a CSV export while you're at it.",
    "here's our PR template:\n- [ ] Make sure you updated the docs\n- [ ] Don't forget the changelog",
    'Forwarding this.\nHi team, you forgot the invoice PDF again.',
    'tests fail:\nTraceback (most recent call last):\nAssertionError: you forgot to call setup()\nany idea',
    "the reviewer wrote 'you missed the edge case' but that is handled",
]


@pytest.mark.parametrize("prompt", ORDINARY + PASTED_OR_REPORTED)
def test_ordinary_prompts_are_not_corrections(prompt):
    assert find_corrections(prompt) == []


@pytest.mark.parametrize("prompt", ORDINARY)
def test_ordinary_prompts_are_not_lesson_statements(prompt):
    assert find_statements(prompt) == []


@pytest.mark.parametrize("prompt,word", [
    ("u forgot the __init__.py", "__init__"),
    ("you've missed the Windows case again", "windows"),
    ("you should've asked before deleting it", "asked"),
    ("You keep hardcoding paths. Use tmp_path.", "tmp_path"),
    ("Nope. We don't use default exports here.", "default exports"),
    ("why would you push to main?? always open a PR", "open a pr"),
    ("Actually the env var is SHOP_DB_URL, not DATABASE_URL", "shop_db_url"),
    ("use `httpx` instead of `requests`", "httpx"),
    ("You did it again — the API returns cents, not euros.", "cents"),
    ("the folder is tests/unit, not test/. you put it in the wrong folder", "tests/unit"),
    ("That's not how we name branches here.", "branches"),
])
def test_corrections_in_plain_words(prompt, word):
    found = find_corrections(prompt)
    assert len(found) == 1 and word in found[0].lower()


@pytest.mark.parametrize("text,expected", [
    ("Rule of thumb: anything touching payments gets a second reviewer.", 1),
    ("For future reference: the e2e suite needs the mock server.", 1),
    ("From here on, every new endpoint needs a rate limit.", 1),
    ("In future, put new fixtures under tests/fixtures/v2.", 1),
    ("From now on the cache is warmed at startup.", 0),
    ("Important: the client demo is on Friday.", 0),
    ("Next time we meet let's review the roadmap.", 0),
    ("Going forward, what's our plan for the mobile app?", 0),
    ("Click here on the page and you will see it must be fine.", 0),
])
def test_statements(text, expected):
    assert len(find_statements(text)) == expected


# ---------------------------------------------------------------- extract_lessons contracts

def test_context_gives_a_correction_the_triggers_of_the_turn_it_corrects():
    context = [user("bump the version"), tool_use("Edit", {"file_path": "/abs/path/.claude-plugin/plugin.json"}), tool_result("ok"), assistant_text("Done.")]
    nodes, _ = capture.extract_lessons([user("you forgot marketplace.json"), assistant_text("Fixed.")], "Fixed.", "s", NOW, context=context)
    (node,) = nodes
    assert node["trigger_conditions"]["file_patterns"] == ["**/plugin.json", "**/marketplace.json"]  # the file it names too
    assert "Edit" in node["trigger_conditions"]["tool_names"]
    assert node["priority"] == "CRITICAL"  # the corrected task was a version bump
    assert not node_problems(node)


def test_a_session_opening_instruction_is_not_a_correction():
    records = [user("Refactor the exporter and please remember to update the changelog.")]
    assert capture.extract_lessons(records, "", "s", NOW, context=[])[0] == []
    # unknown start: the assistant may have spoken, but a request for new work sets rules for that work
    assert capture.extract_lessons(records, "", "s", NOW, context=None)[0] == []
    again = [user("please remember to update the changelog when you refactor")]
    assert len(capture.extract_lessons(again, "", "s", NOW, context=None)[0]) == 1


def test_a_rejected_tool_call_with_a_reason_is_a_correction_with_that_tool():
    records = [user("raise the page size"), tool_use("Edit", {"file_path": "/p/shop/settings.py"}),
               tool_result(REJECT + "settings.py is generated, change settings.template.py")]
    (node,), _ = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert node["source"]["kind"] == "user_correction" and node["confidence"] == capture.REJECTION_CONFIDENCE
    assert node["trigger_conditions"]["file_patterns"] == ["**/settings.py", "**/settings.template.py"]


def test_a_block_written_in_reply_absorbs_the_correction():
    block = ("[PROCESS_KNOWLEDGE]\ntype: requirement\npriority: HIGH\nlabel: Docs are published from main only\n"
             "requirement:\n  constraint: Run mkdocs gh-deploy only on main\n[/PROCESS_KNOWLEDGE]")
    records = [user("publish the docs"), tool_use("Bash", {"command": "mkdocs gh-deploy"}), tool_result("ok"),
               user("you published the docs from the wrong branch"), assistant_text("Republished."), assistant_text(block)]
    (node,), _ = capture.extract_lessons(records, "Republished.\n\n" + block, "s", NOW, context=[])
    assert node["source"]["kind"] == "process_knowledge" and node["trigger_conditions"]["tool_names"] == ["Bash"]
    assert any("wrong branch" in e for e in node["evidence"])


def test_the_final_message_is_read_once_whether_or_not_the_transcript_has_it():
    block = "[PROCESS_KNOWLEDGE]\ntype: warning\nlabel: FLUSHALL clears sessions\nrisk: logs everyone out\n[/PROCESS_KNOWLEDGE]"
    with_it = [user("clear the cache"), assistant_text("Cleared."), assistant_text(block)]
    assert len(capture.extract_lessons(with_it, "Cleared.\n\n" + block, "s", NOW)[0]) == 1
    lagging = [user("clear the cache"), assistant_text("Cleared.")]  # the transcript has not got the last block yet
    assert len(capture.extract_lessons(lagging, "Cleared.\n\n" + block, "s", NOW)[0]) == 1


def test_odd_records_never_raise():
    odd = [None, 3, "x", {}, {"type": "user"}, {"type": "user", "message": "str"}, {"type": "user", "message": {"content": None}},
           {"type": "assistant", "message": {"content": [None, {"type": "tool_use"}, {"type": "tool_use", "name": "Edit", "input": "x"}]}},
           {"type": "user", "message": {"content": [{"type": "tool_result", "content": None}]}}, {"type": "summary", "summary": "you forgot"}]
    assert capture.extract_lessons(odd, None, "s", NOW) == ([], [])


def test_a_pathological_backlog_is_cut_and_reported():
    records = []
    for i in range(capture.MAX_CANDIDATES + 50):
        records += [assistant_text("ok"), user("you forgot to update module%d docs" % i)]
    nodes, problems = capture.extract_lessons(records, "", "s", NOW)
    assert len(nodes) <= capture.MAX_CANDIDATES and any("stopped" in p for p in problems)


def test_every_node_has_the_schema_and_ids_are_deterministic():
    records = [user("deploy it"), tool_use("Bash", {"command": "make deploy"}), tool_result("ok"), assistant_text("Deployed."),
               user("Don't forget the smoke test after every deploy. Lesson learned: never deploy on Fridays.")]
    first, _ = capture.extract_lessons(records, "", "s", NOW)
    again, _ = capture.extract_lessons(records, "", "other-session", "2026-12-01T00:00:00Z")
    assert [n["id"] for n in first] == [n["id"] for n in again] and len(first) == 2
    for node in first:
        assert not node_problems(node)
        assert node["status"] == "draft" and node["created_by"] == "forewarn-stop-hook" and node["occurrences"] == 1
        assert set(node["trigger_conditions"]) >= {"tool_names", "file_patterns", "action_keywords", "context_keywords"}
        assert node[node["process_type"]] and 0 < node["confidence"] <= 1
        assert node["id"].split("-")[0] in ("pk", "correction", "lesson")


def test_merge_occurrence_is_pure_and_same_lesson_is_symmetric():
    first = correction("you forgot to update the marketplace.json version")
    again = correction("you forgot the marketplace.json version again", session="s2")
    snapshot = json.dumps(first, sort_keys=True)
    merged = capture.merge_occurrence(first, again)
    assert json.dumps(first, sort_keys=True) == snapshot
    assert capture.same_lesson(again, first) == capture.same_lesson(first, again)
    assert capture.merge_occurrence(merged, correction("you forgot marketplace.json", session="s3"))["occurrences"] == 3
    assert not capture.same_lesson({}, {"label": "x"})


def test_a_marker_mentioned_in_prose_does_not_swallow_the_block():
    text = ("I'll record it as a [PROCESS_KNOWLEDGE] block:\n\n[PROCESS_KNOWLEDGE]\ntype: warning\nlabel: FLUSHALL clears sessions\n"
            "risk: logs everyone out\n[/PROCESS_KNOWLEDGE]")
    (fields, error, _body), = markers.find_blocks(text)
    assert error is None and fields["label"] == "FLUSHALL clears sessions"


def test_the_skill_example_block_parses_into_a_valid_node():
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "skills", "process-knowledge", "SKILL.md")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    assert text.startswith("---\nname: process-knowledge\ndescription: ")
    (node,), problems = capture.extract_lessons([user("bump it"), assistant_text(text)], "", "s", NOW)
    assert problems == [] and not node_problems(node)
    assert node["trigger_conditions"]["file_patterns"] == ["**/plugin.json"] and node["priority"] == "HIGH"


def test_every_statement_marker_holds_a_gate_word():
    from forewarn.learning import statements

    from forewarn.learning.lazy_regex import top_level_alternatives

    alternatives = top_level_alternatives(statements._STATEMENT)
    assert len(alternatives) == 108  # 66 that start at a word boundary, 17 Japanese, 18 Chinese, 7 Korean
    for alternative in alternatives:
        words = alternative.replace("\\b", " ").replace("\\s", " ").replace("(?:", " ").replace(")", " ").replace("|", " ")
        assert any(word in words for word in statements.GATE_WORDS), alternative


def test_transcript_lines_that_cannot_be_messages_are_skipped_and_bad_bytes_are_replaced(tmp_path):
    path = tmp_path / "t.jsonl"
    lines = [b'{"type": "progress", "data": {"x": 1}}', b'{"type":"user","message":{"role":"user","content":"caf\xe9 ok"}}',
             b'not json "user"', b'["assistant"]', b'{"type": "assistant", "message": {"content": "hi"}}',
             b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}',
             b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"To tell you how to proceed, the user said: use uv"}]}}']
    path.write_bytes(b"\n".join(lines) + b"\n")
    records, offset = transcript.read_new_records(str(path), 0, 1 << 20)
    assert offset == path.stat().st_size
    assert [r["type"] for r in records] == ["user", "assistant", "user"]
    assert records[0]["message"]["content"] == "caf\ufffd ok"
    assert transcript.rejection_reason(records[2]) == "use uv"


def test_patterns_scanned_on_lowercased_text_hold_no_upper_case_letter():
    import re

    from forewarn.learning import corrections, statements

    for pattern in (corrections.CORRECTION, corrections.OPENER_ANYWHERE, corrections.WHY_ANYWHERE, statements.STATEMENT):
        literal = re.sub(r"\\.", "", pattern.pattern)  # escapes such as \S are not letters to match
        assert literal == literal.lower(), pattern.pattern


def test_a_lazy_pattern_compiles_on_first_use_and_behaves_like_the_compiled_one():
    import re

    from forewarn.learning.lazy_regex import lazy

    pattern = lazy(r"\bfoo(\d+)", re.I)
    assert pattern.pattern == r"\bfoo(\d+)" and pattern._compiled is None  # known without compiling
    assert pattern.search("x FOO12").group(1) == "12" and pattern._compiled is not None
    assert pattern.sub("#", "foo1 foo2") == "# #" and pattern.flags & re.I
    assert [m.group(0) for m in pattern.finditer("foo1 bar foo2")] == ["foo1", "foo2"]


def test_word_start_alternatives_share_one_boundary_and_keep_their_order():
    from forewarn.learning.lazy_regex import shared_boundary, top_level_alternatives

    assert shared_boundary(r"\bdon'?t\s+forget\b|\bremember\s+to\b|^stop\b|\bagain\b|また") == (
        r"\b(?:don'?t\s+forget\b|remember\s+to\b)|^stop\b|\bagain\b|また")
    # a bar inside a group or a character class, or escaped, splits nothing
    assert top_level_alternatives(r"\b(?:a|b)x|[|(]y|\|z|\b[^]|]w") == [r"\b(?:a|b)x", "[|(]y", r"\|z", r"\b[^]|]w"]
    assert shared_boundary(r"\b(a)|\b(b)c") == r"\b(?:(a)|(b)c)"  # group numbers stay as written
    assert shared_boundary(r"\\b|x") == r"\\b|x"  # an escaped backslash before "b" is no boundary


def _corpus_texts(every=20):
    """The person's and the assistant's words of every ``every``-th labelled corpus transcript (all its sets and
    languages)."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    texts = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".jsonl"))[::every]:
        for record in transcript.read_new_records(os.path.join(folder, name), 0, 1 << 24)[0]:
            texts.append(transcript.text_of(record))
    return [text for text in texts if text]


def test_every_detector_pattern_finds_the_same_matches_after_the_shared_boundary_rewrite():
    import importlib
    import pkgutil

    import forewarn.learning
    from forewarn.learning.lazy_regex import lazy, shared_boundary

    patterns = {}
    for info in pkgutil.iter_modules(forewarn.learning.__path__):
        module = importlib.import_module("forewarn.learning." + info.name)
        for value in vars(module).values():
            for item in value if isinstance(value, list) else [value]:
                for candidate in item if isinstance(item, tuple) else [item]:
                    if isinstance(candidate, lazy):
                        patterns[candidate.pattern, candidate._flags] = candidate
    rewritten = [(re.compile(p, f), re.compile(shared_boundary(p), f)) for p, f in patterns if shared_boundary(p) != p]
    assert len(rewritten) >= 10  # the detectors' large alternations were rewritten
    texts = _corpus_texts()
    samples = texts + [t.lower() for t in texts]
    for written, faster in rewritten:
        for text in samples:
            a, b = written.search(text), faster.search(text)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (written.pattern[:60], text[:80])


@pytest.mark.parametrize("prompt", [
    "fixed yeah, but you left a debug print in discounts.py",
    "I literally said yesterday no new deps for tiny stuff like this",
    "you only changed ci.yml. .nvmrc still says 20",
    "thx that works. but ur missing it in the admin list_display too",
    "you can't mark it |safe, bio is user input",
    "you forgto the migration agian.. makemigrations accounts pls",
    "WHY did you commit and push?? I never asked for that. dont commit unless I tell you to",
    "no no. the reports must run against the read replica, not the primary",
])
def test_everyday_corrections(prompt):
    assert find_corrections(prompt), prompt


@pytest.mark.parametrize("prompt", [
    "ugh, I told you the wrong file, sorry — I meant checkout.ts not cart.ts. can you move it over",
    "my bad, I meant the staging bucket",
    "you can't be serious?",
])
def test_a_person_correcting_themselves_or_asking_is_not_a_correction(prompt):
    assert find_corrections(prompt) == []


def test_deferring_a_tool_call_is_not_a_correction():
    from forewarn.learning.corrections import find_rejection_correction

    assert find_rejection_correction("hold off, I'll run it myself after lunch") == ""
    assert find_rejection_correction("don't run the whole suite, only tests/test_cart.py") != ""


@pytest.mark.parametrize("text,by_user,found", [
    ("moving forward, all new API responses use camelCase keys", True, True),
    ("moving forward, all new API responses use camelCase keys", False, False),  # the assistant reporting a change
    ("ok so the takeaway here: the search index has to be rebuilt after every schema change", True, True),
    ("Worth remembering for next time: `make fixtures` only works after `make migrate`", False, True),
    ("Important lesson: times in crontab are UTC here", False, True),
    ("Heads up for the future: the legacy/ folder is vendored, never edit anything in it", True, True),
    ("ok going forward with the plan: models first, then the api", True, False),
    ("what's the rule going forward for naming migrations", True, False),
])
def test_everyday_lesson_statements(text, by_user, found):
    from forewarn.learning.statements import find_statements

    assert bool(find_statements(text, by_user=by_user)) is found


def test_the_correction_word_gate_never_hides_a_correction(monkeypatch):
    """On every prompt of the corpus and the unit phrases, find_corrections with the word gate equals it without."""
    import glob
    import os

    from forewarn.learning import corrections

    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    prompts = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.jsonl"))):
        records, _offset = transcript.read_new_records(path, 0, 64 << 20)
        prompts.extend(t for t in (transcript.human_text(r) for r in records) if t)
    prompts += ["U forgot the tests", "ur missing the admin", "whoa wait. that goes in src/gen", "Nope. We don't use default exports",
                "why is this using floats?? money is always BigDecimal", "and what happens when it retries? every job needs a key"]
    gated = [corrections.find_corrections(p) for p in prompts]
    monkeypatch.setattr(corrections, "GATE_WORDS", type("NoGate", (), {"isdisjoint": lambda self, words: False})())
    assert [corrections.find_corrections(p) for p in prompts] == gated
    assert sum(map(bool, gated)) > 80


# ---------------------------------------------------------------- replies to an action: pushback without a phrase

def _after_an_edit(prompt, tool="Edit"):
    records = [user("make the cart badge show the item count"),
               tool_use(tool, {"file_path": "/p/web/src/CartBadge.vue", "command": "git push"}), tool_result("ok"),
               assistant_text("Done."), user(prompt)]
    return capture.extract_lessons(records, "", "s", NOW, context=[])[0]

def _assert_one_correction(prompt, word, priority=None):
    """The reply, right after an edit, is one correction that keeps ``word`` (and has ``priority``, if given)."""
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction" and word in node["description"].lower()
    if priority is not None:
        assert node["priority"] == priority
    return node


@pytest.mark.parametrize("prompt, word", [
    ("dont hand edit web/src/api/types.ts, it's generated from the openapi spec", "generated"),
    ("NOT to main omg. never force push main, it's protected", "force push"),
    ("ok it works. but we use `<script setup>` everywhere in web/, not the options api. redo it that way", "script setup"),
    ("jest?? it's vitest not jest in web/, jest isnt even installed", "vitest"),
    ("this breaks every mobile app on the old client. add a new rpc and deprecate the old one", "deprecate"),
    ("again?? derive it from the request ctx, dont start a fresh context.Background() in a handler", "context.background"),
    ("why is this a package level map with no lock? we have internal/cache for exactly this", "internal/cache"),
])
def test_pushback_right_after_an_action_is_a_correction(prompt, word):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction" and word in node["description"].lower()
    assert node["trigger_conditions"]["file_patterns"][0] == "**/CartBadge.vue"


@pytest.mark.parametrize("prompt", [
    "now add the same badge to the wishlist icon",
    "nope, not for this one",
    "great, thanks! no need to touch the tests",
    "did you run the linter after that?",
    "cool. now do the header too and don't worry about mobile yet",
    "great, now add pagination to the orders list. don't change the API shape.",
    "looks good. next, the invoices page. never use floats for money there",
    "don't commit yet, I want to review it first",
    "Don't worry about the failing lint, it's pre-existing",
    "we have a meeting in 5 minutes, let's wrap up here",
    "stop, wait",
    "never mind the header, ship it as is",
    "fine, that locks the row only for a moment",
    "the nightly job deletes old exports anyway, so ship it",
])
def test_a_follow_up_after_an_action_is_not_a_correction(prompt):
    assert _after_an_edit(prompt) == []


def test_pushback_needs_an_action_to_push_back_on():
    prompt = "dont hand edit web/src/api/types.ts, it's generated from the openapi spec"
    assert capture.extract_lessons([user(prompt)], "", "s", NOW, context=[])[0] == []  # the session's first prompt
    assert _after_an_edit(prompt, tool="Read") == []  # the assistant only read


def test_a_one_mistake_reply_is_one_lesson_with_its_reasons():
    (node,) = _after_an_edit("you committed .env, it has the DB password in it. that's a credentials leak. "
                             "never `git add -A` here, add files by name")
    assert "credentials leak" in node["description"] and "git add" in node["description"]
    assert node["priority"] == "CRITICAL"


def test_a_statement_in_a_reply_stays_a_statement():
    nodes = _after_an_edit("Don't forget the smoke test after every deploy. Lesson learned: never deploy on Fridays.")
    assert sorted(n["source"]["kind"] for n in nodes) == ["lesson_statement", "user_correction"]


def test_a_rejection_that_opens_with_a_rebuke_keeps_the_rule_after_it():
    records = [user("ListOrders is slow"), tool_use("Edit", {"file_path": "/p/store.go"}),
               tool_result(REJECT + "why are you calling the db in a loop? batch it, one query with ANY($1)")]
    (node,), _ = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert "batch" in node["description"]


def test_same_thing_as_before_is_a_repeat():
    records = [user("use uuid for ids"), tool_use("Edit", {"file_path": "/p/go.mod"}), tool_result("ok"), assistant_text("Done."),
               user("you didnt run go mod tidy, go.sum has no entry for uuid"), assistant_text("Ran it."),
               user("now swap the waitgroup for errgroup"), tool_use("Edit", {"file_path": "/p/go.mod"}), tool_result("ok"),
               assistant_text("Done."), user("same thing as before, go mod tidy. stop editing go.mod by hand")]
    (node,), _ = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


def test_the_pushback_word_gate_never_hides_pushback(monkeypatch):
    """On every prompt of the corpus, pushes_back with its word gate equals it without."""
    import glob
    import os

    from forewarn.learning import corrections

    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    prompts = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.jsonl"))):
        records, _offset = transcript.read_new_records(path, 0, 64 << 20)
        prompts.extend(t for t in (transcript.human_text(r) for r in records) if t)
    prompts += ["NOT to main omg", "jest?? it's vitest not jest", "you're hand editing types.ts AGAIN", "redo pls",
                "this breaks every client", "in this codebase tests are table driven"]
    gated = [corrections.pushes_back(p) for p in prompts]
    monkeypatch.setattr(corrections, "PUSHBACK_GATE_WORDS", type("NoGate", (), {"isdisjoint": lambda self, words: False})())
    assert [corrections.pushes_back(p) for p in prompts] == gated
    assert sum(gated) > 40


# ---------------------------------------------------------------- triggers of a lesson made without tool calls

@pytest.mark.parametrize("text, tools, files, action", [
    ("rule of thumb: every new rpc gets an entry in docs/api.md", ["Write", "Edit", "MultiEdit"], ["**/api.md"], None),
    ("nobody edits terraform state by hand. no `terraform state rm`", ["Bash"], [], "terraform state"),
    ("the legacy/ folder is vendored, never edit anything in it", ["Write", "Edit", "MultiEdit"], ["legacy/**"], None),
    ("put new fixtures under tests/fixtures/v2", ["Write", "Edit", "MultiEdit"], ["tests/fixtures/v2/**"], None),
    ("make sure you run make test before pushing", ["Bash"], [], "make test"),
    ("go ahead and run go mod tidy after every dependency change", ["Bash"], [], "go mod"),
    ("run bin/rails assets:precompile locally first", ["Bash"], [], "bin/rails assets:precompile"),
    ("never commit the .env file", ["Write", "Edit", "MultiEdit"], ["**/.env"], None),
    ("Next.js and Node.js apps use and/or ci/cd, see https://x.io/a/b", [], [], None),
])
def test_a_lesson_without_tool_calls_takes_triggers_from_what_it_names(text, tools, files, action):
    trig = inference.triggers_from_text(text, ["k1", "k2"])
    assert trig["tool_names"] == tools and trig["file_patterns"] == files
    assert trig["action_keywords"][0] == (action or "k1") and trig["context_keywords"] == ["k1", "k2"]


def test_a_stated_rule_at_a_turns_start_can_fire_once_promoted():
    from forewarn.reach import unreachable

    records = [user("fix the login redirect"), assistant_text("Fixed."),
               user("fyi the rule on this team: nobody edits terraform state by hand, no `terraform state rm` without infra")]
    (node,), _ = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert node["source"]["kind"] == "lesson_statement" and unreachable(node, 0.7) is None
    assert node["trigger_conditions"]["tool_names"] == ["Bash"] and "terraform state" in node["trigger_conditions"]["action_keywords"]


# ---------------------------------------------------------------- repeats said without a correction phrase

def _session(*turns):
    """Records of a session: each turn a (prompt, edited file) pair; the assistant edits that file and says "Done."."""
    records = []
    for prompt, path in turns:
        records += [user(prompt)]
        if path:
            records += [tool_use("Edit", {"file_path": path}), tool_result("ok"), assistant_text("Done.")]
    return capture.extract_lessons(records, "", "s", NOW, context=[])[0]


def test_a_bare_again_after_an_action_repeats_the_earlier_correction():
    nodes = _session(("skip hikes older than 30 days", "/p/app/sync.py"),
                     ("no datetime.utcnow(), it's naive and deprecated. datetime.now(timezone.utc)", "/p/app/sync.py"),
                     ("now stamp last_synced_at after a sync", "/p/app/sync.py"),
                     ("utcnow again. aware datetimes only in this file pls", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL" and "utcnow" in node["description"]


def test_again_names_the_earlier_reply_that_had_no_correction_phrase_as_the_first_correction():
    nodes = _session(("list orders with the customer name", "/p/app/views/orders/index.html.erb"),
                     ("that's an N+1 on customers. includes(:customer) in the controller", "/p/app/controllers/orders.rb"),
                     ("now the carrier name on the shipments page", "/p/app/views/shipments/index.html.erb"),
                     ("N+1 again!! includes whenever a list touches an association", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"
    assert node["description"].startswith("that's an N+1 on customers")


@pytest.mark.parametrize("prompt", [
    "run the tests again",
    "try again, the registry was down",
    "the other endpoint again, same treatment for hikes.py",
])
def test_again_that_asks_for_a_step_or_repeats_nothing_is_no_lesson(prompt):
    assert _session(("skip hikes older than 30 days", "/p/app/sync.py"),
                    ("no datetime.utcnow(), it's naive. datetime.now(timezone.utc)", "/p/app/sync.py"),
                    ("now the hikes endpoint", "/p/app/sync.py"), (prompt, None))[0]["occurrences"] == 1
    assert _session(("now the hikes endpoint", "/p/app/sync.py"), (prompt, None)) == []


def test_same_as_i_said_counts_a_term_shared_only_in_part():
    nodes = _session(("add logging to the sync worker", "/p/sync/SyncWorker.kt"),
                     ("use Timber, not android.util.Log. Log calls arent stripped from release builds", "/p/sync/SyncWorker.kt"),
                     ("also log the error when upload throws", "/p/sync/SyncWorker.kt"),
                     ("Log.e… Timber.e(e, ...) same as I said 5 min ago", None))
    (node,) = nodes
    assert node["occurrences"] == 2


def test_a_checklist_format_is_not_a_key_term():
    (node,) = _after_an_edit("dont hand edit web/src/api/types.ts, it's generated from the openapi spec")
    assert node["process_type"] != "checklist" or "markdown" not in capture._terms(node)
    assert "markdown" not in capture._terms({"process_type": "checklist", "checklist": {"items": ["a b c"], "format": "markdown"}})


@pytest.mark.parametrize("prompt, word", [
    ("Dispatchers.IO?? its injected. use the `ioDispatcher` constructor param so tests can pass a TestDispatcher", "iodispatcher"),
    ("nice, green. but why is there a hand-built Trail in conftest? we have TrailFactory in tests/factories.py for that", "trailfactory"),
    ("use {{ ref('stg_hikes') }} and {{ ref('stg_trails') }}, not the raw tables. no lineage otherwise", "ref("),
    ("nein, nicht direkt auf main pushen! immer branch + PR", "branch"),
    ("whoa wait. -o src/ would overwrite half the app. the generated client goes in src/gen/api", "src/gen/api"),
    ("orders has 40M rows, that add_index locks the table for the whole deploy. use algorithm: :concurrently", "concurrently"),
    ("the migration you wrote drops the column before copying the data, we'd lose every address. copy first", "copy first"),
    ("works, but round_half_up already exists in shop/utils/money.py", "money.py"),
])
def test_more_pushback_shapes_after_an_action(prompt, word):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction" and word in node["description"].lower()
    assert not node["description"].lower().startswith("nice")


def test_a_change_of_plan_is_not_a_correction():
    assert _after_an_edit("actually product changed their mind after the review, make it 50 per page instead. sorry for the churn") == []


@pytest.mark.parametrize("prompt, paths, priority", [
    ("no!! fallbackToDestructiveMigration wipes everyone's saved hikes", (), "CRITICAL"),
    ("this breaks the rollout, there's no /health", (), "CRITICAL"),
    ("dont make up revision ids, generate it", ("/p/backend/alembic/versions/0042_x.py",), "CRITICAL"),
    ("dont make up ids, generate them", ("/p/backend/app/models.py",), "HIGH"),
    ("works, but maybe check money.py before writing a new helper", (), "MEDIUM"),
    ("maybe, but you must check money.py first", (), "HIGH"),
])
def test_impact_from_identifiers_rollouts_and_migration_files(prompt, paths, priority):
    assert inference.infer_priority("user_correction", prompt, "", paths) == priority


def test_an_assistant_committing_to_a_step_going_forward_is_a_statement():
    text = "Fixed. Going forward I'll render every chart change with helm template | kubeconform before committing."
    assert find_statements(text) and not find_statements("Going forward the cache is warmed at startup.")


@pytest.mark.parametrize("ptype, key", [("warning", "risk"), ("pattern", "action"), ("requirement", "constraint"),
                                        ("checklist", "items")])
def test_a_block_whose_content_is_a_plain_string_is_still_a_valid_node(ptype, key):
    fields = {"type": ptype, "label": "Rename with moved blocks", ptype: "Add a moved {} block; never terraform state mv"}
    node, _problems = markers.to_node_fields(fields)
    value = node[ptype][key]
    assert "moved {} block" in (value[0] if isinstance(value, list) else value)
    full = capture._node("process_knowledge", node["label"], node, "s", NOW, "excerpt")
    assert node_problems(full) == []


@pytest.mark.parametrize("prompt, word", [
    ("WAIT. do not touch state by hand, ever. that's how we lost the staging db in june", "do not touch state"),
    ("No. The lobby page has to stay a server component, it fetches the season at render time", "server component"),
    ("this has no jitter, all 4000 clients reconnect in the same millisecond. it needs full jitter", "full jitter"),
    ("CI is red. whenever a query! changes you have to run cargo sqlx prepare and commit .sqlx", "sqlx prepare"),
    ("nope, the wire stays bincode — json triples the snapshot size and we pay for egress", "bincode"),
])
def test_pushback_found_in_held_out_8(prompt, word):
    (node,) = _after_an_edit(prompt)
    assert word in node["description"] and node["label"].lower() not in ("wait", "no")


def test_an_order_that_starts_with_do_not_is_not_a_question():
    from forewarn.learning.corrections import is_false_positive

    assert not is_false_positive("do not touch state by hand, ever.")
    assert is_false_positive("do you want the tests too")


@pytest.mark.parametrize("second", [
    "again unwrap in the handler!! two of them this time. I literally just said it",
    "you did it agian. unwrap in the handler",
])
def test_a_repeat_that_opens_with_again_or_misspells_it_is_counted(second):
    nodes = _session(("decode the Emote packet in the handler", "/p/net/handler.rs"),
                     ("don't unwrap in the connection handler. one bad packet panics the shard. use ?", "/p/net/handler.rs"),
                     ("ok. now also handle Ping", "/p/net/handler.rs"), (second, None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


def test_a_no_that_answers_the_assistants_question_is_not_pushback():
    records = [user("fix the typo in the README"), tool_use("Edit", {"file_path": "/p/README.md"}), tool_result("ok"),
               assistant_text("Done. Should I also bump the patch version?"), user("no, not for a readme typo. just commit it")]
    assert capture.extract_lessons(records, "", "s", NOW, context=[])[0] == []
    assert _after_an_edit("no complaints at all, that's exactly it. thanks!") == []


def test_a_key_lesson_is_a_statement():
    assert find_statements("Posted. Key lesson for this setup: the drain timeout must stay under 120s.")


@pytest.mark.parametrize("prompt, word", [
    ("you pushed straight to main. main auto-syncs to production through argo. a branch and a PR every time", "branch"),
    ("wait, you uploaded it yourself?? sdk releases only go out through release.yml", "release.yml"),
    ("That's the chart's own version you changed, not appVersion. appVersion follows the image tag", "appversion"),
    ("other way round. firmware 2.x sends local time and we store UTC, always", "utc"),
    ("kill that. -tags integration spins up testcontainers and eats 6gb. locally it's make test-unit", "test-unit"),
    ("Please not use double for this one, after 2^53 it loses precision. Make it uint64", "uint64"),
    ("we moved everything off svelte/store when we went to svelte 5. shared state is a $state rune", "$state"),
    ("golden files live in testdata/ next to the package they test", "testdata"),
    ("third party actions get pinned to a full commit sha, never @main and not a tag either", "sha"),
    ("this component shouldn't fetch anything itself. 40 cards = 40 requests", "fetch"),
    ("that file is generated, it says Code generated by sqlc. change queries/readings.sql and run sqlc generate", "sqlc"),
    ("The SDK still supports 3.9 and match/case is 3.10+. The 3.9 job in CI will fail on import.", "3.9"),
    ("works, but might be worth using errors.Is(err, ErrUnknown) rather than matching on the message text?", "errors.is"),
])
def test_pushback_found_in_held_out_9(prompt, word):
    (node,) = _after_an_edit(prompt)
    assert word in node["description"].lower()


@pytest.mark.parametrize("prompt", [
    "you fixed it, thanks!",
    "you added the tests, nice",
    "why 30s for the cap? is that from the docs or a number you picked? not saying it's wrong, just curious",
])
def test_praise_and_curiosity_after_an_action_are_not_corrections(prompt):
    assert _after_an_edit(prompt) == []


def test_a_suggestion_to_do_it_otherwise_is_a_medium_correction():
    (node,) = _after_an_edit("works, but might be worth using errors.Is rather than matching on the text?")
    assert node["priority"] == "MEDIUM"


def test_a_repeat_recalls_the_earlier_reply_it_repeats_not_the_newest():
    nodes = _session(("the chart needs an hourly speed endpoint", "/p/queries/readings.sql"),
                     ("anything hourly or longer reads from loom_readings_hourly. the raw table is a 40 second scan", "/p/queries/readings.sql"),
                     ("thanks. the shift report needs total picks per shift for the last 30 days too", "/p/queries/readings.sql"),
                     ("raw table again, over 30 days this time. same deal, build it from loom_readings_hourly", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["description"].startswith("anything hourly")


@pytest.mark.parametrize("second", [
    "and that's hand-written Go in queries.sql.go a second time. the query goes in the .sql file",
    "that prints the whole struct, token included. same leak as before, just one level down",
])
def test_more_ways_to_say_it_happened_again(second):
    from forewarn.learning.capture import REPEAT_CUE

    assert REPEAT_CUE.search(second)


def test_from_now_on_for_every_new_one_in_a_first_prompt_is_a_statement():
    text = "add a scrapeInterval value. and from now on any new value in values.yaml gets an entry in values.schema.json"
    assert find_statements(text, by_user=False, person=True)
    assert not find_statements("from now on guests can check out without an account", by_user=False, person=True)
    assert not find_statements("Moving forward, any new response uses camelCase.")  # the assistant reporting a change


def test_the_word_before_again_names_what_is_repeated():
    nodes = _session(("keep the dashboard filters in the query string", "/p/app/claim-filter.service.ts"),
                     ("no `any` please, there's a ClaimFilters interface in models/claim-filters.ts", "/p/app/claim-filter.service.ts"),
                     ("good. now the adjuster dropdown", "/p/app/adjuster-select.component.ts"),
                     ("`any` again, three times this time. the lint stage will fail", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


def test_exactly_the_same_mistake_in_other_words_is_a_repeat():
    nodes = _session(("use the blob content type", "/p/Documents/ClaimDocumentService.cs"),
                     ("don't block on .Result in request code, it starves the thread pool. await it", "/p/Documents/ClaimDocumentService.cs"),
                     ("GetAwaiter().GetResult() is exactly the same blocking call with a nicer exception. go async", None))
    (node,) = nodes
    assert node["occurrences"] == 2


@pytest.mark.parametrize("prompt, word, priority", [
    ("that file is generated by NSwag, your change disappears next time anyone runs pnpm gen:api. regenerate", "nswag", "HIGH"),
    ("We can't log the NI number or the name, that's personal data and App Insights can't hold PII", "ni number", "CRITICAL"),
    ("ugh. commit messages here are conventional commits with the work item at the end. amend it pls", "conventional", "HIGH"),
])
def test_pushback_found_in_held_out_10(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


def test_next_time_inside_a_sentence_is_not_a_look_ahead_marker():
    assert not find_statements("your change disappears next time anyone runs gen:api.", by_user=True, person=True)
    assert find_statements("and next time, run gen:api instead of editing the client", by_user=True, person=True)
    assert find_statements("From now on, whenever you add an EF migration, also generate the idempotent script",
                           by_user=False, person=True)


# ---------------------------------------------------------------- shapes found by held-out 11 and 12
@pytest.mark.parametrize("prompt, word, priority", [
    ("WHAT did you just run. migrate:fresh drops every table, on shared servers it's migrate --force only", "fresh", "CRITICAL"),
    ("we store every datetime in UTC. parse the offset, convert to utc and store it", "utc", "HIGH"),
    ("s3 disk not local. 2 web nodes behind the LB", "s3", "HIGH"),
    ("that's leakage. the window includes the day we're predicting, shift by one", "leakage", "HIGH"),
    ("this is pydantic v1 syntax, we're on pydantic 2. @validator is deprecated, use field_validator", "field_validator", "HIGH"),
    ("Is not correct like this. The package we must take from our Artifact Registry, somebody has squat the name on PyPI.",
     "registry", "CRITICAL"),
    ("event_ts is UTC but the stores trade on London time. has to be DATE(event_ts, 'Europe/London')", "london", "HIGH"),
    ("this is the options API. everything new here is script setup with the composition API", "composition", "HIGH"),
    ("our data stays in the EU (gdpr). recreate it with --location=EU", "location", "CRITICAL"),
    ("you could probably just use a computed() here instead of the ref + deep watcher, if you want", "computed", "MEDIUM"),
    ("works. maybe a FormRequest class would be a bit nicer than validating inline though? keeps the controller thin",
     "formrequest", "MEDIUM"),
    ("cool, so now there are 4000 lines of cell outputs with customer emails in git. nbstripout strips them, amend it",
     "nbstripout", "CRITICAL"),
    ("no, not in config/services.php, that file is committed. the token goes in .env. I'll rotate this one now", "env", "CRITICAL"),
])
def test_pushback_found_in_held_out_11_and_12(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


@pytest.mark.parametrize("prompt", [
    "sorry, my bad — I said lesson_progress but I meant quiz_attempts. the lesson_progress one already exists",
    "actually, product just told us they want weekly granularity now instead of daily. let's switch to weekly buckets",
    "has it been deployed yet?",
    "the tests were using the old fixture, all good now",
])
def test_a_reply_that_corrects_the_person_or_relays_a_new_requirement_is_no_lesson(prompt):
    assert _after_an_edit(prompt) == []


def test_dont_edit_vendor_is_not_data_loss():
    (node,) = _after_an_edit("dont edit vendor/ its wiped on the next composer install. fix it in packages/ instead")
    assert node["priority"] == "HIGH"


def test_second_time_now_is_a_repeat():
    nodes = _session(("fix the frontend build", "/p/package.json"),
                     ("we use pnpm in this repo, not npm", "/p/package.json"),
                     ("pnpm!!! second time now. npm writes a package-lock.json next to pnpm-lock.yaml. pnpm add.", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


@pytest.mark.parametrize("text, by_user, label", [
    ("Standing rule for this repo, since it keeps coming up: translation keys are snake_case and grouped by page.", True,
     "Translation keys are snake_case"),
    ("rule for this repo, please remember it: whenever a DAG's schedule changes, set catchup=False explicitly.", False,
     "Whenever a DAG's schedule changes"),
    ("good. make that a rule from now on: any job that touches payments is idempotent.", True, "Any job that touches"),
    ("Takeaway for this codebase: never let NUMERIC money columns turn into float64.", False, "Never let NUMERIC"),
])
def test_house_rule_markers_are_statements_labelled_after_the_colon(text, by_user, label):
    (sentence,) = find_statements(text, by_user=by_user, person=by_user)
    assert inference.label_from(sentence).startswith(label)


def test_a_statement_and_the_instructions_that_go_on_stating_it_are_one_lesson():
    text = ("Fixed. Takeaway for this codebase: never let NUMERIC money columns turn into float64. Read them as Decimal "
            "and only round when presenting.")
    (sentence,) = find_statements(text)
    assert "Decimal" in sentence
    assert len(find_statements("Lesson learned: MERGE prunes only with the partition in ON. Going forward, every MERGE "
                               "into a partitioned table should put a date range in the ON clause.")) == 1
    assert len(find_statements("Lesson learned: pin the base image. The build took 4 minutes.")) == 1
    assert not find_statements("The rule is recorded, and the bucket's public access block is fully on.")


def test_the_assistant_restating_the_correction_it_was_given_is_no_second_lesson():
    records = [user("commit the layout fix"), tool_use("Bash", {"command": "git commit -am fix && git push origin main"}),
               tool_result("ok"), assistant_text("Pushed."),
               user("you pushed to main?? main auto-deploys to production. everything goes on a branch and through a PR"),
               assistant_text("Sorry. From now on I'll push to a branch and open a PR.")]
    (node,), _problems = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert node["source"]["kind"] == "user_correction" and len(node["evidence"]) == 2


def test_maybe_next_time_keeps_its_verb_in_the_label():
    assert inference.label_from("maybe do a --dry_run first next time to see the bytes").startswith("Maybe do a --dry_run")


# ---------------------------------------------------------------- shapes found by held-out 13
@pytest.mark.parametrize("prompt, word, priority", [
    ("This reads really nicely, thanks! One thing I have to push back on though: amounts are Decimals on purpose.",
     "decimal", "HIGH"),
    ("This default goes the wrong direction. When the flags are not loaded yet the tab must stay hidden, so default false.",
     "default false", "HIGH"),
    ("unit specs go next to the service. test/ is only e2e against the real db", "next to the service", "HIGH"),
    ("Stopp, eas.json is committed to git! The token has nothing to look for in there. Make it an EAS secret.",
     "eas secret", "CRITICAL"),
    ("The label can change, but the field on /v1/accounts can't be renamed: older app versions still read it.",
     "older app versions", "CRITICAL"),
    ("take the echo out. secrets are not printed in ci logs, masked or not", "ci logs", "CRITICAL"),
    ("Hm, this is only for English. Please use Intl.NumberFormat with the member's locale, no handmade regex.",
     "intl.numberformat", "HIGH"),
    ("The Prisma client is still the old one. After you touch schema.prisma, first npx prisma generate, only then run things.",
     "prisma generate", "HIGH"),
    ("server runs in utc. periods are america/toronto. zonedTimeToUtc from date-fns-tz like everywhere else",
     "america/toronto", "HIGH"),
    ("Okay, they pass. Only an idea: with the withRollback helper you can run it against the test database. Would be "
     "nicer than all the jest.fn, but it is not a must.", "withrollback", "MEDIUM"),
])
def test_pushback_found_in_held_out_13(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


def test_a_long_oh_no_that_names_a_rule_is_no_put_off():
    (node,) = _after_an_edit("Oh no, that went out to every member already. We always publish OTA updates to the preview "
                             "branch first, and they only get promoted to production once QA signs off.")
    assert node["priority"] == "CRITICAL"
    assert _after_an_edit("hold on, don't commit yet") == []


def test_third_time_now_and_same_as_this_morning_are_repeats():
    nodes = _session(("add sentry user context", "/p/app/session.ts"),
                     ("Nein, not like this. Email and member number are personal data, they do not go to Sentry.", "/p/app/session.ts"),
                     ("Third time now. No email, no member number in Sentry.", None))
    (node,) = nodes
    assert node["occurrences"] == 2


def test_a_migration_written_in_the_turn_does_not_make_a_schema_correction_critical():
    assert inference.infer_priority("user_correction", "after you touch schema.prisma, first npx prisma generate",
                                    paths=["/p/prisma/schema.prisma", "/p/prisma/migrations/2026_x/migration.sql"]) == "HIGH"
    assert inference.infer_priority("user_correction", "the down() is missing",
                                    paths=["/p/database/migrations/2026_add_progress.php"]) == "CRITICAL"


@pytest.mark.parametrize("text, by_user", [
    ("And one thing for all of us from now on: every PR that changes a screen gets screenshots in light and dark mode.", True),
    ("good. fyi for next time detox ios only works on the macos runners.", True),
    ("Looks right. Merk dir das für die Zukunft, please: a new enum value goes to production one release before any code "
     "writes it.", True),
    ("Fixed. Important: the client keeps the last identified context across sessions. Every logout has to identify the "
     "anonymous context.", False),
])
def test_statements_found_in_held_out_13(text, by_user):
    (sentence,) = find_statements(text, by_user=by_user, person=by_user)
    assert len(sentence.split()) >= 8


def test_a_note_on_a_neighbouring_matter_is_not_folded_into_the_correction():
    records = [user("statements cut off wrong"), tool_use("Edit", {"file_path": "/p/api/statement-period.ts"}),
               tool_result("ok"), assistant_text("Done."),
               user("server runs in utc. periods are america/toronto. zonedTimeToUtc like everywhere else"),
               assistant_text("Fixed. Note for the future: the statement cron is in UTC, which is Toronto midnight only in "
                              "winter. Any new job that depends on local midnight must set timeZone on its decorator.")]
    nodes, _problems = capture.extract_lessons(records, "", "s", NOW, context=[])
    assert sorted(n["source"]["kind"] for n in nodes) == ["lesson_statement", "user_correction"]


# ---------------------------------------------------------------- shapes found by held-out 14
@pytest.mark.parametrize("prompt, word", [
    ("Hmm, would it make sense to give it a `for:`? Without one it fires on a single scrape, so on call gets paged for nothing",
     "single scrape"),
    ("anything mail stays grey cloud. cf only proxies http(s), we lost a day of a customer's mail to exactly that", "grey cloud"),
    ("look at what it actually uses on staging before making numbers up. 128MB for chromium is an OOM on the first invoice",
     "actually uses"),
    ("put that back, 14 days of PITR is in the contracts. grow the volume instead", "14 days"),
    ("leave 0007 alone and write a new revision with alter_column. 0007 ran on the inventory db in september", "new revision"),
    ("nomad's cron is UTC, so that fires at 8 in winter. every periodic job here sets time_zone, see backup-verify.nomad.hcl",
     "time_zone"),
    ("alertmanager only routes severity page or ticket. 'critical' matches no route. grep the rules before inventing labels",
     "page or ticket"),
    ("whoa, all 23 in one batch? rollouts go serial: 20%, same as every other play in site.yml", "serial"),
    ("cf_client() in here already does retries and pulls the token from keyring. raw requests.post is the thing we ripped out",
     "cf_client"),
    ("run the tests before you tell me it's done. test_cloudflare.py is red on my box now, 2 failures", "run the tests"),
    ("Oh thank you! Hmm, small thing: the other panels reference the datasource by uid. With the plain name the panel breaks.",
     "datasource by uid"),
    ("web1-3 are PROD. the default inventory is prod, staging runs need -i inventories/staging spelled out",
     "inventories/staging"),
    ("Hmm, `hostctl --version` still prints 0.8.1 — I think `__version__` in __init__.py needs the bump as well", "__init__.py"),
])
def test_pushback_found_in_held_out_14(prompt, word):
    _assert_one_correction(prompt, word)


def test_a_file_named_in_a_path_is_no_impact_and_a_file_the_correction_names_joins_its_triggers():
    (node,) = _after_an_edit("every periodic job here sets time_zone, see backup-verify.nomad.hcl")
    assert node["priority"] == "HIGH"
    (node,) = _after_an_edit("I think __version__ in src/hostctl/__init__.py needs the bump as well")
    assert node["trigger_conditions"]["file_patterns"] == ["**/CartBadge.vue", "**/__init__.py"]


def test_actually_lets_use_something_else_is_a_change_of_plan():
    assert _after_an_edit("actually, let's use redis instead — the panel folks want it to survive restarts. scrap memcached") == []


@pytest.mark.parametrize("text, by_user, person", [
    ("Ah yes, that's expected, sorry! Note for the future: our API tokens are scoped per zone on purpose 🙏 could you add it?",
     True, True),
    ("before you start: remember that bk1 sits in hel1 on purpose, a different DC from the db nodes.", False, True),
    ("from now on every alert rule gets a runbook_url annotation pointing at its wiki page, no exceptions.", False, True),
])
def test_statements_found_in_held_out_14(text, by_user, person):
    assert len(find_statements(text, by_user=by_user, person=person)) == 1


@pytest.mark.parametrize("text, person, found", [
    # a person's "Important:" states how things are, with no "must" or "never" in it
    ("Thanks. Important: the reporting database is a read-only replica; anything that writes goes to the primary.", True, True),
    ("Important, before you start: every change under services/billing gets a load test with the numbers in the PR.",
     True, True),
    ("Important, for this one and anything else in apps/docs: the site is prerendered at build time.",
     True, True),
    # the assistant's "Important:" reports (the same words typed by a person state a rule)
    ("Important: the reporting database is a read-only replica; anything that writes goes to the primary.", False, False),
])
def test_a_persons_important_marker_states_a_lesson(text, person, found):
    assert bool(find_statements(text, by_user=person, person=person)) is found


@pytest.mark.parametrize("text", [
    "a partir de agora todo endpoint novo vai com paginação, nada de listar tudo",
    "e lembra disso: no servidor de homologação o cache fica desligado",
    "isso vale pra sempre, migração nunca roda no deploy automático",
    "husk at vi aldri deployer på fredager",
    "and that's a rule btw, not just this one: every public endpoint gets a rate limit",
])
def test_statements_in_portuguese_norwegian_and_a_persons_rule(text):
    assert find_statements(text, by_user=True)


def test_indonesian_statements():
    assert find_statements("mulai sekarang tiap ubah schema, seed.sql juga di-update ya", by_user=True)
    assert find_statements("ke depannya semua harga pakai formatRupiah(), jangan bikin formatter sendiri", by_user=True)


@pytest.mark.parametrize("text", [
    "từ giờ mỗi lần đổi schema.prisma phải chạy prisma generate trước khi build",
    "bundan sonra her migration'ın bir rollback planı olacak",
    "ba3d keda dayman e3mel restart lel beat kaman",
])
def test_vietnamese_turkish_and_franco_arabic_statements(text):
    assert find_statements(text, by_user=True)


def test_a_look_ahead_marker_in_bold_opens_a_persons_rule():
    assert find_statements("**From now on:** every export job writes to the scratch bucket first.", by_user=True)


def test_what_follows_a_paste_intro_is_not_the_persons_own_words():
    prompt = ("ticket below, do the ansible part pls\n\nOPS-412 Rotate origin certificates\n"
              "- Note for future: origin certs are valid for 15 years, put the expiry date in the runbook\n"
              "Jonas: you missed lb2 last time")
    assert find_statements(prompt, by_user=True, person=True) == [] and find_corrections(prompt) == []


@pytest.mark.parametrize("text, priority", [
    ("strip id and version out of that json, provisioning fights the copy in the db", "HIGH"),
    ("don't switch off central package management! The version goes into Directory.Packages.props", "HIGH"),
    ("you forgot versionCode. play rejects the upload if it's not higher than the last one", "CRITICAL"),
    ("__version__ in __init__.py needs the bump as well", "CRITICAL"),
    ("the field can't be renamed: members on older app versions still read it", "CRITICAL"),
    ("that's the chart's own version you changed, not appVersion", "CRITICAL"),
])
def test_a_version_is_a_release_matter_only_when_the_text_says_which(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


@pytest.mark.parametrize("text, priority", [
    # someone reaching what is not theirs
    ("the endpoint takes the account id from the query string, so any logged-in customer can view another customer's invoices", "CRITICAL"),
    ("sem o filtro qualquer usuário logado pode ver os pedidos dos outros", "CRITICAL"),
    # the live site, injection and escaping, a whole index deleted
    ("that change went straight to live without a test order on staging", "CRITICAL"),
    ("the search term goes into the page unescaped, that's XSS; sanitize it on the way in", "CRITICAL"),
    ("reindex deletes the whole index before it rebuilds it", "CRITICAL"),
    # a force push by its safe flag, a history rewritten in French, creds, a token shown in plain text in French,
    # an admin service on the public load balancer
    ("she pushes to that branch too and her commit is gone now. always --force-with-lease", "CRITICAL"),
    ("develop est partagée, on ne réécrit jamais son historique", "CRITICAL"),
    ("creds go in ~/.config/app/sandbox.env, not in the repo folder", "CRITICAL"),
    ("tu viens d'afficher le token en clair dans la conversation", "CRITICAL"),
    ("admin tools never sit on the public LB, use the internal class", "CRITICAL"),
    # release tooling named, no release mistake
    ("PR titles have to be conventional commits, the release notes are generated from them", "HIGH"),
    ("new entries go under Unreleased, cargo-release renames that heading", "HIGH"),
    # words that name none of it
    ("use live reload in dev, the full rebuild takes a minute", "HIGH"),
    ("escape the quotes in that shell string, it breaks on apostrophes", "HIGH"),
])
def test_impact_from_access_by_anyone_the_live_site_and_injection(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


# ---------------------------------------------------------------- shapes found by held-out 15 and 16
@pytest.mark.parametrize("prompt, word, priority", [
    ("Shouldn't this go through AppointmentService? CONTRIBUTING.md is explicit: views call a service.", "appointmentservice", "HIGH"),
    ("Please read what makemigrations generated before running anything: on production that throws away every phone "
     "number. Write the migration by hand with RenameField.", "renamefield", "CRITICAL"),
    ("oh no, wait. I might be wrong, but isn't that DATABASE_URL the production one? I think we're only supposed to point "
     "local commands at the compose db. could you please always check which database a command will write to?",
     "which database", "CRITICAL"),
    ("thanks! hmm, I might be wrong, but I think we usually send SMS from a Celery task queued with on_commit?", "on_commit", "HIGH"),
    ("looks good! not sure if this matters, but maybe a select_related('vet') on the queryset would save a query per row?",
     "select_related", "MEDIUM"),
    ("nope thats only en. the importer bails on the whole sheet set when a key is missing in any locale", "any locale", "HIGH"),
    ("this gets picked up by the linux agents too and just dies at xcodebuild. it needs a Mac requirement", "linux agents", "HIGH"),
    ("lol u left AndroidBundleVersionCode at 2142, play console rejects the aab if the code doesnt go up",
     "androidbundleversioncode", "CRITICAL"),
    ("0042 already ran on prod two weeks ago — changing it does nothing there. new file 0043, and leave the ones that went "
     "out alone", "already ran on prod", "CRITICAL"),
    ("did u even compile this? console is all red. run the compile check before telling me its done, every time",
     "compile check", "HIGH"),
    ("the fallback in RemoteConfigDefaults cant be true. when the fetch fails the game runs on those defaults", "defaults", "HIGH"),
    ("hmm wait, do they get buzzed at 3am?? thats how we got the 1 star reviews. it shouldnt wake anybody up, hold it until "
     "morning", "3am", "HIGH"),
    ("ok so. players lost their gems!! and it went straight into the real game. we always put it on staging first",
     "staging first", "CRITICAL"),
    ("mira, con param() el valor sale en texto plano en el build log. para secretos siempre password()", "texto plano", "CRITICAL"),
])
def test_pushback_found_in_held_out_15_and_16(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


def test_spanish_and_counted_repeats_merge():
    nodes = _session(("cambia el boton", "/p/Assets/ShopPanel.prefab"),
                     ("no edites el .prefab a mano porfa, los fileIDs se rompen facil", "/p/Assets/GemCounter.prefab"),
                     ("otra vez el prefab a mano!! ya te lo dije hace 10 min", None))
    (node,) = nodes
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


@pytest.mark.parametrize("text, by_user", [
    ("perfecto. y ojo para el futuro: cada vez que se toca un .proto siempre hay que correr make proto", True),
    ("Fixed. Important for anything touching Google Play Billing: a purchase that isn't acknowledged within 3 days is "
     "refunded, so a grant without an acknowledge is never done.", False),
])
def test_statements_found_in_held_out_15_and_16(text, by_user):
    assert len(find_statements(text, by_user=by_user, person=by_user)) == 1


def test_here_is_the_ticket_introduces_a_paste():
    prompt = ("Here is today's ticket. Please read it and propose a plan.\n\nVET-412 Waitlist\n"
              "- Note for future: product wants this for surgeries too\n- Make sure you notify the first owner")
    assert find_statements(prompt, by_user=True, person=True) == []


# ---------------------------------------------------------------- shapes found by held-out 18
@pytest.mark.parametrize("prompt, word, priority", [
    ("`cargo nextest run --workspace --all-features` and then `cargo test --doc --workspace`", "nextest", "HIGH"),
    ("blocking: a new required parameter on a pub fn is a breaking change, so the next version is 0.14.0, not 0.13.3",
     "breaking change", "CRITICAL"),
    ("blocking (security): preopening / with all perms hands every plugin read-write access to the whole disk", "preopening",
     "CRITICAL"),
    ("suggestion: .filter(..).count() instead of collecting into a Vec just to take its len", "count()", "MEDIUM"),
    ("ah, that just put a docs build from your local branch on the site. production docs only go out through the docs-deploy "
     "workflow", "docs-deploy", "CRITICAL"),
    ("this panics on every changelog page: they all have ### Fixed more than once", "panics", "HIGH"),
    ("ouch. Ana pushed two commits and that push threw them away. someone else's branch never gets a plain --force",
     "threw them away", "CRITICAL"),
    ("- matrix lost windows-latest in that edit\n- all three OSes on every PR\n- coverage linux-only is fine", "windows-latest", "HIGH"),
])
def test_pushback_found_in_held_out_18(prompt, word, priority):
    node = _assert_one_correction(prompt, word, priority)
    assert not node["label"].lower().startswith(("ouch", "ah,"))


def test_has_no_line_either_and_third_time_today_repeat_the_lesson():
    nodes = _session(("fix #1402", "/p/src/new.rs"),
                     ("nit: CHANGELOG.md line under Unreleased, every user-visible change gets a line", "/p/src/serve.rs"),
                     ("#1405 has no CHANGELOG line either", "/p/src/sitemap.rs"),
                     ("and CHANGELOG. that's the third time today: the Unreleased line is part of the fix", None))
    (node,) = nodes
    assert node["occurrences"] == 3 and node["priority"] == "CRITICAL"


def test_a_rejection_that_asks_for_a_moment_defers_but_a_hold_on_with_reasons_corrects():
    from forewarn.learning.corrections import find_rejection_correction

    assert find_rejection_correction("hold on, I've got uncommitted work in config.rs. give me a sec to commit it, then go "
                                     "ahead exactly as you planned.") == ""
    assert find_rejection_correction("Hold on. More workers would only push more requests at Twilio. Please find out why it is "
                                     "slow before changing anything on production.")


def test_a_statement_marker_without_guidance_joins_the_statement_after_it():
    (sentence,) = find_statements("Important: the dev server also serves drafts, so listening on anything but loopback shows "
                                  "them to the network. From now on, any listen address other than 127.0.0.1 has to come "
                                  "from an explicit --bind.")
    assert "loopback" in sentence and "--bind" in sentence


# ---------------------------------------------------------------- shapes found by held-out 17
@pytest.mark.parametrize("prompt, word", [
    ("I have reviewed the change. Regrettably it cannot be accepted in its present form.\n\n1. The new statement writes the "
     "complete HL7 message to the log.\n2. Logs go to the central cluster.\n3. For diagnosis, please log the message control "
     "ID (MSH-10) only.", "control id"),
    ("I am obliged to ask you to revise this change.\n\n1. V12 was applied to production.\n2. A migration that has been "
     "applied must never be edited.", "never be edited"),
    ("Thank you. Before I review the logic in detail, two matters of conformance with section 5.3.", "conformance"),
    ("attention, test code 00712 is 712 in the table now. read all columns as strings, dtype=str", "dtype=str"),
    ("412 seconds on dev. as a table it rebuilds everything each hour and eats the snowflake credits of the month in one "
     "week. make it incremental on loaded_at", "incremental"),
    ("The search works nicely, thank you. But anyone walking past could read patients' full record numbers. The number "
     "should only ever show the last four digits.", "last four digits"),
    ("this line. on the test server the browser calls localhost and the page stays empty. keep it relative, just '/api'",
     "relative"),
    ("ok but nothing tests it. every staging model has unique and not_null on its key, like the others", "not_null"),
    ("Thanks! One problem though: the times are six hours ahead. They need to see our local time.", "local time"),
    ("It looks great to me, but Karen uses a screen reader, and it reads nothing at all for the dots.", "screen reader"),
])
def test_pushback_found_in_held_out_17(prompt, word):
    _assert_one_correction(prompt, word)


def test_returning_to_the_point_raised_repeats_it():
    nodes = _session(("create the two marts", "/p/models/marts/fct_readmissions_30d.sql"),
                     ("One correction before you proceed. Please refer to every model through ref(), never by a hard-coded "
                      "relation name.", "/p/models/marts/fct_discharges.sql"),
                     ("I regret that I must return to the point I raised a moment ago. fct_discharges joins by a hard-coded "
                      "relation name, exactly as in the first model.", None))
    (node,) = nodes
    assert node["occurrences"] == 2


def test_a_state_report_is_not_a_house_rule_and_a_request_to_produce_is_new_work():
    assert _after_an_edit("glab is not logged in on this box. please handle the review comments on MR !412") == []
    assert _after_an_edit("Please produce an inventory of every dbt model that exposes a direct patient identifier.") == []


# ---------------------------------------------------------------- shapes found by held-out 19 and 20
@pytest.mark.parametrize("prompt, word, priority", [
    ("ok it looks really nice but anyone in germany is gonna see $9.99 lol. the price has to come from displayPrice",
     "displayprice", "HIGH"),
    ("kinda works but the number flickers. anything that touches the ui has to hop to the main actor", "main actor", "HIGH"),
    ("hmm fresh install in airplane mode shows an empty bar. every remote config key needs a value in the defaults plist",
     "defaults plist", "HIGH"),
    ("oof now it buzzes on every tick, feels like the phone is broken lol. one .success when they tap Set Goal and that's it",
     "every tick", "HIGH"),
    ("Say the pod gets SIGKILLed right after PostEntry returns. Where's the event? We do neither, so notifications silently "
     "miss it. Events are written to ledger.outbox in the same transaction. Handlers never call the producer.", "outbox", "HIGH"),
    ("Nee, stop. Let op: de CVV slaan we nooit op, nergens. PCI forbids storing it after authorisation.", "cvv", "CRITICAL"),
    ("It connects, sure. Who else can answer that handshake now? InsecureSkipVerify never ships, not to staging either.",
     "insecureskipverify", "CRITICAL"),
    ("Works. Small one, take it or leave it: errors.Is(err, ErrNotFound) would hold up better than matching on the text.",
     "errors.is", "MEDIUM"),
    ("Where does the money for that credit come from? A journal entry always has at least two lines and they sum to zero. "
     "A one-line entry is a bug, not a shortcut.", "sum to zero", "HIGH"),
])
def test_pushback_found_in_held_out_19_and_20(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


def test_a_socratic_rejection_is_the_rule_after_its_question():
    from forewarn.learning.corrections import find_rejection_correction

    text = find_rejection_correction("And if the plan had wanted to replace the cluster, at which point would you have seen "
                                     "that? Against prod there is never an -auto-approve: plan to a file, show me the plan.")
    assert "auto-approve" in text and "?" not in text


def test_dutch_repeats_and_a_bug_unrelated_to_the_last_change():
    nodes = _session(("schrijf een migration voor frozen_at", "/p/migrations/000047_frozen_at.up.sql"),
                     ("Nee, waar is de down? Elke migration krijgt altijd een .down.sql erbij.", "/p/migrations/000048_idx.up.sql"),
                     ("Let op: 000048 heeft weer alleen een up file. Ik zeg het nu voor de tweede keer: altijd up en down.", None))
    (node,) = nodes
    assert node["occurrences"] == 2
    assert _after_an_edit("New bug, unrelated to anything you did. git blame puts this code in March. FAIL: page size ignored") == []


# ---------------------------------------------------------------- shapes found by held-out 21 and 22
def test_a_json_block_with_a_backslash_json_does_not_know_is_read_literally():
    text = ('[PROCESS_KNOWLEDGE]\n{"type": "requirement", "priority": "HIGH", "label": "Keep form data out of logs", '
            '"requirement": {"constraint": "no logger call", "validation": "grep -rn \'print_r\\|var_export\' plugins"}}\n'
            '[/PROCESS_KNOWLEDGE]')
    ((fields, error, _body),) = markers.find_blocks(text)
    assert error is None and "print_r\\|var_export" in fields["requirement"]["validation"]


@pytest.mark.parametrize("prompt, word, priority", [
    ("40 min for a dev build. incremental, merge on session_id, reprocess the last 3 days", "incremental", "HIGH"),
    ("não, mergeSchema no silver não. mudança de schema é migration, revisada no PR", "mergeschema", "CRITICAL"),
    ("not delete. invoices are under legal retention, 10 years for tax. deleting them is its own compliance incident",
     "legal retention", "CRITICAL"),
    ("lol nah that's playfair 😅 brand guide says Fraunces for headings", "fraunces", "HIGH"),
    ("layout's 🔥 but a raw <img>?? that tanks LCP on the grid. next/image w/ sizes pls", "next/image", "HIGH"),
    ("This works nicely, thank you. The labels, however: the brand guide asks for British English throughout",
     "british english", "HIGH"),
    ("still 401 lol. this hits http://wp/graphql, has to be https — the redirect drops the Authorization header", "https", "HIGH"),
])
def test_pushback_found_in_held_out_21_and_22(prompt, word, priority):
    _assert_one_correction(prompt, word, priority)


def test_de_novo_repeats_and_a_client_wish_or_a_list_for_now_is_no_correction():
    nodes = _session(("limpa as duplicatas no fct_events", "/p/models/fct_events.sql"),
                     ("não!! full-refresh no prod reconstrói o fct_events e a gente perde 3 anos de histórico", "/p/models/agg.sql"),
                     ("de novo o --full-refresh 😤 nunca --full-refresh no target prod", None))
    (node,) = nodes
    assert node["occurrences"] == 2
    assert _after_an_edit("Fernhill would like the breadcrumbs on journal posts to say Journal rather than Blog.") == []
    assert _after_an_edit("before the review can u audit the frontend for anywhere an email could leak? just a list, no fixes yet") == []


# ---------------------------------------------------------------- shapes found by held-out 23-26
def test_a_block_written_with_key_equals_value_lines_numbered_items_and_tool_aliases_is_read():
    text = ("[PROCESS_KNOWLEDGE]\ntype = checklist\npriority = HIGH\nlabel = Room entity change needs a Migration\n"
            "trigger_conditions:\n  tools = [Edit, Write]\n  files = [**/AppDatabase.kt]\n  keywords: [room]\n"
            "description: AppDatabase.kt #includes every entity, fixes #123 # the reviewer's note\n"
            "checklist:\n  items:\n    1. Bump the @Database version\n    2. Add MIGRATION_N_N+1\n[/PROCESS_KNOWLEDGE]")
    ((fields, error, _body),) = markers.find_blocks(text)
    assert error is None
    node, _problems = markers.to_node_fields(fields)
    assert node["checklist"]["items"] == ["Bump the @Database version", "Add MIGRATION_N_N+1"]
    assert node["trigger_conditions"]["tool_names"] == ["Edit", "Write"]
    assert node["trigger_conditions"]["file_patterns"] == ["**/AppDatabase.kt"]
    assert node["trigger_conditions"]["action_keywords"] == ["room"]
    assert node["description"] == "AppDatabase.kt #includes every entity, fixes #123"


def test_numbered_lines_inside_a_literal_block_stay_as_written():
    assert yamlish.parse("notes: |\n  1. keep\n  2. this\n") == {"notes": "1. keep\n2. this"}


@pytest.mark.parametrize("text, critical", [
    ("no --erase!!! it wipes the calib sector at 0x0807E000, every board has its own cal in there", True),
    ("stop stop. seed.sh truncates customer_addresses before inserting", True),
    ("that key is hardcoded to the same path, they'd overwrite each others state", True),
    ("We don't run state rm or import by hand against the shared S3 backend", True),
    ("now local.properties with my sentry token is in the commit", True),
    ("its not inside authenticate(admin-jwt), so anyone with curl can refund themselves", True),
    ("app/VERSION still says PATCHLEVEL = 1 and the OTA server rejects a version it already has", True),
    ("the println is still in here, those end up in logcat on release builds", False),
])
def test_impact_found_in_held_out_23_to_26(text, critical):
    assert (inference.infer_priority("user_correction", text) == "CRITICAL") is critical


def test_a_suggestion_stays_medium_when_the_task_touches_production():
    text = "It might be nicer to keep lifecycle rules in their own lifecycle.tf, but it's not a blocker."
    assert inference.infer_priority("user_correction", text, task="apply the bucket change to prod") == "MEDIUM"
    assert inference.infer_priority("user_correction", "keep lifecycle rules in lifecycle.tf", task="apply it to prod") == "CRITICAL"


def test_a_correction_of_an_mcp_call_is_triggered_by_that_tool():
    records = [user("start the 2.4.1 rollout to the fleet"), tool_use("mcp__fleet__create_rollout", {"version": "2.4.1", "percent": 100}),
               tool_result("ok"), assistant_text("Rolled out."), user("cancel it NOW. always staged: 5% canary, 24h soak, then wider")]
    (node,) = capture.extract_lessons(records, "", "s", NOW, context=[])[0]
    assert node["trigger_conditions"]["tool_names"] == ["mcp__fleet__create_rollout"] and node["priority"] == "CRITICAL"


@pytest.mark.parametrize("prompt, words", [
    ("no, 2 things. k_msleep in the adc callback = we're in ISR context, it asserts and hangs the loop. nothing sleeps in "
     "there, hand it to a k_work. second, no LOG_DBG in the 20kHz path, even compiled out it hides what the loop does",
     ["k_msleep", "log_dbg"]),
    ("ok 2 things 1. no hardcoded Color(0xFF..) anywhere, use MaterialTheme.colorScheme, dark mode breaks otherwise "
     "2. you ran the entire test suite again, thats 9 min for nothing. just run the class you touched with --tests",
     ["colorscheme", "--tests"]),
    ("Thank you, this will help. Two things I'd ask you to change though. First, pupils' names must never go into Logger, "
     "the logs leave the building. Second, please don't leave IO.inspect calls behind; they spam stdout on Fly.",
     ["logger", "io.inspect"]),
    ("Two things before I read the rest:\n\n- Tags: merge `var.tags` with the module's own Name tag, don't hand-roll a map.\n"
     "- versions.tf: `>= 5.0` is unbounded. We pin `~> 5.62` to match the platform baseline.", ["var.tags", "~> 5.62"]),
    # nothing enumerates them: the second lesson is the sentence that opens with "And"
    ("A couple things. Timestamps in the export are UTC, the finance team converts them themselves. And you forgot "
     "the header row, their importer needs it to map the columns.", ["utc", "header row"]),
    ("two quick things. no print() in the worker, it goes nowhere under systemd. and the retry count comes from "
     "settings.RETRIES, not a literal 5 in the loop", ["print()", "settings.retries"]),
    # "One: … Two: …"
    ("Two things. One: the webhook handler never checks the signature header, anyone can post a fake event. Two: "
     "the tests use plain asserts, we use the helpers in tests/support for every handler", ["signature", "tests/support"]),
    # "and second", and the announcement in another language
    ("ok couple of things. first, fixtures live in tests/fixtures/, not next to the test file. and second never call "
     "the real geocoder from a test, mock it with the recorded responses", ["tests/fixtures", "geocoder"]),
    ("dos cosas: 1) los montos van en centavos como entero, nunca float 2) nada de print en el servicio, usa el logger "
     "que ya tiene configurado", ["centavos", "logger"]),
])
def test_a_reply_that_announces_two_things_is_two_lessons(prompt, words):
    nodes = _after_an_edit(prompt)
    assert [n["source"]["kind"] for n in nodes] == ["user_correction"] * 2
    assert all(word in node["description"].lower() for node, word in zip(nodes, words))


@pytest.mark.parametrize("prompt", [
    # numbered points that are the what, why and what-to-do of one mistake
    "I have reviewed the change and must raise the following. 1. The statement writes the whole HL7 message to the "
    "log. 2. The logs are forwarded to Elastic, which is not approved for patient data. 3. Please log only the message "
    "control ID.",
    # announced two, enumerated three: not split
    "two things: 1. the flag is inverted in config.py, it must be false by default 2. the test does not cover it at all "
    "3. also the changelog line is missing for it",
    # announced two, and more sentences opening with "And" than that: which of them starts the second is a guess
    "two things: the flag is inverted in config.py, it must be false by default. And the test does not cover it at all. "
    "And the changelog line is missing for it.",
])
def test_enumerated_reasons_of_one_mistake_stay_one_lesson(prompt):
    assert len(_after_an_edit(prompt)) == 1


@pytest.mark.parametrize("prompt", [
    "bene. next one: the brake lever frame 0x123, 10ms period. make sure it goes through the same dispatch table",
    "oh sorry i meant the rider app 🙈 the OrderCard in :rider, riders are the ones who need the landmark. revert the customer one",
    "wait, I have uncommitted stuff in the calib tool on this checkout. let me stash first, then go on",
    "omg yes 🔥🔥 thats exactly it. mira is gonna cry happy tears. ill put it in tmrws internal build",
])
def test_replies_that_move_on_put_off_or_praise_are_no_correction(prompt):
    assert _after_an_edit(prompt) == []


def test_rebuking_questions_then_the_rule_keep_the_rule():
    (node,) = _after_an_edit("did you even run the tests? or are we merging blind again like last week? the check for "
                             "this package is make check-billing")
    assert "make check-billing" in node["description"]


@pytest.mark.parametrize("prompt, pushes", [
    # Portuguese "no" is "in the": a place, then what to do there
    ("no painel do cliente mostra o total de pedidos do mês", False),
    ("no checkout-br usa o helper de moeda que já existe", False),
    # English and Spanish "no" still push back
    ("no floats for money, integer cents everywhere", True),
    ("no uses float para el dinero, todo en centavos", True),
])
def test_portuguese_no_before_a_place_is_no_pushback(prompt, pushes):
    from forewarn.learning.corrections import pushes_back

    assert pushes_back(prompt) is pushes


def test_also_that_pushes_back_is_a_correction_not_the_next_task():
    (node,) = _after_an_edit("ok. also the page size can't be hardcoded 50, the admin lists go up to 500 rows; read it "
                             "from settings.PAGE_SIZE")
    assert "settings.page_size" in node["description"].lower()
    assert _after_an_edit("ok. also add a CSV export to the same page, same columns") == []


@pytest.mark.parametrize("prompt", [
    "jangan pakai float buat harga bro, semua harga di db itu bigint",
    "lu lupa validasi ukuran file, upload 20MB langsung masuk",
    "harusnya bikin migration baru, file yang lama udah ke-apply di prod",
    "harga di db selalu bigint, bukan numeric.",
])
def test_indonesian_corrections_after_an_edit(prompt):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction"


@pytest.mark.parametrize("prompt", [
    "đừng hardcode mã màu trong screen nha, dùng colors trong src/theme",
    "bu sorguları prod primary'ye atma, read replica var onu kullan",
    "el timezone da ghalat, CELERY_TIMEZONE 3andena Africa/Cairo mesh UTC",
])
def test_vietnamese_turkish_and_franco_arabic_corrections_after_an_edit(prompt):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction"


def test_a_correction_of_a_turn_that_only_read_is_triggered_by_the_file_it_read():
    records = [user("sign-in fails with an invalid signature, investigate"), tool_use("Read", {"file_path": "/p/config/saml/sp_key.pem"}),
               tool_result("-----BEGIN RSA PRIVATE KEY-----"), assistant_text("Checked the key."),
               user("You did not need to open the private signing key; the certificate has everything you need.")]
    (node,) = capture.extract_lessons(records, "", "s", NOW, context=[])[0]
    assert node["trigger_conditions"]["file_patterns"] == ["**/sp_key.pem"]


def test_a_statement_that_holds_a_use_x_not_y_is_one_statement_when_nothing_was_done():
    records = [user("why do the imported contracts start in 2089?"), tool_use("Grep", {"pattern": "ofPattern"}),
               tool_result("Reader.java:41: DateTimeFormatter.ofPattern(\"dd.MM.yy\")"), assistant_text("Two-digit years."),
               user("Right. Note for future: the legacy exports write two-digit years, 70 and up is 19xx. Every date "
                    "parsing of those exports must use this pivot, not the Java default.")]
    (node,) = capture.extract_lessons(records, "", "s", NOW, context=[])[0]
    assert node["source"]["kind"] == "lesson_statement" and "two-digit years" in node["description"]


def test_praise_before_the_point_is_left_out_of_the_lesson():
    (node,) = _after_an_edit("These read nicely, thank you. Could you use the factory in test/support/factory.ex for them, "
                             "though, rather than building structs by hand?")
    assert node["label"].lower().startswith("could you use the factory") or node["label"].lower().startswith("use the factory")


# ---------------------------------------------------------------- shapes found by held-out 27-30
@pytest.mark.parametrize("body, label, files", [
    ("Type: process_knowledge\nPriority: MEDIUM\nLabel: Export conda envs with --from-history\n"
     "Trigger conditions: tools [Bash, Write]; files workflow/envs/*.yaml\nChecklist:\n1. Use --from-history\n2. Pin versions\n",
     "Export conda envs with --from-history", ["workflow/envs/*.yaml"]),
    ("**type**: rule\n**priority**: HIGH\n**label**: Raw guest phone numbers never leave the database\n"
     "**trigger_conditions**: tools = Edit, Write; file_patterns = src/server/**, src/lib/analytics.ts\n"
     "**checklist**:\n1. No phone number in PostHog\n2. Use maskPhone(phone)\n",
     "Raw guest phone numbers never leave the database", ["src/server/**", "src/lib/analytics.ts"]),
    # the colon inside the bold, and the tools named before the files they act on
    ("**Type:** checklist\n**Priority:** HIGH\n**Label:** Regenerate the API client after editing the OpenAPI spec\n"
     "**Triggers:** Edit, Write on `api/openapi/*.yaml`, api/openapi/**/*.json\n**Checklist:**\n1. Run make client\n"
     "2. Commit the generated client with the spec\n",
     "Regenerate the API client after editing the OpenAPI spec", ["api/openapi/*.yaml", "api/openapi/**/*.json"]),
    # markdown task boxes for the items, and the triggers as a list of one-key lines
    ("Type: process\nPriority: HIGH\nLabel: Gate paid features on the entitlement, never on product ids\n"
     "Triggers:\n- tools: Edit, Write\n- files: **/*View.swift, **/Store.swift\nChecklist:\n"
     "- [ ] Check the entitlement for paid-only UI\n- [x] Never compare product ids in app code\n",
     "Gate paid features on the entitlement, never on product ids", ["**/*View.swift", "**/Store.swift"]),
    # dotted keys, TOML-style assignments
    ("type = checklist\npriority = HIGH\nlabel = Run the DAG test before pushing a DAG\n"
     "trigger_conditions.tools = [Edit, Write]\ntrigger_conditions.file_patterns = [\"dags/**/*.py\"]\n"
     "checklist.items:\n  1. Every operator is imported\n  2. airflow dags test passes locally\n",
     "Run the DAG test before pushing a DAG", ["dags/**/*.py"]),
    # every key a markdown list item under a heading, the triggers nested the same way
    ("## Feature flags are read through the Flags client\n- type: pitfall\n- priority: HIGH\n"
     "- label: Feature flags are read through the Flags client\n- trigger_conditions:\n  - tools: Edit, Write\n"
     "  - file_patterns: src/**/*.ts\n- checklist:\n  1. Import Flags from lib/flags\n  2. Never read process.env.FLAG_* directly\n",
     "Feature flags are read through the Flags client", ["src/**/*.ts"]),
])
def test_a_block_with_capitalised_or_bold_keys_and_one_line_triggers_is_read(body, label, files):
    ((fields, error, _body),) = markers.find_blocks("[PROCESS_KNOWLEDGE]\n" + body + "[/PROCESS_KNOWLEDGE]")
    assert error is None
    node, _problems = markers.to_node_fields(fields)
    assert node["label"] == label and node["trigger_conditions"]["file_patterns"] == files
    assert node["process_type"] == "checklist" and len(node["checklist"]["items"]) == 2  # the items written are kept


@pytest.mark.parametrize("text, priority", [
    ("that's 43 packages bumped including a stripe-php major, I'm not shipping that on a friday", "CRITICAL"),
    ("don't put the key in config/services.php, that's in git!! I'll roll that key now", "CRITICAL"),
    ("This will overwrite last week's matrix the next time the project is sequenced", "CRITICAL"),
    ("it can't carry Sample_Name, those are patient-linked. Facility IDs only", "CRITICAL"),
    ("why is a guest phone number going into vercel logs? those are retained 30 days", "CRITICAL"),
    ("plain publicProcedure on an unauthenticated write => a bot fills every table", "CRITICAL"),
    ("could you redo that with <script setup>? everything new in this app is script setup", "HIGH"),
])
def test_priority_found_in_held_out_27_to_30(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


@pytest.mark.parametrize("text, priority", [
    ("Please do not cat the .env file. It has just printed the live Notify key into this conversation", "CRITICAL"),
    ("This is not how we check permissions in this project. Kindly use CaseworkerRequiredMixin", "CRITICAL"),
    ("No wildcard in ALLOWED_HOSTS, please, the pen test flagged exactly that last year", "CRITICAL"),
    ("no. pinning stays on in every build, debug builds go to testers through Firebase", "CRITICAL"),
    ("bettor rows (raw ones, with national ids!) never get written to local disk", "CRITICAL"),
    ("Concatenating the search term into the DQL is an injection waiting to happen", "CRITICAL"),
    ("and the email? the customer gets nothing now. You forgot to dispatch OrderShipped", "HIGH"),
    ("On my Pixel it goes straight to a black screen though, it never asks for the camera permission", "HIGH"),
])
def test_priority_found_in_held_out_35_to_38(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


@pytest.mark.parametrize("prompt", [
    "sabes qué, cambio de planes. acabo de hablar con Ale y el cron corre una vez por hora",
    "oye y por qué QueryBuilder y no un find con relations? no es reclamo eh, es para el review",
    "chido. ahora el endpoint PATCH /trips/:id/tip. make sure que solo se pueda en viajes completed",
    "espérame tantito, todavía no lo subas. finanzas no ha confirmado la fecha",
])
def test_spanish_plans_curiosity_next_tasks_and_waits_are_no_correction(prompt):
    assert [n for n in _after_an_edit(prompt) if n["source"]["kind"] == "user_correction"] == []


@pytest.mark.parametrize("text, priority", [
    ("güey acabas de meter la STRIPE_SECRET_KEY real de live al .env.example, y ese archivo se commitea", "CRITICAL"),
    ("neta? con eso las fotos de licencia de todos los choferes quedan públicas en internet", "CRITICAL"),
    ("don't put the token in the command, it lands in shell history", "CRITICAL"),
    ("ya forgot teh tenant_id filter. evry farm can see every other farms probes now", "CRITICAL"),
    ("the analytics_prod schema name is hardcoded, use ref()", "HIGH"),
    ("whoa NOT -v. that deletes the chdata volume and I have three weeks of replayed demo traffic", "CRITICAL"),
    ("that puts every visitor's IP into system.query_log, which ClickHouse keeps for 30 days", "CRITICAL"),
])
def test_priority_found_in_held_out_39_to_42(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


@pytest.mark.parametrize("text, priority", [
    ("Might be nicer to read maxAttempts from config instead of the const, so ops can tune it per environment without "
     "a deploy. Not blocking though.", "MEDIUM"),  # a nicety that says it can wait, whatever it names
    ("might be nicer to have attempts in custody.toml config, so SRE can tune without release. not urgent", "MEDIUM"),
    ("You should deploy it behind the flag, not blocking the release on it is wrong", "CRITICAL"),  # no nicety: a rule
    ("Customers' bank account numbers and tax IDs never go into logs, at any level.", "CRITICAL"),
    ("That file in Downloads is real customer passport. Real KYC documents never go into the repo.", "CRITICAL"),
    ("you don miss recon, kyc, wallet. run go work sync, e go align all the modules.", "HIGH"),  # service names
    ("Second: integration tests live in crates/custody-kyc/tests/, not inside src/.", "HIGH"),
    ("Put defer tx.Rollback(ctx) right after Begin. Every time.", "HIGH"),  # a method called, not a rollback
    ("no no no. never apply from laptop, you have my admin session.", "CRITICAL"),
    ("that route has no can:manage-tenancy, so any logged-in tenant could post a payment against someone else's tenancy.",
     "CRITICAL"),
    ("she asked for table-driven tests on someone else's PR last week", "HIGH"),
    ("why --no-verify?? gitleaks stopped you because it is a real sandbox token. You never skip the hooks.", "CRITICAL"),
])
def test_priority_found_in_held_out_95_to_98(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


def test_a_block_written_as_toml_is_read_where_python_has_tomllib():
    text = ('[PROCESS_KNOWLEDGE]\ntype = "guard"\npriority = "CRITICAL"\nlabel = "Check the code freeze before a prod deploy"\n\n'
            '[trigger_conditions]\ntools = ["Bash"]\nfile_patterns = ["deploy/**"]\n\n[checklist]\nitems = [\n  "Read CALENDAR.md",\n'
            '  "No make deploy ENV=prod during a freeze",\n]\n[/PROCESS_KNOWLEDGE]')
    ((fields, error, _body),) = markers.find_blocks(text)
    try:
        import tomllib  # noqa: F401
    except ImportError:
        assert fields is None and "malformed" in error  # Python 3.10: reported, never fatal
        return
    node, _problems = markers.to_node_fields(fields)
    assert node["priority"] == "CRITICAL" and node["trigger_conditions"]["tool_names"] == ["Bash"]
    assert node["checklist"]["items"] == ["Read CALENDAR.md", "No make deploy ENV=prod during a freeze"]


@pytest.mark.parametrize("reason, kept", [
    ("staging first", True), ("use pnpm", True), ("not main!", True),  # what to do instead, in two words
    ("no wait", False), ("not now", False), ("stop that", False), ("hmm no", False), ("no", False),
])
def test_two_words_typed_on_a_rejection_are_a_lesson_unless_they_only_refuse(reason, kept):
    assert bool(find_rejection_correction(reason)) is kept


def _after_a_command(command, prompt):
    records = [user("run the tests for the bond refund calc"),
               tool_use("Bash", {"command": command}), tool_result("ok"), assistant_text("All green."), user(prompt)]
    return capture.extract_lessons(records, "", "s", NOW, context=[])[0]


@pytest.mark.parametrize("command, prompt", [
    ("npx tsc --noEmit", "`pnpm turbo typecheck`"),
    ("mix test", "mix test --exclude integration. those hit the stripe sandbox, 6 min a run"),
    ("cd api && ./gradlew test", "./gradlew :claims:test --tests '*IbanTest*' the whole thing is 38 min"),
])
def test_a_reply_that_opens_with_the_command_to_run_is_a_correction(command, prompt):
    (node,) = _after_a_command(command, prompt)
    assert node["source"]["kind"] == "user_correction" and prompt.strip("`").split()[1] in node["description"]


@pytest.mark.parametrize("prompt", [
    "git push when you're ready",  # git is no program the turn ran
    "great, now the 999 acks the same way",
])
def test_a_reply_opening_with_another_word_is_not_read_as_a_command(prompt):
    assert _after_a_command("mix test", prompt) == []


@pytest.mark.parametrize("prompt", [
    "設定ファイルを直接編集しないでください。values.yaml から生成されています。",  # please don't edit it by hand
    "なぜ main に直接 push したんですか？ レビューを通すルールです。",  # why did you push to main? the rule is review
    "bakit mo ginalaw yung migration na tumakbo na? bawal galawin yun",  # why did you touch the migration that already ran?
    "wag mong i-commit yung .env, kahit test lang",  # don't commit the .env, even a test one
    "トークンをコミットメッセージに書かないで。履歴から消すのが大変",  # casual "don't write the token into the message"
    "重いジョブは low キューって決めてる。default に入れると詰まるから",  # "heavy jobs go to low, we decided"
    "リリースしてとは言ってない。tag を切ると本番デプロイが走る",  # "I never said release"
    "恐れ入りますが、ログに顧客の氏名を出すのはお控えください。",  # formal "please refrain from …"
    "当社ではコントローラから直接 SQL を発行しない方針です。リポジトリ経由でお願いします。",  # "it is our policy not to …"
])
def test_japanese_and_tagalog_corrections_after_an_edit(prompt):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction"


@pytest.mark.parametrize("text", [
    "今後は、マイグレーションを追加したら必ず down も書いてください。",  # from now on, always write the down migration
    "覚えておいてください：ステージングの DB は毎晩リセットされます。データを置かないでください。",  # remember: staging resets nightly
    "Tandaan mo 'to: yung student ID ay string, hindi integer, may leading zero.",  # remember this: ids are strings
    "Simula ngayon, dapat may feature test lahat ng payment changes.",  # from now on every payment change gets a feature test
    "これ覚えといて：商品コードは絶対 integer にしない。先頭の0が消える",  # casual "remember this"
    "教訓: staging の DB は夜間にリセットされるので、長いバッチは本番と同じ設定で流す。",  # "lesson:"
    "あとこれは今後ずっとのルールね：webhook は全部 event.id で冪等にすること",  # "a rule from now on"
    "重要なことなのでお伝えしておきます。本番のデプロイは必ず火曜日の午前に行うルールです。",  # "since it is important"
    "この方針、次回以降もそのままでお願いします：API のエラーは必ず RFC 7807 形式で返す。",  # "from next time on too"
])
def test_japanese_and_tagalog_statements(text):
    assert find_statements(text, by_user=True, person=True)


def test_a_japanese_question_is_not_a_statement():
    assert find_statements("次回からは通知にセル ID を記載いただけますでしょうか。", by_user=True, person=True) == []


def test_japanese_sentences_end_at_a_full_stop_without_a_space():
    from forewarn.learning.text import own_sentences

    assert own_sentences("ログを追加しました。テストも通りました！次は？") == ["ログを追加しました。", "テストも通りました！", "次は？"]


def test_an_announced_pair_in_japanese_and_tagalog_is_two_lessons():
    from forewarn.learning.corrections import reply_lessons

    japanese = ("2点お願いします。\n1. Secret の値をログに出さないでください。マスクしたキー名だけで十分です。\n"
                "2. テストは testdata/ の固定データを使ってください。実クラスタにつなぐと CI が不安定になります。")
    assert len(reply_lessons(japanese)) == 2
    tagalog = ("Dalawa ha. Una, bakit naka-hardcode yung API key sa controller? Sa .env at config dapat manggaling yan. "
               "Pangalawa, wala kang test para sa refund flow, dapat may feature test lahat ng payment changes.")
    assert len(reply_lessons(tagalog)) == 2


@pytest.mark.parametrize("text, priority", [
    ("秘密鍵を画面に出さないでください。会話に残ります。", "CRITICAL"),  # a private key shown
    ("本番のクラスタに直接 apply しないでください。", "CRITICAL"),  # production
    ("logr の key-value で渡した方がいいかもしれません。", "MEDIUM"),  # might be better: a suggestion
    ("siguro mas maganda kung Form Request class na lang", "MEDIUM"),  # maybe nicer as a Form Request
    ("다음엔 스크린샷도 같이 붙여주면 리뷰어들이 편할 것 같아요", "MEDIUM"),  # Korean "I think it would be easier if …"
    ("dont log account numbers, privacy act stuff", "CRITICAL"),
    ("别把生产库的密码贴到群里。", "CRITICAL"),  # production password
    ("日志里不要打身份证号。", "CRITICAL"),  # national id numbers
    ("谁让你删的？这张表财务还在用。", "CRITICAL"),  # who told you to delete it: data loss
    ("不过用 errgroup 可能会简洁点。", "MEDIUM"),  # might be neater: a suggestion
    ("这个函数太长了，拆一下。", "HIGH"),
])
def test_japanese_tagalog_chinese_and_privacy_act_priorities(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


@pytest.mark.parametrize("request_, command, first, again", [
    ("controller-runtime を上げてください", "go get -u ./...", "go get -u はやめてください。controller-runtime だけ上げたかったんです。",
     "前にも言いましたが、-u は付けないでください。controller-runtime 以外も上がっています。"),  # "as I said before"
    ("把 proto 重新生成一下", "protoc --go_out=. api/order.proto", "不要直接调 protoc，用 make proto。",
     "又直接 protoc？说过了用 make proto。"),  # Chinese "protoc again? I said make proto"
])
def test_a_japanese_or_chinese_repeat_raises_the_earlier_correction(request_, command, first, again):
    records = [user(request_), tool_use("Bash", {"command": command}), tool_result("ok"), assistant_text("done"),
               user(first), tool_use("Bash", {"command": command}), tool_result("ok"), assistant_text("done"), user(again)]
    (node,) = capture.extract_lessons(records, "", "s", NOW, context=[])[0]
    assert node["occurrences"] == 2 and node["priority"] == "CRITICAL"


def test_chinese_words_for_again_and_i_said_are_repeat_cues():
    assert all(capture.REPEAT_CUE.search(t) for t in ("又直接 protoc？", "我说过了", "说了多少次了", "怎麼又忘了"))


def test_a_japanese_next_task_with_a_dont_is_no_correction():
    assert _after_an_edit("次は請求書の PDF 作って。住所は入れないで、会員番号だけでいい") == []


def test_a_polite_japanese_request_is_no_statement():
    assert find_statements("次からはクーポンが自動で使われるようにしてもらえると助かります。", by_user=True, person=True) == []


@pytest.mark.parametrize("law", ["APPI", "POPIA", "KVKK", "PIPEDA"])
def test_privacy_laws_by_name_are_production_impact(law):
    assert inference.infer_priority("user_correction", "dont log the address, %s says no" % law) == "CRITICAL"


def test_a_japanese_change_of_spec_is_no_correction():
    assert _after_an_edit("仕様変更が入ったので、この変更は一旦 revert していただけますか。実装に問題があったわけではありません。") == []


def test_a_japanese_account_number_is_production_impact():
    assert inference.infer_priority("user_correction", "口座番号をそのままログに出すのはお控えください。") == "CRITICAL"


# ---------------------------------------------------------------- Chinese (held-out 89; examples written for these tests)

@pytest.mark.parametrize("prompt", [
    "为什么把超时改成 60 秒？网关 5 秒就断了，这里等再久也没用",  # why did you make the timeout 60 s?
    "谁让你直接改 vendor 目录的，下次 go mod vendor 就全没了",  # who told you to edit vendor/?
    "别把 token 写进 config.yaml，用环境变量",  # don't put the token into config.yaml
    "测试里不要连真实的 Redis，用 miniredis",  # don't connect to a real Redis in tests
    "这个接口应该是 POST，不是 GET",  # it should be POST, not GET
    "改回去，生成的文件不能手改",  # change it back, generated files can't be edited by hand
    "為什麼把 API key 寫在前端？這樣誰都看得到",  # Traditional: why is the API key in the front end?
])
def test_chinese_corrections_after_an_edit(prompt):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction"


@pytest.mark.parametrize("text", [
    "从现在开始，所有接口都要加鉴权中间件。",  # from now on every endpoint gets the auth middleware
    "以后新加的表一律带 created_at 和 updated_at。",  # from now on every new table has created_at and updated_at
    "记住：staging 的数据库每天凌晨会重置，不要在上面放测试数据。",  # remember: staging resets nightly
    "教训：发版前必须先跑一遍 e2e。",  # lesson: run the e2e suite before every release
    "從今天起，每個 PR 都要附上測試截圖。",  # Traditional: from today every PR has test screenshots
])
def test_chinese_statements(text):
    assert find_statements(text, by_user=True, person=True)


@pytest.mark.parametrize("text", [
    "修好以后跟我说一声。",  # tell me once it is fixed: "以后" here is "after"
    "下次再说吧。",  # let's talk about it next time
])
def test_chinese_after_and_next_time_alone_state_no_rule(text):
    assert find_statements(text, by_user=True, person=True) == []


def test_an_announced_pair_in_chinese_is_two_lessons():
    from forewarn.learning.corrections import reply_lessons

    text = "两个问题。一，日志里别打手机号，要脱敏。二，新接口要写单测，覆盖空参数的情况。"
    assert len(reply_lessons(text)) == 2


@pytest.mark.parametrize("prompt", [
    "好。下一个：加一个导出接口，不要动现有的列表接口。",  # next task, with its own "don't"
    "不好意思我说错了，是 order-svc，不是 user-svc。",  # the person correcting their own instruction
    "算了，缓存先不加了，先看下单慢的问题。",  # change of plan
])
def test_chinese_next_tasks_self_corrections_and_changes_of_plan_are_no_corrections(prompt):
    assert _after_an_edit(prompt) == []


@pytest.mark.parametrize("prompt", [
    "幫我寫一個匯出報表的 API，只能匯出自己分行的資料，不能跨分行。",  # help me write an export API (Traditional)
    "帮我加一个重试，最多三次，不要无限重试。",  # help me add a retry, at most three, not forever
    "来月のリリースに向けて移行手順書を作ってください。本番の作業は田中さんが行います。",  # please make a runbook
    "2.3.0 배포 체크리스트 만들어 주세요. 롤백 절차는 빠뜨리지 마세요.",  # Korean: please make a release checklist
])
def test_a_chinese_japanese_or_korean_request_for_new_work_after_an_edit_is_no_correction(prompt):
    assert _after_an_edit(prompt) == []


def test_a_japanese_request_that_says_what_instead_is_still_a_correction():
    (node,) = _after_an_edit("チケットは EDGE ではなく、CHG プロジェクトで作ってください。EDGE だと CAB に上がりません。")
    assert node["source"]["kind"] == "user_correction"



def test_a_correction_with_no_latin_words_about_a_command_fires_on_that_command():
    from forewarn.reach import unreachable

    records = [user("看一下上个月的订单量"), tool_use("Bash", {"command": "spark-sql -e \"SELECT count(*) FROM dwd.orders\""}),
               tool_result("ok"), assistant_text("查好了"), user("不要全表扫，这张表按天分区的，要带日期条件")]
    (node,) = capture.extract_lessons(records, "", "s", NOW, context=[])[0]
    assert node["trigger_conditions"]["action_keywords"] == ["spark-sql"] and not unreachable(node, 0.7)


# ---------------------------------------------------------------- Korean (held-out 86; examples written for these tests)

@pytest.mark.parametrize("prompt", [
    "설정 파일은 직접 수정하지 마세요. values.yaml에서 생성됩니다.",  # don't edit the config by hand
    "왜 main에 바로 push 했어요? 리뷰 거쳐야 합니다.",  # why did you push straight to main?
    "그 테이블은 지우면 안 됩니다. 감사 때 제출해야 해요.",  # that table must not be deleted
    "되돌려 주세요. 그 버전은 릴리스 매니저가 올립니다.",  # put it back; the release manager bumps it
])
def test_korean_corrections_after_an_edit(prompt):
    (node,) = _after_an_edit(prompt)
    assert node["source"]["kind"] == "user_correction"


@pytest.mark.parametrize("text", [
    "다음부터는 마이그레이션 추가할 때 꼭 downgrade도 작성해 주세요.",  # from next time, always write the downgrade
    "앞으로 운영 DB는 무조건 읽기 전용 계정으로만 접속하세요.",  # from now on, the read-only account only
    "기억해 두세요: staging 데이터는 매일 밤 초기화됩니다. 거기에 테스트 데이터 두지 마세요.",  # remember: staging resets
])
def test_korean_statements(text):
    assert find_statements(text, by_user=True, person=True)


def test_a_korean_announced_pair_is_two_lessons():
    from forewarn.learning.corrections import reply_lessons

    text = ("두 가지요. 첫째, 로그에 주민번호 찍지 마세요. 마스킹해야 합니다. "
            "둘째, 새 API에는 테스트를 꼭 붙여 주세요. 빈 파라미터 경우도요.")
    assert len(reply_lessons(text)) == 2


@pytest.mark.parametrize("text, priority", [
    ("운영 DB 비밀번호를 슬랙에 붙이지 마세요.", "CRITICAL"),  # the production password
    ("처리 도중에 파드가 죽으면 이벤트가 유실돼요.", "CRITICAL"),  # events are lost: data loss
    ("이 함수 너무 길어요. 나눠 주세요.", "HIGH"),
])
def test_korean_priorities(text, priority):
    assert inference.infer_priority("user_correction", text) == priority


def test_korean_words_for_again_and_i_told_you_are_repeat_cues():
    assert all(capture.REPEAT_CUE.search(t) for t in ("또 @Data네요.", "조금 전에 말씀드렸잖아요.", "전에도 얘기했어요."))


@pytest.mark.parametrize("prompt", [
    "음 생각해 보니 이번 스프린트엔 알림 기능은 빼고 가죠.",  # on second thought, leave notifications out this sprint
    "아 제가 잘못 말씀드렸어요, dev 말고 staging 프로젝트예요.",  # I told you wrong: the person's own mistake
])
def test_a_korean_change_of_plan_or_self_correction_is_no_correction(prompt):
    assert _after_an_edit(prompt) == []
