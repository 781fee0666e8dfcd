"""The reply model: its features, its fail-open loading, that the shipped weights are what training gives, and how
it does on sets it was not trained on (leave one set out)."""

import json

import pytest

import train_reply_model
from forewarn.learning import capture, reply_model
from forewarn.learning.reply_model import features

EDIT = [("Edit", {"file_path": "/p/app/billing/invoice.py", "old_string": "a", "new_string": "b"})]


@pytest.fixture
def model():
    """Swap the loaded weights for the test; the shipped file is read again afterwards."""
    yield reply_model.use
    reply_model.use(None)


def test_features_read_the_reply_and_what_it_answers():
    found = features("Why is invoice.py rounding half up?? we round half-even everywhere", EDIT, ["Done."])
    assert {"first:why", "w:half", "b:round_half", "tool:Edit", "names_a_file_just_changed"} <= found
    assert "asks" not in found  # it ends with a statement
    assert "asks" in features("should the total include tax?")
    assert any(f.startswith("repeats:") for f in found) and any(f.startswith("len:") for f in found)


def test_japanese_and_chinese_are_read_as_character_pairs():
    assert reply_model.tokens("不要直接调 protoc，用make proto。") == ["不要", "要直", "直接", "接调", "protoc", "用", "make", "proto"]
    assert reply_model.tokens("なぜ main に push したんですか？")[:4] == ["なぜ", "main", "に", "push"]
    assert reply_model.tokens("use uv, not pip") == ["use", "uv", "not", "pip"]


def test_words_with_accents_are_whole_words():
    assert {"w:mínimo", "w:põe", "first:põe"} <= features("põe o valor mínimo nas opções")


def test_quoted_and_pasted_text_gives_no_features():
    assert features("```\nyou forgot the migration\n```") == features("")


def test_missing_or_corrupt_weights_read_no_reply_as_a_correction(tmp_path, monkeypatch, model):
    monkeypatch.setattr(reply_model, "WEIGHTS", str(tmp_path / "absent.json"))
    model(None)
    assert not reply_model.says_correction("no, we never do it like that", EDIT)
    for n, bad in enumerate(["{not json", '{"bias": 0, "weights": [1, 2], "threshold": 0.5}',
                             '{"bias": 0, "weights": {"w:no": "high"}, "threshold": 0.5}', '{"weights": {}}']):
        (tmp_path / ("bad%d.json" % n)).write_text(bad, encoding="utf-8")
        monkeypatch.setattr(reply_model, "WEIGHTS", str(tmp_path / ("bad%d.json" % n)))
        model(None)
        assert not reply_model.says_correction("no, we never do it like that", EDIT)
        assert not reply_model.says_request("no, we never do it like that", EDIT)


