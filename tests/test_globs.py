"""forewarn.globs against pathspec's GitIgnoreSpec, a reference implementation of gitignore globs."""

import itertools
import marshal
import shutil
import subprocess

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn import globs

# Segments of paths, including names that look like glob syntax, and pattern parts covering every construct:
# wildcards, classes (negated, ranges, a leading ']'), escapes, '**' alone and glued to a name, unclosed '['.
SEGMENTS = ["a", "b", "ab", "src", ".env", ".env.local", "x.py", "y.ts", "a.b.c", "[x]", "*", "a b", "plugin.json",
            "déjà", "-", "A", "b?", "!x", "#c", "\\", "docs", "v1.2"]
PARTS = ["a", "b", "*", "**", "?", "*.py", "a*", "*b", "a?b", "[ab]", "[!a]", "[^a]", "[a-c]", "[]a]", "[!]a]", "[a-]",
         "[-a]", "[\\]]", "\\*", "\\?", "\\[x]", "a**", "**b", "x.py", ".env*", "[a", "a]", "*.*", "a\\b", "src", "\\!x",
         "\\#c", "a b", "A", "docs", "plugin.json"]
LEADS = ["", "/", "**/", "!"]
TRAILS = ["", "/", "/**", " ", "\\ "]

paths = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join)
patterns = st.builds(lambda lead, parts, trail: lead + "/".join(parts) + trail,
                     st.sampled_from(LEADS), st.lists(st.sampled_from(PARTS), min_size=1, max_size=4), st.sampled_from(TRAILS))


def reference(pattern, path):
    """pathspec's answer for one pattern; a negated pattern is asked without its '!' (what it would match)."""
    return pathspec.GitIgnoreSpec.from_lines([pattern[1:] if pattern.startswith("!") else pattern]).match_file(path)


def ours(pattern, path):
    return globs.match_compiled(globs.compile_glob(pattern), path.split("/"))


@settings(max_examples=5000, deadline=None)
@given(patterns, paths)
def test_single_patterns_agree_with_pathspec(pattern, path):
    try:
        compiled = globs.compile_glob(pattern)
    except globs.GlobError:
        return
    assert globs.match_compiled(compiled, path.split("/")) == reference(pattern, path), (pattern, path)


def test_systematic_patterns_agree_with_pathspec():
    """Every pattern of up to two parts (with each lead and trail) against every path of up to three segments."""
    segs = ["a", "b", "ab", "x.py", ".env", "src", "[x]", "a b"]
    all_paths = ["/".join(p) for n in (1, 2, 3) for p in itertools.product(segs, repeat=n)]
    parts = ["a", "*", "**", "?", "*.py", "[ab]", "[!a]", "a*", ".env*", "\\*", "src"]
    checked = 0
    for n in (1, 2):
        for combo in itertools.product(parts, repeat=n):
            for lead, trail in itertools.product(["", "/", "**/"], ["", "/", "/**"]):
                pattern = lead + "/".join(combo) + trail
                compiled = globs.compile_glob(pattern)
                spec = pathspec.GitIgnoreSpec.from_lines([pattern])
                for path in all_paths:
                    assert globs.match_compiled(compiled, path.split("/")) == spec.match_file(path), (pattern, path)
                    checked += 1
    assert checked > 500_000


@pytest.mark.parametrize("pattern,path,expected", [
    ("**/plugin.json", ".claude-plugin/plugin.json", True),
    ("**/plugin.json", "plugin.json", True),
    ("plugin.json", "a/b/plugin.json", True),  # no slash: any depth
    ("src/**/*.py", "src/a/b/c.py", True),
    ("src/**/*.py", "src/c.py", True),
    ("src/**/*.py", "lib/src/a.py", False),  # a slash anchors to the root
    ("*.py", "deep/down/x.py", True),
    ("/README.md", "docs/README.md", False),
    ("docs/", "docs/index.md", True),
    ("docs/", "docs", False),  # a trailing slash: folders only
    ("docs/**", "docs", False),
    ("migrations/versions/*.py", "migrations/versions/001.py", True),
    ("migrations/versions/*.py", "migrations/versions/sub/001.py", False),  # '*' does not cross '/'
    ("a/**/b", "a/b", True),
    ("a/**/b", "a/x/y/b", True),
    ("[!a]*.py", "b.py", True),
    ("[!a]*.py", "a.py", False),
    ("\\*.md", "*.md", True),
    ("\\*.md", "a.md", False),
    (".env.*", ".env.local", True),
    (".env.*", ".env", False),
])
def test_documented_examples(pattern, path, expected):
    assert ours(pattern, path) is expected
    assert reference(pattern, path) is expected


@pytest.mark.parametrize("pattern,path,expected", [
    ("a\\ ", "a ", True),  # an escaped trailing space is kept
    ("a\\ ", "a", False),
    ("a\\\\ ", "a\\", True),  # an escaped backslash escapes nothing: the space is trimmed (pathspec disagrees; git does not)
    ("a\\  ", "a ", True),
    ("a ", "a", True),
])
def test_trailing_white_space_as_git_trims_it(pattern, path, expected):
    assert ours(pattern, path) is expected


