"""forewarn.secret_signal: which calls write a secret, which items are about secrets, and how the relevance rule
lets the one stand for the other's file and action match (the secret items of the clinic, clinic2 and fleet
corpora that their own triggers missed)."""

import json

import pytest

from forewarn import index_build, relevance, secret_signal
from forewarn.toolcall import ToolCall

ROOT = "/p"
SECRETS_ITEM = {
    "id": "req-no-secrets", "type": "Concept", "label": "No secrets in the repository", "process_type": "requirement",
    "priority": "CRITICAL", "requirement": {"constraint": "Secrets come from the environment or the secret store"},
    "trigger_conditions": {"tool_names": ["Write", "Edit", "Bash"], "file_patterns": ["**/.env", "!**/.env.example"],
                           "action_keywords": ["SECRET", "password"], "context_keywords": []},
}


def call(tool, cwd=ROOT, **tool_input):
    return ToolCall({"tool_name": tool, "tool_input": tool_input, "cwd": cwd}, ROOT)


def verdict(c):
    rec = index_build._record(0, SECRETS_ITEM, (0, 0, 0), "test.json")
    return relevance.score(rec, c, 0.7, lambda: "")


@pytest.mark.parametrize("keywords, about", [
    ([" secret "], True), ([" aws secret access key "], True), ([" api key "], True), ([" passwords "], True),
    ([" version "], False), ([" tokenizer "], False), ([" secretary "], False), ([], False),
])
def test_items_about_secrets_are_known_by_their_keywords(keywords, about):
    assert secret_signal.about_secrets(keywords) is about


@pytest.mark.parametrize("name, secret", [
    (".env", True), (".env.production", True), (".env.example", False), (".env.sample", False), ("apns.pem", True),
    ("AuthKey_8KZ3P2.p8", True), ("id_rsa", True), ("release.keystore", True), ("settings.py", False), ("env.ts", False),
])
def test_secret_files_by_name(name, secret):
    assert secret_signal.is_secret_file(name) is secret


@pytest.mark.parametrize("c, carries", [
    (call("Edit", file_path="/p/charts/values-prod.yaml", old_string="a", new_string='saslPassword: "mK9#pz2LqV7w-prod"'), True),
    (call("Edit", file_path="/p/settings/production.py", old_string="a", new_string='SECRET_KEY = "django-7x!q2m@w$k1r9"'), True),
    (call("Write", file_path="/p/k8s/deploy.yaml", content='env:\n  - name: CLIENT_SECRET\n    value: "9b1f0c0e7d4a"\n'), True),
    (call("Write", file_path="/p/.env", content="DEBUG=1\n"), True),  # the file is the secret
    (call("Bash", command='echo "TWILIO_AUTH_TOKEN=9f8e7d6c5b4a39281706" >> config/app.env'), True),
    (call("Bash", command="cp ../.env ./assets/.env"), True),
    (call("mcp__github__push_files", files=[{"path": "backend/.env", "content": "X=1"}], message="config"), True),
    # references, placeholders, reads, other places: nothing is written that is a secret
    (call("Edit", file_path="/p/settings/base.py", old_string="a", new_string='SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]'), False),
    (call("Write", file_path="/p/.github/workflows/release.yml", content="env:\n  NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n"), False),
    (call("Edit", file_path="/p/src/env.ts", old_string="a", new_string="MAPBOX_TOKEN: z.string().min(1),"), False),
    (call("Write", file_path="/p/.env.example", content="API_KEY=abcd1234efgh\nDATABASE_URL=postgres://u:p4ss@db/x\n"), False),
    (call("Write", file_path="/p/.env", content="DB_PASSWORD=changeme123\n", cwd="/elsewhere"), True),
    (call("Write", file_path="/home/dev/.aws/credentials", content="aws_secret_access_key = wJalrXUtnFEMI/K7MDENG\n"), False),
    (call("Bash", command="vault kv get -field=client_secret secret/clinic/fhir"), False),
    (call("Bash", command="xcrun altool --upload-app -f app.ipa --apiKey 8KZ3P2 --apiIssuer 69a6de7"), False),
    (call("Write", file_path="/p/docker-compose.yml", content="DATABASE_URL: postgres://app:app123@localhost:5432/app\n"), False),
])
def test_calls_that_write_a_secret(c, carries):
    assert c.carries_secret() is carries


