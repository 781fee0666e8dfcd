"""forewarn.regex_cache: compiled patterns kept across processes behave as re.compile's, and never break a hook."""

import marshal
import re

import pytest

from forewarn import regex_cache


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A data folder of the test's own, and the module as a new process finds it (nothing read yet)."""
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(regex_cache, "_entries", None)
    monkeypatch.setattr(regex_cache, "_added", False)

    def new_process():
        regex_cache._entries, regex_cache._added = None, False
    return new_process


PATTERNS = [(r"\bfoo(?P<n>\d+)|\bbar", re.I), (r"^(?:no|nope)\b[\s,.!]+(\w+)", 0), (r"[|(]x\|y(?=z)", re.S | re.M),
            (r"これからは|\btandaan\s+mo\b", re.I)]
TEXTS = ["FOO12 bar", "nope, the staging one", "no", "a[|(]x|yz", "これからは必ず", "Tandaan mo: staging first", ""]


def _same(a, b):
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
    for text in TEXTS:
        x, y = a.search(text), b.search(text)
        assert (x and (x.span(), x.groups())) == (y and (y.span(), y.groups()))


def test_a_pattern_read_back_from_the_cache_behaves_as_re_compiles_it(fresh):
    for pattern, flags in PATTERNS:
        _same(regex_cache.compile(pattern, flags), re.compile(pattern, flags))
    regex_cache.save()
    fresh()
    for pattern, flags in PATTERNS:
        _same(regex_cache.compile(pattern, flags), re.compile(pattern, flags))
    assert not regex_cache._added and len(regex_cache._entries) == len(PATTERNS)  # every one came from the file


def test_a_rewrite_is_compiled_and_cached_under_the_written_pattern(fresh):
    rewrite = lambda p: p.replace("foo", "fo+")  # noqa: E731
    assert regex_cache.compile(r"\bfoo", 0, rewrite=rewrite).pattern == r"\bfo+"
    regex_cache.save()
    fresh()
    assert regex_cache.compile(r"\bfoo", 0, rewrite=rewrite).search("xx fooo").group(0) == "fooo"
    assert regex_cache.compile(r"\bfoo", 0).pattern == r"\bfoo"  # not rewritten: another entry


def test_a_corrupt_foreign_or_rejected_cache_falls_back_to_re_compile(fresh):
    regex_cache.compile(*PATTERNS[0])
    regex_cache.save()
    path = regex_cache.cache_file()
    header, entries = marshal.loads(open(path, "rb").read())
    (key, entry), = entries.items()
    rejected = (entry[0], entry[1], [9999] * len(entry[2])) + entry[3:]  # opcodes the C side refuses
    for blob in (b"", b"\x00junk", marshal.dumps((("someone else",), entries)), marshal.dumps((header, {key: rejected}))):
        with open(path, "wb") as handle:
            handle.write(blob)
        fresh()
        _same(regex_cache.compile(*PATTERNS[0]), re.compile(*PATTERNS[0]))


def test_an_unwritable_data_folder_only_costs_the_compile(tmp_path, monkeypatch, fresh):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(blocker / "data"))
    _same(regex_cache.compile(*PATTERNS[1]), re.compile(*PATTERNS[1]))
    regex_cache.save()  # no error
    fresh()
    _same(regex_cache.compile(*PATTERNS[1]), re.compile(*PATTERNS[1]))


def test_an_invalid_pattern_raises_as_re_compile_does(fresh):
    with pytest.raises(re.error):
        regex_cache.compile(r"(unclosed", 0)