@pytest.mark.parametrize("pattern,path,expected", [
    ("./x.py", "x.py", True),  # './' is the project root, not any depth
    ("./x.py", "a/x.py", False),
    ("./src/**/*.py", "src/a.py", True),
    ("!./x.py", "x.py", True),  # the negation is a separate flag: the pattern still matches
    ("  src/a.py", "src/a.py", True),  # leading white space is an author's slip, dropped
])
def test_additions_for_authors(pattern, path, expected):
    assert ours(pattern, path) is expected


def match_list(patterns, path):
    return globs.match_any([globs.compile_glob(p) for p in patterns], path.split("/"))


lists = st.lists(st.builds(lambda neg, lead, parts, trail: neg + lead + "/".join(parts) + trail,
                           st.sampled_from(["", "", "!"]), st.sampled_from(["", "/", "**/"]),
                           st.lists(st.sampled_from(["a", "b", "*", "**", "*.py", "src", "docs", ".env*", "[ab]"]), min_size=1, max_size=3),
                           st.sampled_from(["", "/", "/**"])), min_size=1, max_size=5)


@settings(max_examples=3000, deadline=None)
@given(lists, st.lists(st.sampled_from(["a", "b", "src", ".env", "x.py", "docs"]), min_size=1, max_size=4).map("/".join))
def test_in_a_list_the_last_matching_pattern_decides(patterns, path):
    """The oracle: pathspec says which patterns match; the last that does decides (negated: no match)."""
    expected = False
    for pattern in patterns:
        if reference(pattern, path):
            expected = not pattern.startswith("!")
    assert match_list(patterns, path) is expected


def test_negation_examples():
    assert match_list(["docs/**", "!docs/internal/**"], "docs/guide.md")
    assert not match_list(["docs/**", "!docs/internal/**"], "docs/internal/secret.md")
    assert match_list(["admin/src/**/*.tsx", "!**/*.test.tsx"], "admin/src/components/Card.tsx")
    assert not match_list(["admin/src/**/*.tsx", "!**/*.test.tsx"], "admin/src/components/Card.test.tsx")
    assert match_list(["!**/*.test.tsx", "admin/src/**/*.tsx"], "admin/src/Card.test.tsx")  # order counts
    assert not match_list(["!x"], "x") and not match_list(["!x"], "y")  # a negation alone never matches
    assert not match_list([], "x")
    assert match_list([".env", ".env.*", "!.env.example"], ".env.local")
    assert not match_list([".env", ".env.*", "!.env.example"], ".env.example")


def test_a_negation_re_includes_below_an_excluded_folder_unlike_git(tmp_path):
    """Git cannot re-include a file whose folder is excluded; a trigger list can (documented in the module)."""
    assert not match_list(["docs/", "!docs/keep.md"], "docs/keep.md")
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    (tmp_path / ".gitignore").write_text("docs/\n!docs/keep.md\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "keep.md").write_text("")
    subprocess.run([git, "init", "-q"], cwd=tmp_path, check=True)
    ignored = subprocess.run([git, "check-ignore", "-q", "docs/keep.md"], cwd=tmp_path)
    assert ignored.returncode == 0  # git: still ignored


@pytest.mark.parametrize("bad", ["", "   ", "#comment", "!", "/", "//", "!/", "trailing\\", "./", "a[", "src/[a-z/x", "[]",
                                 3, None, b"x"])
def test_unusable_patterns_raise(bad):
    with pytest.raises(globs.GlobError):
        globs.compile_glob(bad)


def test_compiled_patterns_are_memoised_and_marshal_safe():
    compiled = globs.compile_glob("src/**/[!_]*.py")
    assert globs.compile_glob("src/**/[!_]*.py") is compiled
    assert marshal.loads(marshal.dumps(compiled)) == compiled


@settings(max_examples=3000, deadline=None)
@given(patterns, paths)
def test_index_keys_find_every_match(pattern, path):
    """A path a pattern matches holds the segment or extension the index files the pattern under."""
    try:
        compiled = globs.compile_glob(pattern)
    except globs.GlobError:
        return
    parts = path.split("/")
    if compiled[0] or not globs.match_compiled(compiled, parts):
        return
    kind, value = globs.index_keys(compiled)
    if kind == "n":
        assert value in parts
    elif kind == "e":
        assert value in [globs.extension(p) for p in parts]
    else:
        assert (kind, value) == ("g", "")


@pytest.mark.parametrize("pattern,key", [
    ("**/plugin.json", ("n", "plugin.json")), ("src/**/*.py", ("e", ".py")), ("docs/", ("n", "docs")),
    ("*.test.ts", ("e", ".ts")), ("[ab]*", ("g", "")), ("**", ("g", "")), ("src/*", ("g", "")),  # the last segment decides
    ("**/test_*.py", ("e", ".py")), ("src/**/[a-m]*.ts", ("e", ".ts")), ("**/orders?.sql", ("e", ".sql")),
    ("config/*.yml", ("e", ".yml")), ("*.tar.gz", ("e", ".gz")), ("a*.d", ("e", ".d")), ("x*y", ("g", "")),
    ("*.min*", ("g", "")),
])
def test_index_keys(pattern, key):
    assert globs.index_keys(globs.compile_glob(pattern)) == key


@pytest.mark.parametrize("name,ext", [("plugin.json", ".json"), (".env", ".env"), ("a.b.c", ".c"), ("Makefile", "")])
def test_extension(name, ext):
    assert globs.extension(name) == ext
