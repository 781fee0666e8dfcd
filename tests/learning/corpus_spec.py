"""The labelled lesson-capture corpus, in a compact form; build_corpus.py writes it out as real transcripts.

Each case is a session: turns in order, and the lessons a careful reader
would draft from it (``expect``), each with its kind, words the lesson's
label or description must contain, and optionally its priority, a file
pattern and a tool in its triggers.  ``secrets`` are planted strings that
must never reach a stored node.  Turn forms:

* ``("user", text)``: a prompt a person typed;
* ``("assistant", text, [(tool, input), ...])``: assistant text and tool calls
  (each tool call gets a tool result record after it);
* ``("meta", text)``: a user record Claude Code injected (isMeta);
* ``("result", text)``: a tool result whose content is ``text``;
* ``("final", text)``: the last assistant message, passed as ``last_assistant_message``.
"""

P = "/home/dev/shop"

CASES = [
    # ---------------------------------------------------------------- [PROCESS_KNOWLEDGE]
    dict(name="pk_yaml_flow_lists", turns=[
        ("user", "bump the plugin to 0.3.0"),
        ("assistant", "Bumping.", [("Edit", {"file_path": P + "/.claude-plugin/plugin.json", "old_string": "0.2.0", "new_string": "0.3.0"})]),
        ("user", "you forgot marketplace.json again"),
        ("assistant", "Fixed, and recording it.\n\n[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: CRITICAL\nlabel: Plugin version bump touches three files\ntrigger_conditions:\n  tool_names: [Write, Edit]\n  file_patterns: [\"**/plugin.json\"]\n  action_keywords: [version, bump]\nchecklist:\n  title: Version bump\n  items:\n    - Update .claude-plugin/marketplace.json\n    - Add a CHANGELOG.md entry\n[/PROCESS_KNOWLEDGE]", []),
    ], expect=[dict(kind="process_knowledge", words=["three files"], priority="CRITICAL", file="**/plugin.json", tool="Edit")]),
    dict(name="pk_json_body", turns=[
        ("user", "add an index on orders.created_at"),
        ("assistant", "Done.\n[PROCESS_KNOWLEDGE]\n{\"type\": \"warning\", \"priority\": \"HIGH\", \"label\": \"Large table index locks writes\", \"trigger_conditions\": {\"tool_names\": [\"Bash\"], \"action_keywords\": [\"create index\"]}, \"warning\": {\"risk\": \"CREATE INDEX without CONCURRENTLY locks the orders table\", \"mitigation\": \"Use CREATE INDEX CONCURRENTLY\"}}\n[/PROCESS_KNOWLEDGE]", [("Bash", {"command": "psql -c 'create index on orders(created_at)'"})]),
    ], expect=[dict(kind="process_knowledge", words=["index locks writes"], priority="HIGH", tool="Bash")]),
    dict(name="pk_in_final_message_only", turns=[
        ("user", "fix the flaky test in tests/test_cart.py"),
        ("assistant", "Looking.", [("Read", {"file_path": P + "/tests/test_cart.py"}), ("Edit", {"file_path": P + "/tests/test_cart.py", "old_string": "sleep(1)", "new_string": "wait_for(cart.ready)"})]),
        ("final", "The test waited on a sleep.\n\n```\n[PROCESS_KNOWLEDGE]\ntype: pattern\npriority: MEDIUM\nlabel: Wait on a condition, not a sleep, in async tests\ntrigger_conditions:\n  file_patterns:\n    - \"tests/**/*.py\"\npattern:\n  situation: A test waits for background work\n  action: Use wait_for(condition) instead of sleep\n  rationale: Sleeps make tests flaky on slow CI machines\n[/PROCESS_KNOWLEDGE]\n```"),
    ], expect=[dict(kind="process_knowledge", words=["not a sleep"], priority="MEDIUM", file="tests/**/*.py")]),
    dict(name="pk_requirement_block_with_comments", turns=[
        ("user", "publish the package"),
        ("assistant", "[PROCESS_KNOWLEDGE]\n# written after a failed publish\ntype: requirement\npriority: critical\nlabel: 'Build from a clean tree before twine upload'\ntrigger_conditions:\n  tool_names:\n    - Bash\n  action_keywords: [twine, publish]\nrequirement:\n  constraint: Run git status --porcelain and rm -rf dist before building\n  rationale: A stale wheel in dist/ was uploaded once\n[/PROCESS_KNOWLEDGE]", [("Bash", {"command": "twine upload dist/*"})]),
    ], expect=[dict(kind="process_knowledge", words=["clean tree"], priority="CRITICAL", tool="Bash")]),
    dict(name="pk_malformed_block_is_reported", turns=[
        ("user", "rename the module"),
        ("assistant", "[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: [unclosed\nchecklist:\n  items:\n   - x\n [/PROCESS_KNOWLEDGE]", []),
    ], expect=[], problems=1),
    dict(name="pk_two_blocks_one_turn", turns=[
        ("user", "set up the release workflow"),
        ("assistant", "Two lessons:\n[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: HIGH\nlabel: Tag after the changelog commit\nchecklist:\n  items: [Commit CHANGELOG.md, Tag vX.Y.Z, Push the tag]\n[/PROCESS_KNOWLEDGE]\nand\n[PROCESS_KNOWLEDGE]\ntype: warning\npriority: HIGH\nlabel: Workflow secrets are not available to forks\nwarning:\n  risk: pull_request from forks runs without secrets\n[/PROCESS_KNOWLEDGE]", [("Write", {"file_path": P + "/.github/workflows/release.yml", "content": "on: push"})]),
    ], expect=[dict(kind="process_knowledge", words=["changelog commit"], file="**/release.yml"), dict(kind="process_knowledge", words=["forks"], file="**/release.yml")]),
    # ---------------------------------------------------------------- corrections
    dict(name="correction_forgot_marketplace", turns=[
        ("user", "bump the version to 1.4.0"),
        ("assistant", "Done.", [("Edit", {"file_path": P + "/.claude-plugin/plugin.json", "old_string": "1.3.0", "new_string": "1.4.0"})]),
        ("user", "You forgot to update marketplace.json. Users never get the update otherwise."),
    ], expect=[dict(kind="user_correction", words=["marketplace.json"], priority="CRITICAL", file="**/plugin.json", tool="Edit")]),
    dict(name="correction_didnt_run_tests", turns=[
        ("user", "refactor the price calculation"),
        ("assistant", "Refactored.", [("Edit", {"file_path": P + "/shop/pricing.py", "old_string": "a", "new_string": "b"})]),
        ("user", "ugh, you didn't run the tests before saying it works"),
    ], expect=[dict(kind="user_correction", words=["tests"], priority="HIGH", file="**/pricing.py")]),
    dict(name="correction_also_need", turns=[
        ("user", "add a --json flag to the export command"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/shop/cli.py", "old_string": "x", "new_string": "y"})]),
        ("user", "ok but you also need to document the flag in docs/cli.md"),
    ], expect=[dict(kind="user_correction", words=["document"], file="**/cli.py")]),
    dict(name="correction_dont_forget_migration", turns=[
        ("user", "add a discount column to orders"),
        ("assistant", "Column added to the model.", [("Edit", {"file_path": P + "/shop/models.py", "old_string": "total", "new_string": "total\n    discount"})]),
        ("user", "Don't forget the alembic migration for that column, the deploy will fail without it."),
    ], expect=[dict(kind="user_correction", words=["migration"], priority="CRITICAL", file="**/models.py")]),
    dict(name="correction_use_x_not_y", turns=[
        ("user", "install the dependencies"),
        ("assistant", "Installing.", [("Bash", {"command": "npm install"})]),
        ("user", "no, use pnpm not npm in this repo"),
    ], expect=[dict(kind="user_correction", words=["pnpm"], tool="Bash")]),
    dict(name="correction_told_you", turns=[
        ("user", "create a virtualenv and install"),
        ("assistant", "Creating.", [("Bash", {"command": "python -m venv .venv && pip install -e ."})]),
        ("user", "I told you to use uv for environments here."),
    ], expect=[dict(kind="user_correction", words=["uv"], tool="Bash")]),
    dict(name="correction_thats_wrong", turns=[
        ("user", "where is the log level configured?"),
        ("assistant", "It is set in config.py.", [("Read", {"file_path": P + "/config.py"})]),
        ("user", "That's wrong, the log level lives in settings.toml and config.py only reads it."),
    ], expect=[dict(kind="user_correction", words=["settings.toml"])]),
    dict(name="correction_missed_null_check", turns=[
        ("user", "handle empty carts in checkout"),
        ("assistant", "Handled.", [("Edit", {"file_path": P + "/shop/checkout.py", "old_string": "a", "new_string": "b"})]),
        ("user", "You missed the case where the coupon is None — it crashes."),
    ], expect=[dict(kind="user_correction", words=["coupon"], file="**/checkout.py")]),
    dict(name="correction_make_sure", turns=[
        ("user", "write the CSV export"),
        ("assistant", "Written.", [("Write", {"file_path": P + "/shop/export.py", "content": "open(path)"})]),
        ("user", "Make sure you open files with encoding='utf-8', Windows users get mojibake otherwise."),
    ], expect=[dict(kind="user_correction", words=["encoding"], file="**/export.py", tool="Write")]),
    dict(name="correction_remember_to_rebase", turns=[
        ("user", "push the branch"),
        ("assistant", "Pushing.", [("Bash", {"command": "git push origin feature/cart"})]),
        ("user", "remember to rebase on main before pushing; the CI only tests rebased branches"),
    ], expect=[dict(kind="user_correction", words=["rebase"], tool="Bash")]),
    dict(name="correction_should_have", turns=[
        ("user", "delete the old exports"),
        ("assistant", "Deleted.", [("Bash", {"command": "rm -rf exports/"})]),
        ("user", "You should have made a backup of exports/ first, those were the only copies."),
    ], expect=[dict(kind="user_correction", words=["backup"], priority="CRITICAL", tool="Bash")]),
    dict(name="correction_wrong_file_with_secret", turns=[
        ("user", "set the API key for staging"),
        ("assistant", "Set.", [("Edit", {"file_path": P + "/.env", "old_string": "x", "new_string": "STRIPE_API_KEY=sk_live_abcdefghijklmnop1234"})]),
        ("user", "Wrong file. Staging keys go in .env.staging, and never paste STRIPE_API_KEY=sk-live-ZZZZZZZZZZZZZZZZZZZZZZZZ in chat."),
    ], expect=[dict(kind="user_correction", words=["staging"])], secrets=["sk-live-ZZZZZZZZZZZZZZZZZZZZZZZZ", "sk_live_abcdefghijklmnop1234"]),
    # ---------------------------------------------------------------- statements
    dict(name="statement_lesson_learned_user", turns=[
        ("user", "the release broke because the lockfile was stale"),
        ("assistant", "I see.", []),
        ("user", "Lesson learned: always regenerate poetry.lock after editing pyproject.toml."),
    ], expect=[dict(kind="lesson_statement", words=["poetry.lock"], priority="HIGH")]),
    dict(name="statement_from_now_on", turns=[
        ("user", "From now on, run ruff format before every commit."),
    ], expect=[dict(kind="lesson_statement", words=["ruff"])]),
    dict(name="statement_going_forward_assistant", turns=[
        ("user", "why did the build fail?"),
        ("assistant", "The build used the system Python. Going forward I will always call .venv/bin/python explicitly in scripts.", [("Bash", {"command": "make build"})]),
    ], expect=[dict(kind="lesson_statement", words=["venv"], tool="Bash")]),
    dict(name="statement_note_for_future", turns=[
        ("user", "Note for future: the payments service must be deployed before the web app."),
    ], expect=[dict(kind="lesson_statement", words=["payments"])]),
    dict(name="statement_remember_that", turns=[
        ("user", "tests pass now"),
        ("assistant", "Good. Remember that the integration tests need docker compose up first.", []),
    ], expect=[dict(kind="lesson_statement", words=["docker"])]),
    dict(name="statement_important_guidance", turns=[
        ("user", "Important: never run migrations against prod from a laptop."),
    ], expect=[dict(kind="lesson_statement", words=["migrations"])]),
    # ---------------------------------------------------------------- repeated mistakes
    dict(name="repeat_same_correction_twice", turns=[
        ("user", "update the dependency"),
        ("assistant", "Updated.", [("Edit", {"file_path": P + "/requirements.txt", "old_string": "a", "new_string": "b"})]),
        ("user", "you forgot to regenerate requirements.lock"),
        ("assistant", "Regenerated.", [("Bash", {"command": "pip-compile"})]),
        ("user", "update the other dependency too"),
        ("assistant", "Updated.", [("Edit", {"file_path": P + "/requirements.txt", "old_string": "c", "new_string": "d"})]),
        ("user", "again you forgot to regenerate the requirements.lock file!"),
    ], expect=[dict(kind="user_correction", words=["requirements.lock"], priority="CRITICAL", occurrences=2)]),
    # ---------------------------------------------------------------- negatives
    dict(name="neg_question", turns=[
        ("user", "add caching to the product page"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/shop/views.py", "old_string": "a", "new_string": "b"})]),
        ("user", "Did you forget to invalidate the cache on product update?"),
    ], expect=[]),
    dict(name="neg_polite_request", turns=[
        ("user", "Could you make sure you add type hints to the new functions please"),
    ], expect=[]),
    dict(name="neg_pasted_log", turns=[
        ("user", "the deploy failed, here is the output:\n\n```\nStep 4/9 : RUN make check\nERROR: you forgot to set DATABASE_URL\nthat's wrong: expected 3 args\nmake: *** [check] Error 2\n```\nwhat happened?"),
    ], expect=[]),
    dict(name="neg_tool_result_with_phrases", turns=[
        ("user", "run the linter"),
        ("assistant", "Running.", [("Bash", {"command": "make lint"})]),
        ("result", "lint: you forgot a docstring in cart.py:12; remember to sort imports"),
        ("assistant", "Two small lint issues; fixing.", []),
    ], expect=[]),
    dict(name="neg_quoted_text", turns=[
        ("user", "The error message says \"you forgot to call init()\" — where is that raised?"),
    ], expect=[]),
    dict(name="neg_self_forgot", turns=[
        ("user", "I forgot to mention: the staging server is down today, so skip the smoke tests."),
    ], expect=[]),
    dict(name="neg_summary_important", turns=[
        ("user", "summarise what changed"),
        ("assistant", "Important: I changed the parser and the tests. All 42 tests pass.", []),
    ], expect=[]),
    dict(name="neg_hypothetical", turns=[
        ("user", "if you forgot anything in the migration, tell me before I merge"),
    ], expect=[]),
    dict(name="neg_meta_and_commands", turns=[
        ("meta", "Caveat: you forgot nothing; this message was generated by a command."),
        ("user", "<command-name>/forewarn:knowledge-review-drafts</command-name>"),
        ("user", "Stop hook feedback: remember to run the tests"),
        ("user", "thanks, looks good"),
    ], expect=[]),
    dict(name="neg_long_paste_later_phrase", turns=[
        ("user", "Please review this design doc.\n\n" + ("The cart service stores items in Redis with a TTL of one day. " * 40) + "\nIn the old version you forgot to expire carts, that's wrong."),
    ], expect=[]),
    dict(name="neg_praise", turns=[
        ("user", "great, you didn't miss anything this time, thanks!"),
    ], expect=[]),
    dict(name="neg_secret_in_plain_request", turns=[
        ("user", "deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 please"),
    ], expect=[], secrets=["ghp_abcdefghijklmnopqrstuvwxyz0123456789"]),
    dict(name="pk_block_with_secret", turns=[
        ("user", "wire the payment webhook"),
        ("assistant", "Wired.\n[PROCESS_KNOWLEDGE]\ntype: requirement\npriority: HIGH\nlabel: Webhook secret comes from the environment\n"
         "description: Never inline the secret like STRIPE_WEBHOOK_SECRET=whsec_live_4f9a8b7c6d5e4f3a2b1c, read it from the env\n"
         "requirement:\n  constraint: Read STRIPE_WEBHOOK_SECRET from os.environ\n[/PROCESS_KNOWLEDGE]\n\n"
         "Going forward I will always read AWS keys from the profile, never AKIAIOSFODNN7REALKEY in code.",
         [("Edit", {"file_path": P + "/shop/webhooks.py", "old_string": "a", "new_string": "b"})]),
    ], expect=[dict(kind="process_knowledge", words=["webhook secret"], file="**/webhooks.py"),
               dict(kind="lesson_statement", words=["aws keys"])],
        secrets=["whsec_live_4f9a8b7c6d5e4f3a2b1c", "AKIAIOSFODNN7REALKEY"]),
    dict(name="correction_with_password_url", turns=[
        ("user", "clone the mirror"),
        ("assistant", "Cloning.", [("Bash", {"command": "git clone https://deploy:hunter2hunter2@git.example.com/shop.git"})]),
        ("user", "You didn't use the SSH remote; https://deploy:hunter2hunter2@git.example.com must not be used in scripts."),
    ], expect=[dict(kind="user_correction", words=["ssh"], tool="Bash")], secrets=["hunter2hunter2"]),
]

# ---------------------------------------------------------------- held out
# Written after the detectors were tuned on the cases above and never tuned
# against: docs/process-knowledge.md reports them separately.
HELD_OUT = [
    dict(name="held_forgot_feature_flag", turns=[
        ("user", "ship the new checkout page"),
        ("assistant", "Shipped behind the route.", [("Edit", {"file_path": P + "/web/routes.ts", "old_string": "a", "new_string": "b"})]),
        ("user", "you forgot to put it behind the feature flag, it's live for everyone now"),
    ], expect=[dict(kind="user_correction", words=["feature flag"], file="**/routes.ts")]),
    dict(name="held_never_force_push", turns=[
        ("user", "clean up the branch history"),
        ("assistant", "Rewrote and pushed.", [("Bash", {"command": "git rebase -i main && git push --force"})]),
        ("user", "You didn't ask before force-pushing a shared branch. Never do that without asking."),
    ], expect=[dict(kind="user_correction", words=["force"], priority="CRITICAL", tool="Bash")]),
    dict(name="held_statement_next_time", turns=[
        ("user", "the docs build broke on the new page"),
        ("assistant", "Fixed the broken link. Next time I should run mkdocs build --strict before committing docs.", [("Bash", {"command": "mkdocs build --strict"})]),
    ], expect=[dict(kind="lesson_statement", words=["mkdocs"])]),
    dict(name="held_pk_warning_block", turns=[
        ("user", "rotate the signing key"),
        ("assistant", "Rotated.\n[PROCESS_KNOWLEDGE]\ntype: warning\npriority: CRITICAL\nlabel: Old signing key must stay valid for a day\nwarning:\n  risk: Tokens signed with the old key fail verification immediately\n  mitigation: Publish both keys in JWKS for 24h\n[/PROCESS_KNOWLEDGE]", [("Edit", {"file_path": P + "/auth/jwks.json", "old_string": "a", "new_string": "b"})]),
    ], expect=[dict(kind="process_knowledge", words=["signing key"], priority="CRITICAL", file="**/jwks.json")]),
    dict(name="held_neg_question_why", turns=[
        ("user", "why did you skip the integration tests?"),
    ], expect=[]),
    dict(name="held_neg_request_to_remember", turns=[
        ("user", "Can you remember to check the changelog when you are done"),
    ], expect=[]),
    dict(name="held_neg_review_comment_quote", turns=[
        ("user", "> you missed the null check here\nThat was a reviewer's comment on the other PR, ignore it."),
    ], expect=[]),
    dict(name="held_correction_instead_of", turns=[
        ("user", "format the code"),
        ("assistant", "Formatted.", [("Bash", {"command": "black ."})]),
        ("user", "use ruff format instead of black, we dropped black last month"),
    ], expect=[dict(kind="user_correction", words=["ruff"], tool="Bash")]),
]

# ---------------------------------------------------------------- held out, second set
# Written in one go before any detector change of the session that added them,
# phrased the way people type rather than the way the detectors match, with
# the record shapes a Stop hook really meets (tool rejections carrying the
# person's reason, interrupts, IDE context blocks, subagent prompts,
# compaction summaries, a final message persisted as several records).
# docs/process-knowledge.md quotes what they measured before and after.
IDE_OPEN = ("<ide_opened_file>The user opened the file " + P + "/shop/api.py in the IDE. "
            "This may or may not be related to the current task.</ide_opened_file>")
HELD_OUT_2 = [
    # ---- corrections
    dict(name="h2_rejected_edit_with_reason", turns=[
        ("user", "raise the default page size to 100"),
        ("rejected", "Edit", {"file_path": P + "/shop/settings.py", "old_string": "PAGE_SIZE = 50", "new_string": "PAGE_SIZE = 100"},
         "no - settings.py is generated. you need to change settings.template.py and then run make settings"),
    ], expect=[dict(kind="user_correction", words=["settings.template.py"], file="**/settings.py", tool="Edit")]),
    dict(name="h2_interrupt_then_correction", turns=[
        ("user", "the build is broken, reinstall the deps"),
        ("assistant", "Reinstalling from scratch.", [("Bash", {"command": "rm -rf node_modules && npm install"})]),
        ("interrupt",),
        ("user", "stop. you didn't check which package manager this repo uses, it's yarn (there's a yarn.lock)"),
    ], expect=[dict(kind="user_correction", words=["yarn"], tool="Bash")]),
    dict(name="h2_ide_context_correction", turns=[
        ("user", "add a /refunds endpoint"),
        ("assistant", "Added the endpoint.", [("Edit", {"file_path": P + "/shop/api.py", "old_string": "# routes", "new_string": "# routes\n@app.post('/refunds')"})]),
        ("ide", IDE_OPEN, "you forgot to add the new endpoint to the OpenAPI spec in docs/openapi.yaml"),
    ], expect=[dict(kind="user_correction", words=["openapi"], file="**/api.py", tool="Edit")]),
    dict(name="h2_you_keep_doing_it", turns=[
        ("user", "write tests for the exporter"),
        ("assistant", "Tests written.", [("Write", {"file_path": P + "/tests/test_export.py", "content": "OUT = '/home/dev/out.csv'"})]),
        ("user", "You keep hardcoding /home/dev paths in the tests. Use the tmp_path fixture."),
    ], expect=[dict(kind="user_correction", words=["hardcod"], file="**/test_export.py")]),
    dict(name="h2_lowercase_u_forgot", turns=[
        ("user", "split helpers into a utils package"),
        ("assistant", "Split.", [("Write", {"file_path": P + "/shop/utils/text.py", "content": "def slug(s): ..."})]),
        ("user", "u forgot the __init__.py so the package doesnt import"),
    ], expect=[dict(kind="user_correction", words=["__init__.py"], file="**/text.py")]),
    dict(name="h2_actually_wrong_name", turns=[
        ("user", "read the database url from the environment"),
        ("assistant", "Done, it reads DATABASE_URL now.", [("Edit", {"file_path": P + "/shop/db.py", "old_string": "URL = 'sqlite://'", "new_string": "URL = os.environ['DATABASE_URL']"})]),
        ("user", "Actually the env var is called SHOP_DB_URL not DATABASE_URL, check .env.example"),
    ], expect=[dict(kind="user_correction", words=["SHOP_DB_URL"], file="**/db.py")]),
    dict(name="h2_didnt_bump_version_paragraphs", turns=[
        ("user", "prepare the 2.3.1 release notes"),
        ("assistant", "Added the 2.3.1 section.", [("Edit", {"file_path": P + "/CHANGELOG.md", "old_string": "## 2.3.0", "new_string": "## 2.3.1\n- fix refunds\n\n## 2.3.0"})]),
        ("user", "Thanks for the changelog.\n\nBut you didn't bump the version in pyproject.toml, so the release job will publish 2.3.0 again and PyPI will reject it."),
    ], expect=[dict(kind="user_correction", words=["version", "pyproject.toml"], priority="CRITICAL", file="**/CHANGELOG.md", tool="Edit")]),
    dict(name="h2_before_you_push_make_sure", turns=[
        ("user", "add the loyalty_points column"),
        ("assistant", "Added the column and a migration.", [("Write", {"file_path": P + "/migrations/0042_loyalty.py", "content": "op.add_column(...)"})]),
        ("user", "Looks good. Before you push, make sure to run the migrations check, we lost a column last time."),
    ], expect=[dict(kind="user_correction", words=["migrations check"], priority="CRITICAL", file="**/0042_loyalty.py")]),
    dict(name="h2_told_you_twice", turns=[
        ("user", "add progress output to the importer"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/shop/importer.py", "old_string": "for row in rows:", "new_string": "for row in rows:\n    print(row)"})]),
        ("user", "I told you, no print statements in library code. Use the module logger."),
        ("assistant", "Switched to the logger.", [("Edit", {"file_path": P + "/shop/importer.py", "old_string": "print(row)", "new_string": "log.info(row)"})]),
        ("user", "now the same for the exporter"),
        ("assistant", "Done.", [("Edit", {"file_path": P + "/shop/exporter.py", "old_string": "pass", "new_string": "print('exported')"})]),
        ("user", "print() again?! I told you to use the module logger in library code."),
    ], expect=[dict(kind="user_correction", words=["logger"], priority="CRITICAL", occurrences=2)]),
    dict(name="h2_thats_not_how_we_name", turns=[
        ("user", "start a branch for the refund work"),
        ("assistant", "Created feature/refunds.", [("Bash", {"command": "git checkout -b feature/refunds"})]),
        ("user", "That's not how we name branches here: it's feat/<ticket>, so feat/SHOP-812."),
    ], expect=[dict(kind="user_correction", words=["branch"], tool="Bash")]),
    dict(name="h2_use_backticked_instead", turns=[
        ("user", "fetch the exchange rates in the nightly job"),
        ("assistant", "Fetching with requests.", [("Edit", {"file_path": P + "/jobs/rates.py", "old_string": "pass", "new_string": "requests.get(URL)"})]),
        ("user", "use `httpx` instead of `requests` for new code, we are migrating off requests"),
    ], expect=[dict(kind="user_correction", words=["httpx"], file="**/rates.py")]),
    dict(name="h2_shouldve_asked", turns=[
        ("user", "the fixtures folder is a mess, tidy it"),
        ("assistant", "Removed the old recordings.", [("Bash", {"command": "rm -rf tests/fixtures/recorded"})]),
        ("user", "you should've asked before deleting the recorded fixtures, they took hours to record"),
    ], expect=[dict(kind="user_correction", words=["fixtures"], tool="Bash")]),
    dict(name="h2_missed_call_sites", turns=[
        ("user", "rename compute_total to order_total"),
        ("assistant", "Renamed.", [("Edit", {"file_path": P + "/shop/orders.py", "old_string": "def compute_total", "new_string": "def order_total"})]),
        ("user", "You missed two call sites: shop/reports.py and shop/admin.py still import compute_total."),
    ], expect=[dict(kind="user_correction", words=["call sites"], file="**/orders.py")]),
    # ---- statements
    dict(name="h2_stmt_assistant_lessons_learned", turns=[
        ("user", "why is staging unstyled?"),
        ("final", "The CSS bundle was never built on staging, so every stylesheet 404'd. I ran the asset build and redeployed.\n\nLessons learned: the staging deploy needs `make assets` before `make deploy`, otherwise the CSS 404s."),
    ], expect=[dict(kind="lesson_statement", words=["staging deploy"])]),
    dict(name="h2_stmt_from_here_on", turns=[
        ("user", "the scraper hammered the partner API again"),
        ("assistant", "I added a rate limit to the scraper endpoint.", [("Edit", {"file_path": P + "/shop/partner.py", "old_string": "def fetch", "new_string": "@ratelimit(10)\ndef fetch"})]),
        ("user", "From here on, every new endpoint needs a rate limit decorator."),
    ], expect=[dict(kind="lesson_statement", words=["rate limit"])]),
    dict(name="h2_stmt_note_to_self_assistant", turns=[
        ("user", "CI fails with a permission error in .pytest_cache"),
        ("assistant", "Fixed by disabling the cache provider in CI.\n\nNote to self: this repo's tests must be run with -p no:cacheprovider in CI because the checkout is read-only.", [("Edit", {"file_path": P + "/.github/workflows/ci.yml", "old_string": "pytest", "new_string": "pytest -p no:cacheprovider"})]),
    ], expect=[dict(kind="lesson_statement", words=["read-only"])]),
    dict(name="h2_stmt_going_forward_lowercase", turns=[
        ("user", "merged, thanks"),
        ("assistant", "Great.", []),
        ("user", "going forward pls always squash-merge, the history is unreadable otherwise"),
    ], expect=[dict(kind="lesson_statement", words=["squash"])]),
    dict(name="h2_stmt_remember_that_utc", turns=[
        ("user", "the invoice dates are off by one"),
        ("assistant", "They were built from local time; fixed to UTC.", [("Edit", {"file_path": P + "/billing/invoice.py", "old_string": "datetime.now()", "new_string": "datetime.now(timezone.utc)"})]),
        ("user", "Right. Remember that the billing service runs on UTC, never local time."),
    ], expect=[dict(kind="lesson_statement", words=["UTC"])]),
    dict(name="h2_stmt_in_future_fixtures", turns=[
        ("user", "In future, put new fixtures under tests/fixtures/v2 and leave v1 alone."),
    ], expect=[dict(kind="lesson_statement", words=["fixtures"])]),
    # ---- [PROCESS_KNOWLEDGE]
    dict(name="h2_pk_wrapped_scalars", turns=[
        ("user", "add pydantic-settings as a dependency"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/pyproject.toml", "old_string": "dependencies = [", "new_string": "dependencies = [\n  \"pydantic-settings\","})]),
        ("user", "you forgot to regenerate the lockfile after adding a dependency"),
        ("final", "Regenerated uv.lock.\n\n[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: HIGH\nlabel: Adding a dependency means regenerating the lockfile\ndescription: CI installs from uv.lock with --frozen, so a dependency added only to\n  pyproject.toml fails the install step.\ntrigger_conditions:\n  tool_names:\n    - Edit\n    - Write\n  file_patterns:\n    - \"**/pyproject.toml\"\n  context_keywords:\n    - dependency\nchecklist:\n  title: New dependency\n  items:\n    - Run uv lock after editing the dependencies table and commit\n      the updated uv.lock together with pyproject.toml\n    - Run uv sync --frozen locally\n[/PROCESS_KNOWLEDGE]"),
    ], expect=[dict(kind="process_knowledge", words=["lockfile"], priority="HIGH", file="**/pyproject.toml")]),
    dict(name="h2_pk_pattern_with_literal_example", turns=[
        ("user", "the retry loop hid the real error"),
        ("assistant", "Fixed: the loop now re-raises after the last attempt.\n\n[PROCESS_KNOWLEDGE]\ntype: pattern\npriority: medium\nlabel: Retry loops re-raise the last error\ntrigger_conditions: {}\npattern:\n  situation: Writing a retry loop around a network call\n  action: After the final attempt, re-raise the exception instead of returning None\n  rationale: Returning None hid a 401 for a week\n  example: |\n    for attempt in range(3):\n        try:\n            return call()\n        except HTTPError:\n            if attempt == 2:\n                raise\n[/PROCESS_KNOWLEDGE]", [("Edit", {"file_path": P + "/shop/net.py", "old_string": "return None", "new_string": "raise"})]),
    ], expect=[dict(kind="process_knowledge", words=["re-raise"], priority="MEDIUM", file="**/net.py")]),
    dict(name="h2_pk_final_split_over_records", turns=[
        ("user", "publish the docs"),
        ("assistant", "Published.", [("Bash", {"command": "mkdocs gh-deploy"})]),
        ("user", "you published the docs from the wrong branch"),
        ("final_blocks", ["Republished from main.", "[PROCESS_KNOWLEDGE]\ntype: requirement\npriority: HIGH\nlabel: Docs are published from main only\nrequirement:\n  constraint: Run mkdocs gh-deploy only on an up-to-date main\n  validation: git rev-parse --abbrev-ref HEAD prints main\n[/PROCESS_KNOWLEDGE]"]),
    ], expect=[dict(kind="process_knowledge", words=["published from main"], priority="HIGH", tool="Bash")]),  # the correction is the same event
    # ---- must yield nothing
    dict(name="h2_neg_question_without_mark", turns=[
        ("user", "push the fix"),
        ("assistant", "Pushed.", [("Bash", {"command": "git push"})]),
        ("user", "did you forget to push the tag or is CI just slow"),
    ], expect=[]),
    dict(name="h2_neg_first_prompt_instruction", turns=[
        ("user", "Please rename the cart module to basket and make sure the tests still pass afterwards."),
    ], expect=[]),
    dict(name="h2_neg_unfenced_traceback", turns=[
        ("user", "tests fail with this:\nTraceback (most recent call last):\n  File \"/home/dev/shop/tests/test_run.py\", line 12, in test_run\n    runner.run()\n  File \"/home/dev/shop/shop/runner.py\", line 40, in run\n    raise AssertionError(msg)\nAssertionError: you forgot to call setup() before run()\nany idea"),
    ], expect=[]),
    dict(name="h2_neg_assistant_says_you_forgot", turns=[
        ("user", "commit my changes"),
        ("assistant", "It looks like you forgot to stage the lockfile, so I added it to the commit as well.", [("Bash", {"command": "git add uv.lock && git commit -m 'deps'"})]),
    ], expect=[]),
    dict(name="h2_neg_sidechain_prompt", turns=[
        ("user", "find every use of the deprecated charge() call"),
        ("sidechain", "Search the repository for calls to charge(). Make sure you check every file under shop/, and don't forget the tests directory. Report file and line."),
        ("final", "charge() is called in shop/billing.py:88 and tests/test_billing.py:14."),
    ], expect=[]),
    dict(name="h2_neg_rejected_clarify_boilerplate", turns=[
        ("user", "set up deployment"),
        ("rejected", "AskUserQuestion", {"questions": [{"question": "Should I remember to bump the version on deploy?"}]},
         "The user wants to clarify these questions.\n    This means they may have additional information, context or questions for you.\n    Take their response into account and then reformulate the questions if appropriate.\n    Start by asking them what they would like to clarify.\n\n    Questions asked:\n- \"Should I remember to bump the version on deploy?\""),
    ], expect=[]),
    dict(name="h2_neg_from_now_on_describes_behaviour", turns=[
        ("user", "make the first request faster"),
        ("final", "From now on the cache is warmed at startup, so the first request is fast. Startup takes 0.4 s longer."),
    ], expect=[]),
    dict(name="h2_neg_compact_summary", turns=[
        ("compact", "This session is being continued from a previous conversation that ran out of context. Summary: the user said \"you forgot to update the docs\" and the docs were updated. Remember to keep the summary short."),
        ("user", "ok continue with the refund tests"),
    ], expect=[]),
    dict(name="h2_neg_important_in_report", turns=[
        ("user", "what did you change?"),
        ("final", "Important: I didn't touch the billing module; the changes are in shop/cart only."),
    ], expect=[]),
    dict(name="h2_neg_reported_review_comment", turns=[
        ("user", "tidy the list helpers"),
        ("assistant", "Tidied.", [("Edit", {"file_path": P + "/shop/lists.py", "old_string": "a", "new_string": "b"})]),
        ("user", "the reviewer wrote 'you missed the edge case for empty lists' on the PR, but that's handled on line 40, so ignore it"),
    ], expect=[]),
    dict(name="h2_neg_first_prompt_remember_to", turns=[
        ("user", "Refactor the exporter into smaller functions. Please remember to update the changelog when you're done."),
    ], expect=[]),
    dict(name="h2_secret_in_rejection_reason", turns=[
        ("user", "configure the mail sender"),
        ("rejected", "Write", {"file_path": P + "/.env", "content": "SMTP_PASSWORD=\"correct horse battery\""},
         "don't write the password into .env: SMTP_PASSWORD=\"correct horse battery\" belongs in the vault, reference it as vault:smtp"),
    ], expect=[dict(kind="user_correction", words=["vault"], file="**/.env", tool="Write")],
        secrets=["correct horse battery"]),
]

# ---------------------------------------------------------------- held out, third set
# Written after the detector changes that the second set prompted, and
# measured once as they stood; docs/process-knowledge.md quotes the result.
EMAIL = ("Forwarding the client's email below.\n\nHi team, you forgot to include the invoice PDF in the last delivery, and the "
         "totals on page 2 don't match the portal. Please make sure you attach it this time. We need this before the audit. "
         "Regards, Dana\n\n" + ("Order 4411: 3 x widget, 12.50 EUR each, shipped 2026-10-02, tracking DHL 00340434. " * 25))
HELD_OUT_3 = [
    # ---- corrections
    dict(name="h3_wrong_folder_lowercase", turns=[
        ("user", "add a test for the slug helper"),
        ("assistant", "Added.", [("Write", {"file_path": P + "/test/test_slug.py", "content": "def test_slug(): ..."})]),
        ("user", "hm, the tests directory is tests/unit, not test/. you put the file in the wrong folder"),
    ], expect=[dict(kind="user_correction", words=["tests/unit"], file="**/test_slug.py", tool="Write")]),
    dict(name="h3_nope_named_exports", turns=[
        ("user", "export the new hook"),
        ("assistant", "Exported as the default export.", [("Edit", {"file_path": P + "/web/hooks/useCart.ts", "old_string": "function useCart", "new_string": "export default function useCart"})]),
        ("user", "Nope. We don't use default exports in this codebase, named exports only."),
    ], expect=[dict(kind="user_correction", words=["default exports"], file="**/useCart.ts")]),
    dict(name="h3_rhetorical_then_rule", turns=[
        ("user", "commit the fix"),
        ("assistant", "Committed and pushed to main.", [("Bash", {"command": "git commit -am 'fix' && git push origin main"})]),
        ("user", "why would you push directly to main?? always open a PR"),
    ], expect=[dict(kind="user_correction", words=["PR"], tool="Bash")]),
    dict(name="h3_migration_data_loss", turns=[
        ("user", "move addresses into their own table"),
        ("assistant", "Migration written.", [("Write", {"file_path": P + "/migrations/0043_addresses.py", "content": "op.drop_column('users', 'address')\nop.create_table('addresses')"})]),
        ("user", "the migration you wrote drops the column before copying the data, we'd lose every address. copy first, then drop."),
    ], expect=[dict(kind="user_correction", words=["copy"], priority="CRITICAL", file="**/0043_addresses.py")]),
    dict(name="h3_rejected_prod_config", turns=[
        ("user", "turn on the new search for staging"),
        ("rejected", "Edit", {"file_path": P + "/config/prod.yaml", "old_string": "search_v2: false", "new_string": "search_v2: true"},
         "not in prod config! edit config/staging.yaml"),
    ], expect=[dict(kind="user_correction", words=["staging.yaml"], priority="CRITICAL", file="**/prod.yaml", tool="Edit")]),
    dict(name="h3_did_it_again_cents", turns=[
        ("user", "show the order total on the receipt"),
        ("assistant", "Added the total.", [("Edit", {"file_path": P + "/web/Receipt.tsx", "old_string": "{items}", "new_string": "{items}{formatEuro(order.total)}"})]),
        ("user", "You did it again — the API returns cents, not euros. Divide by 100 before formatting."),
    ], expect=[dict(kind="user_correction", words=["cents"], file="**/Receipt.tsx")]),
    dict(name="h3_please_dont_plus_forgot", turns=[
        ("user", "call the orders endpoint from the dashboard"),
        ("assistant", "Wired up.", [("Edit", {"file_path": P + "/web/dashboard.ts", "old_string": "// fetch", "new_string": "const data: any = await api.get('/orders')"})]),
        ("user", "Please don't use `any` in TypeScript, you forgot to type the response."),
    ], expect=[dict(kind="user_correction", words=["type the response"], file="**/dashboard.ts")]),
    dict(name="h3_youve_missed_windows", turns=[
        ("user", "normalise the upload paths"),
        ("assistant", "Normalised with split('/').", [("Edit", {"file_path": P + "/shop/uploads.py", "old_string": "path", "new_string": "path.split('/')"})]),
        ("user", "you've missed the Windows path case again, backslashes break this"),
    ], expect=[dict(kind="user_correction", words=["windows"], file="**/uploads.py")]),
    dict(name="h3_two_things_one_prompt", turns=[
        ("user", "add the subscriptions table"),
        ("assistant", "Table and model added.", [("Write", {"file_path": P + "/migrations/0044_subscriptions.py", "content": "op.create_table('subscriptions')"})]),
        ("user", "Two things: you forgot the index on user_id, and the status enum should be a check constraint, not a separate table."),
    ], expect=[dict(kind="user_correction", words=["index"], file="**/0044_subscriptions.py")]),
    # ---- statements
    dict(name="h3_stmt_for_future_reference", turns=[
        ("user", "the e2e tests hang"),
        ("final", "They waited for the mock server, which was not running. For future reference: the e2e suite needs the mock server on port 4010 before it starts."),
    ], expect=[dict(kind="lesson_statement", words=["mock server"])]),
    dict(name="h3_stmt_rule_of_thumb", turns=[
        ("user", "Rule of thumb: anything touching payments gets a second reviewer."),
    ], expect=[dict(kind="lesson_statement", words=["payments"])]),
    dict(name="h3_stmt_lesson_learned_comma", turns=[
        ("user", "the demo broke because of the seed data"),
        ("assistant", "Re-seeded from the fixtures.", [("Bash", {"command": "make seed"})]),
        ("user", "Lesson learned, never trust the staging seed data."),
    ], expect=[dict(kind="lesson_statement", words=["seed data"])]),
    # ---- [PROCESS_KNOWLEDGE]
    dict(name="h3_pk_json_fenced", turns=[
        ("user", "you forgot to bump the API version header again"),
        ("final", "Bumped.\n\n```json\n[PROCESS_KNOWLEDGE]\n{\"type\": \"checklist\", \"priority\": \"CRITICAL\", \"label\": \"Breaking API change bumps the version header\",\n \"trigger_conditions\": {\"file_patterns\": [\"api/**/*.py\"], \"action_keywords\": [\"breaking\"]},\n \"checklist\": {\"items\": [\"Bump API_VERSION in api/version.py\", \"Add the change to docs/api-changes.md\"]}}\n[/PROCESS_KNOWLEDGE]\n```"),
    ], expect=[dict(kind="process_knowledge", words=["version header"], priority="CRITICAL", file="api/**/*.py")]),
    dict(name="h3_pk_top_level_warning_keys", turns=[
        ("user", "clear the redis cache"),
        ("assistant", "Cleared with FLUSHALL.\n[PROCESS_KNOWLEDGE]\ntype: Warning\npriority: High\nlabel: FLUSHALL also clears the session store\nrisk: Sessions share the Redis instance, so FLUSHALL logs every user out\nmitigation: Delete keys by prefix (cache:*) instead\n[/PROCESS_KNOWLEDGE]", [("Bash", {"command": "redis-cli FLUSHALL"})]),
    ], expect=[dict(kind="process_knowledge", words=["session store"], priority="HIGH", tool="Bash")]),
    # ---- must yield nothing
    dict(name="h3_neg_no_worries", turns=[
        ("user", "rename the variable"),
        ("assistant", "Renamed; I left the old alias for now.", [("Edit", {"file_path": P + "/shop/cart.py", "old_string": "a", "new_string": "b"})]),
        ("user", "no worries, that's fine as it is"),
    ], expect=[]),
    dict(name="h3_neg_actually_add_more", turns=[
        ("user", "add the JSON export"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/shop/export.py", "old_string": "a", "new_string": "b"})]),
        ("user", "Actually, let's also add a CSV export while you're at it."),
    ], expect=[]),
    dict(name="h3_neg_pasted_pr_template", turns=[
        ("user", "open the PR"),
        ("assistant", "Ready to open it; which template?", []),
        ("user", "here's our PR template, fill it in:\n## Checklist\n- [ ] Make sure you updated the docs\n- [ ] Don't forget the changelog entry\n- [ ] Tests pass locally"),
    ], expect=[]),
    dict(name="h3_neg_told_my_team", turns=[
        ("user", "start on the refund report"),
        ("assistant", "Starting with the query.", []),
        ("user", "I told my team you'd have this done by noon, no pressure"),
    ], expect=[]),
    dict(name="h3_neg_next_time_job_runs", turns=[
        ("user", "change the cron schedule to 2am"),
        ("final", "Updated the schedule. Next time the job runs it will pick up the new config."),
    ], expect=[]),
    dict(name="h3_neg_question_going_forward", turns=[
        ("user", "what's the rule going forward for naming migrations"),
    ], expect=[]),
    dict(name="h3_neg_read_contributing", turns=[
        ("user", "read CONTRIBUTING.md and summarise"),
        ("assistant", "Reading.", [("Read", {"file_path": P + "/CONTRIBUTING.md"})]),
        ("result", "# Contributing\nLesson learned: always run make check before pushing.\nYou forgot? CI will remind you.\n[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: Example block\n[/PROCESS_KNOWLEDGE]"),
        ("final", "CONTRIBUTING.md asks for make check before pushing and shows the lesson-block format."),
    ], expect=[]),
    dict(name="h3_neg_forwarded_email", turns=[
        ("user", "summarise the open client issues"),
        ("assistant", "Which client?", []),
        ("user", EMAIL),
    ], expect=[]),
]

# ---------------------------------------------------------------- held out, fourth set
# Written blind: by someone who had not read the detectors (corrections.py,
# statements.py, markers.py, capture.py, text.py) or the detector discussion in
# docs/process-knowledge.md, and who never ran them, the Stop hook or
# tests/learning on these cases.  Labelled by meaning (what a careful reviewer
# would want drafted), with priorities from the rules in "Inference": a
# correction whose text or corrected-turn prompt names a production-impact word
# is CRITICAL, other corrections and explicit lessons HIGH, suggestions MEDIUM,
# a block keeps its declared priority (default MEDIUM), a lesson seen twice
# CRITICAL.  Phrasing is meant to be new: typos, other languages mixed in,
# the correction as the second sentence, after an interrupt, in a rejection.
HELD_OUT_4 = [
    # ---- corrections
    dict(name="h4_rejected_prune_volumes", turns=[
        ("user", "clear out the old docker images, disk is full"),
        ("rejected", "Bash", {"command": "docker system prune -af --volumes"},
         "nope, --volumes deletes my local postgres data. thats data loss. only prune images (docker image prune -a)"),
    ], expect=[dict(kind="user_correction", words=["volumes"], priority="CRITICAL", tool="Bash")]),
    dict(name="h4_interrupt_generator_output_dir", turns=[
        ("user", "regenerate the api client from the openapi spec"),
        ("assistant", "Generating the TypeScript client.", [("Bash", {"command": "npx openapi-generator-cli generate -i openapi.yaml -g typescript-fetch -o src/"})]),
        ("interrupt",),
        ("user", "whoa wait. -o src/ would overwrite half the app. the generated client goes in src/gen/api, thats why it's gitignored"),
    ], expect=[dict(kind="user_correction", words=["src/gen/api"], priority="HIGH", tool="Bash")]),
    dict(name="h4_second_sentence_admin_missing", turns=[
        ("user", "add a `created_by` field to the Invoice serializer"),
        ("assistant", "Added `created_by` as a read-only field.", [("Edit", {"file_path": P + "/billing/serializers.py", "old_string": "fields = ['id', 'total']", "new_string": "fields = ['id', 'total', 'created_by']"})]),
        ("user", "thx that works. but ur missing it in the admin list_display too, billing/admin.py"),
    ], expect=[dict(kind="user_correction", words=["admin"], priority="HIGH", file="**/serializers.py", tool="Edit")]),
    dict(name="h4_typos_forgto_migration", turns=[
        ("user", "add stripe_customer_id to the User model"),
        ("assistant", "Added the field.", [("Edit", {"file_path": P + "/accounts/models.py", "old_string": "email = models.EmailField()", "new_string": "email = models.EmailField()\n    stripe_customer_id = models.CharField(max_length=64, blank=True)"})]),
        ("user", "you forgto the migration agian.. makemigrations accounts pls"),
    ], expect=[dict(kind="user_correction", words=["migration"], priority="CRITICAL", file="**/models.py", tool="Edit")]),
    dict(name="h4_use_fromisoformat_code_fence", turns=[
        ("user", "parse the start/end dates from the config"),
        ("assistant", "Parsing them with strptime.", [("Edit", {"file_path": P + "/shop/config.py", "old_string": "start = raw['start']", "new_string": "start = datetime.strptime(raw['start'], '%Y-%m-%d')"})]),
        ("user", "use `date.fromisoformat` not strptime here:\n```python\nstart = date.fromisoformat(raw['start'])\nend = date.fromisoformat(raw['end'])\n```\nstrptime with that format chokes on the values ops puts in there"),
    ], expect=[dict(kind="user_correction", words=["fromisoformat"], priority="HIGH", file="**/config.py", tool="Edit")]),
    dict(name="h4_literally_said_no_new_deps", turns=[
        ("user", "debounce the search input"),
        ("assistant", "Installing lodash.debounce for this.", [("Bash", {"command": "npm i lodash.debounce"})]),
        ("user", "I literally said yesterday no new deps for tiny stuff like this. just write the debounce urself, its 10 lines"),
    ], expect=[dict(kind="user_correction", words=["deps"], priority="HIGH", tool="Bash")]),
    dict(name="h4_spanish_ojo_safe_filter", turns=[
        ("user", "render the user's bio on the profile page"),
        ("assistant", "Rendered it with line breaks kept.", [("Edit", {"file_path": P + "/web/templates/profile.html", "old_string": "<!-- bio -->", "new_string": "<p>{{ user.bio|safe }}</p>"})]),
        ("user", "ojo — bio is user input, you can't mark it |safe. that's a security hole (XSS). use linebreaksbr and let it escape"),
    ], expect=[dict(kind="user_correction", words=["user input"], priority="CRITICAL", file="**/profile.html", tool="Edit")]),
    dict(name="h4_german_falsch_milliseconds", turns=[
        ("user", "set the http client timeout to 30 seconds"),
        ("assistant", "Set TIMEOUT = 30.", [("Edit", {"file_path": P + "/shop/http.py", "old_string": "TIMEOUT = 5000", "new_string": "TIMEOUT = 30"})]),
        ("user", "nee, falsch. TIMEOUT is in milliseconds in this lib, 30 means 30ms. 30000"),
    ], expect=[dict(kind="user_correction", words=["milliseconds"], priority="HIGH", file="**/http.py", tool="Edit")]),
    dict(name="h4_not_plain_pytest_make_test", turns=[
        ("user", "run the test suite"),
        ("assistant", "Running pytest.", [("Bash", {"command": "pytest -q"})]),
        ("result", "E   django.core.exceptions.ImproperlyConfigured: Requested setting DATABASES, but settings are not configured."),
        ("assistant", "Django isn't configured; looking into it.", []),
        ("user", "not plain pytest — `make test`. it sets DJANGO_SETTINGS_MODULE and starts the test db container"),
    ], expect=[dict(kind="user_correction", words=["make test"], priority="HIGH", tool="Bash")]),
    dict(name="h4_caps_why_did_you_commit", turns=[
        ("user", "fix the typo in the footer"),
        ("assistant", "Fixed 'Copyrigth' and committed.", [("Edit", {"file_path": P + "/web/components/Footer.tsx", "old_string": "Copyrigth", "new_string": "Copyright"}),
                                                          ("Bash", {"command": "git commit -am 'fix footer typo' && git push"})]),
        ("user", "WHY did you commit and push?? I never asked for that. dont commit unless I tell you to"),
    ], expect=[dict(kind="user_correction", words=["commit"], priority="HIGH", tool="Bash")]),
    dict(name="h4_left_debug_print", turns=[
        ("user", "the discount calc is off by a cent sometimes, fix it"),
        ("assistant", "It rounded each line instead of the sum; now it rounds once at the end.", [("Edit", {"file_path": P + "/shop/discounts.py", "old_string": "return sum(round(x, 2) for x in lines)", "new_string": "print('DEBUG', lines)\n    return round(sum(lines), 2)"})]),
        ("user", "fixed yeah, but you left a debug print in discounts.py"),
    ], expect=[dict(kind="user_correction", words=["debug print"], priority="HIGH", file="**/discounts.py", tool="Edit")]),
    dict(name="h4_only_changed_ci_yml_node", turns=[
        ("user", "bump the node version in CI to 22"),
        ("assistant", "Bumped.", [("Edit", {"file_path": P + "/.github/workflows/ci.yml", "old_string": "node-version: 20", "new_string": "node-version: 22"})]),
        ("user", "you only changed ci.yml. .nvmrc and the engines field in package.json still say 20, so local and CI disagree now"),
    ], expect=[dict(kind="user_correction", words=[".nvmrc"], priority="CRITICAL", file="**/ci.yml", tool="Edit")]),
    dict(name="h4_replica_not_primary_url_secret", turns=[
        ("user", "point the reporting job at the db"),
        ("assistant", "Pointed it at the database.", [("Edit", {"file_path": P + "/jobs/report.py", "old_string": "DB = None", "new_string": "DB = 'postgres://report:Tr0ub4dor-88x@db-primary.internal:5432/shop'"})]),
        ("user", "no no. the reports must run against the read replica, not the primary, they lock tables for minutes. and don't inline postgres://report:Tr0ub4dor-88x@db-replica.internal:5432/shop in code, read REPORT_DB_URL from the env"),
    ], expect=[dict(kind="user_correction", words=["replica"], priority="HIGH", file="**/report.py", tool="Edit")],
        secrets=["Tr0ub4dor-88x"]),
    dict(name="h4_password_on_command_line_secret", turns=[
        ("user", "dump the staging db so I can debug locally"),
        ("assistant", "Dumping.", [("Bash", {"command": "mysqldump -h staging-db -u admin --password 9vK2rpQ7zLm shop > dump.sql"})]),
        ("user", "don't put the password on the command line like `--password 9vK2rpQ7zLm`, it ends up in shell history and in ps. use --defaults-extra-file=~/.my.staging.cnf, that's where the credentials live"),
    ], expect=[dict(kind="user_correction", words=["command line"], priority="CRITICAL", tool="Bash")],
        secrets=["9vK2rpQ7zLm"]),
    dict(name="h4_hardcoded_key_secret", turns=[
        ("user", "add a summarise() helper using the openai client. key for testing: sk-proj-7fQ2mZk9LrT4wXy8NbV3cD1eHs6"),
        ("assistant", "Added shop/summarise.py.", [("Write", {"file_path": P + "/shop/summarise.py", "content": "from openai import OpenAI\nclient = OpenAI(api_key=\"sk-proj-7fQ2mZk9LrT4wXy8NbV3cD1eHs6\")\n"})]),
        ("user", "you hardcoded the key in summarise.py?? `OpenAI(api_key=\"sk-proj-7fQ2mZk9LrT4wXy8NbV3cD1eHs6\")` is now in git history, that's a security incident. keys come from the environment, always, the client reads OPENAI_API_KEY by itself"),
    ], expect=[dict(kind="user_correction", words=["hardcod"], priority="CRITICAL", file="**/summarise.py", tool="Write")],
        secrets=["sk-proj-7fQ2mZk9LrT4wXy8NbV3cD1eHs6"]),
    dict(name="h4_maybe_check_existing_helper", turns=[
        ("user", "round the order totals to 2 decimals, half up"),
        ("assistant", "Added a round_money() helper.", [("Edit", {"file_path": P + "/shop/orders.py", "old_string": "total = subtotal", "new_string": "total = round_money(subtotal)\n\ndef round_money(x):\n    return Decimal(x).quantize(Decimal('0.01'), ROUND_HALF_UP)"})]),
        ("user", "works, but maybe check shop/utils/money.py before writing a new helper — round_half_up already exists there"),
    ], expect=[dict(kind="user_correction", words=["money.py"], priority="MEDIUM", file="**/orders.py", tool="Edit")]),
    dict(name="h4_ide_one_thing_though_readme", turns=[
        ("user", "rename the --out flag to --output"),
        ("assistant", "Renamed the flag and updated the tests.", [("Edit", {"file_path": P + "/shop/cli.py", "old_string": "'--out'", "new_string": "'--output'"})]),
        ("ide", "<ide_opened_file>The user opened the file " + P + "/README.md in the IDE. This may or may not be related to the current task.</ide_opened_file>",
         "Nice, tests pass. One thing though: you didn't update the README, the usage example still shows --out"),
    ], expect=[dict(kind="user_correction", words=["README"], priority="HIGH", file="**/cli.py", tool="Edit")]),
    # ---- lesson statements
    dict(name="h4_stmt_takeaway_search_index", turns=[
        ("user", "search returns nothing since the schema change"),
        ("assistant", "The search index still had the old mapping; rebuilt it.", [("Bash", {"command": "make reindex"})]),
        ("user", "ok so the takeaway here: the search index has to be rebuilt after every schema change, otherwise queries silently return nothing"),
    ], expect=[dict(kind="lesson_statement", words=["search index"], priority="HIGH")]),
    dict(name="h4_stmt_worth_remembering_fixtures", turns=[
        ("user", "make fixtures fails on my fresh checkout"),
        ("final", "Root cause: the fixture loader ran before the tables existed. Worth remembering for next time: `make fixtures` only works after `make migrate` on a fresh database."),
    ], expect=[dict(kind="lesson_statement", words=["make fixtures"])]),
    dict(name="h4_stmt_heads_up_vendored_first_prompt", turns=[
        ("user", "Heads up for the future: the legacy/ folder is vendored, never edit anything in it, patch upstream instead. Anyway, today: add a CSV export to the reports page."),
    ], expect=[dict(kind="lesson_statement", words=["legacy"], priority="HIGH")]),
    dict(name="h4_stmt_moving_forward_camelcase", turns=[
        ("user", "the mobile app can't read the new /wishlist response"),
        ("assistant", "It returned snake_case keys; switched the serializer to camelCase.", [("Edit", {"file_path": P + "/api/wishlist.py", "old_string": "renderer = JSONRenderer", "new_string": "renderer = CamelCaseJSONRenderer"})]),
        ("user", "moving forward, all new API responses use camelCase keys. the app expects that everywhere"),
    ], expect=[dict(kind="lesson_statement", words=["camelCase"], priority="HIGH")]),
    dict(name="h4_stmt_important_lesson_crontab", turns=[
        ("user", "the cleanup job ran at 3am instead of 2am"),
        ("assistant", "Found it: the cron container runs in UTC while the app uses Europe/Berlin.\n\nImportant lesson: times in crontab are UTC here, so 02:00 Berlin is 01:00 in winter and 00:00 in summer.", [("Edit", {"file_path": P + "/ops/crontab", "old_string": "0 2 * * *", "new_string": "0 1 * * *"})]),
    ], expect=[dict(kind="lesson_statement", words=["crontab"], priority="HIGH")]),
    dict(name="h4_stmt_lesson_for_next_time_arrow", turns=[
        ("user", "the webhook handler crashed on the first real event"),
        ("assistant", "The payload had `data.object` nested one level deeper than the test JSON; fixed the parser.", [("Edit", {"file_path": P + "/shop/webhooks.py", "old_string": "event['object']", "new_string": "event['data']['object']"})]),
        ("user", "lesson for next time -> when touching the webhook handlers, test with `stripe trigger` locally first instead of hand-written json"),
    ], expect=[dict(kind="lesson_statement", words=["stripe trigger"], priority="HIGH")]),
    # ---- [PROCESS_KNOWLEDGE]
    dict(name="h4_pk_yaml_pattern_graphql_codegen", turns=[
        ("user", "add the discountCode field to the order query"),
        ("assistant", "Added the field and regenerated the types; the generated hooks in src/gen/ are stale until codegen runs.\n\n[PROCESS_KNOWLEDGE]\ntype: pattern\npriority: HIGH\nlabel: Run codegen after editing a GraphQL query\ntrigger_conditions:\n  tool_names: [Edit, Write]\n  file_patterns: [\"**/*.graphql\"]\npattern:\n  situation: A .graphql query or fragment changes\n  action: Run npm run codegen and commit src/gen/ together with the query\n  rationale: The typed hooks are generated; stale ones compile but return undefined fields\n[/PROCESS_KNOWLEDGE]",
         [("Edit", {"file_path": P + "/web/queries/order.graphql", "old_string": "total", "new_string": "total\n    discountCode"}), ("Bash", {"command": "npm run codegen"})]),
    ], expect=[dict(kind="process_knowledge", words=["codegen"], priority="HIGH", file="**/*.graphql", tool="Edit")]),
    dict(name="h4_pk_json_requirement_final", turns=[
        ("user", "why did the nightly export produce an empty file?"),
        ("final", "The export ran while the replica was still replaying WAL after the 01:00 vacuum, so the query saw an empty snapshot of the staging table.\n\n[PROCESS_KNOWLEDGE]\n{\"type\": \"requirement\", \"priority\": \"critical\", \"label\": \"Nightly export waits for replica lag under 5s\",\n \"trigger_conditions\": {\"file_patterns\": [\"jobs/export_*.py\"], \"context_keywords\": [\"export\", \"replica\"]},\n \"requirement\": {\"constraint\": \"Check now() - pg_last_xact_replay_timestamp() < 5s before exporting\", \"rationale\": \"An export during catch-up wrote an empty file that the partner imported\"}}\n[/PROCESS_KNOWLEDGE]"),
    ], expect=[dict(kind="process_knowledge", words=["replica lag"], priority="CRITICAL", file="jobs/export_*.py")]),
    dict(name="h4_pk_yaml_warning_in_fence", turns=[
        ("user", "truncate audit_log on dev, it's huge"),
        ("assistant", "Truncated. One thing worth recording:\n\n```yaml\n[PROCESS_KNOWLEDGE]\ntype: warning\npriority: HIGH\nlabel: TRUNCATE audit_log also empties compliance_export\ntrigger_conditions:\n  tool_names:\n    - Bash\n  action_keywords:\n    - truncate\n    - audit_log\nwarning:\n  risk: compliance_export references audit_log with ON DELETE CASCADE, so TRUNCATE ... CASCADE wipes it too\n  mitigation: DELETE FROM audit_log WHERE created_at < cutoff, in batches\n[/PROCESS_KNOWLEDGE]\n```",
         [("Bash", {"command": "psql \"$DEV_DATABASE_URL\" -c 'TRUNCATE audit_log CASCADE'"})]),
    ], expect=[dict(kind="process_knowledge", words=["audit_log"], priority="HIGH", tool="Bash")]),
    dict(name="h4_pk_checklist_item_mappings_no_triggers", turns=[
        ("user", "add the pt-BR locale"),
        ("assistant", "Added pt-BR.\n\n[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: A new locale needs three registrations\nchecklist:\n  title: Adding a locale\n  items:\n    - item: Add the JSON file under web/i18n/\n      required: true\n    - item: Register it in web/i18n/index.ts\n      required: true\n    - item: Add it to SUPPORTED_LOCALES in next.config.js\n[/PROCESS_KNOWLEDGE]",
         [("Write", {"file_path": P + "/web/i18n/pt-BR.json", "content": "{\"cart.title\": \"Carrinho\"}"}),
          ("Edit", {"file_path": P + "/web/i18n/index.ts", "old_string": "de,", "new_string": "de,\n  'pt-BR': ptBR,"})]),
    ], expect=[dict(kind="process_knowledge", words=["locale"], priority="MEDIUM", file="**/pt-BR.json", tool="Write")]),
    # ---- repeated mistakes
    dict(name="h4_repeat_env_example", turns=[
        ("user", "send errors to sentry"),
        ("assistant", "Wired up sentry_sdk.init with the DSN from the environment.", [("Edit", {"file_path": P + "/shop/settings.py", "old_string": "# sentry", "new_string": "sentry_sdk.init(dsn=os.environ['SENTRY_DSN'])"})]),
        ("user", "you didn't add SENTRY_DSN to .env.example, the next person won't know it exists"),
        ("assistant", "Added it.", [("Edit", {"file_path": P + "/.env.example", "old_string": "DEBUG=1", "new_string": "DEBUG=1\nSENTRY_DSN="})]),
        ("user", "ok now add the client for the feature-flag service"),
        ("assistant", "Added the client; it reads FLAGS_URL.", [("Write", {"file_path": P + "/shop/flags.py", "content": "FLAGS_URL = os.environ['FLAGS_URL']"})]),
        ("user", "same thing again, FLAGS_URL isn't in .env.example. every new env var goes in there"),
    ], expect=[dict(kind="user_correction", words=[".env.example"], priority="CRITICAL", occurrences=2)]),
    dict(name="h4_repeat_full_e2e_run", turns=[
        ("user", "fix the flaky cart spec"),
        ("assistant", "The selector matched two buttons; made it specific. Running the e2e suite.", [("Edit", {"file_path": P + "/tests/e2e/cart.spec.ts", "old_string": "getByRole('button')", "new_string": "getByRole('button', { name: 'Add to cart' })"})]),
        ("rejected", "Bash", {"command": "npx playwright test"},
         "don't run the whole e2e suite, it takes 40 min. only the spec you touched: npx playwright test tests/e2e/cart.spec.ts"),
        ("assistant", "Running only the cart spec.", [("Bash", {"command": "npx playwright test tests/e2e/cart.spec.ts"})]),
        ("user", "good. same fix for checkout.spec.ts"),
        ("assistant", "Fixed the checkout selector; running the tests.", [("Edit", {"file_path": P + "/tests/e2e/checkout.spec.ts", "old_string": "getByRole('button')", "new_string": "getByRole('button', { name: 'Pay' })"}),
                                                                        ("Bash", {"command": "npx playwright test"})]),
        ("interrupt",),
        ("user", "again the full e2e run?? only the spec you changed, I said this an hour ago"),
    ], expect=[dict(kind="user_correction", words=["e2e"], priority="CRITICAL", tool="Bash", occurrences=2)]),
    # ---- must yield nothing
    dict(name="h4_neg_make_sure_right_branch_question", turns=[
        ("user", "merge the tax hotfix into release/2.4"),
        ("assistant", "Merging.", [("Bash", {"command": "git checkout release/2.4 && git merge hotfix/tax"})]),
        ("user", "hold on, did you make sure you're on the right branch? show me git status first"),
    ], expect=[]),
    dict(name="h4_neg_polite_first_prompt", turns=[
        ("user", "Hi! Could you add pagination to the orders list? Please don't forget to keep the page size configurable, and make sure you use the existing Paginator class from shop/paging.py."),
    ], expect=[]),
    dict(name="h4_neg_pasted_ci_log", turns=[
        ("user", "why is CI red on my branch?\n\n```\nRun pnpm install --frozen-lockfile\n ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with package.json\nNote: you forgot to commit the lockfile? Run `pnpm install` and commit pnpm-lock.yaml.\nRemember to run pnpm install after editing package.json.\nError: Process completed with exit code 1.\n```"),
    ], expect=[]),
    dict(name="h4_neg_colleague_quote_question", turns=[
        ("user", "my colleague left this on the PR: \"you didn't handle the retry case, and use exponential backoff not a fixed sleep\". is she right? look at shop/net.py"),
    ], expect=[]),
    dict(name="h4_neg_grep_result_phrases", turns=[
        ("user", "list the TODOs in shop/"),
        ("assistant", "Searching.", [("Bash", {"command": "grep -rn TODO shop/"})]),
        ("result", "shop/cart.py:41:    # TODO you forgot to handle refunds here\nshop/cart.py:88:    # TODO(anna): from now on always check the currency\nshop/api.py:12:    # TODO that's wrong, use Decimal not float"),
        ("final", "Three TODOs: refunds in cart.py:41, a currency check in cart.py:88 and Decimal instead of float in api.py:12."),
    ], expect=[]),
    dict(name="h4_neg_praise", turns=[
        ("user", "rename compute_total everywhere"),
        ("assistant", "Renamed in 7 files.", [("Edit", {"file_path": P + "/shop/orders.py", "old_string": "compute_total", "new_string": "order_total"})]),
        ("user", "perfect, you nailed it. didn't forget a single call site 👍"),
    ], expect=[]),
    dict(name="h4_neg_hypothetical_yarn", turns=[
        ("user", "if I told you to use yarn instead of npm, would the lockfile need regenerating?"),
    ], expect=[]),
    dict(name="h4_neg_assistant_forgot_fixed_same_turn", turns=[
        ("user", "move the price helpers into shop/pricing.py"),
        ("assistant", "Moved the helpers.", [("Write", {"file_path": P + "/shop/pricing.py", "content": "def net(x): ..."})]),
        ("assistant", "I forgot to update the import in shop/api.py — fixing that now.", [("Edit", {"file_path": P + "/shop/api.py", "old_string": "from shop.utils import net", "new_string": "from shop.pricing import net"})]),
        ("final", "Done: helpers moved to shop/pricing.py, the import in shop/api.py updated, tests pass."),
    ], expect=[]),
    dict(name="h4_neg_did_i_forget_question", turns=[
        ("user", "can you check if I forgot anything in migrations/0051_orders.py before I merge it"),
    ], expect=[]),
    dict(name="h4_neg_going_forward_with_plan", turns=[
        ("user", "plan looks fine"),
        ("assistant", "Then I'll start with step 1, the models.", []),
        ("user", "yep, going forward with the plan: models first, then the api, then the UI. start"),
    ], expect=[]),
    dict(name="h4_neg_user_corrects_own_instruction", turns=[
        ("user", "add the coupon field to cart.ts"),
        ("assistant", "Added `coupon` to the Cart type.", [("Edit", {"file_path": P + "/web/cart.ts", "old_string": "items: Item[]", "new_string": "items: Item[]\n  coupon?: string"})]),
        ("user", "ugh, I told you the wrong file, sorry — I meant checkout.ts not cart.ts. can you move it over"),
    ], expect=[]),
    dict(name="h4_neg_rejection_one_off", turns=[
        ("user", "apply the formatter fixes"),
        ("rejected", "Bash", {"command": "ruff format ."},
         "hold off, I'll run it myself after lunch"),
    ], expect=[]),
]

# ---------------------------------------------------------------- held out, fifth set
# Written blind, like the fourth set: before any detector ran on them, without
# reading the detectors or the fourth set, labelled by what a careful reviewer
# would want drafted.  Another project (a Rails + Sidekiq API with a React
# Native app under mobile/), and the way people type at an agent: terse,
# lowercase, typos, corrections after an interrupt or as a rejection reason,
# as the second or third sentence, or as a question that still states the rule.
NPM_TOKEN = "npm_Q7vLd2xK9mRt4WbZ8cYp3NfH6sJe1uAo0gTi"
REDIS_PASSWORD = "Qm8vTz2LxR4pWn7e"
APNS_KEY_LINE = "kX3vQ9mT2pLr8WnZ4cYb7HsJe1uAo5gTiR6dFq0NhPyKwMxVzBt3RfLe2WqAj9Us"
APNS_KEY = ("-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n" + APNS_KEY_LINE
            + "\nyH8cN1bV6xZ3mQ0pT5wR7sK2dL9fG4hJ\n-----END PRIVATE KEY-----")
HELD_OUT_5 = [
    # ---- corrections
    dict(name="h5_floats_question_states_rule", turns=[
        ("user", "add a discount_amount to line items, subtract it in the subtotal"),
        ("assistant", "Added the attribute and the subtraction.", [("Edit", {"file_path": P + "/app/models/line_item.rb", "old_string": "def subtotal\n    price * quantity",
                                                                               "new_string": "def subtotal\n    (price.to_f - discount_amount.to_f) * quantity"})]),
        ("user", "why is this using floats?? money is always BigDecimal in this app"),
    ], expect=[dict(kind="user_correction", words=["BigDecimal"], priority="HIGH", file="**/line_item.rb", tool="Edit")]),
    dict(name="h5_no_no_no_pass_the_id", turns=[
        ("user", "enqueue the receipt email after checkout"),
        ("assistant", "Enqueued from the checkout service.", [("Edit", {"file_path": P + "/app/services/checkout.rb", "old_string": "order.paid!", "new_string": "order.paid!\n    ReceiptMailerWorker.perform_async(order)"})]),
        ("user", "no no no. never pass an AR object to perform_async, pass order.id and load it in the worker. args get serialized to json"),
    ], expect=[dict(kind="user_correction", words=["perform_async"], priority="HIGH", file="**/checkout.rb", tool="Edit")]),
    dict(name="h5_rejected_bundle_update_reason", turns=[
        ("user", "bump sidekiq to 7.3"),
        ("rejected", "Bash", {"command": "bundle update"},
         "nope, not plain bundle update, that bumps every gem in the lockfile. bundle update --conservative sidekiq, only the one gem"),
    ], expect=[dict(kind="user_correction", words=["conservative"], priority="HIGH", tool="Bash")]),
    dict(name="h5_interrupt_pod_install", turns=[
        ("user", "add react-native-mmkv to the app"),
        ("assistant", "Adding the package and starting the iOS build.", [("Bash", {"command": "cd mobile && yarn add react-native-mmkv && yarn ios"})]),
        ("interrupt",),
        ("user", "hold on. native module = you have to run bundle exec pod install in mobile/ios before building, otherwise the ios build dies at link time"),
    ], expect=[dict(kind="user_correction", words=["pod install"], priority="HIGH", tool="Bash")]),
    dict(name="h5_we_dont_do_default_scope", turns=[
        ("user", "hide soft-deleted products everywhere"),
        ("assistant", "Added a default scope on Product.", [("Edit", {"file_path": P + "/app/models/product.rb", "old_string": "class Product < ApplicationRecord",
                                                                       "new_string": "class Product < ApplicationRecord\n  default_scope { where(deleted_at: nil) }"})]),
        ("user", "we don't do default_scope here, it bites every time someone joins or calls unscoped. add a `kept` scope and call it explicitly"),
    ], expect=[dict(kind="user_correction", words=["default_scope"], priority="HIGH", file="**/product.rb", tool="Edit")]),
    dict(name="h5_index_locks_table_on_deploy", turns=[
        ("user", "add an index on orders.user_id, the account page is slow"),
        ("assistant", "Migration added.", [("Write", {"file_path": P + "/db/migrate/20261120093000_add_index_on_orders_user_id.rb",
                                                   "content": "class AddIndexOnOrdersUserId < ActiveRecord::Migration[7.2]\n  def change\n    add_index :orders, :user_id\n  end\nend\n"})]),
        ("user", "orders has 40M rows, that add_index locks the table for the whole deploy. algorithm: :concurrently + disable_ddl_transaction!, every time on big tables"),
    ], expect=[dict(kind="user_correction", words=["concurrently"], priority="CRITICAL", file="**/20261120093000_add_index_on_orders_user_id.rb", tool="Write")]),
    dict(name="h5_stop_rescuing_exception", turns=[
        ("user", "make the inventory sync worker stop crashing on bad rows"),
        ("assistant", "Wrapped each row in a rescue.", [("Edit", {"file_path": P + "/app/workers/inventory_sync_worker.rb", "old_string": "sync_row(row)",
                                                                  "new_string": "begin\n        sync_row(row)\n      rescue Exception => e\n        Rails.logger.warn(e.message)\n      end"})]),
        ("user", "stop rescuing Exception. StandardError at most, rescuing Exception swallows the shutdown signal and the worker can't be stopped cleanly"),
    ], expect=[dict(kind="user_correction", words=["rescu", "exception"], priority="HIGH", file="**/inventory_sync_worker.rb", tool="Edit")]),
    dict(name="h5_second_sentence_i18n", turns=[
        ("user", "show an error in the cart when the coupon is expired"),
        ("assistant", "The cart screen shows the message now.", [("Edit", {"file_path": P + "/mobile/src/screens/CartScreen.tsx", "old_string": "{coupon && <CouponRow coupon={coupon} />}",
                                                                           "new_string": "{coupon?.expired && <Text style={styles.error}>This coupon has expired</Text>}\n      {coupon && <CouponRow coupon={coupon} />}"})]),
        ("user", "ok that works. but hardcoded strings never get translated, everything user facing goes through i18n.t() with a key in mobile/src/locales/en.json"),
    ], expect=[dict(kind="user_correction", words=["i18n"], priority="HIGH", file="**/CartScreen.tsx", tool="Edit")]),
    dict(name="h5_did_it_again_credentials", turns=[
        ("user", "write a client for the shippo label api"),
        ("assistant", "Client written.", [("Write", {"file_path": P + "/app/clients/shippo_client.rb",
                                                 "content": "class ShippoClient\n  TOKEN = ENV.fetch(\"SHIPPO_TOKEN\")\nend\n"})]),
        ("user", "you did it again. api keys come from Rails.application.credentials, not ENV"),
    ], expect=[dict(kind="user_correction", words=["credentials"], priority="CRITICAL", file="**/shippo_client.rb", tool="Write")]),
    dict(name="h5_wrong_again_rspec", turns=[
        ("user", "write a test for the refund calculator"),
        ("assistant", "Test added.", [("Write", {"file_path": P + "/test/services/refund_calculator_test.rb",
                                             "content": "class RefundCalculatorTest < ActiveSupport::TestCase\n  test \"full refund\" do\n  end\nend\n"})]),
        ("user", "wrong again, rspec not minitest. specs live in spec/"),
    ], expect=[dict(kind="user_correction", words=["rspec"], priority="HIGH", file="**/refund_calculator_test.rb", tool="Write")]),
    dict(name="h5_rejected_console_on_prod", turns=[
        ("user", "how many orders are stuck in pending since yesterday"),
        ("rejected", "Bash", {"command": "heroku run rails console -a shop-production"},
         "not on prod!! use bin/replica-console, it's the read replica. nobody opens a console on production"),
    ], expect=[dict(kind="user_correction", words=["replica"], priority="CRITICAL", tool="Bash")]),
    dict(name="h5_missed_build_number", turns=[
        ("user", "bump the app version to 2.8.0 for the store release"),
        ("assistant", "Bumped to 2.8.0.", [("Edit", {"file_path": P + "/mobile/package.json", "old_string": "\"version\": \"2.7.4\"", "new_string": "\"version\": \"2.8.0\""})]),
        ("user", "you missed the buildNumber in app.json, app store connect rejects the upload if it doesn't go up"),
    ], expect=[dict(kind="user_correction", words=["buildNumber"], priority="CRITICAL", file="**/package.json", tool="Edit")]),
    dict(name="h5_question_then_idempotency_rule", turns=[
        ("user", "add a worker that charges the saved card when a subscription renews"),
        ("assistant", "RenewalChargeWorker added.", [("Write", {"file_path": P + "/app/workers/renewal_charge_worker.rb",
                                                            "content": "class RenewalChargeWorker\n  include Sidekiq::Job\n  def perform(subscription_id)\n    sub = Subscription.find(subscription_id)\n    Stripe::PaymentIntent.create(amount: sub.amount_cents, customer: sub.stripe_customer_id, confirm: true)\n  end\nend\n"})]),
        ("user", "and what happens when sidekiq retries it? double charge. every stripe call in a job needs an idempotency_key"),
    ], expect=[dict(kind="user_correction", words=["idempotency"], priority="HIGH", file="**/renewal_charge_worker.rb", tool="Write")]),
    dict(name="h5_ide_thats_not_right_timezone", turns=[
        ("user", "admin orders page: add a 'today' filter"),
        ("assistant", "Filter added.", [("Edit", {"file_path": P + "/app/controllers/admin/orders_controller.rb", "old_string": "@orders = Order.all",
                                               "new_string": "@orders = Order.all\n    @orders = @orders.where(\"created_at >= ?\", Date.today) if params[:today]"})]),
        ("ide", "<ide_opened_file>The user opened the file " + P + "/app/controllers/admin/orders_controller.rb in the IDE. This may or may not be related to the current task.</ide_opened_file>",
         "thats not right, Date.today is the server's zone. always Time.zone.today / Time.current in this app"),
    ], expect=[dict(kind="user_correction", words=["Time.zone"], priority="HIGH", file="**/orders_controller.rb", tool="Edit")]),
    dict(name="h5_said_lowercase_a_not_upper", turns=[
        ("user", "fix the lint errors in app/"),
        ("assistant", "Running the autocorrect.", [("Bash", {"command": "bundle exec rubocop -A app/"})]),
        ("user", "i said rubocop -a, not -A. the unsafe autocorrect changes behaviour, never run -A over the whole app"),
    ], expect=[dict(kind="user_correction", words=["rubocop"], priority="HIGH", tool="Bash")]),
    dict(name="h5_rejected_hand_edit_schema", turns=[
        ("user", "add a gift_note text column to orders"),
        ("rejected", "Edit", {"file_path": P + "/db/schema.rb", "old_string": "t.string \"status\"", "new_string": "t.string \"status\"\n    t.text \"gift_note\""},
         "don't hand edit schema.rb, it's generated. write a migration and run bin/rails db:migrate"),
    ], expect=[dict(kind="user_correction", words=["schema.rb", "migration"], priority="CRITICAL", file="**/schema.rb", tool="Edit")]),
    dict(name="h5_third_sentence_after_commit", turns=[
        ("user", "send a push notification when an order ships"),
        ("assistant", "Shipment now sends the push when it is saved as shipped.", [("Edit", {"file_path": P + "/app/models/shipment.rb", "old_string": "belongs_to :order",
                                                                                         "new_string": "belongs_to :order\n  after_save :send_push, if: :shipped?\n\n  def send_push\n    ExpoPush.deliver(order.user.push_token, \"Your order is on its way\")\n  end"})]),
        ("user", "nice, got it on my phone. looks good. dont do network calls in model callbacks tho, enque a job from after_commit, otherwise a failed transaction still sends the push"),
    ], expect=[dict(kind="user_correction", words=["after_commit"], priority="HIGH", file="**/shipment.rb", tool="Edit")]),
    # ---- corrections carrying planted secrets
    dict(name="h5_secret_npm_token_committed", turns=[
        ("user", "set up the github package registry for @shop packages in mobile, token is " + NPM_TOKEN),
        ("assistant", "Configured mobile/.npmrc.", [("Write", {"file_path": P + "/mobile/.npmrc",
                                                           "content": "@shop:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=" + NPM_TOKEN + "\n"})]),
        ("user", "ugh no, you wrote " + NPM_TOKEN + " straight into .npmrc and it's tracked. that's a security problem. the .npmrc only ever references the env var NPM_TOKEN, I'll rotate this one"),
    ], expect=[dict(kind="user_correction", words=["NPM_TOKEN"], priority="CRITICAL", file="**/.npmrc", tool="Write")],
        secrets=[NPM_TOKEN]),
    dict(name="h5_secret_redis_url_hardcoded", turns=[
        ("user", "point sidekiq at the new redis cluster"),
        ("assistant", "Updated the Sidekiq initializer.", [("Edit", {"file_path": P + "/config/initializers/sidekiq.rb", "old_string": "url: ENV[\"OLD_REDIS\"]",
                                                                    "new_string": "url: \"redis://sidekiq:" + REDIS_PASSWORD + "@redis-main.internal:6379/1\""})]),
        ("user", "you hardcoded redis://sidekiq:" + REDIS_PASSWORD + "@redis-main.internal:6379/1 in the initializer?? that's the prod password. read REDIS_URL from the env, it rotates"),
    ], expect=[dict(kind="user_correction", words=["REDIS_URL"], priority="CRITICAL", file="**/sidekiq.rb", tool="Edit")],
        secrets=[REDIS_PASSWORD]),
    dict(name="h5_secret_apns_key_rejected", turns=[
        ("user", "here's the apns key for push, wire it up:\n" + APNS_KEY),
        ("rejected", "Write", {"file_path": P + "/mobile/ios/AuthKey_7XQ2M9.p8", "content": APNS_KEY + "\n"},
         "don't put the .p8 in the repo. signing keys and credentials go into EAS secrets (eas secret:create), the build reads them from there"),
    ], expect=[dict(kind="user_correction", words=["EAS secret"], priority="CRITICAL", file="**/AuthKey_7XQ2M9.p8", tool="Write")],
        secrets=[APNS_KEY_LINE]),
    # ---- repeated mistakes
    dict(name="h5_repeat_puts_in_workers", turns=[
        ("user", "add some logging to the csv import worker"),
        ("assistant", "Logging each row.", [("Edit", {"file_path": P + "/app/workers/csv_import_worker.rb", "old_string": "rows.each do |row|", "new_string": "rows.each do |row|\n      puts \"importing #{row['sku']}\""})]),
        ("user", "no puts in workers, nobody sees stdout. Rails.logger"),
        ("assistant", "Switched to Rails.logger.", [("Edit", {"file_path": P + "/app/workers/csv_import_worker.rb", "old_string": "puts \"importing", "new_string": "Rails.logger.info \"importing"})]),
        ("user", "k. same for the export worker"),
        ("assistant", "Added logging to the export worker.", [("Edit", {"file_path": P + "/app/workers/csv_export_worker.rb", "old_string": "orders.find_each do |order|", "new_string": "orders.find_each do |order|\n      puts \"exporting #{order.id}\""})]),
        ("user", "puts AGAIN. Rails.logger in workers, how many times"),
    ], expect=[dict(kind="user_correction", words=["logger"], priority="CRITICAL", occurrences=2)]),
    dict(name="h5_repeat_n_plus_one", turns=[
        ("user", "list orders with the customer name in the admin"),
        ("assistant", "Added the customer column.", [("Edit", {"file_path": P + "/app/views/admin/orders/index.html.erb", "old_string": "<td><%= order.number %></td>", "new_string": "<td><%= order.number %></td>\n  <td><%= order.customer.name %></td>"})]),
        ("user", "that's an N+1 on customers. includes(:customer) in the controller"),
        ("assistant", "Preloaded customers.", [("Edit", {"file_path": P + "/app/controllers/admin/orders_controller.rb", "old_string": "Order.all", "new_string": "Order.includes(:customer)"})]),
        ("user", "now the carrier name on the shipments page"),
        ("assistant", "Carrier column added.", [("Edit", {"file_path": P + "/app/views/admin/shipments/index.html.erb", "old_string": "<td><%= shipment.tracking %></td>", "new_string": "<td><%= shipment.tracking %></td>\n  <td><%= shipment.carrier.name %></td>"})]),
        ("user", "N+1 again!! includes whenever a list touches an association"),
    ], expect=[dict(kind="user_correction", words=["includes"], priority="CRITICAL", occurrences=2)]),
    # ---- statements
    dict(name="h5_stmt_for_the_future_flushdb", turns=[
        ("user", "flush the staging cache, product pages show old prices"),
        ("assistant", "Deleted the cache:* keys on staging-redis; the pages show the new prices.", [("Bash", {"command": "redis-cli -h staging-redis --scan --pattern 'cache:*' | xargs redis-cli -h staging-redis del"})]),
        ("user", "good. for the future: staging-redis also holds the sessions of the beta testers, so FLUSHDB there logs them all out. keys by prefix only"),
    ], expect=[dict(kind="lesson_statement", words=["FLUSHDB"])]),
    dict(name="h5_stmt_assistant_takeaway", turns=[
        ("user", "the admin deploy failed on heroku again"),
        ("final", "The build failed in assets:precompile: a SassC error in admin.scss that never showed up locally because development compiles on demand. I fixed the missing variable.\n\nTakeaway for next time: run `bin/rails assets:precompile` locally before pushing any change to the admin stylesheets."),
    ], expect=[dict(kind="lesson_statement", words=["precompile"])]),
    dict(name="h5_stmt_from_now_on_queues", turns=[
        ("user", "the low priority emails are delaying password resets"),
        ("assistant", "Moved the newsletter worker to a low queue and gave it a lower weight in config/sidekiq.yml.", [("Edit", {"file_path": P + "/config/sidekiq.yml", "old_string": "- default", "new_string": "- [critical, 6]\n  - [default, 3]\n  - [low, 1]"})]),
        ("user", "ok. from now on every new worker names its queue explicitly, nothing goes on default anymore"),
    ], expect=[dict(kind="lesson_statement", words=["queue"], priority="HIGH")]),
    dict(name="h5_stmt_the_rule_here_is", turns=[
        ("user", "the feature specs take 14 minutes now"),
        ("assistant", "Most of the time is in browser specs; 31 of them set js: true but never run JavaScript.", [("Bash", {"command": "bundle exec rspec spec/features --profile 10"})]),
        ("user", "yeah. fyi the rule here is feature specs only get js: true when they actually need the browser, they're 10x slower"),
    ], expect=[dict(kind="lesson_statement", words=["feature specs"])]),
    dict(name="h5_stmt_assistant_worth_remembering", turns=[
        ("user", "dates show as 'Invalid Date' on android"),
        ("assistant", "Found it: Hermes on Android ships without full Intl, so Intl.DateTimeFormat returns garbage there. Switched the helper to dayjs.\n\nWorth remembering: date formatting in the mobile app always goes through dayjs, never Intl.DateTimeFormat, because of Hermes on Android.",
         [("Edit", {"file_path": P + "/mobile/src/utils/date.ts", "old_string": "new Intl.DateTimeFormat(locale).format(d)", "new_string": "dayjs(d).format('L')"})]),
    ], expect=[dict(kind="lesson_statement", words=["dayjs"], priority="HIGH")]),
    dict(name="h5_stmt_never_again_data_migration", turns=[
        ("user", "the deploy hung for 20 minutes on the backfill"),
        ("assistant", "The migration backfilled 9M rows inside the schema change; I moved the backfill into lib/tasks/backfill_order_currency.rake.", [("Write", {"file_path": P + "/lib/tasks/backfill_order_currency.rake", "content": "task backfill_order_currency: :environment do\n  Order.in_batches.update_all(currency: 'EUR')\nend\n"})]),
        ("user", "ok that was painful. never again: no data backfills inside schema migrations, they go in a rake task we run after the deploy"),
    ], expect=[dict(kind="lesson_statement", words=["rake task"])]),
    dict(name="h5_stmt_heads_up_future_sessions", turns=[
        ("user", "the mobile snapshot tests fail on my machine but pass in CI"),
        ("assistant", "The snapshots render dates, and CI runs in UTC while your machine is on Europe/Berlin.", [("Bash", {"command": "cd mobile && TZ=UTC yarn test"})]),
        ("final", "With TZ=UTC all 212 tests pass locally too.\n\nHeads-up for future sessions: `yarn test` in mobile/ must run with TZ=UTC, the snapshot tests render dates."),
    ], expect=[dict(kind="lesson_statement", words=["TZ=UTC"])]),
    # ---- [PROCESS_KNOWLEDGE]
    dict(name="h5_pk_warning_retry_set", turns=[
        ("user", "clear the stuck jobs, the retry tab has 40k entries"),
        ("assistant", "Cleared the retry set.\n\n[PROCESS_KNOWLEDGE]\ntype: warning\npriority: High   # lost webhooks last time\nlabel: Clearing the Sidekiq RetrySet drops every failed job for good\ntrigger_conditions:\n  tool_names: [Bash]\n  action_keywords: [RetrySet, clear]\nwarning:\n  risk: RetrySet#clear deletes partner webhooks that were waiting for a retry; they are not re-sent\n  mitigation: Filter by job class and delete only those, or move them to the dead set\n[/PROCESS_KNOWLEDGE]",
         [("Bash", {"command": "bin/rails runner 'Sidekiq::RetrySet.new.clear'"})]),
    ], expect=[dict(kind="process_knowledge", words=["RetrySet"], priority="HIGH", tool="Bash")]),
    dict(name="h5_pk_json_fenced_in_final", turns=[
        ("user", "drop the legacy coupons.code column"),
        ("assistant", "Ignoring the column first, then the migration.", [("Edit", {"file_path": P + "/app/models/coupon.rb", "old_string": "class Coupon < ApplicationRecord", "new_string": "class Coupon < ApplicationRecord\n  self.ignored_columns += [\"code\"]"}),
                                                                          ("Write", {"file_path": P + "/db/migrate/20261120101500_remove_code_from_coupons.rb", "content": "class RemoveCodeFromCoupons < ActiveRecord::Migration[7.2]\n  def change\n    safety_assured { remove_column :coupons, :code, :string }\n  end\nend\n"})]),
        ("final", "Split in two deploys.\n\n```json\n[PROCESS_KNOWLEDGE]\n{\"type\": \"requirement\", \"priority\": \"CRITICAL\",\n \"label\": \"Removing a column needs ignored_columns deployed first\",\n \"trigger_conditions\": {\"file_patterns\": [\"db/migrate/*.rb\"], \"action_keywords\": [\"remove_column\"]},\n \"requirement\": {\"constraint\": \"Ship self.ignored_columns in one deploy and the remove_column migration in the next\",\n                 \"rationale\": \"Running servers cache the column list and raise on every query after the drop\"}}\n[/PROCESS_KNOWLEDGE]\n```"),
    ], expect=[dict(kind="process_knowledge", words=["ignored_columns"], priority="CRITICAL", file="db/migrate/*.rb")]),
    dict(name="h5_pk_checklist_native_dependency", turns=[
        ("user", "add react-native-haptic-feedback and ship it to testers with an OTA update"),
        ("assistant", "Added the package. An OTA update cannot ship it, so I did not publish one.\n\n[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: critical\nlabel: A native dependency needs a new binary, not an OTA update\ndescription: eas update only ships JavaScript; a build whose binary lacks the native module crashes on launch.\ntrigger_conditions:\n  tool_names:\n    - Edit\n  file_patterns:\n    - \"mobile/package.json\"\n  context_keywords: [ota, eas update]\nchecklist:\n  title: New native module\n  items:\n    - Bump the runtimeVersion in mobile/app.json\n    - item: Build new binaries with eas build\n      required: true\n    - Only then publish JavaScript-only changes with eas update\n[/PROCESS_KNOWLEDGE]",
         [("Edit", {"file_path": P + "/mobile/package.json", "old_string": "\"dependencies\": {", "new_string": "\"dependencies\": {\n    \"react-native-haptic-feedback\": \"^2.3.3\","})]),
    ], expect=[dict(kind="process_knowledge", words=["OTA update"], priority="CRITICAL", file="mobile/package.json", tool="Edit")]),
    dict(name="h5_pk_pattern_without_triggers", turns=[
        ("user", "the nightly loyalty recalculation got OOM killed"),
        ("assistant", "It loaded every order at once with Order.all.each; it batches now.\n\n[PROCESS_KNOWLEDGE]\ntype: pattern\nlabel: Iterate large tables with find_each\npattern:\n  situation: Looping over every row of orders or line_items\n  action: Use find_each (batches of 1000) instead of all.each\n  rationale: all.each loaded 2M orders into memory and the worker dyno was killed\n[/PROCESS_KNOWLEDGE]",
         [("Edit", {"file_path": P + "/app/models/order.rb", "old_string": "Order.all.each do |order|", "new_string": "Order.find_each do |order|"})]),
    ], expect=[dict(kind="process_knowledge", words=["find_each"], priority="MEDIUM", file="**/order.rb", tool="Edit")]),
    # ---- must yield nothing
    dict(name="h5_neg_genuine_question", turns=[
        ("user", "add the gift_note to the order serializer"),
        ("assistant", "Added to OrderSerializer.", [("Edit", {"file_path": P + "/app/serializers/order_serializer.rb", "old_string": "attributes :id, :number", "new_string": "attributes :id, :number, :gift_note"})]),
        ("user", "did you also add it to the v2 serializer or does that inherit it"),
    ], expect=[]),
    dict(name="h5_neg_opening_instruction", turns=[
        ("user", "add stripe webhooks for refunds. make sure you verify the signature, and don't forget to process the event in a sidekiq job, not inline in the controller."),
    ], expect=[]),
    dict(name="h5_neg_pasted_strong_migrations", turns=[
        ("user", "ci is red, no idea why:\n\n```\n== 20261119_add_status_index: migrating ==\nrails aborted!\nStrongMigrations::UnsafeMigration:\n=== Dangerous operation detected #strong_migrations ===\n\nAdding an index non-concurrently blocks writes. Make sure you use algorithm: :concurrently\nand don't forget disable_ddl_transaction! at the top of the migration.\n```\nwhich migration is that"),
    ], expect=[]),
    dict(name="h5_neg_unfenced_react_error", turns=[
        ("user", "app crashes on the orders tab after the merge\nError: Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: undefined. You likely forgot to export your component from the file it's defined in, or you might have mixed up default and named imports.\n\nCheck the render method of `OrdersTab`.\nany idea"),
    ], expect=[]),
    dict(name="h5_neg_danger_bot_comment_result", turns=[
        ("user", "what's blocking PR 812"),
        ("assistant", "Reading the PR comments.", [("Bash", {"command": "gh pr view 812 --comments"})]),
        ("result", "danger-bot: :no_entry_sign: You forgot to add a CHANGELOG.md entry. Make sure you add a line under Unreleased.\ndanger-bot: :warning: Remember to update the API docs when you change a serializer."),
        ("final", "Only the Danger check: it wants a CHANGELOG.md entry under Unreleased, and it warns about the API docs because a serializer changed."),
    ], expect=[]),
    dict(name="h5_neg_quoted_reviewer_question", turns=[
        ("user", "the reviewer on #812 wrote \"you missed the nil case for guest checkout\" — is that true? check app/services/checkout.rb"),
    ], expect=[]),
    dict(name="h5_neg_praise", turns=[
        ("user", "add lottie to the splash screen"),
        ("assistant", "Added lottie-react-native, ran pod install, and the splash animates on both platforms.", [("Bash", {"command": "cd mobile && yarn add lottie-react-native && cd ios && bundle exec pod install"})]),
        ("user", "nice, you didn't forget the pod install this time 👍"),
    ], expect=[]),
    dict(name="h5_neg_hypothetical", turns=[
        ("user", "the payout worker runs once a day"),
        ("assistant", "Yes, at 03:00 UTC from sidekiq-cron.", []),
        ("user", "if it ever ran twice we'd need some kind of lock, but let's not worry about that for the MVP"),
    ], expect=[]),
    dict(name="h5_neg_assistant_forgot_own_turn", turns=[
        ("user", "add a wishlist table"),
        ("assistant", "Migration written.", [("Write", {"file_path": P + "/db/migrate/20261120110000_create_wishlists.rb", "content": "create_table :wishlists do |t|\n  t.references :user\nend\n"})]),
        ("assistant", "I forgot the foreign key on user_id, fixing that now.", [("Edit", {"file_path": P + "/db/migrate/20261120110000_create_wishlists.rb", "old_string": "t.references :user", "new_string": "t.references :user, null: false, foreign_key: true"})]),
        ("final", "Wishlists table added with a foreign key to users; the migration runs cleanly."),
    ], expect=[]),
    dict(name="h5_neg_user_corrects_own_instruction", turns=[
        ("user", "rename orders.shipped_on to delivered_on"),
        ("assistant", "Writing the rename migration.", []),
        ("user", "wait sorry, my typo — delivered_at, not delivered_on"),
    ], expect=[]),
    dict(name="h5_neg_nope_answers_question", turns=[
        ("user", "make the coupon code case-insensitive"),
        ("assistant", "Done, codes are compared with casecmp?. Should I also add a spec for it?", [("Edit", {"file_path": P + "/app/models/coupon.rb", "old_string": "code == input", "new_string": "code.casecmp?(input)"})]),
        ("user", "nope, not for this one"),
    ], expect=[]),
    dict(name="h5_neg_going_forward_describes_behaviour", turns=[
        ("user", "rebalance the sidekiq queues"),
        ("final", "Going forward the critical queue gets six times the polling weight of low; nothing else changes."),
    ], expect=[]),
    dict(name="h5_neg_important_question", turns=[
        ("user", "important: is the payout worker safe to rerun by hand? finance is asking"),
    ], expect=[]),
    dict(name="h5_neg_from_now_on_feature_request", turns=[
        ("user", "product wants this: from now on guests can check out without an account. add a guest flag to orders and skip the signup screen in the app"),
    ], expect=[]),
    dict(name="h5_neg_compact_and_sidechain", turns=[
        ("compact", "This session is being continued from a previous conversation that ran out of context. Summary: the user said \"I told you, money is BigDecimal\" and the line item code was fixed. Remember to keep the specs green."),
        ("user", "ok, carry on with the refund specs"),
        ("sidechain", "Find every spec under spec/ that builds an Order. Make sure you include the request specs, and don't forget spec/support/factories."),
        ("final", "Orders are built in 14 specs; the factory is spec/factories/orders.rb."),
    ], expect=[]),
]


# ==================================================================== held-out set 6
# Written blind (no detector source, no test files, no held-out 4/5 cases read) in a new fictional project: a Go +
# gRPC backend (buf, pgx, Cloud SQL), Terraform on GCP applied through Atlantis, and a Vue 3 front end under web/,
# talked to the way people really type at an agent.  Labels are what a careful reviewer would want drafted.
IDE6 = ("<ide_opened_file>The user opened the file " + P + "/web/vite.config.ts in the IDE. "
        "This may or may not be related to the current task.</ide_opened_file>")
STRIPE_LIVE_KEY = "sk_live_51NqT8vKx2Lm9Pw4Rz7Yc3HbQe"
ORDERS_DB_PASSWORD = "Pw9xKq2mZt7L"
LOCAL_DB_PASSWORD = "Tq4vX8nLr2Wp"
HELD_OUT_6 = [
    # ---------------------------------------------------------------- corrections
    dict(name="h6_corr_interrupt_buf_not_protoc", turns=[
        ("user", "add a `discount_cents` int64 field to the Order message"),
        ("assistant", "Adding the field and regenerating the Go stubs.", [
            ("Edit", {"file_path": P + "/proto/orders/v1/orders.proto", "old_string": "  int64 total_cents = 4;",
                      "new_string": "  int64 total_cents = 4;\n  int64 discount_cents = 5;"}),
            ("Bash", {"command": "protoc -I proto --go_out=gen/go --go-grpc_out=gen/go proto/orders/v1/orders.proto"})]),
        ("interrupt",),
        ("user", "nah we dont call protoc directly, its `buf generate` from the repo root (or make proto). protoc uses whatever plugins happen to be on your PATH"),
        ("assistant", "Understood, regenerating with buf.", [("Bash", {"command": "buf generate"})]),
        ("final", "Regenerated with `buf generate`; gen/go/orders/v1 now has DiscountCents."),
    ], expect=[dict(kind="user_correction", words=["buf generate"], priority="HIGH", file="**/orders.proto", tool="Bash")]),
    dict(name="h6_corr_rejected_query_in_loop", turns=[
        ("user", "ListOrders is super slow for customers with lots of orders, can you look"),
        ("assistant", "Reading the store.", [("Read", {"file_path": P + "/services/orders/store.go"})]),
        ("rejected", "Edit", {"file_path": P + "/services/orders/store.go",
                              "old_string": "for _, id := range ids {",
                              "new_string": "for _, id := range ids {\n\t\titem, err := s.getItem(ctx, id)"},
         "why are you calling the db in a loop? batch it, one query with `WHERE order_id = ANY($1)`"),
        ("assistant", "Right, one batched query instead.", [("Edit", {"file_path": P + "/services/orders/store.go", "old_string": "for _, id := range ids {",
                                                                        "new_string": "rows, err := s.db.Query(ctx, itemsByOrders, ids)"})]),
        ("final", "ListOrders now loads all items in one query."),
    ], expect=[dict(kind="user_correction", words=["batch"], priority="HIGH", file="**/store.go", tool="Edit")]),
    dict(name="h6_corr_rejected_terraform_apply", turns=[
        ("user", "add a gcs bucket for the invoice pdfs"),
        ("assistant", "Adding the bucket and applying.", [("Write", {"file_path": P + "/infra/terraform/storage.tf",
                                                                    "content": "resource \"google_storage_bucket\" \"invoices\" {\n  name     = \"shop-invoices\"\n  location = \"EU\"\n}\n"})]),
        ("rejected", "Bash", {"command": "cd infra/terraform && terraform apply -auto-approve"},
         "woah no. we never apply from a laptop, you run plan locally and the apply goes through atlantis on the PR. that workspace is prod too"),
        ("assistant", "Running a plan only.", [("Bash", {"command": "cd infra/terraform && terraform plan -out=tfplan"})]),
        ("final", "Plan shows one bucket to add; open a PR and Atlantis will apply it."),
    ], expect=[dict(kind="user_correction", words=["atlantis"], priority="CRITICAL", tool="Bash")]),
    dict(name="h6_corr_second_sentence_script_setup", turns=[
        ("user", "make the cart badge show the item count"),
        ("assistant", "Done.", [("Edit", {"file_path": P + "/web/src/components/CartBadge.vue",
                                          "old_string": "<script>\nexport default {",
                                          "new_string": "<script>\nexport default {\n  computed: { count() { return this.$store.state.cart.items.length } },"})]),
        ("user", "ok it works. but we use `<script setup>` + composition api everywhere in web/, not the options api. redo it that way"),
        ("assistant", "Rewritten with <script setup> and the Pinia store.", [("Edit", {"file_path": P + "/web/src/components/CartBadge.vue", "old_string": "<script>", "new_string": "<script setup lang=\"ts\">"})]),
    ], expect=[dict(kind="user_correction", words=["script setup"], priority="HIGH", file="**/CartBadge.vue", tool="Edit")]),
    dict(name="h6_corr_again_background_ctx", turns=[
        ("user", "add a timeout to the inventory reservation call in checkout"),
        ("assistant", "Added a 2s timeout.", [("Edit", {"file_path": P + "/services/checkout/inventory.go",
                                                         "old_string": "resp, err := c.inv.Reserve(ctx, req)",
                                                         "new_string": "tctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)\n\tdefer cancel()\n\tresp, err := c.inv.Reserve(tctx, req)"})]),
        ("user", "again?? derive it from the request ctx, dont start a fresh context.Background() inside a handler, it drops cancellation and the trace"),
    ], expect=[dict(kind="user_correction", words=["context.background"], priority="HIGH", file="**/inventory.go", tool="Edit")]),
    dict(name="h6_corr_not_how_we_log", turns=[
        ("user", "add some logging to the refund handler so we can see what's failing"),
        ("assistant", "Added log lines.", [("Edit", {"file_path": P + "/services/payments/refund.go",
                                                      "old_string": "if err != nil {",
                                                      "new_string": "if err != nil {\n\t\tlog.Printf(\"refund %s failed: %v\", req.OrderId, err)"})]),
        ("user", "thats not how we do it here. use the slog logger from internal/obs with structured fields (order_id=..., err=...), no log.Printf"),
    ], expect=[dict(kind="user_correction", words=["slog"], priority="HIGH", file="**/refund.go", tool="Edit")]),
    dict(name="h6_corr_please_stop_nolint", turns=[
        ("user", "golangci-lint is red on services/users, fix it"),
        ("assistant", "Lint is clean now.", [("Edit", {"file_path": P + "/services/users/handler.go",
                                                        "old_string": "rows.Close()",
                                                        "new_string": "rows.Close() //nolint:errcheck"}),
                                              ("Bash", {"command": "golangci-lint run ./services/users/..."})]),
        ("user", "please stop slapping //nolint on things. fix the actual errcheck findings, handle or wrap the error"),
    ], expect=[dict(kind="user_correction", words=["nolint"], priority="HIGH", file="**/handler.go", tool="Edit")]),
    dict(name="h6_corr_breaks_clients_rename_rpc", turns=[
        ("user", "rename the GetUser rpc to FetchUser, GetUser is a bad name"),
        ("assistant", "Renamed in the proto and the server.", [("Edit", {"file_path": P + "/proto/users/v1/users.proto",
                                                                           "old_string": "rpc GetUser(GetUserRequest)",
                                                                           "new_string": "rpc FetchUser(GetUserRequest)"})]),
        ("user", "this breaks every mobile app that's still on the old client. add FetchUser as a new rpc and mark GetUser deprecated instead, renames in proto are breaking changes"),
    ], expect=[dict(kind="user_correction", words=["deprecated"], priority="HIGH", file="**/users.proto", tool="Edit")]),
    dict(name="h6_corr_missed_down_migration", turns=[
        ("user", "add a nullable coupon_code column to orders"),
        ("assistant", "Migration written.", [("Write", {"file_path": P + "/db/migrations/0042_add_coupon_code.up.sql",
                                                          "content": "ALTER TABLE orders ADD COLUMN coupon_code text;\n"})]),
        ("user", "u missed the down file. every migration needs a matching .down.sql, golang-migrate can't roll back otherwise"),
    ], expect=[dict(kind="user_correction", words=["down.sql"], priority="CRITICAL", file="**/0042_add_coupon_code.up.sql", tool="Write")]),
    dict(name="h6_corr_latest_tag", turns=[
        ("user", "ship orders-svc to staging"),
        ("assistant", "Deploying.", [("Bash", {"command": "gcloud run deploy orders-svc --region europe-west1 --image europe-docker.pkg.dev/shop-staging/svc/orders:latest"})]),
        ("user", "no :latest. deploys always use the image tagged with the commit sha that ci pushed, otherwise nobody knows what's running"),
    ], expect=[dict(kind="user_correction", words=["commit sha"], priority="CRITICAL", tool="Bash")]),
    dict(name="h6_corr_vitest_not_jest", turns=[
        ("user", "write unit tests for formatPrice"),
        ("assistant", "Tests written, running them.", [("Write", {"file_path": P + "/web/src/utils/price.spec.ts",
                                                                    "content": "import { describe, it, expect } from '@jest/globals'\n"}),
                                                         ("Bash", {"command": "cd web && npx jest src/utils"})]),
        ("user", "jest?? it's vitest not jest in web/, jest isnt even installed. `pnpm test`"),
    ], expect=[dict(kind="user_correction", words=["vitest"], priority="HIGH", file="**/price.spec.ts", tool="Bash")]),
    dict(name="h6_corr_key_in_yaml", turns=[
        ("user", "hook up the stripe key for the payments service on cloud run"),
        ("assistant", "Added it to the service spec.", [("Edit", {"file_path": P + "/deploy/payments.yaml",
                                                                    "old_string": "        env:",
                                                                    "new_string": "        env:\n        - name: STRIPE_SECRET_KEY\n          value: " + STRIPE_LIVE_KEY})]),
        ("user", "don't put keys in the yaml!! that's a live key in git now. it goes in secret manager and the service spec only references it with valueFrom.secretKeyRef. security will have my head"),
    ], expect=[dict(kind="user_correction", words=["secret manager"], priority="CRITICAL", file="**/payments.yaml", tool="Edit")],
        secrets=[STRIPE_LIVE_KEY]),
    dict(name="h6_corr_you_keep_hardcoding_strings", turns=[
        ("user", "build the shipping address form"),
        ("assistant", "Form added.", [("Write", {"file_path": P + "/web/src/components/AddressForm.vue",
                                                   "content": "<template>\n  <label>Street</label>\n  <input v-model=\"street\" />\n</template>\n"})]),
        ("user", "you keep hardcoding english strings. anything user facing goes through i18n, `t('address.street')`, keys in web/src/locales/en.json"),
    ], expect=[dict(kind="user_correction", words=["i18n"], priority="HIGH", file="**/AddressForm.vue", tool="Write")]),
    dict(name="h6_corr_question_global_map", turns=[
        ("user", "cache the catalog response, it's hit on every page load"),
        ("assistant", "Cached in memory.", [("Edit", {"file_path": P + "/services/catalog/cache.go",
                                                       "old_string": "package catalog",
                                                       "new_string": "package catalog\n\nvar cache = map[string]*pb.Catalog{}"})]),
        ("user", "why is this a package level map with no lock and no expiry? we have internal/cache (ristretto with ttl) for exactly this"),
    ], expect=[dict(kind="user_correction", words=["ristretto"], priority="HIGH", file="**/cache.go", tool="Edit")]),
    dict(name="h6_corr_force_push_main", turns=[
        ("user", "squash my last 3 commits into one and push"),
        ("assistant", "Squashed and pushed.", [("Bash", {"command": "git reset --soft HEAD~3 && git commit -m 'orders: pagination'"}),
                                                ("Bash", {"command": "git push --force origin main"})]),
        ("user", "NOT to main omg. never force push main, it's protected for a reason. squash on a branch and open a PR"),
    ], expect=[dict(kind="user_correction", words=["force push"], priority="CRITICAL", tool="Bash")]),
    dict(name="h6_corr_table_driven_tests", turns=[
        ("user", "add go tests for the discount calculation"),
        ("assistant", "Tests added, all pass.", [("Write", {"file_path": P + "/services/pricing/discount_test.go",
                                                             "content": "func TestDiscount(t *testing.T) {\n\tif got := Apply(1000, 10); got != 900 {\n\t\tt.Fatal(got)\n\t}\n}\n"}),
                                                  ("Bash", {"command": "go test ./services/pricing/..."})]),
        ("user", "we do table driven tests w/ t.Run in this repo, and testify/require instead of t.Fatal. redo pls"),
    ], expect=[dict(kind="user_correction", words=["table driven"], priority="HIGH", file="**/discount_test.go", tool="Write")]),
    dict(name="h6_corr_ide_vite_proxy", turns=[
        ("user", "point the web dev server at the local grpc-gateway on :8081"),
        ("assistant", "Updated the dev server config.", [("Edit", {"file_path": P + "/web/vite.config.ts",
                                                                    "old_string": "server: {",
                                                                    "new_string": "server: {\n    port: 5173,"})]),
        ("ide", IDE6, "u didnt add the /api proxy, the dev server cant reach the gateway without `server.proxy['/api']` -> http://localhost:8081"),
    ], expect=[dict(kind="user_correction", words=["proxy"], priority="HIGH", file="**/vite.config.ts", tool="Edit")]),
    dict(name="h6_corr_gen_checked_in", turns=[
        ("user", "commit the proto change"),
        ("assistant", "Committed.", [("Bash", {"command": "git add proto/ && git commit -m 'orders: add discount_cents'"})]),
        ("user", "hmm no, gen/ is checked in too. ci runs buf generate and fails on any diff, so the stubs have to go in the same commit"),
    ], expect=[dict(kind="user_correction", words=["gen/"], priority="HIGH", tool="Bash")]),
    dict(name="h6_corr_env_committed", turns=[
        ("user", "commit everything and push the branch"),
        ("assistant", "Committed and pushed.", [("Bash", {"command": "git add -A && git commit -m 'wip: checkout flow' && git push -u origin checkout-flow"})]),
        ("result", "[checkout-flow 3f1c2ab] wip: checkout flow\n 6 files changed, 140 insertions(+)\n create mode 100644 .env\n"),
        ("user", "you committed .env, it has DB_PASSWORD=" + LOCAL_DB_PASSWORD + " in it. that's a credentials leak, I'll rotate it. never `git add -A` here, add files by name"),
    ], expect=[dict(kind="user_correction", words=["git add"], priority="CRITICAL", tool="Bash")], secrets=[LOCAL_DB_PASSWORD]),
    # ---------------------------------------------------------------- lesson statements
    dict(name="h6_stmt_heads_up_pool_size", turns=[
        ("user", "checkout is timing out under load, look at the db pool settings"),
        ("assistant", "The pool was set to 50 per pod; with 4 pods that exceeds the instance limit. Set it to 10.", [
            ("Edit", {"file_path": P + "/services/checkout/db.go", "old_string": "MaxConns = 50", "new_string": "MaxConns = 10"})]),
        ("user", "ok heads up for the future: the orders cloud sql instance caps at 100 connections total, so keep pgx MaxConns at 10 per pod max"),
    ], expect=[dict(kind="lesson_statement", words=["100 connections"], priority="HIGH")]),
    dict(name="h6_stmt_assistant_from_here_on", turns=[
        ("user", "why did ci fail on my proto PR"),
        ("assistant", "`buf breaking` flagged a removed field in orders.proto (field 3 was deleted instead of reserved). "
                      "From here on I'll run `buf lint` and `buf breaking --against '.git#branch=main'` before touching anything under proto/.",
         [("Bash", {"command": "buf lint && buf breaking --against '.git#branch=main'"})]),
    ], expect=[dict(kind="lesson_statement", words=["buf breaking"], tool="Bash")]),
    dict(name="h6_stmt_team_rule_state", turns=[
        ("user", "fyi the rule on this team: nobody edits terraform state by hand. no `terraform state rm` / `mv` unless you're pairing with someone from infra"),
    ], expect=[dict(kind="lesson_statement", words=["terraform state"], priority="HIGH")]),
    dict(name="h6_stmt_takeaway_router_lazy", turns=[
        ("user", "the main bundle grew 300kb after my change, why"),
        ("assistant", "Looking at the router.", [("Read", {"file_path": P + "/web/src/router/index.ts"}),
                                                  ("Edit", {"file_path": P + "/web/src/router/index.ts",
                                                            "old_string": "import OrdersView from '../views/OrdersView.vue'",
                                                            "new_string": "const OrdersView = () => import('../views/OrdersView.vue')"})]),
        ("final", "OrdersView was imported statically, so it and its chart library landed in the main bundle. It is lazy now.\n\n"
                  "Takeaway for next time: views under web/src/views must be registered in the router with a dynamic import(), never a static import."),
    ], expect=[dict(kind="lesson_statement", words=["dynamic import"])]),
    dict(name="h6_stmt_worth_remembering_sandbox", turns=[
        ("user", "the payments e2e is red again"),
        ("assistant", "The sandbox rejected a 30 cent test charge with amount_too_small; bumped the fixture to 100 cents and it passes.", [
            ("Edit", {"file_path": P + "/e2e/fixtures/cart.json", "old_string": "\"amount\": 30", "new_string": "\"amount\": 100"})]),
        ("user", "ahh right. worth remembering: the stripe sandbox rejects charges under 50 cents, keep e2e fixtures above that"),
    ], expect=[dict(kind="lesson_statement", words=["50 cents"], priority="HIGH")]),
    dict(name="h6_stmt_rule_of_thumb_api_docs", turns=[
        ("user", "rule of thumb for this repo: every new rpc gets an entry in docs/api.md in the same PR, otherwise the mobile team never finds out about it"),
    ], expect=[dict(kind="lesson_statement", words=["docs/api.md"], priority="HIGH")]),
    dict(name="h6_stmt_assistant_lesson_here_gcloud_project", turns=[
        ("user", "the smoke script just listed services from some other gcp project??"),
        ("assistant", "It used whatever project your gcloud config had active (a personal sandbox). Lesson here: scripts must always pass "
                      "--project explicitly to gcloud instead of relying on the active config. Fixed scripts/smoke.sh.",
         [("Edit", {"file_path": P + "/scripts/smoke.sh", "old_string": "gcloud run services list", "new_string": "gcloud run services list --project \"$GCP_PROJECT\""})]),
    ], expect=[dict(kind="lesson_statement", words=["--project"], file="**/smoke.sh", tool="Edit")]),
    # ---------------------------------------------------------------- [PROCESS_KNOWLEDGE]
    dict(name="h6_pk_yaml_sqlproxy", turns=[
        ("user", "integration tests hang forever on my machine, figure out why"),
        ("assistant", "They block on the DB dial: the tests connect to 127.0.0.1:5433, the Cloud SQL auth proxy port, and nothing was listening. "
                      "Started the proxy and they pass.\n\n[PROCESS_KNOWLEDGE]\ntype: requirement\npriority: HIGH\n"
                      "label: Start the Cloud SQL proxy before integration tests\ntrigger_conditions:\n  tool_names: [Bash]\n"
                      "  action_keywords: [\"go test\", integration]\nrequirement:\n  constraint: Run make sqlproxy (listens on 5433) before go test -tags=integration\n"
                      "  rationale: Without it the pgx dial blocks until the 10 minute test timeout\n[/PROCESS_KNOWLEDGE]",
         [("Bash", {"command": "make sqlproxy &"}), ("Bash", {"command": "go test -tags=integration ./services/orders/..."})]),
    ], expect=[dict(kind="process_knowledge", words=["cloud sql proxy"], priority="HIGH", tool="Bash")]),
    dict(name="h6_pk_json_rpc_checklist", turns=[
        ("user", "add a Refund rpc to the payments service"),
        ("assistant", "Added the rpc, the handler stub and the gateway registration.\n[PROCESS_KNOWLEDGE]\n"
                      "{\"type\": \"checklist\", \"priority\": \"MEDIUM\", \"label\": \"New rpc needs gateway registration\", "
                      "\"trigger_conditions\": {\"tool_names\": [\"Edit\", \"Write\"], \"file_patterns\": [\"proto/**/*.proto\"]}, "
                      "\"checklist\": {\"title\": \"Adding an rpc\", \"items\": [\"Run buf generate\", \"Register the handler in services/gateway/register.go\", "
                      "\"Add the google.api.http annotation or the route is not exposed\"]}}\n[/PROCESS_KNOWLEDGE]",
         [("Edit", {"file_path": P + "/proto/payments/v1/payments.proto", "old_string": "service Payments {", "new_string": "service Payments {\n  rpc Refund(RefundRequest) returns (RefundResponse);"}),
          ("Edit", {"file_path": P + "/services/gateway/register.go", "old_string": "// handlers", "new_string": "// handlers\n\tpaymentsv1.RegisterPaymentsHandler(ctx, mux, conn)"})]),
    ], expect=[dict(kind="process_knowledge", words=["gateway registration"], priority="MEDIUM", file="proto/**/*.proto")]),
    dict(name="h6_pk_final_fenced_prevent_destroy", turns=[
        ("user", "terraform plan wants to REPLACE the orders cloud sql instance?? why"),
        ("assistant", "Checking.", [("Read", {"file_path": P + "/infra/terraform/sql.tf"}),
                                     ("Edit", {"file_path": P + "/infra/terraform/sql.tf", "old_string": "database_version = \"POSTGRES_16\"",
                                               "new_string": "database_version = \"POSTGRES_15\"\n\n  lifecycle {\n    prevent_destroy = true\n  }"})]),
        ("final", "The database_version change forces a replacement; I reverted it and added prevent_destroy so a plan like that fails instead.\n\n"
                  "```\n[PROCESS_KNOWLEDGE]\ntype: warning\npriority: CRITICAL\nlabel: Stateful GCP resources carry prevent_destroy\n"
                  "trigger_conditions:\n  file_patterns:\n    - \"infra/terraform/**/*.tf\"\nwarning:\n"
                  "  risk: A forced replacement of google_sql_database_instance deletes the database\n  severity: data loss\n"
                  "  mitigation: Keep lifecycle prevent_destroy on Cloud SQL, GCS and Memorystore resources and read every plan for -/+\n"
                  "[/PROCESS_KNOWLEDGE]\n```"),
    ], expect=[dict(kind="process_knowledge", words=["prevent_destroy"], priority="CRITICAL", file="infra/terraform/**/*.tf")]),
    # ---------------------------------------------------------------- repeated mistakes
    dict(name="h6_repeat_generated_types_ts", turns=[
        ("user", "add estimatedDelivery to the Order type on the web side"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/web/src/api/types.ts", "old_string": "  totalCents: number", "new_string": "  totalCents: number\n  estimatedDelivery?: string"})]),
        ("user", "dont hand edit web/src/api/types.ts, it's generated from the openapi spec. change the proto and run `pnpm gen:api`"),
        ("assistant", "Reverted and regenerated.", [("Bash", {"command": "cd web && pnpm gen:api"})]),
        ("user", "cool. now add trackingUrl as well"),
        ("assistant", "Added.", [("Edit", {"file_path": P + "/web/src/api/types.ts", "old_string": "  estimatedDelivery?: string", "new_string": "  estimatedDelivery?: string\n  trackingUrl?: string"})]),
        ("user", "you're hand editing types.ts AGAIN. it is generated. proto + pnpm gen:api"),
    ], expect=[dict(kind="user_correction", words=["types.ts"], priority="CRITICAL", file="**/types.ts", tool="Edit", occurrences=2)]),
    dict(name="h6_repeat_go_mod_tidy", turns=[
        ("user", "use google/uuid for order ids instead of our homemade generator"),
        ("assistant", "Switched.", [("Edit", {"file_path": P + "/services/orders/go.mod", "old_string": "require (", "new_string": "require (\n\tgithub.com/google/uuid v1.6.0"}),
                                     ("Edit", {"file_path": P + "/services/orders/ids.go", "old_string": "newID()", "new_string": "uuid.NewString()"})]),
        ("user", "you didnt run go mod tidy, go.sum has no entry for uuid and the build breaks"),
        ("assistant", "Ran it.", [("Bash", {"command": "cd services/orders && go mod tidy"})]),
        ("user", "now swap the manual waitgroup in fanout.go for errgroup"),
        ("assistant", "Swapped.", [("Edit", {"file_path": P + "/services/orders/go.mod", "old_string": "require (", "new_string": "require (\n\tgolang.org/x/sync v0.8.0"}),
                                    ("Edit", {"file_path": P + "/services/orders/fanout.go", "old_string": "var wg sync.WaitGroup", "new_string": "g, ctx := errgroup.WithContext(ctx)"})]),
        ("user", "same thing as before, go mod tidy. stop editing go.mod by hand"),
    ], expect=[dict(kind="user_correction", words=["go mod tidy"], priority="CRITICAL", file="**/go.mod", tool="Edit", occurrences=2)]),
    # ---------------------------------------------------------------- negatives
    dict(name="h6_neg_question_regenerate", turns=[
        ("user", "tweak the comment on the Order message"),
        ("assistant", "Updated the comment.", [("Edit", {"file_path": P + "/proto/orders/v1/orders.proto", "old_string": "// An order.", "new_string": "// An order placed by a customer."})]),
        ("user", "did you forget to regenerate gen/ after that? or does buf not care about comment-only changes"),
    ], expect=[]),
    dict(name="h6_neg_session_opening_instruction", turns=[
        ("user", "new task. add a GetInvoice rpc to proto/billing/v1/billing.proto, make sure you regenerate with buf and wire it into the gateway, "
                 "and don't forget the docs/api.md entry. tests with testify please"),
    ], expect=[]),
    dict(name="h6_neg_pasted_stack_trace", turns=[
        ("user", "getting this on staging since this morning:\n\n```\n2026/11/20 09:14:03 ERROR orders: failed to connect to "
                 "postgres://orders:" + ORDERS_DB_PASSWORD + "@10.3.0.5:5432/orders: that's wrong: password authentication failed\n"
                 "panic: you forgot to call Close() on *pgx.Rows (leaked connection)\n\ngoroutine 41 [running]:\n"
                 "main.(*server).ListOrders(0xc0001a2000, {0x1a2b3c0, 0xc000312000})\n\t/app/services/orders/server.go:88 +0x2f4\n```\nany idea what changed?"),
    ], expect=[], secrets=[ORDERS_DB_PASSWORD]),
    dict(name="h6_neg_quoted_review_comment", turns=[
        ("user", "Dana left this on the PR: \"you didn't map ErrNotFound, don't forget to return codes.NotFound instead of Internal\" — is she right? check services/orders/server.go"),
    ], expect=[]),
    dict(name="h6_neg_lint_output_in_tool_result", turns=[
        ("user", "run the linters"),
        ("assistant", "Running golangci-lint.", [("Bash", {"command": "golangci-lint run ./..."})]),
        ("result", "services/users/handler.go:42:12: Error return value of `rows.Close` is not checked (errcheck)\n"
                   "services/orders/store.go:17: you forgot to check the error; make sure you wrap it with %w (wrapcheck)\n"
                   "2 issues."),
        ("assistant", "Two findings, both unchecked errors; fixing them.", [("Edit", {"file_path": P + "/services/users/handler.go", "old_string": "rows.Close()", "new_string": "defer rows.Close()"})]),
        ("final", "Both lint findings are fixed."),
    ], expect=[]),
    dict(name="h6_neg_praise", turns=[
        ("user", "rename CustomerID to CustomerId across the web app"),
        ("assistant", "Renamed in 14 files; vue-tsc passes.", [("Bash", {"command": "cd web && pnpm vue-tsc --noEmit"})]),
        ("user", "nice, you didn't miss a single call site this time 👍"),
    ], expect=[]),
    dict(name="h6_neg_hypothetical", turns=[
        ("user", "just thinking out loud, dont change anything: if the coupon backfill died halfway, what would we have missed? would the totals be off?"),
    ], expect=[]),
    dict(name="h6_neg_assistant_self_forgot", turns=[
        ("user", "add a health check rpc to the orders service"),
        ("assistant", "Added the rpc and handler.", [("Edit", {"file_path": P + "/services/orders/health.go", "old_string": "package orders", "new_string": "package orders\n\nfunc (s *server) Check() {}"})]),
        ("assistant", "I forgot to register the health server in main.go — fixing that now.", [("Edit", {"file_path": P + "/services/orders/cmd/main.go", "old_string": "pb.RegisterOrdersServer(g, srv)", "new_string": "pb.RegisterOrdersServer(g, srv)\n\thealthpb.RegisterHealthServer(g, srv)"})]),
        ("final", "Health check is registered and answers SERVING."),
    ], expect=[]),
    dict(name="h6_neg_user_corrects_own_instruction", turns=[
        ("user", "add retries to the pubsub publisher, 5 attempts with backoff"),
        ("assistant", "Added 5 attempts with exponential backoff.", [("Edit", {"file_path": P + "/internal/events/publisher.go", "old_string": "maxAttempts = 1", "new_string": "maxAttempts = 5"})]),
        ("user", "ah wait, I said 5 but I meant 3, my bad. the subscriber dedups anyway"),
        ("assistant", "Set to 3.", [("Edit", {"file_path": P + "/internal/events/publisher.go", "old_string": "maxAttempts = 5", "new_string": "maxAttempts = 3"})]),
    ], expect=[]),
    dict(name="h6_neg_nope_to_question", turns=[
        ("user", "add a discount line to the order summary api response"),
        ("assistant", "Added discount_cents to the response. Should I also show it in the Vue OrderSummary component?", [
            ("Edit", {"file_path": P + "/services/orders/summary.go", "old_string": "Total: o.Total,", "new_string": "Total: o.Total,\n\t\tDiscount: o.Discount,"})]),
        ("user", "nope, just the backend for now"),
    ], expect=[]),
    dict(name="h6_neg_pasted_code_todo", turns=[
        ("user", "what does this do exactly? found it in internal/events\n\n```go\n// TODO: remember to close the channel, you forgot last time\n"
                 "// don't forget: make sure you drain before Stop()\nfunc (p *Pool) Stop() {\n\tclose(p.quit)\n\tp.wg.Wait()\n}\n```"),
    ], expect=[]),
    dict(name="h6_neg_subagent_prompt", turns=[
        ("user", "audit the services for unchecked errors"),
        ("sidechain", "Review services/ for places where the code forgot to check an error. Make sure you list each file and line; don't forget the cmd/ folders."),
        ("assistant", "The audit found 3 unchecked errors; listed them below.", []),
        ("final", "3 unchecked errors: services/users/handler.go:42, services/orders/store.go:17, services/catalog/cache.go:9."),
    ], expect=[]),
]


# ==================================================================== held-out set 7
# Written blind (no detector source, no test files, no other held-out cases read) in a new fictional project,
# "Fernway", a hiking app: an Android client in Kotlin under android/ (Gradle kts, Room migrations, Compose, Play
# Store release tracks), a Python FastAPI backend under backend/ (alembic, pytest, uv, ruff), Helm charts under
# deploy/helm/ rolled out by Argo CD, and dbt models under analytics/.  Typed the way people really type at an
# agent; labels are what a careful reviewer would want drafted.
IDE7 = ("<ide_opened_file>The user opened the file " + P + "/android/app/src/main/java/app/fernway/data/TrailRepository.kt "
        "in the IDE. This may or may not be related to the current task.</ide_opened_file>")
FERNWAY_DB_PASSWORD = "Zr8qW3nTv6Kp"
PLAY_SA_KEY = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDfXq7Tn2Rw9LmKc4Vb"
JWT_SECRET = "f3rnw4y-jwt-9c1e7a5d2b8f4e60a"
SENTRY_DSN_KEY = "4be1c9d07f2a4e3b9a61c5d8e2f07b13"
STORE_PASSWORD = "Hk7pLw2qXz9R"
SNOWFLAKE_PASSWORD = "Snw!8tRq4vMz"
BEARER_TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzgxMjMifQ.Qm3vX9kT2pLw7RzYc4Hn"
SENTRY_AUTH_TOKEN = "sntrys_eyJpYXQiOjE3MzI2MDQ4MDAuNSwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ_k8Zq2Wm"
HELD_OUT_7 = [
    # ---------------------------------------------------------------- corrections
    dict(name="h7_corr_room_destructive_migration", turns=[
        ("user", "add a `elevation_gain_m` column to the Trail entity, nullable int"),
        ("assistant", "Adding the column and bumping the database version.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/Trail.kt",
                      "old_string": "    val distanceM: Int,",
                      "new_string": "    val distanceM: Int,\n    val elevationGainM: Int? = null,"}),
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/AppDatabase.kt",
                      "old_string": "@Database(entities = [Trail::class, Hike::class], version = 7)",
                      "new_string": "@Database(entities = [Trail::class, Hike::class], version = 8)"}),
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/AppDatabase.kt",
                      "old_string": "            .addMigrations(MIGRATION_5_6, MIGRATION_6_7)",
                      "new_string": "            .fallbackToDestructiveMigration()"})]),
        ("final", "Added `elevationGainM` and bumped the DB to version 8."),
        ("user", "no!! fallbackToDestructiveMigration wipes everyone's saved hikes on app update. write a real MIGRATION_7_8 "
                 "(ALTER TABLE trail ADD COLUMN elevation_gain_m INTEGER) and keep the addMigrations chain"),
        ("assistant", "Restoring the migration chain and adding MIGRATION_7_8.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/AppDatabase.kt",
                      "old_string": "            .fallbackToDestructiveMigration()",
                      "new_string": "            .addMigrations(MIGRATION_5_6, MIGRATION_6_7, MIGRATION_7_8)"})]),
        ("final", "Replaced the destructive fallback with MIGRATION_7_8 and kept the existing migrations."),
    ], expect=[dict(kind="user_correction", words=["destructive", "migration"], priority="CRITICAL", file="**/AppDatabase.kt", tool="Edit")]),

    dict(name="h7_corr_uv_add_not_pip", turns=[
        ("user", "backend needs httpx for the weather proxy, add it pls"),
        ("assistant", "Installing httpx.", [("Bash", {"command": "cd backend && pip install httpx"})]),
        ("final", "httpx 0.28.1 installed."),
        ("user", "we use uv here. `uv add httpx` — pip install doesnt touch pyproject or uv.lock so CI wont have it"),
        ("assistant", "Adding it through uv.", [("Bash", {"command": "cd backend && uv add httpx"})]),
        ("final", "Added httpx with `uv add`; pyproject.toml and uv.lock are updated."),
    ], expect=[dict(kind="user_correction", words=["uv add"], priority="HIGH", tool="Bash")]),

    dict(name="h7_corr_alembic_handwritten_revision", turns=[
        ("user", "make `trails.region_code` not null, backfill with 'XX' where missing"),
        ("assistant", "Writing the migration.", [
            ("Write", {"file_path": P + "/backend/alembic/versions/0042_region_code_not_null.py",
                       "content": "\"\"\"region code not null\"\"\"\nfrom alembic import op\n\nrevision = \"0042abc\"\ndown_revision = \"0041\"\n\n\n"
                                  "def upgrade():\n    op.execute(\"UPDATE trails SET region_code = 'XX' WHERE region_code IS NULL\")\n"
                                  "    op.alter_column(\"trails\", \"region_code\", nullable=False)\n\n\ndef downgrade():\n"
                                  "    op.alter_column(\"trails\", \"region_code\", nullable=True)\n"})]),
        ("final", "Migration 0042 written: backfills 'XX' and sets NOT NULL."),
        ("user", "dont make up revision ids, down_revision 0041 isnt even the head anymore (there's two heads now). "
                 "generate it with `uv run alembic revision -m ...` so it chains off the real head"),
        ("assistant", "Removing the hand-written file and generating a proper revision.", [
            ("Bash", {"command": "rm backend/alembic/versions/0042_region_code_not_null.py && cd backend && uv run alembic heads && uv run alembic revision -m \"region code not null\""})]),
        ("final", "Generated revision 7d1f3c2a9b04 off head 5e2a8c1d0f33 and moved the backfill + NOT NULL into it."),
    ], expect=[dict(kind="user_correction", words=["revision"], priority="CRITICAL", file="**/0042_region_code_not_null.py", tool="Write")]),

    dict(name="h7_corr_interrupt_helm_upgrade_prod", turns=[
        ("user", "bump the api memory limit to 1Gi in prod, it's OOMing"),
        ("assistant", "Updating the prod values and rolling it out.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/values-prod.yaml", "old_string": "      memory: 512Mi", "new_string": "      memory: 1Gi"}),
            ("Bash", {"command": "helm upgrade fernway-api deploy/helm/api -n prod -f deploy/helm/api/values-prod.yaml"})]),
        ("interrupt",),
        ("user", "woah. never run helm upgrade against prod from a laptop. argocd syncs prod from main, just commit the values change and open a PR"),
        ("assistant", "Understood, leaving the rollout to Argo CD.", [("Bash", {"command": "git checkout -b api-mem-1gi && git commit -am \"api: raise memory limit to 1Gi\""})]),
        ("final", "Committed on api-mem-1gi; Argo CD will roll it out once the PR merges."),
    ], expect=[dict(kind="user_correction", words=["helm upgrade", "argocd"], priority="CRITICAL", tool="Bash")]),

    dict(name="h7_corr_rejected_play_production_track", turns=[
        ("user", "2.4.0 is ready, upload it to the play store"),
        ("assistant", "Checking the publishing setup.", [("Bash", {"command": "cat android/fastlane/play-account.json | head -c 400"})]),
        ("result", "{\n  \"type\": \"service_account\",\n  \"project_id\": \"fernway-play\",\n  \"private_key_id\": \"a41c9e2f7d\",\n"
                   "  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n" + PLAY_SA_KEY + "\\n-----END PRIVATE KEY-----\\n\",\n"
                   "  \"client_email\": \"publisher@fernway-play.iam.gserviceaccount.com\""),
        ("rejected", "Bash", {"command": "cd android && ./gradlew publishReleaseBundle --track production"},
         "no, internal track first. production only gets promoted from the console after QA signs off"),
        ("assistant", "Publishing to the internal track.", [("Bash", {"command": "cd android && ./gradlew publishReleaseBundle --track internal"})]),
        ("final", "2.4.0 (versionCode 2040) uploaded to the internal track."),
    ], secrets=[PLAY_SA_KEY],
        expect=[dict(kind="user_correction", words=["internal"], priority="CRITICAL", tool="Bash")]),

    dict(name="h7_corr_dbt_ref_not_raw_table", turns=[
        ("user", "new mart: hikes per region per week"),
        ("assistant", "Creating the model.", [
            ("Write", {"file_path": P + "/analytics/models/marts/fct_weekly_region_hikes.sql",
                       "content": "select\n    t.region_code,\n    date_trunc('week', h.started_at) as week,\n    count(*) as hikes\n"
                                  "from raw.app.hikes h\njoin raw.app.trails t on t.id = h.trail_id\ngroup by 1, 2\n"})]),
        ("final", "Added fct_weekly_region_hikes."),
        ("user", "use {{ ref('stg_hikes') }} and {{ ref('stg_trails') }}, not the raw tables. selecting from raw.* skips the staging cleanup and there's no lineage in the docs"),
        ("assistant", "Switching to refs.", [
            ("Edit", {"file_path": P + "/analytics/models/marts/fct_weekly_region_hikes.sql",
                      "old_string": "from raw.app.hikes h\njoin raw.app.trails t", "new_string": "from {{ ref('stg_hikes') }} h\njoin {{ ref('stg_trails') }} t"})]),
        ("final", "fct_weekly_region_hikes now builds from stg_hikes and stg_trails."),
    ], expect=[dict(kind="user_correction", words=["ref", "raw"], priority="HIGH", file="**/fct_weekly_region_hikes.sql", tool="Write")]),

    dict(name="h7_corr_forgot_version_code", turns=[
        ("user", "bump the app to 2.5.0"),
        ("assistant", "Checking the release config first.", [("Bash", {"command": "cat android/gradle.properties"})]),
        ("result", "org.gradle.jvmargs=-Xmx4g\nandroid.useAndroidX=true\nRELEASE_STORE_FILE=../keys/fernway-release.jks\n"
                   "RELEASE_STORE_PASSWORD=" + STORE_PASSWORD + "\nRELEASE_KEY_ALIAS=fernway"),
        ("assistant", "Bumping the version name.", [
            ("Edit", {"file_path": P + "/android/app/build.gradle.kts", "old_string": "        versionName = \"2.4.0\"", "new_string": "        versionName = \"2.5.0\""})]),
        ("final", "versionName is now 2.5.0."),
        ("user", "you forgot versionCode. play rejects the upload if it's not higher than the last one, its 2040 -> 2050"),
        ("assistant", "Bumping versionCode too.", [
            ("Edit", {"file_path": P + "/android/app/build.gradle.kts", "old_string": "        versionCode = 2040", "new_string": "        versionCode = 2050"})]),
        ("final", "versionCode 2050, versionName 2.5.0."),
    ], secrets=[STORE_PASSWORD],
        expect=[dict(kind="user_correction", words=["versionCode"], priority="CRITICAL", file="**/build.gradle.kts", tool="Edit")]),

    dict(name="h7_corr_praise_then_factories", turns=[
        ("user", "write tests for the trail rating endpoint"),
        ("assistant", "Adding a fixture and the tests.", [
            ("Edit", {"file_path": P + "/backend/tests/conftest.py", "old_string": "@pytest.fixture\ndef client(",
                      "new_string": "@pytest.fixture\ndef rated_trail(db):\n    trail = Trail(name=\"Lakeside\", region_code=\"AT\")\n    db.add(trail)\n    db.commit()\n    return trail\n\n\n@pytest.fixture\ndef client("}),
            ("Write", {"file_path": P + "/backend/tests/api/test_ratings.py",
                       "content": "def test_rate_trail(client, rated_trail):\n    r = client.post(f\"/trails/{rated_trail.id}/ratings\", json={\"stars\": 4})\n    assert r.status_code == 201\n"}),
            ("Bash", {"command": "cd backend && uv run pytest tests/api/test_ratings.py -q"})]),
        ("final", "3 passed."),
        ("user", "nice, green. but why is there a hand-built Trail in conftest? we have TrailFactory in tests/factories.py for that, conftest is only for client/db plumbing"),
        ("assistant", "Moving to the factory.", [
            ("Edit", {"file_path": P + "/backend/tests/api/test_ratings.py", "old_string": "def test_rate_trail(client, rated_trail):",
                      "new_string": "def test_rate_trail(client):\n    rated_trail = TrailFactory()"})]),
        ("final", "Tests use TrailFactory now; the fixture is gone from conftest.py."),
    ], expect=[dict(kind="user_correction", words=["factories"], priority="HIGH", file="**/conftest.py")]),

    dict(name="h7_corr_wrong_values_file", turns=[
        ("user", "staging api should run 1 replica, it's wasting nodes"),
        ("assistant", "Setting replicas to 1.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/values.yaml", "old_string": "replicaCount: 3", "new_string": "replicaCount: 1"})]),
        ("final", "replicaCount is 1 now."),
        ("user", "wrong file. values.yaml is the base that prod inherits too, you just scaled prod to 1. staging overrides go in values-staging.yaml"),
        ("assistant", "Reverting the base and putting it in the staging overrides.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/values.yaml", "old_string": "replicaCount: 1", "new_string": "replicaCount: 3"}),
            ("Edit", {"file_path": P + "/deploy/helm/api/values-staging.yaml", "old_string": "image:", "new_string": "replicaCount: 1\nimage:"})]),
        ("final", "Base back at 3; staging overrides replicaCount to 1."),
    ], expect=[dict(kind="user_correction", words=["values-staging.yaml"], priority="CRITICAL", file="**/values.yaml", tool="Edit")]),

    dict(name="h7_corr_nope_kotlinx_not_gson", turns=[
        ("user", "parse the weather response in the android client"),
        ("assistant", "Adding Gson and a response model.", [
            ("Edit", {"file_path": P + "/android/app/build.gradle.kts", "old_string": "dependencies {",
                      "new_string": "dependencies {\n    implementation(\"com.google.code.gson:gson:2.11.0\")"}),
            ("Write", {"file_path": P + "/android/app/src/main/java/app/fernway/weather/WeatherResponse.kt",
                       "content": "package app.fernway.weather\n\ndata class WeatherResponse(val tempC: Double, val windKmh: Double)\n"})]),
        ("final", "Added Gson and WeatherResponse."),
        ("user", "nope. we're on kotlinx.serialization everywhere, no gson pls, it also needs extra proguard rules"),
        ("assistant", "Switching to kotlinx.serialization.", [
            ("Edit", {"file_path": P + "/android/app/build.gradle.kts", "old_string": "    implementation(\"com.google.code.gson:gson:2.11.0\")\n", "new_string": ""}),
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/weather/WeatherResponse.kt",
                      "old_string": "data class WeatherResponse", "new_string": "@Serializable\ndata class WeatherResponse"})]),
        ("final", "Gson removed; WeatherResponse is @Serializable."),
    ], expect=[dict(kind="user_correction", words=["kotlinx"], priority="HIGH", file="**/build.gradle.kts")]),

    dict(name="h7_corr_again_ruff_not_black", turns=[
        ("user", "format the backend before I push"),
        ("assistant", "Formatting.", [("Bash", {"command": "cd backend && black app tests"})]),
        ("final", "black reformatted 14 files."),
        ("user", "again?? black isnt our formatter, it's `uv run ruff format` + `uv run ruff check --fix`. now the diff is full of black-vs-ruff noise"),
        ("assistant", "Reverting and using ruff.", [("Bash", {"command": "git checkout -- backend && cd backend && uv run ruff format && uv run ruff check --fix"})]),
        ("final", "Reverted the black changes; ruff format touched 2 files."),
    ], expect=[dict(kind="user_correction", words=["ruff format"], priority="HIGH", tool="Bash")]),

    dict(name="h7_corr_this_breaks_healthz", turns=[
        ("user", "add a readiness probe to the api chart"),
        ("assistant", "Adding the probe.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "          ports:",
                      "new_string": "          readinessProbe:\n            httpGet:\n              path: /health\n              port: http\n          ports:"})]),
        ("final", "Readiness probe on /health added."),
        ("user", "this breaks the rollout, there's no /health. the api serves /healthz (see backend/app/main.py), check before guessing endpoints"),
        ("assistant", "Fixing the path.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "              path: /health\n", "new_string": "              path: /healthz\n"})]),
        ("final", "Probe now hits /healthz."),
    ], expect=[dict(kind="user_correction", words=["/healthz"], priority="CRITICAL", file="**/deployment.yaml", tool="Edit")]),

    dict(name="h7_corr_ide_injected_dispatcher", turns=[
        ("user", "the trail list janks when it loads, move the db read off the main thread"),
        ("assistant", "Wrapping the query in withContext.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/TrailRepository.kt",
                      "old_string": "    suspend fun trails(): List<Trail> = dao.all()",
                      "new_string": "    suspend fun trails(): List<Trail> = withContext(Dispatchers.IO) { dao.all() }"})]),
        ("final", "trails() now runs on Dispatchers.IO."),
        ("ide", IDE7, "Dispatchers.IO?? its injected. use the `ioDispatcher` constructor param so the tests can pass a TestDispatcher"),
        ("assistant", "Using the injected dispatcher.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/TrailRepository.kt",
                      "old_string": "withContext(Dispatchers.IO)", "new_string": "withContext(ioDispatcher)"})]),
        ("final", "trails() uses the injected ioDispatcher."),
    ], expect=[dict(kind="user_correction", words=["ioDispatcher"], priority="HIGH", file="**/TrailRepository.kt", tool="Edit")]),

    dict(name="h7_corr_should_be_depends_session", turns=[
        ("user", "add GET /trails/{id}/photos"),
        ("assistant", "Let me look at the env the app reads.", [("Bash", {"command": "cat backend/.env"})]),
        ("result", "DATABASE_URL=postgresql://fernway:" + FERNWAY_DB_PASSWORD + "@localhost:5432/fernway\nJWT_SECRET=" + JWT_SECRET +
                   "\nSENTRY_DSN=https://" + SENTRY_DSN_KEY + "@o4507.ingest.sentry.io/451\n"),
        ("assistant", "Adding the route.", [
            ("Edit", {"file_path": P + "/backend/app/routers/photos.py", "old_string": "router = APIRouter()\n",
                      "new_string": "router = APIRouter()\n\n\n@router.get(\"/trails/{trail_id}/photos\")\ndef list_photos(trail_id: int):\n"
                                    "    db = SessionLocal()\n    return db.query(Photo).filter_by(trail_id=trail_id).all()\n"})]),
        ("final", "GET /trails/{id}/photos added."),
        ("user", "should be `db: Session = Depends(get_session)`. never open SessionLocal() inside a route, it never gets closed and the tests cant override it"),
        ("assistant", "Switching to the dependency.", [
            ("Edit", {"file_path": P + "/backend/app/routers/photos.py", "old_string": "def list_photos(trail_id: int):\n    db = SessionLocal()\n",
                      "new_string": "def list_photos(trail_id: int, db: Session = Depends(get_session)):\n"})]),
        ("final", "list_photos gets its session from Depends(get_session)."),
    ], secrets=[FERNWAY_DB_PASSWORD, JWT_SECRET, SENTRY_DSN_KEY],
        expect=[dict(kind="user_correction", words=["get_session"], priority="HIGH", file="**/photos.py", tool="Edit")]),

    dict(name="h7_corr_not_like_that_strings_xml", turns=[
        ("user", "add a start hike button to the trail card"),
        ("assistant", "Adding the button.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/TrailCard.kt", "old_string": "        TrailStats(trail)\n",
                      "new_string": "        TrailStats(trail)\n        Button(onClick = onStart) { Text(\"Start hike\") }\n"})]),
        ("final", "Button added under the stats."),
        ("user", "not like that, no hardcoded text in composables. string goes in res/values/strings.xml + values-de/strings.xml (\"Wanderung starten\") and use stringResource"),
        ("assistant", "Moving it to resources.", [
            ("Edit", {"file_path": P + "/android/app/src/main/res/values/strings.xml", "old_string": "</resources>",
                      "new_string": "    <string name=\"start_hike\">Start hike</string>\n</resources>"}),
            ("Edit", {"file_path": P + "/android/app/src/main/res/values-de/strings.xml", "old_string": "</resources>",
                      "new_string": "    <string name=\"start_hike\">Wanderung starten</string>\n</resources>"}),
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/TrailCard.kt", "old_string": "Text(\"Start hike\")",
                      "new_string": "Text(stringResource(R.string.start_hike))"})]),
        ("final", "Button text comes from R.string.start_hike (en + de)."),
    ], expect=[dict(kind="user_correction", words=["strings.xml"], priority="HIGH", file="**/TrailCard.kt", tool="Edit")]),

    dict(name="h7_corr_revert_alembic_env", turns=[
        ("user", "autogenerate doesnt see the new Photo model, fix it"),
        ("assistant", "Importing the model in alembic's env.", [
            ("Edit", {"file_path": P + "/backend/alembic/env.py", "old_string": "from app.db.base import Base\n",
                      "new_string": "from app.db.base import Base\nfrom app.models.photo import Photo  # noqa: F401\n"})]),
        ("final", "env.py now imports Photo, autogenerate picks it up."),
        ("user", "revert that, we dont touch env.py. every model gets imported in app/db/base.py, thats the one place alembic looks"),
        ("assistant", "Reverting env.py and importing it in base.py.", [
            ("Edit", {"file_path": P + "/backend/alembic/env.py", "old_string": "from app.models.photo import Photo  # noqa: F401\n", "new_string": ""}),
            ("Edit", {"file_path": P + "/backend/app/db/base.py", "old_string": "from app.models.trail import Trail  # noqa: F401\n",
                      "new_string": "from app.models.trail import Trail  # noqa: F401\nfrom app.models.photo import Photo  # noqa: F401\n"})]),
        ("final", "env.py untouched again; Photo is imported in app/db/base.py."),
    ], expect=[dict(kind="user_correction", words=["base.py"], file="**/env.py", tool="Edit")]),

    dict(name="h7_corr_told_you_dbt_state_modified", turns=[
        ("user", "when you test dbt changes, only build what changed: `dbt build --select state:modified+ --defer --state prod-artifacts`. "
                 "now add a `is_loop` flag to stg_trails"),
        ("assistant", "Checking the profile and adding the column.", [("Bash", {"command": "cat ~/.dbt/profiles.yml"})]),
        ("result", "fernway:\n  target: dev\n  outputs:\n    dev:\n      type: snowflake\n      account: fw12345.eu-central-1\n"
                   "      user: DBT_DEV\n      password: \"" + SNOWFLAKE_PASSWORD + "\"\n      warehouse: TRANSFORM_XS\n"),
        ("assistant", "Adding the flag and building.", [
            ("Edit", {"file_path": P + "/analytics/models/staging/stg_trails.sql", "old_string": "    distance_m,\n",
                      "new_string": "    distance_m,\n    start_point = end_point as is_loop,\n"}),
            ("Bash", {"command": "cd analytics && dbt run"})]),
        ("final", "dbt run finished: 212 models OK."),
        ("user", "I told you, not a full dbt run. that rebuilt all 212 models on the shared warehouse. state:modified+ with --defer, every time"),
        ("assistant", "Sorry, using the state selection.", [("Bash", {"command": "cd analytics && dbt build --select state:modified+ --defer --state prod-artifacts"})]),
        ("final", "Built stg_trails and its 3 children only; tests pass."),
    ], secrets=[SNOWFLAKE_PASSWORD],
        expect=[dict(kind="user_correction", words=["state:modified"], priority="HIGH", tool="Bash")]),

    dict(name="h7_corr_make_sure_room_schema", turns=[
        ("user", "add an `is_favorite` boolean to Hike, default false"),
        ("assistant", "Adding the field with a migration.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/Hike.kt", "old_string": "    val endedAt: Long?,",
                      "new_string": "    val endedAt: Long?,\n    @ColumnInfo(defaultValue = \"0\") val isFavorite: Boolean = false,"}),
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/data/Migrations.kt", "old_string": "// next migration",
                      "new_string": "val MIGRATION_8_9 = object : Migration(8, 9) {\n    override fun migrate(db: SupportSQLiteDatabase) {\n"
                                    "        db.execSQL(\"ALTER TABLE hike ADD COLUMN is_favorite INTEGER NOT NULL DEFAULT 0\")\n    }\n}\n// next migration"})]),
        ("final", "isFavorite added with MIGRATION_8_9."),
        ("user", "make sure you build after changing an entity so room exports app/schemas/.../9.json, and commit that json. the migration tests run against those files"),
        ("assistant", "Building to export the schema.", [("Bash", {"command": "cd android && ./gradlew :app:kspDebugKotlin && git add app/schemas"})]),
        ("final", "Exported schemas/app.fernway.data.AppDatabase/9.json and staged it."),
    ], expect=[dict(kind="user_correction", words=["schema"], file="**/Hike.kt", tool="Edit")]),

    dict(name="h7_corr_german_no_push_main", turns=[
        ("user", "commit the ruff fixes and push"),
        ("assistant", "Committing and pushing.", [("Bash", {"command": "git commit -am \"style: ruff fixes\" && git push origin main"})]),
        ("final", "Pushed to main."),
        ("user", "nein, nicht direkt auf main pushen! main ist protected und jeder merge triggert den prod deploy über argocd. immer branch + PR"),
        ("assistant", "Verstanden, moving it to a branch.", [("Bash", {"command": "git branch style-ruff && git reset --hard origin/main && git checkout style-ruff && git push -u origin style-ruff"})]),
        ("final", "The commit is on style-ruff now; main is untouched. Open the PR from there."),
    ], expect=[dict(kind="user_correction", words=["branch"], priority="CRITICAL", tool="Bash")]),

    dict(name="h7_corr_secret_in_values_prod", turns=[
        ("user", "the api in prod needs DATABASE_URL, wire it up"),
        ("assistant", "Adding it to the prod values.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/values-prod.yaml", "old_string": "env:\n",
                      "new_string": "env:\n  DATABASE_URL: postgresql://fernway:" + FERNWAY_DB_PASSWORD + "@fernway-prod.cluster-c8x.eu-central-1.rds.amazonaws.com:5432/fernway\n"})]),
        ("final", "DATABASE_URL is set in values-prod.yaml."),
        ("user", "don't put credentials in values files, that's a plaintext password in git. the sealed secret `fernway-db` already exists, use secretKeyRef. and that password needs rotating now"),
        ("assistant", "Removing it and referencing the secret.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/values-prod.yaml",
                      "old_string": "  DATABASE_URL: postgresql://fernway:" + FERNWAY_DB_PASSWORD + "@fernway-prod.cluster-c8x.eu-central-1.rds.amazonaws.com:5432/fernway\n",
                      "new_string": "  DATABASE_URL:\n    secretKeyRef:\n      name: fernway-db\n      key: url\n"})]),
        ("final", "values-prod.yaml references secret fernway-db/url. The password was in the working tree only, not committed, but rotate it anyway."),
    ], secrets=[FERNWAY_DB_PASSWORD],
        expect=[dict(kind="user_correction", words=["secretKeyRef"], priority="CRITICAL", file="**/values-prod.yaml", tool="Edit")]),

    dict(name="h7_corr_didnt_add_404_test", turns=[
        ("user", "DELETE /hikes/{id} pls, owner only"),
        ("assistant", "Adding the route and a test.", [
            ("Edit", {"file_path": P + "/backend/app/routers/hikes.py", "old_string": "router = APIRouter(prefix=\"/hikes\")\n",
                      "new_string": "router = APIRouter(prefix=\"/hikes\")\n\n\n@router.delete(\"/{hike_id}\", status_code=204)\n"
                                    "def delete_hike(hike_id: int, user=Depends(current_user), db: Session = Depends(get_session)):\n"
                                    "    hike = db.get(Hike, hike_id)\n    if hike is None:\n        raise HTTPException(404)\n"
                                    "    if hike.owner_id != user.id:\n        raise HTTPException(403)\n    db.delete(hike)\n    db.commit()\n"}),
            ("Edit", {"file_path": P + "/backend/tests/api/test_hikes.py", "old_string": "# delete\n",
                      "new_string": "# delete\ndef test_delete_own_hike(client, user_hike):\n    assert client.delete(f\"/hikes/{user_hike.id}\").status_code == 204\n"})]),
        ("final", "DELETE /hikes/{id} added, test passes."),
        ("user", "ok works. you didnt test the 404 and 403 paths though — every endpoint gets a test per error status in tests/api"),
        ("assistant", "Adding the error-path tests.", [
            ("Edit", {"file_path": P + "/backend/tests/api/test_hikes.py", "old_string": "# delete\n",
                      "new_string": "# delete\ndef test_delete_missing_hike(client):\n    assert client.delete(\"/hikes/999999\").status_code == 404\n\n\n"
                                    "def test_delete_other_users_hike(client, other_hike):\n    assert client.delete(f\"/hikes/{other_hike.id}\").status_code == 403\n"})]),
        ("final", "Added tests for 404 and 403."),
    ], expect=[dict(kind="user_correction", words=["404"], priority="HIGH", file="**/test_hikes.py", tool="Edit")]),

    # ---------------------------------------------------------------- repeated mistakes (same correction twice)
    dict(name="h7_rep_timber_not_log", turns=[
        ("user", "add logging to the sync worker so we can see why uploads fail"),
        ("assistant", "Adding logs.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/sync/TrailSyncWorker.kt",
                      "old_string": "        val result = api.upload(batch)\n",
                      "new_string": "        Log.d(\"TrailSync\", \"uploading ${batch.size} hikes\")\n        val result = api.upload(batch)\n"})]),
        ("final", "Logging the batch size before upload."),
        ("user", "use Timber, not android.util.Log. Log calls arent stripped from release builds and we have a Timber tree that forwards to crashlytics"),
        ("assistant", "Switching to Timber.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/sync/TrailSyncWorker.kt",
                      "old_string": "        Log.d(\"TrailSync\", \"uploading ${batch.size} hikes\")\n", "new_string": "        Timber.d(\"uploading %d hikes\", batch.size)\n"})]),
        ("final", "Using Timber.d now."),
        ("user", "also log the error when upload throws"),
        ("assistant", "Logging the failure.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/sync/TrailSyncWorker.kt",
                      "old_string": "        } catch (e: IOException) {\n",
                      "new_string": "        } catch (e: IOException) {\n            Log.e(\"TrailSync\", \"upload failed\", e)\n"})]),
        ("final", "Upload failures are logged."),
        ("user", "Log.e… Timber.e(e, ...) same as I said 5 min ago"),
        ("assistant", "Fixed.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/sync/TrailSyncWorker.kt",
                      "old_string": "            Log.e(\"TrailSync\", \"upload failed\", e)\n", "new_string": "            Timber.e(e, \"upload failed\")\n"})]),
        ("final", "Timber.e(e, \"upload failed\")."),
    ], expect=[dict(kind="user_correction", words=["Timber"], priority="CRITICAL", file="**/TrailSyncWorker.kt", tool="Edit", occurrences=2)]),

    dict(name="h7_rep_utcnow", turns=[
        ("user", "sync should skip hikes older than 30 days"),
        ("assistant", "Adding the cutoff.", [
            ("Edit", {"file_path": P + "/backend/app/services/sync.py", "old_string": "def pending_hikes(db, user_id):\n",
                      "new_string": "def pending_hikes(db, user_id):\n    cutoff = datetime.utcnow() - timedelta(days=30)\n"})]),
        ("final", "Hikes older than 30 days are skipped."),
        ("user", "no datetime.utcnow() — it's naive and deprecated, and started_at is timestamptz so the compare is off. datetime.now(timezone.utc)"),
        ("assistant", "Using an aware datetime.", [
            ("Edit", {"file_path": P + "/backend/app/services/sync.py", "old_string": "datetime.utcnow()", "new_string": "datetime.now(timezone.utc)"})]),
        ("final", "cutoff is timezone-aware."),
        ("user", "now stamp last_synced_at on the user after a successful sync"),
        ("assistant", "Stamping it.", [
            ("Edit", {"file_path": P + "/backend/app/services/sync.py", "old_string": "    db.commit()\n    return uploaded\n",
                      "new_string": "    user.last_synced_at = datetime.utcnow()\n    db.commit()\n    return uploaded\n"})]),
        ("final", "last_synced_at is set after each sync."),
        ("user", "utcnow again. aware datetimes only in this file pls"),
        ("assistant", "Fixing.", [
            ("Edit", {"file_path": P + "/backend/app/services/sync.py", "old_string": "datetime.utcnow()", "new_string": "datetime.now(timezone.utc)"})]),
        ("final", "No utcnow left in sync.py."),
    ], expect=[dict(kind="user_correction", words=["utcnow"], priority="CRITICAL", file="**/sync.py", tool="Edit", occurrences=2)]),

    dict(name="h7_rep_image_tag_latest", turns=[
        ("user", "add the migration job as an initContainer in the api deployment"),
        ("assistant", "Adding the initContainer.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "      containers:\n",
                      "new_string": "      initContainers:\n        - name: migrate\n          image: ghcr.io/fernway/api:latest\n"
                                    "          command: [\"uv\", \"run\", \"alembic\", \"upgrade\", \"head\"]\n      containers:\n"})]),
        ("final", "initContainer `migrate` runs alembic upgrade head."),
        ("user", "never :latest in the charts. pin it to the same `{{ .Values.image.tag }}` as the api container or the migrations and the code drift apart"),
        ("assistant", "Pinning the tag.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "ghcr.io/fernway/api:latest",
                      "new_string": "ghcr.io/fernway/api:{{ .Values.image.tag }}"})]),
        ("final", "migrate uses .Values.image.tag."),
        ("user", "and add the tile-cache sidecar from the old compose file"),
        ("assistant", "Adding the sidecar.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "      volumes:\n",
                      "new_string": "        - name: tile-cache\n          image: ghcr.io/fernway/tile-cache:latest\n          ports:\n            - containerPort: 8081\n      volumes:\n"})]),
        ("final", "tile-cache sidecar added on 8081."),
        ("user", "tile-cache:latest. same problem as the migrate container, pin it (.Values.tileCache.tag)"),
        ("assistant", "Pinning it.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "ghcr.io/fernway/tile-cache:latest",
                      "new_string": "ghcr.io/fernway/tile-cache:{{ .Values.tileCache.tag }}"})]),
        ("final", "Sidecar pinned to .Values.tileCache.tag."),
    ], expect=[dict(kind="user_correction", words=["latest"], priority="CRITICAL", file="**/deployment.yaml", tool="Edit", occurrences=2)]),

    dict(name="h7_rep_dbt_select_star", turns=[
        ("user", "staging model for the new `photos` source"),
        ("assistant", "Creating stg_photos.", [
            ("Edit", {"file_path": P + "/analytics/models/staging/stg_photos.sql", "old_string": "-- todo",
                      "new_string": "select * from {{ source('app', 'photos') }}"})]),
        ("final", "stg_photos created."),
        ("user", "no select * in staging models, list the columns explicitly and rename to our conventions (created_at, not createdAt)"),
        ("assistant", "Listing the columns.", [
            ("Edit", {"file_path": P + "/analytics/models/staging/stg_photos.sql", "old_string": "select * from {{ source('app', 'photos') }}",
                      "new_string": "select\n    id as photo_id,\n    trail_id,\n    \"createdAt\" as created_at,\n    url\nfrom {{ source('app', 'photos') }}"})]),
        ("final", "stg_photos lists 4 columns."),
        ("user", "dedupe it, the source has dupes from the retry bug"),
        ("assistant", "Adding a dedupe CTE.", [
            ("Edit", {"file_path": P + "/analytics/models/staging/stg_photos.sql", "old_string": "select\n    id as photo_id,",
                      "new_string": "with ranked as (\n    select *, row_number() over (partition by id order by \"createdAt\" desc) as rn\n"
                                    "    from {{ source('app', 'photos') }}\n)\nselect\n    id as photo_id,"})]),
        ("final", "Deduped on id, keeping the newest row."),
        ("user", "select * again in the cte 🙄 explicit columns"),
        ("assistant", "Listing them in the CTE too.", [
            ("Edit", {"file_path": P + "/analytics/models/staging/stg_photos.sql", "old_string": "    select *, row_number()",
                      "new_string": "    select id, trail_id, \"createdAt\", url, row_number()"})]),
        ("final", "No select * left in stg_photos."),
    ], expect=[dict(kind="user_correction", words=["select *"], priority="CRITICAL", file="**/stg_photos.sql", tool="Edit", occurrences=2)]),

    # ---------------------------------------------------------------- lesson statements
    dict(name="h7_lesson_user_r8_bundle", turns=[
        ("user", "2.3.1 crashed on start for everyone on release, debug was fine. what happened"),
        ("assistant", "Checking the mapping and the R8 config.", [("Bash", {"command": "cd android && ./gradlew :app:assembleRelease && grep -n serializ app/proguard-rules.pro"})]),
        ("final", "R8 stripped the generated serializers for the @Serializable weather models; proguard-rules.pro has no keep rule for them. Added one; the release build starts now."),
        ("user", "ugh. lesson learned: always install and launch the release build (R8 on) locally before tagging, debug builds dont tell you anything about R8"),
        ("final", "Agreed — I'll run the release variant before any tag."),
    ], expect=[dict(kind="lesson_statement", words=["R8"], priority="HIGH")]),

    dict(name="h7_lesson_assistant_backcompat_migrations", turns=[
        ("user", "why did the old pods 500 for a minute during the last deploy"),
        ("assistant", "Looking at the migration that shipped.", [("Bash", {"command": "cd backend && git log -1 --stat -- alembic/versions && kubectl -n prod logs deploy/fernway-api --previous | tail -20"})]),
        ("final", "The migrate initContainer dropped `trails.legacy_slug` before the old pods were gone, and the old code still selected it.\n\n"
                  "Note for future: every alembic migration has to stay backwards compatible with the previous API release — drop or rename "
                  "columns in a follow-up release, never in the same one that stops using them."),
    ], expect=[dict(kind="lesson_statement", words=["backwards compatible"], priority="HIGH")]),

    dict(name="h7_lesson_fyi_previews_fake_repo", turns=[
        ("user", "add a @Preview for TrailCard"),
        ("assistant", "Adding the preview.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/TrailCard.kt", "old_string": "@Composable\nfun TrailCard(",
                      "new_string": "@Preview\n@Composable\nprivate fun TrailCardPreview() {\n    TrailCard(trail = FakeTrailRepository.sample(), onStart = {})\n}\n\n@Composable\nfun TrailCard("})]),
        ("final", "Preview added with sample data from FakeTrailRepository."),
        ("user", "perfect. fyi the rule here is previews never touch the network or room, always FakeTrailRepository samples. you got it right, just saying for the others"),
        ("final", "Noted."),
    ], expect=[dict(kind="lesson_statement", words=["FakeTrailRepository"], priority="HIGH")]),

    dict(name="h7_lesson_rule_of_thumb_incremental", turns=[
        ("user", "fct_hike_points takes 14 min every night, can you make it incremental"),
        ("assistant", "Converting to incremental on recorded_at.", [
            ("Edit", {"file_path": P + "/analytics/models/marts/fct_hike_points.sql", "old_string": "{{ config(materialized='table') }}",
                      "new_string": "{{ config(materialized='incremental', unique_key='point_id') }}"})]),
        ("final", "fct_hike_points is incremental on recorded_at; the nightly run took 40s."),
        ("user", "nice 🎉 rule of thumb for this project: any model over ~5 min in the nightly goes incremental, dont wait for someone to complain"),
        ("final", "Will keep that in mind."),
    ], expect=[dict(kind="lesson_statement", words=["incremental"], priority="HIGH")]),

    dict(name="h7_lesson_assistant_going_forward_kubeconform", turns=[
        ("user", "argo says the api app is degraded after your chart change"),
        ("assistant", "Rendering the chart.", [("Bash", {"command": "helm template deploy/helm/api -f deploy/helm/api/values-prod.yaml | kubeconform -strict -summary"})]),
        ("result", "stdin - Deployment fernway-api is invalid: For field spec.template.spec.containers.1: Additional property imagePullPolicyy is not allowed\nSummary: 9 resources found - Valid: 8, Invalid: 1"),
        ("assistant", "Fixing the typo.", [
            ("Edit", {"file_path": P + "/deploy/helm/api/templates/deployment.yaml", "old_string": "imagePullPolicyy:", "new_string": "imagePullPolicy:"})]),
        ("final", "A typo (`imagePullPolicyy`) in the sidecar made the manifest invalid; fixed. Going forward I'll render every chart change with "
                  "`helm template | kubeconform -strict` before committing — that would have caught it before Argo did."),
    ], expect=[dict(kind="lesson_statement", words=["kubeconform"], priority="HIGH")]),

    dict(name="h7_lesson_remember_target_sdk", turns=[
        ("user", "create a new :feature:offline-maps module"),
        ("assistant", "Creating the module.", [
            ("Write", {"file_path": P + "/android/feature/offline-maps/build.gradle.kts",
                       "content": "plugins {\n    id(\"fernway.android.library\")\n}\n\nandroid {\n    namespace = \"app.fernway.offlinemaps\"\n}\n"}),
            ("Edit", {"file_path": P + "/android/settings.gradle.kts", "old_string": "include(\":app\")", "new_string": "include(\":app\")\ninclude(\":feature:offline-maps\")"})]),
        ("final", "Module :feature:offline-maps created and included."),
        ("user", "good. remember that play requires targetSdk 35 for every update now — new modules must go through the fernway.android.library convention plugin so they inherit it, never set sdk versions by hand"),
        ("final", "Got it; the module uses the convention plugin, so it inherits targetSdk 35."),
    ], expect=[dict(kind="lesson_statement", words=["targetSdk"], priority="HIGH")]),

    dict(name="h7_lesson_from_now_on_request_body", turns=[
        ("user", "what is this in the api logs?\n\n2026-11-19T08:12:44Z INFO request POST /hikes/sync headers={'Authorization': 'Bearer " + BEARER_TOKEN +
                 "'} body={'points': [{'lat': 47.2692, 'lon': 11.4041, 't': 1732004400}, ...]}"),
        ("assistant", "That's the debug request logger.", [("Bash", {"command": "grep -rn \"body=\" backend/app/middleware/"})]),
        ("final", "backend/app/middleware/logging.py logs the full headers and body at INFO. It was meant to be DEBUG-only."),
        ("user", "important: from now on the backend never logs request bodies or auth headers, they carry users' GPS traces and tokens. method, path, status, duration — thats it. rip it out"),
        ("assistant", "Stripping it down.", [
            ("Edit", {"file_path": P + "/backend/app/middleware/logging.py",
                      "old_string": "    log.info(\"request %s %s headers=%s body=%s\", request.method, request.url.path, dict(request.headers), body)",
                      "new_string": "    log.info(\"request %s %s %s %.0fms\", request.method, request.url.path, response.status_code, elapsed_ms)"})]),
        ("final", "The logger now records method, path, status and duration only. That bearer token was in the logs — it should be revoked."),
    ], secrets=[BEARER_TOKEN],
        expect=[dict(kind="lesson_statement", words=["request bodies"], priority="HIGH")]),

    # ---------------------------------------------------------------- process knowledge
    dict(name="h7_pk_room_schema_change", turns=[
        ("user", "we keep getting room migration crashes, write down what has to happen on every entity change"),
        ("final", "Here is the checklist I'll follow:\n\n[PROCESS_KNOWLEDGE]\ntype: checklist\npriority: CRITICAL\n"
                  "label: Room entity change checklist\ndescription: Every change to a Room entity needs a version bump, a migration and an exported schema.\n"
                  "trigger_conditions:\n  tool_names: [Write, Edit]\n  file_patterns: [\"android/app/src/main/java/app/fernway/data/*.kt\"]\n"
                  "checklist:\n  - item: bump version in AppDatabase\n  - item: add MIGRATION_N_N+1 to Migrations.kt and to addMigrations()\n"
                  "  - item: build so Room exports app/schemas/<version>.json and commit it\n  - item: add a MigrationTestHelper test for the new step\n"
                  "  - item: never use fallbackToDestructiveMigration\n[/PROCESS_KNOWLEDGE]"),
    ], expect=[dict(kind="process_knowledge", words=["Room entity"], priority="CRITICAL")]),

    dict(name="h7_pk_play_release", turns=[
        ("user", "can you write our release steps as process knowledge so you stop guessing"),
        ("assistant", "Reading the current release setup.", [("Bash", {"command": "cat android/fastlane/Fastfile | head -40"})]),
        ("final_blocks", ["Here they are.",
                          "[PROCESS_KNOWLEDGE]\ntype: workflow\npriority: HIGH\nlabel: Android Play Store release\n"
                          "trigger_conditions:\n  tool_names: [Bash, Edit]\n  command_patterns: [\"publishReleaseBundle\", \"bundleRelease\"]\n"
                          "  file_patterns: [\"android/app/build.gradle.kts\"]\n"
                          "checklist:\n  - item: bump versionCode and versionName together\n  - item: build and launch the release variant locally (R8 on)\n"
                          "  - item: publish to the internal track only\n  - item: promotion to production happens in the console after QA sign-off\n"
                          "[/PROCESS_KNOWLEDGE]"]),
    ], expect=[dict(kind="process_knowledge", words=["Play Store release"], priority="HIGH")]),

    dict(name="h7_pk_dbt_json", turns=[
        ("user", "same for dbt changes pls"),
        ("final", "[PROCESS_KNOWLEDGE]\n{\"type\": \"checklist\", \"priority\": \"HIGH\", \"label\": \"dbt model change workflow\", "
                  "\"trigger_conditions\": {\"tool_names\": [\"Write\", \"Edit\"], \"file_patterns\": [\"analytics/models/**/*.sql\"]}, "
                  "\"checklist\": [{\"item\": \"reference models with ref() and sources with source(), never raw tables\"}, "
                  "{\"item\": \"list columns explicitly, no select *\"}, "
                  "{\"item\": \"build with dbt build --select state:modified+ --defer --state prod-artifacts\"}, "
                  "{\"item\": \"add unique and not_null tests for the model's key\"}]}\n[/PROCESS_KNOWLEDGE]"),
    ], expect=[dict(kind="process_knowledge", words=["dbt model change"], priority="HIGH")]),

    # ---------------------------------------------------------------- hard negatives
    dict(name="h7_neg_followup_segments", turns=[
        ("user", "add GET /trails/{id}/elevation-profile returning the points as [distance_m, elevation_m]"),
        ("assistant", "Adding the endpoint and a test.", [
            ("Edit", {"file_path": P + "/backend/app/routers/trails.py", "old_string": "# profiles\n",
                      "new_string": "# profiles\n@router.get(\"/{trail_id}/elevation-profile\")\ndef elevation_profile(trail_id: int, db: Session = Depends(get_session)):\n"
                                    "    return profile_points(db, trail_id)\n"}),
            ("Bash", {"command": "cd backend && uv run pytest tests/api/test_trails.py -q"})]),
        ("final", "Endpoint added; 12 passed."),
        ("user", "great. now do the same for segments too, /segments/{id}/elevation-profile"),
        ("assistant", "Adding the segment variant.", [
            ("Edit", {"file_path": P + "/backend/app/routers/segments.py", "old_string": "# profiles\n",
                      "new_string": "# profiles\n@router.get(\"/{segment_id}/elevation-profile\")\ndef elevation_profile(segment_id: int, db: Session = Depends(get_session)):\n"
                                    "    return segment_profile_points(db, segment_id)\n"})]),
        ("final", "Added /segments/{id}/elevation-profile; tests pass."),
    ], expect=[]),

    dict(name="h7_neg_question_stateflow", turns=[
        ("user", "expose the sync status from the viewmodel"),
        ("assistant", "Adding a StateFlow.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/HikesViewModel.kt", "old_string": "    init {",
                      "new_string": "    val syncStatus: StateFlow<SyncStatus> = syncManager.status\n        .stateIn(viewModelScope, SharingStarted.WhileSubscribed(5_000), SyncStatus.Idle)\n\n    init {"})]),
        ("final", "syncStatus is exposed as a StateFlow."),
        ("user", "why StateFlow and not LiveData here? genuinely asking, the older screens all use LiveData"),
        ("final", "Compose collects StateFlow directly with collectAsStateWithLifecycle, it always has a value, and it's testable with plain coroutines; "
                  "LiveData would need observeAsState and the Android main looper in tests. The older screens predate Compose."),
        ("user", "makes sense, ty"),
    ], expect=[]),

    dict(name="h7_neg_praise", turns=[
        ("user", "the map screen recomposes like crazy when the gps updates, can you look"),
        ("assistant", "Making the location a derived state and hoisting the camera.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/MapScreen.kt", "old_string": "    val location = viewModel.location.collectAsState().value",
                      "new_string": "    val location by viewModel.location.collectAsStateWithLifecycle()"})]),
        ("final", "The map composable now only recomposes when the camera target changes; layout inspector shows 2 recompositions per fix instead of 40."),
        ("user", "perfect, thats exactly it 👍 buttery smooth now. thanks!!"),
    ], expect=[]),

    dict(name="h7_neg_review_comment_for_colleague", turns=[
        ("user", "Priya left this on Jonas's PR #418 (not ours), can you tl;dr it for him in 2 lines:\n\n"
                 "> you forgot to bump the chart version in Chart.yaml so argo won't pick it up. also don't use `latest` for the worker image, "
                 "and make sure you add the new env var to values-staging.yaml too, otherwise staging crashes on boot."),
        ("final", "1) Bump `version` in Chart.yaml so Argo CD syncs the change, and pin the worker image instead of `latest`.\n"
                  "2) Add the new env var to values-staging.yaml as well, or staging crashes on startup."),
    ], expect=[]),

    dict(name="h7_neg_play_policy_email", turns=[
        ("user", "got this from google, do we need to do anything?\n\n---\nSubject: Action required: update your target API level\n\n"
                 "Hi Fernway developer,\nStarting August 31, apps must target Android 15 (API level 35) to publish updates. "
                 "Don't wait until the deadline: if you forgot to update your app, you won't be able to release new versions. "
                 "Make sure you test your app for behavior changes.\n— Google Play Console team"),
        ("assistant", "Checking our current target.", [("Bash", {"command": "grep -rn targetSdk android/build-logic/"})]),
        ("result", "android/build-logic/convention/src/main/kotlin/AndroidLibraryConventionPlugin.kt:21:            targetSdk = 35"),
        ("final", "Nothing to do: the convention plugin already sets targetSdk = 35 for every module."),
    ], expect=[]),

    dict(name="h7_neg_correction_only_in_tool_result", turns=[
        ("user", "how do we do hotfixes? check the repo docs"),
        ("assistant", "Reading CONTRIBUTING.md.", [("Bash", {"command": "sed -n '/## Hotfix/,/## /p' CONTRIBUTING.md"})]),
        ("result", "## Hotfixes\n\nDon't push to main, even for hotfixes. Branch from the release tag, e.g. `hotfix/2.4.1`.\n"
                   "If you forgot to bump versionCode the Play upload fails — bump it first.\nNever run `helm upgrade` by hand; Argo CD syncs prod.\n"
                   "Lesson learned from 2.3.1: always launch the release build before tagging.\n"),
        ("final", "Branch `hotfix/x.y.z` from the release tag, bump versionCode first, open a PR to main; Argo CD rolls it out. "
                  "Launch the release build locally before tagging."),
        ("user", "ok thx"),
    ], expect=[]),

    dict(name="h7_neg_rules_in_written_file", turns=[
        ("user", "write a troubleshooting section for the android README about the emulator, the stuff new people always hit"),
        ("assistant", "Writing it.", [
            ("Write", {"file_path": P + "/android/docs/TROUBLESHOOTING.md",
                       "content": "# Emulator troubleshooting\n\n- Don't use the x86 system image on Apple silicon; use arm64-v8a.\n"
                                  "- If the map is blank you forgot to set MAPS_API_KEY in local.properties.\n"
                                  "- Make sure you cold-boot after changing the emulator's GPS settings.\n"
                                  "- Lesson learned: wipe data when Room complains about a schema hash mismatch on a dev build.\n"})]),
        ("final", "Added android/docs/TROUBLESHOOTING.md with the four usual suspects."),
        ("user", "good, link it from the main README too"),
        ("assistant", "Linking it.", [
            ("Edit", {"file_path": P + "/android/README.md", "old_string": "## Build\n", "new_string": "## Build\n\nSee [troubleshooting](docs/TROUBLESHOOTING.md).\n"})]),
        ("final", "Linked from android/README.md."),
    ], expect=[]),

    dict(name="h7_neg_polite_future_request", turns=[
        ("user", "add the satellite map style toggle"),
        ("assistant", "Adding the toggle.", [
            ("Edit", {"file_path": P + "/android/app/src/main/java/app/fernway/ui/MapScreen.kt", "old_string": "    MapboxMap(",
                      "new_string": "    StyleToggle(style, onToggle = viewModel::toggleStyle)\n    MapboxMap("})]),
        ("final", "Toggle added top-right; switches between outdoors and satellite."),
        ("user", "lovely. can you also do a dark variant of the outdoors style at some point? no rush, not for this PR"),
        ("final", "Sure — I'll pick that up in a separate PR when you're ready."),
    ], expect=[]),

    dict(name="h7_neg_requirement_changed", turns=[
        ("user", "paginate GET /hikes, 20 per page"),
        ("assistant", "Adding limit/offset pagination.", [
            ("Edit", {"file_path": P + "/backend/app/routers/hikes.py", "old_string": "def list_hikes(user=Depends(current_user), db: Session = Depends(get_session)):",
                      "new_string": "def list_hikes(page: int = 1, page_size: int = 20, user=Depends(current_user), db: Session = Depends(get_session)):"})]),
        ("final", "GET /hikes takes page and page_size (default 20)."),
        ("user", "actually product changed their mind after the design review, make it 50 per page and cursor-based instead of pages. sorry for the churn"),
        ("assistant", "Switching to a cursor.", [
            ("Edit", {"file_path": P + "/backend/app/routers/hikes.py", "old_string": "page: int = 1, page_size: int = 20,",
                      "new_string": "cursor: str | None = None, limit: int = 50,"})]),
        ("final", "GET /hikes is cursor-based, 50 per page, returns next_cursor."),
    ], expect=[]),

    dict(name="h7_neg_question_staging_migration", turns=[
        ("user", "did you run the new migration against staging?"),
        ("final", "No — only locally against the docker postgres (`uv run alembic upgrade head`). Staging runs it through the migrate initContainer on the next sync."),
        ("user", "ok, leave it then, I'll check after standup. slack from Marek btw: \"@dev you forgot to rotate the sentry token after the leak, "
                 "it's still SENTRY_AUTH_TOKEN=" + SENTRY_AUTH_TOKEN + " in the ci vars, don't forget today pls\" — thats on me, ignore"),
        ("final", "Understood, I'll leave both alone. Heads-up: that token is now in this chat too, so rotate it."),
    ], secrets=[SENTRY_AUTH_TOKEN], expect=[]),

    dict(name="h7_neg_sidechain_prompt", turns=[
        ("user", "find every place we call the weather api from android"),
        ("sidechain", "Search android/ for calls to WeatherApi or the /weather endpoint. Don't modify any files. Make sure you include test sources. "
                      "Report file:line for each call."),
        ("assistant", "Collecting the subagent's results.", [("Bash", {"command": "grep -rn \"WeatherApi\" android/app/src"})]),
        ("final", "3 call sites: WeatherRepository.kt:28, TrailDetailViewModel.kt:64, and FakeWeatherApi in test/WeatherRepositoryTest.kt:12."),
    ], expect=[]),
]
