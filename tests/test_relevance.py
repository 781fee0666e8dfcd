"""Each term, gate and tie-break of forewarn.relevance, on hand-made index records."""

import pytest

from forewarn import globs, knowledge, relevance
from forewarn.keywords import fold_keyword
from forewarn.toolcall import ToolCall

ROOT = "/p"


def record(no, priority="MEDIUM", tools=(), files=(), actions=(), context=(), node_id=None):
    mult = knowledge.PRIORITY_MULTIPLIER[priority]
    best = (0.4 * bool(tools) + 0.4 * bool(files) + 0.1 * bool(actions) + 0.1 * bool(context)) * mult
    return (no, node_id or "n%d" % no, mult, knowledge.PRIORITY_RANK[priority], tuple(t.lower() for t in tools),
            tuple(globs.compile_glob(f) for f in files), tuple(fold_keyword(a) for a in actions),
            tuple(fold_keyword(c) for c in context), (0, 0, 0), "label", "src", best, best)


def write(path, content=""):
    return ToolCall({"tool_name": "Write", "tool_input": {"file_path": ROOT + "/" + path, "content": content}}, ROOT)


def bash(command):
    return ToolCall({"tool_name": "Bash", "tool_input": {"command": command}}, ROOT)


def never():
    raise AssertionError("the conversation was read although it could not decide anything")


def test_weights_and_multipliers():
    v = relevance.score(record(1, "HIGH", ["Write"], ["**/a.json"], ["bump"]), write("x/a.json", "bump it"), 0.7, never)
    assert v.tool and v.file and v.action == " bump " and v.score == pytest.approx((0.4 + 0.4 + 0.1) * 1.5)
    assert v.eligible


@pytest.mark.parametrize("priority,eligible", [("CRITICAL", True), ("HIGH", True), ("MEDIUM", True), ("LOW", False)])
def test_threshold_by_priority_for_tool_and_file(priority, eligible):
    v = relevance.score(record(1, priority, ["Write"], ["**/a.json"]), write("a.json"), 0.7, never)
    assert v.eligible is eligible


def test_exactly_at_threshold_is_injected():
    v = relevance.score(record(1, "MEDIUM", ["Write"], ["**/a.json"]), write("a.json"), 0.8, never)
    assert v.score == 0.8 and v.eligible


def test_tool_gate_file_gate_action_gate_specificity_gate():
    assert relevance.score(record(1, "CRITICAL", ["Edit"], ["**/a.json"]), write("a.json"), 0.7, never).gate.startswith("tool ")
    assert relevance.score(record(1, "CRITICAL", ["Write"], ["**/a.json"]), write("README.md"), 0.7, never).gate.startswith("path ")
    assert "action keywords" in relevance.score(record(1, "CRITICAL", ["Write"], ["**/a.json"], ["version"]), write("a.json", "name"), 0.7, never).gate
    assert "none of its file patterns" in relevance.score(record(1, "CRITICAL", ["Bash"], ["migrations/**"]), bash("ls"), 0.7, never).gate
    assert relevance.score(record(1, "CRITICAL", ["Bash"]), bash("ls"), 0.7, never).eligible  # tools only: the tool decides


def test_wordless_edit_passes_the_action_gate():
    call = ToolCall({"tool_name": "Edit", "tool_input": {"file_path": ROOT + "/a.json", "old_string": "1.0", "new_string": "1.1"}}, ROOT)
    assert relevance.score(record(1, "CRITICAL", ["Edit"], ["**/a.json"], ["version"]), call, 0.7, never).eligible


def test_context_is_read_only_when_it_can_decide():
    reads = []

    def conversation():
        reads.append(1)
        return " we prepare the release "

    # HIGH, file only: 0.6 alone, 0.75 with context: the conversation decides
    v = relevance.score(record(1, "HIGH", [], ["**/a.json"], [], ["release"]), write("a.json"), 0.7, conversation)
    assert v.context == " release " and v.eligible and reads == [1]
    # CRITICAL, tool and file: 1.6 either way: never read
    relevance.score(record(2, "CRITICAL", ["Write"], ["**/a.json"], [], ["release"]), write("a.json"), 0.7, never)


def test_ranking_is_deterministic():
    class Idx:
        header = {"keyword_words": {}}

        def bucket(self, key):
            return [record(3, "HIGH", ["Write"], node_id="b"), record(2, "CRITICAL", ["Write"], node_id="z"),
                    record(1, "CRITICAL", ["Write"], node_id="a")] if key == "t0:write" else []

    ids = [v.record[1] for v in relevance.evaluate(Idx(), write("x.txt"), 0.5, never)]
    assert ids == ["a", "z", "b"]


def test_candidate_keys():
    keys = relevance.candidate_keys(write("src/app/x.py"), 0.7)
    assert {"t0:write", "g", "n:src", "n:x.py", "e:.py"} <= set(keys) and "tf:write" not in keys
    mcp = ToolCall({"tool_name": "mcp__github__get_issue", "tool_input": {}}, ROOT)
    assert "tp:mcp__github__" in relevance.candidate_keys(mcp, 0.7, {}, ("mcp__github__", "mcp__slack__"))
    assert not [k for k in relevance.candidate_keys(write("a"), 0.7, {}, ("mcp__github__",)) if k.startswith("tp:")]
    assert "tf:bash" in relevance.candidate_keys(bash("ls"), 0.7)
    assert "t0l:write" in relevance.candidate_keys(write("a"), 0.5)
    assert relevance.candidate_keys(write("a"), 0.3) is None
    words = {"tf:bash": frozenset({"git", "terraform"}), "t0:bash": frozenset({"npm"})}
    keys = relevance.candidate_keys(bash("git push --force"), 0.7, words)
    assert "tf:bash|w:git" in keys and "tf:bash|w:terraform" not in keys and "t0:bash|w:npm" not in keys
    wordless = ToolCall({"tool_name": "Bash", "tool_input": {"command": "1.2.3"}}, ROOT)
    assert "tf:bash|kw" in relevance.candidate_keys(wordless, 0.7, words)
