"""In-process benchmarks (pytest-benchmark) of the Stop hook's lesson capture on a 10 MB transcript.

    python3 -m pytest benchmarks/test_bench_stop.py -p no:cacheprovider --benchmark-only

The transcripts are the ones ``run_stop_bench.py`` times as a whole process
(``dense`` and ``claude-code`` shapes):
reading (``transcript.read_new_records``, which leaves unparsed what cannot
hold a person's or the assistant's words) and extracting
(``capture.extract_lessons``) are measured apart, so a change shows where
it moved the time.  Their words are few and repeated, so a third benchmark
extracts from real people's words: a sample of the labelled capture corpus
(``tests/learning/corpus``, every 10th transcript), where most messages
reach the detectors' patterns.
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

from run_stop_bench import transcript  # noqa: E402

from forewarn.learning import capture  # noqa: E402
from forewarn.learning import transcript as transcript_reader  # noqa: E402

READ_LIMIT = 16 << 20  # what one Stop reads at most (stop_capture.MAX_NEW_BYTES)


@pytest.fixture(scope="module", params=["dense", "claude-code"])
def ten_megabytes(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("stop")
    path = str(folder / "transcript.jsonl")
    transcript(path, 10, str(folder / "project"), request.param)
    return path


@pytest.mark.benchmark(group="stop: 10 MB transcript", min_rounds=5)
def test_read_new_records(benchmark, ten_megabytes):
    records, offset = benchmark(transcript_reader.read_new_records, ten_megabytes, 0, READ_LIMIT)
    assert offset == os.path.getsize(ten_megabytes) and records


@pytest.mark.benchmark(group="stop: 10 MB transcript", min_rounds=5)
def test_extract_lessons(benchmark, ten_megabytes):
    records, _offset = transcript_reader.read_new_records(ten_megabytes, 0, READ_LIMIT)
    candidates, _problems = benchmark(capture.extract_lessons, records, "", "s", "2026-11-22T00:00:00Z", context=[])
    (block,) = candidates  # the block answers the transcript's "you forgot to run the tests" corrections: one lesson
    assert block["source"]["kind"] == "process_knowledge" and len(block["evidence"]) > 1


CORPUS = os.path.join(os.path.dirname(HERE), "tests", "learning", "corpus")


@pytest.fixture(scope="module")
def corpus_sample():
    names = sorted(n for n in os.listdir(CORPUS) if n.endswith(".jsonl"))[::10]
    return [transcript_reader.read_new_records(os.path.join(CORPUS, name), 0, READ_LIMIT)[0] for name in names]


def _extract_each(sample):
    return sum(len(capture.extract_lessons(records, "", "s", "2026-11-22T00:00:00Z", context=[])[0]) for records in sample)


@pytest.mark.benchmark(group="stop: the labelled corpus, every 10th transcript", min_rounds=5)
def test_extract_lessons_from_real_words(benchmark, corpus_sample):
    drafts = benchmark(_extract_each, corpus_sample)
    assert len(corpus_sample) > 300 and drafts > 100

