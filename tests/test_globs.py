"""forewarn.globs against pathspec's GitIgnoreSpec, a reference implementation of gitignore globs."""

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn import globs

SEGMENTS = ["src", "app", "a", "b", "tests", "docs", ".claude-plugin", "plugin.json", "x.py", "y.ts", ".env", "README.md", "v1.2"]
PATTERN_PARTS = ["src", "a", "b", "*", "**", "*.py", "*.json", "?.py", "[ab]", "[!a]*", "x*", "plugin.json", ".env*", "docs", "*.test.ts"]

paths = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join)
patterns = st.builds(
    lambda lead, parts, trail: lead + "/".join(parts) + trail,
    st.sampled_from(["", "/", "**/"]),
    st.lists(st.sampled_from(PATTERN_PARTS), min_size=1, max_size=4),
    st.sampled_from(["", "/", "/**"]),
)


def reference(pattern, path):
    return pathspec.GitIgnoreSpec.from_lines([pattern]).match_file(path)


@settings(max_examples=3000, deadline=None)
@given(patterns, paths)
def test_single_patterns_agree_with_pathspec(pattern, path):
    try:
        compiled = globs.compile_glob(pattern)
    except globs.GlobError:
        return
    assert globs.match_compiled(compiled, path.split("/")) == reference(pattern, path), (pattern, path)


@pytest.mark.parametrize("pattern,path,expected", [
    ("**/plugin.json", ".claude-plugin/plugin.json", True),
    ("**/plugin.json", "plugin.json", True),
    ("src/**/*.py", "src/a/b/c.py", True),
    ("src/**/*.py", "lib/src/a.py", False),
    ("*.py", "deep/down/x.py", True),
    ("/README.md", "docs/README.md", False),
    ("docs/", "docs/index.md", True),
    ("docs/", "docs", False),
    ("migrations/versions/*.py", "migrations/versions/001.py", True),
    ("migrations/versions/*.py", "migrations/versions/sub/001.py", False),
    ("\\*.md", "*.md", True),
    ("\\*.md", "a.md", False),
])
def test_documented_examples(pattern, path, expected):
    assert globs.match_compiled(globs.compile_glob(pattern), path.split("/")) is expected
    assert reference(pattern, path) is expected


def test_negation_last_match_wins():
    rules = [globs.compile_glob(p) for p in ("docs/**", "!docs/internal/**")]
    assert globs.match_any(rules, "docs/guide.md".split("/"))
    assert not globs.match_any(rules, "docs/internal/secret.md".split("/"))
    assert not globs.match_any([globs.compile_glob("!x")], ["x"])


@pytest.mark.parametrize("bad", ["", "   ", "#comment", "!", "/", "trailing\\", 3])
def test_unusable_patterns_raise(bad):
    with pytest.raises(globs.GlobError):
        globs.compile_glob(bad)


def test_index_keys_find_every_match():
    for pattern, key in [("**/plugin.json", ("n", "plugin.json")), ("src/**/*.py", ("e", ".py")),
                         ("docs/", ("n", "docs")), ("*.test.ts", ("e", ".ts")), ("[ab]*", ("g", "")), ("**", ("g", ""))]:
        assert globs.index_keys(globs.compile_glob(pattern)) == key
