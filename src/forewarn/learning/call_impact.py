"""Whether the tool calls a correction answers did something with production impact, by what they are.

People correct a force push with "Not --force", a ``cat .env`` with "do not
cat that file", a ``terraform apply`` with "never from a laptop": the
correction's words need not say *why* it matters, the corrected call does.
:func:`calls_have_impact` reads the calls of the corrected turn (tool name,
input) for the acts the original design's priority rule names — deploy,
release, publish, security, migration, data loss:

* a shell command that publishes, deploys, applies infrastructure, runs or
  reverts a database migration, force-pushes, or destroys data (``DROP``,
  ``TRUNCATE``, ``DELETE FROM``, ``rsync --delete``, ``down -v``, a recursive
  delete of anything but build output), unless it names only a
  non-production environment (``--context staging``, ``localhost``);
* a call that reads or writes a secret: names a secret file (``.env``,
  ``*.pem``, ``id_rsa``), or writes a value the redaction recognises as a
  secret (:mod:`forewarn.secret_signal`).

Pure: no file is read, nothing is written.
"""

import re

from ..secret_signal import holds_secret_value, is_secret_file, written_text
from ..shell_writes import deletes_recursively, force_pushes, split_words, strip_wrappers
from .lazy_regex import lazy

SHELL_TOOLS = ("Bash", "PowerShell")
# Commands that change what runs or what is stored outside this machine (case-insensitive, words apart allowed
# only where flags sit between them).
RISKY_COMMAND = lazy(
    r"\b(?:(?:terraform|tofu|terragrunt)\s+(?:\S+\s+)*?(?:apply|destroy|import|state\s+(?:rm|mv|push))|"
    r"(?:kubectl|oc)\s+(?:\S+\s+)*?(?:apply|delete|replace|patch|scale|drain|edit|set\s+image|rollout\s+restart)|"
    r"helm\s+(?:\S+\s+)*?(?:upgrade|install|uninstall|rollback|delete)|"
    r"(?:npm|pnpm|yarn|cargo|gem|twine|poetry|uv|flit|hatch|dotnet\s+nuget|flutter\s+pub|dart\s+pub|mix\s+hex)\s+(?:\S+\s+)*?(?:publish|upload|push)|"
    r"cargo\s+release|gh\s+release\s+(?:create|delete|upload)|(?:mvn|mvnw|gradle|gradlew)\s+(?:\S+\s+)*?(?:deploy|publish)|"
    r"(?:fly|flyctl|vercel|netlify|firebase|serverless|sls|cdk|sst|amplify|heroku|eb|wrangler|railway|render)\s+(?:\S+\s+)*?(?:deploy|destroy|releases?:rollback|secret)|"
    r"fastlane\s+\S+|eas\s+(?:submit|update|build)|xcrun\s+altool|"
    r"(?:alembic|flyway|liquibase|goose|sqlx|dbmate|migrate)\s+(?:\S+\s+)*?(?:upgrade|downgrade|migrate|up|down|revert|run|clean|repair|reset|drop)|"
    r"prisma\s+(?:migrate\s+(?:deploy|reset|dev)|db\s+push)|(?:rails|rake|bin/rails)\s+db:(?:migrate|rollback|drop|reset|schema:load|seed)|"
    r"(?:manage\.py|artisan|bin/console|mix)\s+(?:\S+\s+)*?(?:migrate|migrate:fresh|migrate:reset|doctrine:migrations:migrate|ecto\.migrate|ecto\.rollback|ecto\.reset|flush)|"
    r"drop\s+(?:table|database|schema|index|column)|truncate\b|delete\s+from|alter\s+table|update\s+\w+\s+set|"
    r"git\s+(?:\S+\s+)*?push\s+(?:\S+\s+)*?(?:--force\b|-f\b|--force-with-lease)|git\s+reset\s+--hard|git\s+filter-(?:branch|repo)|"
    r"rsync\s+(?:\S+\s+)*?--delete|(?:docker[- ]compose|docker\s+compose)\s+(?:\S+\s+)*?down\s+(?:\S+\s+)*?(?:-v|--volumes)|"
    r"docker\s+volume\s+(?:rm|prune)|(?:aws\s+s3|gsutil|gcloud\s+storage)\s+(?:rm|rb|sync\s+(?:\S+\s+)*?--delete)|"
    r"redis-cli\s+(?:\S+\s+)*?flush(?:all|db)|(?:dd|mkfs|wipefs)\b)",
    re.I,
)
BUILD_OUTPUT = frozenset(("node_modules", "dist", "build", "target", ".next", ".nuxt", "__pycache__", ".cache", "out",
                          ".pytest_cache", "coverage", ".venv", "venv", "tmp", ".turbo", "bin", "obj", ".gradle",
                          "deriveddata", ".build", "pods", "vendor", ".dart_tool", ".mypy_cache", ".ruff_cache", ".tox"))
