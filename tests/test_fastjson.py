"""forewarn.fastjson against the standard json module, on chosen and generated values.

On the hot path :mod:`json` is not imported, and on Python <= 3.11 the C
accelerator then reports syntax errors differently (it looks its error
class up in ``sys.modules``); :func:`json_hidden` takes ``json`` out of
``sys.modules`` so these tests see what the hook sees.
"""

import contextlib
import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forewarn import fastjson

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")

scalars = (
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text() | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF))  # lone surrogates too
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)


@contextlib.contextmanager
def json_hidden():
    """sys.modules as in the hook, without json and its submodules, for the duration."""
    saved = {name: sys.modules.pop(name) for name in ("json", "json.decoder", "json.scanner", "json.encoder") if name in sys.modules}
    try:
        yield
    finally:
        sys.modules.update(saved)


@settings(max_examples=400, deadline=None)
@given(json_values, st.sampled_from([None, 2]), st.booleans())
def test_loads_reads_what_json_writes(value, indent, ensure_ascii):
    text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(" \n\t" + text + "\r\n ") == json.loads(text)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_dumps_writes_what_json_reads(value):
    text = fastjson.dumps(value)
    assert text.isascii() and "\n" not in text
    assert json.loads(text) == value
    assert fastjson.dumps(json.loads(text)) == text  # stable


@settings(max_examples=600, deadline=None)
@given(st.one_of(
    st.text(alphabet=st.sampled_from(list('{}[]",:0123456789.eE+-truefalsnl \\/u\t\n')), max_size=25),
    json_values.map(json.dumps).flatmap(lambda t: st.integers(0, len(t)).map(lambda cut: t[:cut])),  # half-written
))
def test_malformed_text_is_rejected_like_json_rejects_it(text):
    try:
        expected = json.loads(text)
    except ValueError:
        expected = ValueError
    with json_hidden():
        if expected is ValueError or (isinstance(expected, float) and not math.isfinite(expected)):
            with pytest.raises(ValueError):
                fastjson.loads(text)
        else:
            assert fastjson.loads(text) == expected


MALFORMED = [
    "", " ", "{", "}", "[1,]", "{}x", "1 2", "{'a': 1}", '{"a" 1}', '{"a": 1,}', "[1 2]", '"abc', '"\\q"',
    '"a\x01b"', "{1: 2}", "tru", "nul", "01", "1.", ".5", "+1", "\ufeff{}", "\u00a0{}", "{}\u00a0", "\f{}",
    "NaN", "Infinity", "-Infinity", '{"a": NaN}',
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_documents_raise_value_error_on_the_hot_path(text):
    with json_hidden(), pytest.raises(ValueError):
        fastjson.loads(text)


def test_non_standard_constants_are_refused_although_json_reads_them():
    assert math.isnan(json.loads("NaN"))
    with pytest.raises(ValueError, match="non-standard JSON constant: NaN"):
        fastjson.loads('{"a": [NaN]}')


def test_nesting_too_deep_raises_recursion_error_as_json_does():
    with pytest.raises(RecursionError):
        json.loads("[" * 100000 + "]" * 100000)
    with pytest.raises(RecursionError):
        fastjson.loads("[" * 100000 + "]" * 100000)


def test_dumps_of_values_json_does_not_write():
    assert fastjson.dumps({"nan": math.nan, "inf": math.inf, "-inf": -math.inf}) == '{"nan":null,"inf":null,"-inf":null}'
    assert fastjson.dumps((1, (2, "é"))) == '[1,[2,"\\u00e9"]]'
    assert fastjson.dumps({1: True, "k": None}) == '{"1":true,"k":null}'
    assert fastjson.dumps({"set": {1}}) == '{"set":"{1}"}'  # anything else is written as its str()
    assert fastjson.dumps([True, 1, False, 0, 1.0]) == "[true,1,false,0,1.0]"


def test_fastjson_works_without_importing_json():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from forewarn import fastjson\n"
        "assert fastjson.loads(' {\"a\": [1, 2.5, \"\\\\u00e9\", null]} ') == {'a': [1, 2.5, 'é', None]}\n"
        "for bad in ['{\"a\" 1}', '\"abc', '[1,]']:\n"
        "    try:\n        fastjson.loads(bad)\n    except ValueError:\n        pass\n"
        "    else:\n        raise SystemExit('accepted ' + bad)\n"
        "print(sorted(m for m in ('json', 'json.decoder', 're') if m in sys.modules))\n" % SRC
    )
    proc = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    # Python >= 3.12 imports json.decoder (and re) to describe a syntax error: the error path only
    assert proc.stdout.strip() == ("[]" if sys.version_info < (3, 12) else "['json', 'json.decoder', 're']")
