"""forewarn.learning.call_impact: the corrected call's own production impact, and what it never counts."""

import pytest

from forewarn.learning import call_impact, inference


@pytest.mark.parametrize("command", [
    "git push --force origin main",
    "git push origin +main",
    "terraform -chdir=infra apply -auto-approve",
    "helm upgrade api charts/api -n prod",
    "pnpm --filter @acme/sdk publish",
    "rsync -av --delete build/ deploy@web1:/srv/www/",
    "docker compose down -v",
    "aws s3 rm s3://acme-results/2025 --recursive",
    "psql \"$DATABASE_URL\" -c 'TRUNCATE audit_log'",
    "rm -rf results/2025",
    "cat .env",
    "git add deploy/server.key && git commit -m keys",
    "git config --global url.https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/.insteadOf https://github.com/",
])
def test_a_command_with_production_impact(command):
    assert call_impact.calls_have_impact([("Bash", {"command": command})])


@pytest.mark.parametrize("command", [
    "rm -rf node_modules dist && npm ci",
    "rm -rf ~/Library/Developer/Xcode/DerivedData",
    "set -a && . ./.env.e2e && make e2e",  # the file is read into the environment, not shown
    "git rm -q old_build.log .env.example && rm -rf target/tmp",
    "kubectl --context staging-eu apply -f k8s/",
    "helm upgrade api charts/api --dry-run",
    "alembic upgrade head  # against localhost",
    "pytest -q tests/",
    "git push origin feature/login",
])
def test_a_command_without_it(command):
    assert not call_impact.calls_have_impact([("Bash", {"command": command})])


def test_an_edit_that_writes_a_secret_or_a_secret_file():
    assert call_impact.calls_have_impact([("Write", {"file_path": "/p/certs/apns.p8", "content": "x"})])
    assert call_impact.calls_have_impact([("Edit", {"file_path": "/p/config/settings.py", "old_string": "a",
                                                     "new_string": 'STRIPE_KEY = "sk_live_51HxYzAbCdEfGhIjKlMnOp"'})])
    assert not call_impact.calls_have_impact([("Edit", {"file_path": "/p/lib/wp.ts", "old_string": "a",
                                                         "new_string": "headers.Authorization = `Bearer ${token}`"})])
    assert not call_impact.calls_have_impact([("Write", {"file_path": "/p/.env.example", "content": "API_KEY=changeme"})])


def test_odd_inputs_are_no_evidence():
    assert not call_impact.calls_have_impact([("Bash", None), ("Bash", {"command": 3}), ("Edit", {}), ("Bash", {"command": "'"})])


def test_the_corrected_call_makes_a_terse_correction_critical():
    """'Absolutely not' on a rejected force push, 'Not with --delete' on an rsync: the words do not say why it matters."""
    push = [("Bash", {"command": "git push --force origin develop"})]
    assert inference.infer_priority("user_correction", "Absolutely not, others pull from develop", calls=push) == "CRITICAL"
    assert inference.infer_priority("user_correction", "Absolutely not, others pull from develop") == "HIGH"
    tests = [("Bash", {"command": "pytest -q"})]
    assert inference.infer_priority("user_correction", "Absolutely not, others pull from develop", calls=tests) == "HIGH"
    # a suggestion stays a suggestion whatever was corrected
    assert inference.infer_priority("user_correction", "maybe use a branch of your own next time", calls=push) == "MEDIUM"