# Commands that show, copy, stage or send a file's contents: with a secret file they put the secret somewhere.
EXPOSING = frozenset(("cat", "less", "more", "head", "tail", "bat", "type", "get-content", "gc", "grep", "rg", "cp", "scp",
                      "rsync", "mv", "curl", "base64", "xxd", "strings", "od", "echo", "tee", "git add", "git show",
                      "git commit", "git stash", "aws s3", "gsutil", "kubectl create", "docker cp"))
PRODUCTION = frozenset(("prod", "production", "live", "prd"))
NON_PRODUCTION = frozenset(("staging", "stage", "stg", "dev", "development", "local", "localhost", "127.0.0.1", "qa",
                            "sandbox", "minikube", "kind", "test", "testing", "--dry-run", "--dry-run=client",
                            "--dry-run=server", "--check", "--plan", "--what-if", "-whatif", "plan"))
ENV_WORD = lazy(r"[\w.:=-]+")


def calls_have_impact(tool_calls):
    """True when one of ``tool_calls`` (``(name, input)`` pairs) did something with production impact (module doc)."""
    for name, tool_input in tool_calls:
        if not isinstance(tool_input, dict):
            continue
        try:
            if name in SHELL_TOOLS:
                if _command_has_impact(tool_input.get("command"), name == "PowerShell"):
                    return True
            elif _touches_secret(tool_input):
                return True
        except Exception:  # a malformed input is no evidence either way
            continue
    return False


def _command_has_impact(command, powershell):
    if not isinstance(command, str) or not command.strip():
        return False
    simple_commands = [strip_wrappers(words) for words in split_words(command, powershell)]
    if any(_exposes_secret_file(words) for words in simple_commands):
        return True  # cat .env, git add deploy/server.key, scp id_rsa
    if holds_secret_value(command):
        return True  # a token typed into the command lands in shell history and the transcript
    if not (RISKY_COMMAND.search(command) or force_pushes(command, powershell)
            or any(_deletes_data(words, powershell) for words in simple_commands)):
        return False
    return not _only_elsewhere(command)


def _exposes_secret_file(words):
    if not words:
        return False
    verb = words[0].rsplit("/", 1)[-1].lower()
    if verb not in EXPOSING and " ".join(words[:2]).lower() not in EXPOSING:
        return False
    return any(is_secret_file(_basename(w)) for w in words[1:] if not w.startswith("-"))


def _deletes_data(words, powershell):
    """A simple command that deletes a folder recursively, and not only build output or a scratch folder."""
    if not words or not deletes_recursively(" ".join(words), powershell):
        return False
    targets = [w for w in words[1:] if not w.startswith("-") and w not in ("{}", ";", "\\;", "rm", "-delete")]
    return not all(_basename(t).lower() in BUILD_OUTPUT or t.startswith(("/tmp/", "$TMPDIR", "${TMPDIR")) for t in targets)


def _basename(word):
    return word.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def _only_elsewhere(command):
    """True when the command names a non-production environment (or a dry run) and no production one."""
    found = {w.lower().strip("'\"") for w in ENV_WORD.findall(command)}
    parts = set()
    for word in found:
        parts.update(p for p in re.split(r"[=:/_.-]", word) if p)
        parts.add(word)
    return bool(parts & NON_PRODUCTION) and not parts & PRODUCTION


def _touches_secret(tool_input):
    """A file tool's call on a secret file (``.env``, ``deploy.pem``), or one that writes a secret value."""
    for key in ("file_path", "notebook_path", "path"):
        path = tool_input.get(key)
        if isinstance(path, str) and is_secret_file(_basename(path)):
            return True
    written = written_text(tool_input)
    return bool(written) and holds_secret_value(written)
