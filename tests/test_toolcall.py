"""forewarn.toolcall: the hook input as the scorer sees it (paths, names, searchable text, shell commands)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn.keywords import fold
from forewarn.toolcall import MAX_BASH_TOKENS, MAX_TEXT_CHARS, ToolCall, normalise_path

ROOT = "/home/u/proj"
WROOT = "C:\\Users\\u\\proj"


@pytest.mark.parametrize("path,cwd,root,expected", [
    # absolute, inside
    ("/home/u/proj/src/a.py", None, ROOT, (["src", "a.py"], False)),
    ("/home/u/proj/./src//a.py", None, ROOT, (["src", "a.py"], False)),
    ("/home/u/proj/../proj/src/a.py", None, ROOT, (["src", "a.py"], False)),
    ("/home/u/proj/src/a.py", None, ROOT + "/", (["src", "a.py"], False)),
    ("/home/u/proj", None, ROOT, ([], False)),  # the root itself names no file
    # relative to the hook's cwd (never the process's)
    ("./src/a.py", ROOT, ROOT, (["src", "a.py"], False)),
    ("./a.py", ROOT + "/sub", ROOT, (["sub", "a.py"], False)),
    ("src/../lib/b.py", ROOT + "/sub", ROOT, (["sub", "lib", "b.py"], False)),
    ("../Dockerfile", ROOT + "/admin", ROOT, (["Dockerfile"], False)),
    ("a.py", None, ROOT, (["a.py"], False)),
    # outside: absolute segments kept, flagged
    ("/etc/hosts", None, ROOT, (["etc", "hosts"], True)),
    ("/home/u/projx/a.py", None, ROOT, (["home", "u", "projx", "a.py"], True)),  # a sibling sharing the prefix
    ("../other/a.py", ROOT, ROOT, (["home", "u", "other", "a.py"], True)),
    ("a.py", None, None, (["a.py"], True)),
    # Windows
    ("C:\\Users\\u\\proj\\src\\x.py", None, WROOT, (["src", "x.py"], False)),
    ("C:/Users/u/proj/src/x.py", None, WROOT, (["src", "x.py"], False)),
    ("c:\\users\\u\\PROJ\\src\\x.py", None, WROOT, (["src", "x.py"], False)),  # drive and folders ignore case
    ("src\\x.py", WROOT, WROOT, (["src", "x.py"], False)),
    (".\\src\\x.py", WROOT + "\\src", WROOT, (["src", "src", "x.py"], False)),
    ("D:\\Users\\u\\proj\\x.py", None, WROOT, (["Users", "u", "proj", "x.py"], True)),  # another drive
    ("C:\\Users\\u\\projx\\a.py", None, WROOT, (["Users", "u", "projx", "a.py"], True)),
    ("C:\\Users\\u\\proj\\x.py", None, ROOT, (["Users", "u", "proj", "x.py"], True)),  # a Windows path, a POSIX root
    ("\\\\server\\share\\a.py", None, ROOT, (["server", "share", "a.py"], True)),
    # unusable
    ("", None, ROOT, ([], False)),
    ("   ", None, ROOT, ([], False)),
    (None, None, ROOT, ([], False)),
    (42, None, ROOT, ([], False)),
])
def test_normalise_path(path, cwd, root, expected):
    assert normalise_path(path, cwd, root) == expected


def test_a_home_path_is_never_taken_from_the_working_folder(monkeypatch):
    monkeypatch.setenv("HOME", "/home/u")
    assert normalise_path("~/proj/src/a.py", "/elsewhere", ROOT) == (["src", "a.py"], False)
    assert normalise_path("~/notes.md", ROOT, ROOT) == (["home", "u", "notes.md"], True)
    assert normalise_path("~nosuchuser-xyz/a.md", ROOT, ROOT) == (["a.md"], True)


def call(tool, tool_input, cwd=ROOT, root=ROOT):
    return ToolCall({"tool_name": tool, "tool_input": tool_input, "cwd": cwd}, root)


@pytest.mark.parametrize("tool,tool_input,paths", [
    ("Write", {"file_path": ROOT + "/a/b.py", "content": "x"}, [["a", "b.py"]]),
    ("Edit", {"file_path": ROOT + "/a/b.py", "old_string": "x", "new_string": "y"}, [["a", "b.py"]]),
    ("MultiEdit", {"file_path": ROOT + "/a/b.py", "edits": []}, [["a", "b.py"]]),
    ("NotebookEdit", {"notebook_path": ROOT + "/n/c.ipynb", "new_source": "x"}, [["n", "c.ipynb"]]),
    ("mcp__github__create_or_update_file", {"path": ".github/workflows/ci.yml", "content": "x"}, [[".github", "workflows", "ci.yml"]]),
])
def test_file_tools_carry_their_path(tool, tool_input, paths):
    c = call(tool, tool_input)
    assert c.paths == paths and c.file_bearing and c.display_path == "/".join(paths[0])


@pytest.mark.parametrize("command,paths", [
    ("sed -i 's/0.4.0/0.5.0/' ./.claude-plugin/plugin.json", [["s", "0.4.0", "0.5.0"], [".claude-plugin", "plugin.json"]]),
    ("rm -rf --dir=build/out https://x.io/y $HOME/x", [["build", "out"]]),  # flag values kept; URLs and variables not
    ("echo done. > out.log", [["out.log"]]),  # a sentence's final dot is not a file
    ("cat .env", [[".env"]]),
    ("pip install -e . && npm version 1.2.3", []),  # "." and version numbers are not files
    ("pytest tests/api", [["tests", "api"]]),
    ("cat ../README.md", [["home", "u", "README.md"]]),
    ("ls", []),
])
def test_shell_commands_yield_path_like_words_but_are_not_file_bearing(command, paths):
    c = call("Bash", {"command": command})
    assert c.paths == paths and not c.file_bearing and c.display_path == ""


@pytest.mark.parametrize("tool,command,writes", [
    ("Bash", "sed -i 's/0.4.0/0.5.0/' ./.claude-plugin/plugin.json", [[".claude-plugin", "plugin.json"]]),
    ("Bash", "echo x >> ../notes.md", [["home", "u", "notes.md"]]),
    ("Bash", "cat .env", []),
    ("PowerShell", "Set-Content -Path .\\config\\app.json -Value 1", [["config", "app.json"]]),
    ("Write", None, []),
])
def test_shell_commands_know_the_files_they_write(tool, command, writes):
    c = call(tool, {"command": command} if command else {"file_path": ROOT + "/a.txt", "content": "x"})
    assert c.write_paths == writes and all(w in c.paths for w in writes)


@pytest.mark.parametrize("tool, command, cwd, outside", [
    ("Bash", "cd ~/src/dotfiles && git push -f", "/p", True),
    ("Bash", "cd /tmp/scratch; npm publish", "/p", True),
    ("Bash", "cd .. && make release", "/p", True),
    ("Bash", "git push -f origin master", "/home/dev/src/other", True),  # Claude Code's cwd is where the shell is
    ("Bash", "cd /p/sdk && npm publish", "/tmp", False),  # back into the project first
    ("Bash", "cd sdk && npm publish", "/p", False),
    ("Bash", "cd $HOME/src/x && make", "/p", False),  # a variable is not followed
    ("Bash", "cd - && make", "/p", False),
    ("Bash", "make && cd /tmp", "/p", False),  # only where the command starts counts
    ("Bash", "npm publish", "/p/sdk", False),
    ("PowerShell", "Set-Location C:\\other; npm publish", "C:\\p", True),
    ("Edit", None, "/tmp", False),  # only a shell command runs somewhere
])
def test_a_shell_command_knows_when_it_runs_outside_the_project(tool, command, cwd, outside):
    root = "C:\\p" if cwd.startswith("C:") else "/p"
    tool_input = {"command": command} if command else {"file_path": "/p/a.py", "old_string": "a", "new_string": "b"}
    assert ToolCall({"tool_name": tool, "tool_input": tool_input, "cwd": cwd}, root).runs_outside is outside


def test_shell_words_are_read_from_the_hook_cwd_and_bounded():
    assert call("Bash", {"command": "cat ./a.txt"}, cwd=ROOT + "/sub").paths == [["sub", "a.txt"]]
    many = " ".join("f%d.txt" % i for i in range(MAX_BASH_TOKENS + 10))
    assert len(call("Bash", {"command": many}).paths) == MAX_BASH_TOKENS


def test_commands_split_simple_commands_into_folded_shell_words():
    c = call("Bash", {"command": "git add . && git push origin main --force || echo fail | tee log; npm publish\nls -la"})
    assert c.commands() == [
        [" git ", " add "], [" git ", " push ", " origin ", " main ", " force "], [" echo ", " fail "],
        [" tee ", " log "], [" npm ", " publish "], [" ls ", " la "],
    ]
    assert call("Bash", {"command": "a --force-with-lease"}).commands() == [[" a ", " force with lease "]]
    assert call("Bash", {"command": ""}).commands() == []
    assert call("Bash", {"command": 5}).commands() == []
    assert call("Write", {"file_path": ROOT + "/a", "content": "git push --force"}).commands() == []


def test_folded_text_is_the_tool_and_what_the_call_writes_or_runs():
    c = call("MultiEdit", {"file_path": ROOT + "/pkg/a.py", "edits": [
        {"old_string": "OLDWORD", "new_string": "New text"}, {"old_string": "x", "new_string": "more"}, "junk"]})
    text = c.folded_text()
    assert text.startswith(" multiedit ") and " new text " in text and " more " in text
    assert " oldword " not in text and text.endswith(" pkg a py ")  # the path comes last
    edit = call("Edit", {"file_path": ROOT + "/a.py", "old_string": "version", "new_string": "name"})
    assert " version " not in edit.folded_text() and " name " in edit.folded_text()
    bash = call("Bash", {"command": "npm publish", "description": "Publish the SDK", "timeout": 120000})
    assert bash.folded_text() == " bash npm publish publish the sdk "
    task = call("Task", {"description": "Review", "prompt": "Audit the webhooks", "subagent_type": "code-reviewer"})
    assert " audit the webhooks " in task.folded_text() and " code reviewer " in task.folded_text()


def test_the_run_text_of_a_shell_command_leaves_out_what_it_only_prints():
    c = call("Bash", {"command": "echo '- rm -rf build before packaging' >> NOTES.md  # note", "description": "Runbook note"})
    assert " rm rf " in c.folded_text() and " rm rf " not in c.folded_run_text()
    assert " runbook note " in c.folded_run_text() and " notes md " in c.folded_run_text()
    assert [fold("rm"), fold("-rf")] not in c.commands(run=True) and any(fold("-rf") in w for w in c.commands())
    same = call("Bash", {"command": "rm -rf build"})
    assert same.folded_run_text() == same.folded_text() and same.commands(run=True) == same.commands()
    edit = call("Edit", {"file_path": ROOT + "/a.md", "old_string": "x", "new_string": "rm -rf"})
    assert edit.folded_run_text() == edit.folded_text()


def test_mcp_tools_are_searched_by_name_and_by_any_string_field():
    c = call("mcp__github__create_pull_request", {"title": "Add IBAN", "body": "Closes #7", "draft": True, "n": 3,
                                                  "labels": ["x"], "meta": {"k": "nested"}})
    text = c.folded_text()
    assert " mcp github create pull request " in text and " add iban " in text and " closes 7 " in text
    assert " nested " not in text and " true " not in text


def test_folded_text_is_bounded():
    c = call("Write", {"file_path": ROOT + "/a.txt", "content": "x" * (MAX_TEXT_CHARS + 10) + " tailword"})
    assert " tailword " not in c.folded_text()
    assert len(c.folded_text()) < MAX_TEXT_CHARS + 100


@pytest.mark.parametrize("tool_input,wordless", [
    ({"old_string": "1.3.0", "new_string": "1.4.0"}, True),
    ({"old_string": "version 1", "new_string": "2"}, True),  # only what is written counts
    ({"old_string": "1", "new_string": "version 2"}, False),
    ({"new_string": ""}, True),
])
def test_wordless_inputs(tool_input, wordless):
    tool_input = dict(tool_input, file_path=ROOT + "/plugin.json")  # the path's words do not count
    assert call("Edit", tool_input).wordless is wordless


@pytest.mark.parametrize("tool,names", [
    ("Write", ("write",)), ("Edit", ("edit",)), ("MultiEdit", ("multiedit", "edit")),
    ("NotebookEdit", ("notebookedit", "edit")), ("Task", ("task", "agent")), ("Agent", ("agent", "task")),
    ("PowerShell", ("powershell", "bash")), ("mcp__github__get_issue", ("mcp__github__get_issue",)),
])
def test_names_include_aliases(tool, names):
    assert call(tool, {}).names == names


def test_read_only_tools():
    assert call("Read", {"file_path": ROOT + "/a"}).read_only and call("Grep", {}).read_only
    assert not call("Write", {}).read_only and not call("Bash", {}).read_only


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
                           max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["tool_name", "tool_input", "cwd", "session_id"]), json_values),
       st.sampled_from([ROOT, WROOT, None]))
def test_any_hook_input_is_read_without_raising(data, root):
    c = ToolCall(data, root)
    assert isinstance(c.folded_text(), str) and isinstance(c.words(), set) and isinstance(c.commands(), list)
    assert c.paths or not c.file_bearing
    assert fold(c.folded_text()) == c.folded_text()


def test_an_mcp_tool_given_content_for_a_path_writes_it():
    c = call("mcp__github__create_or_update_file", {"path": ".github/workflows/ci.yml", "content": "on: push", "message": "ci"})
    assert c.write_paths == [[".github", "workflows", "ci.yml"]]
    assert call("mcp__github__get_file_contents", {"path": "README.md"}).write_paths == []


def test_mcp_tools_named_for_reading_are_read_only():
    from forewarn import inject

    assert inject.read_only("mcp__github__get_pull_request") and inject.read_only("mcp__slack__list_channels")
    assert not inject.read_only("mcp__github__create_pull_request") and not inject.read_only("mcp__github__merge_pull_request")
    assert inject.read_only("Read") and not inject.read_only("Bash")
