"""forewarn.shell_writes: the files a shell command changes, and recursive deletions by any name."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn.shell_writes import (deletes_recursively, deploys, destroys_data, dispatched_workflows, dry_run, only_reads,
                                   release_tags, run_text, split_words, substituted_versions, write_targets)


@pytest.mark.parametrize("command,targets", [
    ("""sed -i 's/"version": "0.4.0"/"version": "0.5.0"/' .claude-plugin/plugin.json""", [".claude-plugin/plugin.json"]),
    ("sed -i.bak -e 's/a/b/' x.txt y.txt", ["x.txt", "y.txt"]),
    ("perl -pi -e 's/a/b/' lib/x.pm", ["lib/x.pm"]),
    ("echo '## 0.5.0' >> CHANGELOG.md && git add -A", ["CHANGELOG.md"]),
    ("make build >out.log 2>&1", ["out.log"]),
    ("python manage.py migrate &> migrate.log", ["migrate.log"]),
    ("FOO=1 sudo tee -a /etc/hosts < hosts.new", ["/etc/hosts"]),
    ("cp a.txt b.txt dest/", ["dest/"]),
    ("mv old.py new.py", ["old.py", "new.py"]),
    ("git mv src/a.py src/b.py; git rm -q docs/old.md", ["src/a.py", "src/b.py", "docs/old.md"]),
    ("rm -rf node_modules build/", ["node_modules", "build/"]),
    ("find exports -name '*.csv' -delete", ["exports"]),
    ("chmod +x scripts/run.sh", ["scripts/run.sh"]),
    ("truncate -s 0 app.log", ["app.log"]),
    ("dd if=/dev/zero of=disk.img bs=1M count=1", ["disk.img"]),
    ("touch a\\ b.txt", ["a b.txt"]),
])
def test_commands_that_change_files_name_them(command, targets):
    assert write_targets(command) == targets


@pytest.mark.parametrize("command", [
    "sed 's/a/b/' x.txt", "cat .claude-plugin/plugin.json | jq .version", "git diff .claude-plugin/plugin.json",
    "grep -r version .", "pytest -q 2>&1 > /dev/null", "echo $HOME > $OUT", "ls -la > /dev/null", "", "   ",
])
def test_commands_that_only_read_name_nothing(command):
    assert write_targets(command) == []


def test_powershell_paths_keep_their_backslashes():
    assert write_targets("Remove-Item -Recurse -Force exports\\2026", powershell=True) == ["exports\\2026"]
    assert write_targets("Set-Content -Path .env -Value 'X=1'", powershell=True) == [".env"]
    assert write_targets("Copy-Item a.txt -Destination backup\\a.txt", powershell=True) == ["backup\\a.txt"]


def test_a_here_document_body_is_not_read_as_commands():
    assert split_words("cat <<'EOF' > out.txt\nhello > x | y\nEOF\nrm -rf y") == [["cat", ">", "out.txt"], ["rm", "-rf", "y"]]
    assert write_targets("git commit -F- <<EOF\nfix: a > b; rm -rf /\nEOF") == []
    assert write_targets("cat > src/models.py <<-EOF\n\tclass X: pass  # x > y\n\tEOF\necho ok >> log.txt") == ["src/models.py", "log.txt"]
    assert split_words("grep x <<< 'a > b'") == [["grep", "x", "<", "a > b"]]


def test_quotes_and_separators():
    assert split_words("""a 'b c' "d \\"e\\"" f\\ g && h|i;j""") == [["a", "b c", 'd "e"', "f g"], ["h"], ["i"], ["j"]]


def test_a_comment_is_not_read():
    assert split_words("du -sh media/  # before anyone rm -rf's it > x\nls a#b '#c'") == [["du", "-sh", "media/"], ["ls", "a#b", "#c"]]
    assert write_targets("ls  # > notes.txt") == []


@pytest.mark.parametrize("command,powershell,deletes", [
    ("rm -rf x", False, True), ("rm -r x", False, True), ("rm --recursive x", False, True), ("rm x", False, False),
    ("rm -f a.txt", False, False), ("find exports -name '*.csv' -delete", False, True),
    ("find . -name '*.pyc' -exec rm {} +", False, True), ("find . -name '*.pyc'", False, False),
    ("git clean -fdx", False, True), ("git clean -n", False, False), ("rmdir /s /q build", False, True),
    ("Remove-Item -Recurse -Force exports\\2026", True, True), ("Remove-Item a.txt", True, False), ("ls -R", False, False),
])
def test_recursive_deletions_by_any_name(command, powershell, deletes):
    assert deletes_recursively(command, powershell) is deletes


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=80), st.booleans())
def test_any_text_is_read_without_raising(command, powershell):
    targets = write_targets(command, powershell)
    assert isinstance(targets, list) and len(targets) <= 16 and all(isinstance(t, str) and t for t in targets)
    assert deletes_recursively(command, powershell) in (True, False)
    assert dry_run(command, powershell) in (True, False)


@pytest.mark.parametrize("command,forced", [
    ("git push origin +main", True), ("git push origin +HEAD:refs/heads/main", True), ("git -C repo push origin +main", True),
    ("git push origin main", False), ("git push --force origin main", False),  # the flag itself is read as written
    ("echo 1+1 && git push", False),
    ("gh api -X PATCH repos/o/r/git/refs/heads/main -f sha=4be77d1", True),
    ("gh api --method PATCH /repos/o/r/git/refs/heads/release/2026-03 -f sha=4be77d1 -F force=true", True),
    ("gh api repos/o/r/git/refs/heads/main", False),  # a GET reads the ref
    ("gh api -X PATCH repos/o/r/pulls/12 -f state=closed", False),  # not a ref
    ("gh api -X DELETE repos/o/r/git/refs/heads/old-branch", False),  # deleting a branch is not forcing one
])
def test_a_plus_refspec_or_a_ref_patch_is_a_forced_push(command, forced):
    from forewarn.shell_writes import force_pushes

    assert force_pushes(command) is forced


@pytest.mark.parametrize("command,targets,deletes", [
    ("sudo -u www-data tee /etc/app.conf", ["/etc/app.conf"], False),
    ("sudo --user=deploy cp build/app.jar /srv/app.jar", ["/srv/app.jar"], False),
    ("sudo -E -- rm -rf /var/cache/app", ["/var/cache/app"], True),
    ("env -i PATH=/bin FOO=1 sed -i s/a/b/ settings.py", ["settings.py"], False),
    ("timeout -s KILL 5m rm -r build", ["build"], True),
    ("nice -n 10 cp a.txt b.txt", ["b.txt"], False),
    ("nohup time -p mv old.log archive/old.log", ["old.log", "archive/old.log"], False),
    ("doas -u root tee -a /etc/hosts", ["/etc/hosts"], False),
])
def test_wrappers_and_their_options_are_not_the_command(command, targets, deletes):
    assert write_targets(command) == targets
    assert deletes_recursively(command) is deletes


@pytest.mark.parametrize("command, acts", [
    ("gh workflow run terraform.yml -f workspace=prod -f command=apply -f ref=main", [["terraform", "prod", "apply", "main"]]),
    ("gh workflow run .github/workflows/deploy_api.yaml --field environment=production", [["deploy", "api", "production"]]),
    ("cd infra && gh workflow run promote.yml -F app=prod-eu", [["promote", "prod-eu"]]),
    ("gh workflow list", []),
    ("gh run list --workflow deploy.yml", []),
])
def test_a_dispatched_workflow_is_its_name_and_inputs(command, acts):
    assert dispatched_workflows(command) == acts


def test_knowledge_about_terraform_apply_reaches_a_dispatched_terraform_run():
    from forewarn.keywords import any_in_command, fold
    from forewarn.toolcall import ToolCall

    call = ToolCall({"tool_name": "Bash", "tool_input": {"command": "gh workflow run terraform.yml -f workspace=prod -f command=apply"}}, "/p")
    assert any_in_command([fold("terraform apply")], call.commands()) == fold("terraform apply")


@pytest.mark.parametrize("command, powershell, rehearses", [
    ("helm upgrade api charts/api -f values-prod.yaml --dry-run", False, True),
    ("kubectl apply -k overlays/prod --dry-run=server", False, True),
    ("helm diff upgrade api charts/api --kube-context prod-eu-1", False, True),
    ("argocd app diff prod-eu", False, True),
    ("python manage.py migrate --plan", False, True),
    ("sudo -u deploy kafka-consumer-groups --reset-offsets --to-latest --group g --dry-run", False, True),
    ("Remove-Item -Recurse build -WhatIf", True, True),
    ("helm diff upgrade api charts/api && helm upgrade api charts/api", False, False),  # rehearsed, then done
    ("helm upgrade api charts/api --atomic", False, False),
    ("git diff main -- src/", False, True),
    ("cd libs/tariffs && mix hex.publish --dry-run | tail -5", False, True),  # the others only move and look
    ("sed -i 's/0.7.0/0.7.1/' plugin.json && git diff --stat", False, False),  # the edit is real
    ("npm publish --dry-run && npm publish", False, False),
    ("fly deploy --build-only -a api-prod", False, True),
    ("echo dry-run && kubectl apply -f x.yaml", False, False),
    ("kubectl apply -f x.yaml  # not a --dry-run", False, False),  # a comment is not a flag
    ("", False, False),
])
def test_a_dry_run_only_rehearses(command, powershell, rehearses):
    assert dry_run(command, powershell) is rehearses


@pytest.mark.parametrize("command, ran", [
    ("echo '- never TRUNCATE on prod' >> docs/runbook.md", "echo > docs/runbook.md"),
    ("printf 'a\\nb' > .github/x.yml && git add .", "printf > .github/x.yml\ngit add ."),
    ("du -sh media/  # before anyone rm -rf's it", "du -sh media/"),
    ("cat >> notes.md <<'EOF'\nrm -rf build\nEOF\nls", "cat > notes.md\nls"),
    ("sudo -u app echo hi | tee out.txt", "sudo -u app echo\ntee out.txt"),
    ('psql "$DB" -c "DELETE FROM sessions"', 'psql "$DB" -c "DELETE FROM sessions"'),  # nothing left out: as it is
])
def test_the_run_text_leaves_out_what_is_only_printed(command, ran):
    assert run_text(command) == ran
    long = "echo '" + "x " * 3000 + "'"
    assert run_text(long) == long  # beyond what the recogniser reads: the command whole



@pytest.mark.parametrize("command, destroys", [
    ('psql "$URL" -c "DELETE FROM sessions WHERE id = 3"', True),
    ('heroku pg:psql -a shop-production -c "UPDATE listings SET state = \'hidden\'"', True),
    ('psql -c "update journal_entries e set amount = 0"', True),  # UPDATE <table> <alias> SET
    ("goose -dir db/migrations postgres \"$PROD_URL\" down", True),
    ("bin/rails db:rollback STEP=2", True),
    ("bundle exec rails runner 'Session.where(stale: true).delete_all'", True),
    ('psql "$URL" -c "SELECT * FROM orders WHERE updated_at > now()"', False),
    ("goose -dir db/migrations postgres \"$URL\" up", False),
    ("apt-get update && apt-get install -y postgresql-client", False),  # update, but no SET
    ("aws s3 rm s3://bucket/tmp/ --recursive", False),  # an object store is not a database
    ("terraform state rm aws_s3_bucket.legacy", False),
])
def test_commands_that_destroy_rows_of_a_database(command, destroys):
    assert destroys_data(command) is destroys


@pytest.mark.parametrize("act, deploying", [
    (["deploy", "production"], True), (["promote", "prod-eu"], True), (["infra", "deploy", "prod"], True),
    (["ci"], False), (["release", "sdk"], False),  # a release workflow publishes packages as often as it deploys
    (["terraform", "prod", "rollout"], True),
])
def test_a_workflow_deploys_when_its_name_or_inputs_say_so(act, deploying):
    assert deploys(act) is deploying


@pytest.mark.parametrize("command, bumps", [
    ("sed -i 's/0.4.0/0.5.0/' .claude-plugin/plugin.json", True),
    ("""sed -i 's/version: "1.4.2"/version: "1.5.0"/' mix.exs""", True),
    ("perl -pi -e 's|1.2.0|1.3.0|' lib/version.pm", True),
    ("sed -i 's/max_length=64/max_length=128/' models.py", False),  # numbers, not versions
    ("sed -i 's/1.4.0/1.4.0-rc/' x.toml", False),  # the same version
    ("grep -n 's/0.4.0/0.5.0/' notes.md", False),  # not a substitution that writes
])
def test_an_in_place_substitution_that_sets_a_new_version(command, bumps):
    assert substituted_versions(command) is bumps


@pytest.mark.parametrize("command, names", [
    ("git tag grid_tariffs-v1.5.0 && git push origin grid_tariffs-v1.5.0", {"grid_tariffs"}),
    ('git commit -am "release 2.4.0" && git tag -a bazaar-client-v2.4.0 -m "bazaar-client 2.4.0"', {"bazaar-client"}),
    ("gh release create sdk/v1.9.0 --title 'sdk v1.9.0' --notes-file notes.md", {"sdk"}),
    ("git push --delete origin sdk/v1.8.2 && git tag -d sdk/v1.8.2", {"sdk"}),
    ("git tag v2.4.0 && git push --tags", set()),  # no package named
    ("git tag -l 'sdk/*' | sort -V", set()),  # a listing: no version
    ("git push origin main", set()),
])
def test_the_packages_a_version_tag_names(command, names):
    assert release_tags(command) == names


@pytest.mark.parametrize("command, reads", [
    ("kubectl rollout status deployment/backend -n clinic-prod", True),
    ("kubectl --context prod-eu get pods -n billing", True),
    ("git log --oneline -5 && git status --short", True),
    ("git tag -l 'sdk/*' | sort -V | tail -3", True),
    ("jq -r .version .claude-plugin/plugin.json", True),
    ("terraform -chdir=infra/envs/production plan", True),
    ("gsutil ls -l gs://models/recs/", True),
    ("heroku logs --tail -a shop-production", True),
    ("kubectl apply -f deploy.yaml", False),
    ("git tag sdk/v1.9.0", False),  # creates a tag
    ("git push origin main", False),
    ("kubectl get pods -o yaml > pods.yaml", False),  # writes a file
    ("cat notes.md && rm -rf build", False),
    ("", False),
])
def test_a_command_that_only_reads(command, reads):
    assert only_reads(command) is reads