def test_a_secret_written_stands_for_the_file_and_action_match_of_an_item_about_secrets():
    hardcoded = verdict(call("Edit", file_path="/p/charts/values-prod.yaml", old_string="a",
                             new_string='saslPassword: "mK9#pz2LqV7w-prod"'))
    assert hardcoded.eligible and hardcoded.secret and hardcoded.terms()["secret"] == 1
    assert hardcoded.file and hardcoded.score == pytest.approx((0.4 + 0.4 + 0.1) * 2.0)  # the secret is its file match
    appended = verdict(call("Bash", command='echo "TWILIO_AUTH_TOKEN=9f8e7d6c5b4a39281706" >> .env'))
    assert appended.eligible and appended.action == relevance.SECRET_WRITTEN


def test_without_a_secret_the_item_keeps_its_gates():
    reference = verdict(call("Edit", file_path="/p/settings/base.py", old_string="a",
                             new_string='SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]'))
    assert not reference.eligible and "file patterns" in reference.gate and "secret" not in reference.terms()
    example = verdict(call("Write", file_path="/p/.env.example", content="API_KEY=abcd1234efgh\n"))
    assert not example.eligible


@pytest.mark.parametrize("value, literal", [
    ("MAVEN_GPG_PASSPHRASE", False), ("${{ secrets.X }}", False), ("os.environ['X']", False), ("changeme123", False),
    ("Dr1ver-App-2026", True), ("mK9#pz2LqV7w-prod", True), ("hunter", False),
    ("`Bearer", False), ("'Basic '", False),  # a header built from a variable: `Bearer ${token}`, 'Basic ' + b64
])
def test_a_literal_is_a_value_not_a_name_for_one(value, literal):
    assert secret_signal._literal(value) is literal


def test_an_item_about_secrets_is_a_candidate_for_any_call_that_writes_one(tmp_path):
    """Its patterns need not match and it may name no tool: writing a secret is what it is about (harbor h046)."""
    from forewarn import index

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".claude" / "graphs").mkdir(parents=True)
    item = dict(SECRETS_ITEM, trigger_conditions={"tool_names": [], "file_patterns": ["**/.env*", "!**/.env.example"],
                                                   "action_keywords": ["password", "secret"], "context_keywords": []})
    other = dict(SECRETS_ITEM, id="pat-other", label="Other", priority="HIGH",
                 trigger_conditions={"tool_names": ["Write"], "file_patterns": ["docs/**"], "action_keywords": [], "context_keywords": []})
    (root / ".claude" / "graphs" / "g.json").write_text(json.dumps({"directed": True, "nodes": [item, other], "links": []}))
    idx, _state = index.open_fresh(str(root))
    try:
        def injected(content):
            c = ToolCall({"tool_name": "Write", "tool_input": {"file_path": str(root / "mobile" / "keystore.properties"),
                                                                 "content": content}}, str(root))
            return [v.record[1] for v in relevance.evaluate(idx, c, 0.7, lambda: "") if v.eligible]
        assert injected("storeFile=../upload.jks\nstorePassword=Dr1ver-App-2026\n") == ["req-no-secrets"]
        assert injected("storeFile=../upload.jks\nstorePassword=${STORE_PASSWORD}\n") == []
    finally:
        idx.close()


def test_the_substring_prefilter_never_hides_what_the_redaction_would_look_at():
    """The hook settles most writes by substring tests; every text the redaction's cue matches must pass them."""
    import glob
    import os

    from forewarn.learning import redact

    shapes = ["sk-abc", "rk_live_x", "ghp_abc", "github_pat_x", "AKIAXXXX", "ASIAXXXX", "xoxb-1", "AIzaSy", "glpat-x",
              "npm_abc", "eyJhbGc", "Bearer x", "token", "Basic\tdXN", "hooks.slack.com", "https://u:p@h", "PRIVATE KEY",
              "pass", "pwd", "secret", "apiKey", "api-key", "api.key", "accessKey", "access.key", "credential", "auth"]
    corpus = os.path.join(os.path.dirname(__file__), "learning", "corpus")
    lines = [line for path in sorted(glob.glob(os.path.join(corpus, "*.jsonl")))[:200] for line in open(path, encoding="utf-8")]
    checked = 0
    for text in shapes + lines:
        if redact.CUE.search(text):
            checked += 1
            assert secret_signal._may_hold_secret(text.lower()), text[:80]
    assert checked > len(shapes)
