"""forewarn.keywords: folding, word-boundary matching, and keywords spread over a shell command."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forewarn.keywords import any_in, any_in_command, fold, fold_keyword, in_command


@pytest.mark.parametrize("keyword,text,hit", [
    ("version", "Bump the VERSION.", True),
    ("Version", "bump the version", True),
    ("version", "versioning scheme", False),
    ("version", "subversion", False),
    ("version", "version", True),
    ("version", "__version__ = '1.0'", True),
    ("package.json", "edit package.json now", True),
    ("package.json", "edit package json now", True),
    ("package.json", "edit package.jsonc", False),
    ("push --force", "git push --force origin main", True),
    ("push --force", "git push origin main --force", False),  # not adjacent: only in_command finds it
    ("push -f", "git push -f", True),
    ("push -f", "git push -fq", False),
    ("npm publish", "npm  publish", True),
    ("npm publish", "pnpm publish", False),
    ("C++", "write c++ code", True),
    ("rm -rf", "rm -rf build/", True),
    ("rm -rf", "rm -r -f build/", False),
    ("DROP TABLE", "drop table accounts;", True),
    ("café", "Un CAFÉ noir", True),
    ("force-with-lease", "git push --force-with-lease", True),
])
def test_word_boundary_matching(keyword, text, hit):
    assert (any_in([fold_keyword(keyword)], fold(text)) is not None) is hit


def test_fold_pads_collapses_and_drops_punctuation():
    assert fold("  Hello,\tWorld!\n") == " hello world "
    assert fold("") == "  "
    assert fold("a_b-c.d/e") == " a b c d e "


@pytest.mark.parametrize("keyword", ["--", "  ", "", "...", "#!"])
def test_keyword_without_words_is_dropped(keyword):
    assert fold_keyword(keyword) is None


def test_any_in_returns_the_first_keyword_found():
    keywords = [fold_keyword(k) for k in ("release", "version", "bump")]
    assert any_in(keywords, fold("bump the version")) == " version "
    assert any_in(keywords, fold("nothing here")) is None
    assert any_in([], fold("version")) is None


def shell(command):
    """Simple commands of folded shell words, as forewarn.toolcall.ToolCall.commands() builds them."""
    return [[fold(w) for w in part.split() if fold(w).strip()] for part in command.split("&&")]


@pytest.mark.parametrize("keyword,command,hit", [
    ("push --force", "git push origin main --force", True),
    ("push --force", "git push --force", True),
    ("push --force", "git --force push", False),  # order counts
    ("push -f", "git push origin feature/f", False),  # a keyword word never matches part of a shell word
    ("push -f", "git push origin main -f", True),
    ("terraform destroy", "terraform -chdir=infra destroy -target=x", True),
    ("pnpm publish", "pnpm -C packages/sdk publish --access public", True),
    ("kubectl apply", "kubectl --context prod apply -f web.yaml", True),
    ("push --force-with-lease", "git push origin x --force-with-lease", True),
    ("git push", "git status && push.sh", False),  # never across simple commands
    ("rm -rf", "rm -r -f build", False),
])
def test_keyword_words_in_order_within_one_shell_command(keyword, command, hit):
    folded = fold_keyword(keyword)
    assert any(in_command(folded, words) for words in shell(command)) is hit
    assert (any_in_command([folded], shell(command)) is not None) is hit


words = st.lists(st.sampled_from(["git", "push", "origin", "main", "--force", "-f", "a/b", "x.y"]), min_size=1, max_size=8)


@given(words)
def test_a_contiguous_match_is_always_a_command_match(tokens):
    """For keywords made of whole shell words, in_command only widens any_in: a phrase match is a command match."""
    command = " ".join(tokens)
    for keyword in ("push --force", "push -f", "origin main", "git push origin"):
        folded = fold_keyword(keyword)
        if any_in([folded], fold(command)) is not None and all(fold(t).strip() for t in tokens):
            assert in_command(folded, [fold(t) for t in tokens])


def test_a_folded_text_searched_by_its_words_finds_what_the_string_finds():
    from forewarn.keywords import fold_text

    plain = fold("Deploy to production, then check the dashboards (prod-eu).")
    text = fold_text("Deploy to production, then check the dashboards (prod-eu).")
    for keyword in ("production", "prod", "eu", "deploy to", "dashboard", "check the dashboards", "ion", "Deploy"):
        folded = fold(keyword)
        assert (folded in text) is (folded in plain), keyword
    assert text.words() >= {"deploy", "production", "prod", "eu"}


def test_punctuation_that_makes_a_keyword_and_finding_it_as_written():
    from forewarn.keywords import holds_literally, punctuation_is_meaning

    assert [k for k in ("-delete", ".delete()", "print(", "--no-verify", "rm -rf", "DELETE FROM", "delete", "-")
            if punctuation_is_meaning(k)] == ["-delete", ".delete()", "print(", "--no-verify"]
    assert holds_literally("-delete", "find . -name x -delete")
    assert not holds_literally("-delete", "kubectl delete pod") and not holds_literally("-delete", "run pre-delete hooks")