def test_the_capture_asks_the_model_only_about_replies_to_an_action(model):
    model({"bias": 10.0, "weights": {}, "threshold": 0.5})  # reads every reply as a correction
    prompt = "the invoice totals are off by a cent for every customer in the eurozone"
    after_edit = [{"type": "user", "message": {"role": "user", "content": "fix the invoice rounding"}},
                  {"type": "assistant", "message": {"role": "assistant", "content": [
                      {"type": "tool_use", "id": "t1", "name": "Edit", "input": EDIT[0][1]}]}},
                  {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
                  {"type": "user", "message": {"role": "user", "content": prompt}}]
    (node,) = capture.extract_lessons(after_edit, "", "s", "2026-11-23T10:00:00Z", context=[])[0]
    assert node["source"]["kind"] == "user_correction" and "eurozone" in node["description"]
    first_prompt = [{"type": "user", "message": {"role": "user", "content": prompt}}]
    assert capture.extract_lessons(first_prompt, "", "s", "2026-11-23T10:00:00Z", context=[])[0] == []
    model({"bias": -10.0, "weights": {}, "threshold": 0.5})  # reads none
    assert capture.extract_lessons(after_edit, "", "s", "2026-11-23T10:00:00Z", context=[])[0] == []


def test_the_shipped_weights_are_what_training_on_the_corpus_gives():
    """Nobody edits reply_model.json by hand, and it is retrained when the corpus or the features change."""
    with open(reply_model.WEIGHTS, encoding="utf-8") as handle:
        shipped = json.load(handle)
    rows = train_reply_model.examples(train_reply_model.corpus_sets())
    trained = train_reply_model.train([(f, y) for _s, f, y in rows])
    assert shipped["examples"] == len(rows), "run: python tests/learning/train_reply_model.py"
    assert shipped["threshold"] == trained["threshold"] and abs(shipped["bias"] - trained["bias"]) <= 2e-3
    common = shipped["weights"].keys() & trained["weights"].keys()
    differ = shipped["weights"].keys() ^ trained["weights"].keys()
    assert len(differ) <= 0.01 * len(common)  # a weight at the cut-off may fall either side on another libm
    assert max(abs(shipped["weights"][f] - trained["weights"][f]) for f in common) <= 2e-3


# The sets written blind from held-out 13 on: each scored by a model trained on all the other sets.
CROSS_VALIDATED = ["held_out_%d" % n for n in range(13, 100)]


def test_on_sets_it_was_not_trained_on_the_model_finds_corrections_among_replies():
    """Reply level, leave one set out: does the model read a reply as a correction when one is labelled in it?

    Negatives include every session-opening request of the corpus put
    after an edit.  Measured when written (held-out 13-26): precision
    0.86, recall 0.84; with held-out 27-30 (13-30): 0.86, 0.84; with
    held-out 31-34 (13-34): 0.84, 0.82; 0.85, 0.80 since the requests are
    put after turns of other sessions, not one fixed "Done." edit (the
    model had learnt that turn); with held-out 35-38 (13-38): 0.84, 0.81;
    0.84, 0.80 since a tool input is read as its strings within a budget;
    with held-out 39-42 (13-42): 0.84, 0.80; with held-out 43-46 (13-46) the
    recall fell to 0.795 at the threshold 0.5, and 0.45, chosen here by
    leaving one set out, gives 0.83, 0.81; with held-out 47-50 (13-50) and
    accented words read whole: 0.84, 0.81; with held-out 51-54 (13-54):
    0.83, 0.82; with held-out 55-58 (13-58; a set in Indonesian the model
    had no words for, recall 7 of 21 on it): 0.83, 0.805; with held-out
    59-62 (13-62): 0.84, 0.81; with held-out 63-66 (13-66; three sets mostly in
    Vietnamese, Turkish and Franco-Arabic) recall fell to 0.786 at 0.45, and
    0.4, chosen here by leaving one set out, gives 0.83, 0.815; with held-out
    67-70 (13-70): 0.83, 0.82; with held-out 71-74 (13-74; a set in Taglish
    and one in Japanese, 9 of 25 and 9 of 26 found at their first run): 0.83, 0.81;
    with held-out 75-78 (13-78): 0.83, 0.81; with held-out 79-82 (13-82): 0.83, 0.81;
    with held-out 83-86 (13-86): 0.83, 0.81; with held-out 87-90 (13-90): 0.84, 0.82; 0.83, 0.83 since
    Japanese and Chinese are read as character pairs (a run without spaces was one token; on the Japanese and
    Chinese sets 73, 75, 82, 84 and 89 the replies found went 59 -> 92 of 110, the wrong ones 13 -> 36); with
    held-out 91-92, two more in Chinese (13-92): 0.83, 0.83; with held-out 93-94, two in Korean (13-94): 0.83, 0.82;
    with held-out 95-98 (13-98): 0.84, 0.83.
    Held at 0.8, the issue's target for corrections.
    """
    scores = train_reply_model.cross_validate(CROSS_VALIDATED)
    tp, fp, fn = (sum(s[i] for s in scores.values()) for i in range(3))
    print()
    for name, (a, b, c) in scores.items():
        print("%s: %d found, %d wrong, %d missed" % (name, a, b, c))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print("pooled: precision %.2f recall %.2f" % (precision, recall))
    assert precision >= 0.8 and recall >= 0.8


def test_pushback_the_model_is_nearly_sure_is_a_request_is_no_correction(tmp_path, monkeypatch, model):
    records = [{"type": "user", "message": {"role": "user", "content": "add the sqs-fifo module"}},
               {"type": "assistant", "message": {"role": "assistant", "content": [
                   {"type": "tool_use", "id": "t1", "name": "Edit", "input": EDIT[0][1]}]}},
               {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
               {"type": "user", "message": {"role": "user", "content": "tflint is failing on modules/sqs-fifo, get the pipeline green"}}]
    monkeypatch.setattr(reply_model, "WEIGHTS", str(tmp_path / "absent.json"))
    model(None)  # no weights: the patterns alone, which read "is failing" after an action as pushback
    assert [n["source"]["kind"] for n in capture.extract_lessons(records, "", "s", "2026-11-23T10:00:00Z", context=[])[0]] == ["user_correction"]
    known = {"w:" + w: 0.0 for w in reply_model.tokens("tflint is failing on modules/sqs-fifo, get the pipeline green")}
    model({"bias": -10.0, "weights": known, "threshold": 0.5})  # it knows the words, and is sure every reply is a request
    assert capture.extract_lessons(records, "", "s", "2026-11-23T10:00:00Z", context=[])[0] == []


def test_what_was_done_is_read_within_a_budget_whatever_the_tool_input_holds():
    huge = {"file_path": "/p/app/dump.sql", "content": "x" * 1_000_000, "edits": [{"old_string": "a" * 5000, "new_string": "b"}]}
    done = reply_model._strings(huge, reply_model.DONE_CHARS)
    assert done.startswith("/p/app/dump.sql ") and len(done) <= reply_model.DONE_CHARS + 2
    assert reply_model._strings({"a": ["one", {"b": "two"}], "c": 3}, 100) == "one two"


def test_the_model_calls_a_reply_a_request_only_when_it_knows_most_of_its_words(model):
    """A reply in a language the model was never trained on scores near its bias; that is no evidence to overrule
    the patterns with.  The same reply with known words is overruled."""
    model({"bias": -4.0, "weights": {}, "threshold": 0.4})
    reply = "ne írd át a migrációt, az már lefutott élesben"
    assert reply_model.probability(reply, EDIT, ["Done."]) < reply_model.REQUEST
    assert not reply_model.says_request(reply, EDIT, ["Done."])
    known = {"w:" + w: 0.0 for w in reply_model.tokens(reply)}
    model({"bias": -4.0, "weights": known, "threshold": 0.4})
    assert reply_model.says_request(reply, EDIT, ["Done."])
