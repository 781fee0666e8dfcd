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
