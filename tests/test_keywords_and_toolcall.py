"""Keyword folding and the ToolCall view of a hook input."""

import pytest

from forewarn.keywords import any_in, fold, fold_keyword
from forewarn.toolcall import ToolCall, normalise_path


@pytest.mark.parametrize("keyword,text,hit", [
    ("version", "Bump the VERSION.", True),
    ("version", "versioning scheme", False),
    ("package.json", "edit package.json now", True),
    ("push --force", "git push --force origin main", True),
    ("push --force", "git push origin main --force", False),
    ("npm publish", "npm  publish", True),
    ("C++", "write c++ code", True),
])
def test_word_boundary_matching(keyword, text, hit):
    assert (any_in([fold_keyword(keyword)], fold(text)) is not None) is hit


def test_keyword_without_words_is_dropped():
    assert fold_keyword("--") is None


ROOT = "/home/u/proj"


@pytest.mark.parametrize("path,cwd,root,expected", [
    ("/home/u/proj/src/a.py", None, ROOT, (["src", "a.py"], False)),
    ("./src/a.py", ROOT, ROOT, (["src", "a.py"], False)),
    ("src/../lib/b.py", ROOT + "/sub", ROOT, (["sub", "lib", "b.py"], False)),
    ("/etc/hosts", None, ROOT, (["etc", "hosts"], True)),
    ("C:\\proj\\src\\x.py", None, "C:\\proj", (["src", "x.py"], False)),
    ("c:\\PROJ\\src\\x.py", None, "C:\\proj", (["src", "x.py"], False)),
    ("", None, ROOT, ([], False)),
    (None, None, ROOT, ([], False)),
])
def test_normalise_path(path, cwd, root, expected):
    assert normalise_path(path, cwd, root) == expected


def test_bash_command_paths_and_text():
    call = ToolCall({"tool_name": "Bash", "cwd": ROOT, "tool_input": {"command": "sed -i 's/a/b/' ./.claude-plugin/plugin.json && rm -rf --dir=build/out https://x.io/y"}}, ROOT)
    assert not call.file_bearing
    assert [".claude-plugin", "plugin.json"] in call.paths and ["build", "out"] in call.paths
    assert " sed " in call.folded_text() and " bash " in call.folded_text()


def test_mcp_multiedit_and_odd_inputs():
    call = ToolCall({"tool_name": "MultiEdit", "tool_input": {"file_path": ROOT + "/a.json", "edits": [{"old_string": "x", "new_string": "1.2.3"}]}}, ROOT)
    assert call.names == ("multiedit", "edit") and call.file_bearing and call.wordless
    mcp = ToolCall({"tool_name": "mcp__github__create_pull_request", "tool_input": {"title": "Add"}}, ROOT)
    assert " pull request " in mcp.folded_text() and " add " in mcp.folded_text()
    for data in ({}, {"tool_name": 5, "tool_input": "x"}, {"tool_name": "Write", "tool_input": {"file_path": 3}}):
        call = ToolCall(data, ROOT)
        assert call.paths == [] and isinstance(call.folded_text(), str)


def test_edit_old_text_is_not_searched():
    call = ToolCall({"tool_name": "Edit", "tool_input": {"file_path": ROOT + "/a.py", "old_string": "version", "new_string": "name"}}, ROOT)
    assert " version " not in call.folded_text()
