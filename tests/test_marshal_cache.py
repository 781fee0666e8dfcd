"""forewarn.marshal_cache: derived data made once per change of its source, never trusted stale or corrupt."""

import json
import os

from forewarn import marshal_cache


def _source(tmp_path, value):
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(value))
    return str(path)


def _counting_reader(calls):
    def build(path):
        calls.append(path)
        with open(path) as handle:
            return json.load(handle)
    return build


def test_built_once_then_read_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    source, calls = _source(tmp_path, {"a": 0.5, "b": [1, 2]}), []
    assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 0.5, "b": [1, 2]}
    assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 0.5, "b": [1, 2]}
    assert len(calls) == 1 and os.path.exists(marshal_cache.cache_file("w"))


def test_a_changed_source_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    source, calls = _source(tmp_path, {"a": 1}), []
    marshal_cache.load(source, "w", _counting_reader(calls))
    with open(source, "w") as handle:
        json.dump({"a": 2, "longer": True}, handle)
    assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 2, "longer": True} and len(calls) == 2


def test_a_corrupt_or_foreign_cache_is_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    source, calls = _source(tmp_path, {"a": 1}), []
    marshal_cache.load(source, "w", _counting_reader(calls))
    cache = marshal_cache.cache_file("w")
    for junk in (b"", b"\x00garbage", open(cache, "rb").read()[:20]):
        with open(cache, "wb") as handle:
            handle.write(junk)
        assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 1}
    assert len(calls) == 4


def test_an_unwritable_data_folder_costs_only_the_parse(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    source, calls = _source(tmp_path, {"a": 1}), []
    assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 1}
    assert marshal_cache.load(source, "w", _counting_reader(calls)) == {"a": 1} and len(calls) == 2


def test_the_reply_model_reads_its_weights_through_the_cache(tmp_path, monkeypatch):
    from forewarn.learning import reply_model

    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    reply_model.use(None)
    try:
        first = reply_model._load()
        assert os.path.exists(marshal_cache.cache_file("reply_model"))
        reply_model.use(None)
        assert reply_model._load() == first and len(first[1]) > 1000
    finally:
        reply_model.use(None)
