"""forewarn.storage: atomic replace, the cross-process lock, locked read-modify-write, sweeping.

Concurrency is tested with real processes (fork), since the lock is a
per-process ``flock``.
"""

import json
import multiprocessing
import os
import signal
import time

import pytest

from forewarn import storage

FORK = multiprocessing.get_context("fork")


# --- atomic_write_bytes -------------------------------------------------------------------------------------


def test_atomic_write_replaces_the_whole_file_and_leaves_no_temp(tmp_path):
    path = tmp_path / "deep" / "er" / "g.json"
    storage.atomic_write_bytes(str(path), b"first version, longer than the second")
    storage.atomic_write_bytes(str(path), [b"sec", b"ond"])
    assert path.read_bytes() == b"second"
    assert os.listdir(path.parent) == ["g.json"]
    assert os.stat(path).st_mode & 0o777 == 0o644
    storage.atomic_write_bytes(str(path), b"private", mode=0o600)
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_failed_write_keeps_the_old_file_and_removes_the_temp(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(b"old")
    with pytest.raises(TypeError):
        storage.atomic_write_bytes(str(path), [b"new start", "not bytes"])  # fails half way through
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["g.json"]


def test_a_reader_holding_the_old_file_keeps_reading_it_whole(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(b"A" * 100000)
    with open(path, "rb") as reader:
        first = reader.read(10)
        storage.atomic_write_bytes(str(path), b"B" * 50)
        assert first + reader.read() == b"A" * 100000
    assert path.read_bytes() == b"B" * 50


def _rewrite(path, rounds):
    blobs = [json.dumps({"n": "A" * 300000}).encode(), json.dumps({"n": "B" * 7}).encode()]
    for i in range(rounds):
        storage.atomic_write_bytes(path, blobs[i % 2])


def _read_until(path, stop_at):
    whole = partial = 0
    while not os.path.exists(stop_at):
        with open(path, "rb") as handle:
            raw = handle.read()
        try:
            json.loads(raw)
            whole += 1
        except ValueError:
            partial += 1
    return whole, partial


def test_concurrent_readers_never_see_half_a_file(tmp_path):
    path = str(tmp_path / "g.json")
    stop_at = str(tmp_path / "stop")
    _rewrite(path, 1)
    with FORK.Pool(2) as pool:
        readers = [pool.apply_async(_read_until, (path, stop_at)) for _ in range(2)]
        _rewrite(path, 300)
        open(stop_at, "w").close()
        counts = [r.get(timeout=30) for r in readers]
    assert all(partial == 0 for _whole, partial in counts)
    assert sum(whole for whole, _partial in counts) > 10  # the readers did overlap the writes


# --- locked ---------------------------------------------------------------------------------------------------


def _hold_lock(path, ready, release):
    with storage.locked(path):
        ready.set()
        release.wait(60)


def start_holder(path):
    """A process that holds the lock on ``path`` until its ``release`` event is set."""
    ready, release = FORK.Event(), FORK.Event()
    holder = FORK.Process(target=_hold_lock, args=(path, ready, release))
    holder.start()
    assert ready.wait(10)
    return holder, release


def test_lock_timeout_while_another_process_holds_it(tmp_path):
    path = str(tmp_path / "g.json")
    holder, release = start_holder(path)
    try:
        start = time.monotonic()
        with pytest.raises(storage.LockTimeout) as caught:
            with storage.locked(path, timeout=0.3):
                pass
        waited = time.monotonic() - start
        assert 0.3 <= waited < 1.5 and isinstance(caught.value, OSError) and "g.json.lock" in str(caught.value)
        start = time.monotonic()
        with pytest.raises(storage.LockTimeout):
            with storage.locked(path, timeout=0):
                pass
        assert time.monotonic() - start < 0.2  # timeout 0: one try
    finally:
        release.set()
        holder.join()
    with storage.locked(path, timeout=0):  # free once the holder ended
        pass


def test_lock_of_a_killed_process_is_released(tmp_path):
    path = str(tmp_path / "g.json")
    holder, _release = start_holder(path)
    os.kill(holder.pid, signal.SIGKILL)  # a hook killed by Claude Code's timeout
    holder.join()
    with storage.locked(path, timeout=1):
        pass


def test_lock_is_released_when_the_body_raises(tmp_path):
    path = str(tmp_path / "g.json")
    with pytest.raises(RuntimeError):
        with storage.locked(path):
            raise RuntimeError("abandoned")
    with storage.locked(path, timeout=0):
        pass


def test_lock_folder_is_created(tmp_path):
    with storage.locked(str(tmp_path / "new" / "g.json")):
        assert (tmp_path / "new" / "g.json.lock").exists()


# --- read_json / update_json ----------------------------------------------------------------------------------


def test_read_json(tmp_path):
    path = tmp_path / "s.json"
    assert storage.read_json(str(path), default={"d": 1}) == {"d": 1}
    path.write_text('{"a": "é"}', encoding="utf-8")
    assert storage.read_json(str(path)) == {"a": "é"}
    for bad in (b"", b"{", b"\xff\xfe{}"):
        path.write_bytes(bad)
        with pytest.raises(ValueError):
            storage.read_json(str(path))


def test_dump_json_bytes_is_indented_utf8_with_a_final_newline():
    assert storage.dump_json_bytes({"a": ["é"]}) == '{\n  "a": [\n    "é"\n  ]\n}\n'.encode("utf-8")


def _increment(path, times):
    def add_one(value):
        value["count"] += 1
        time.sleep(0.001)  # widen the read-modify-write window
        return value, value["count"]

    for _ in range(times):
        storage.update_json(path, add_one, default={"count": 0}, timeout=30)


def test_concurrent_updates_lose_nothing(tmp_path):
    path = str(tmp_path / "counter.json")
    with FORK.Pool(8) as pool:
        pool.starmap(_increment, [(path, 30)] * 8)
    assert storage.read_json(path) == {"count": 240}


def test_update_that_writes_nothing_or_raises_leaves_the_file_alone(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"keep": true}')
    before = os.stat(path)
    assert storage.update_json(str(path), lambda value: (None, "looked only")) == "looked only"
    with pytest.raises(KeyError):
        storage.update_json(str(path), lambda value: (value.pop("missing"), None))
    after = os.stat(path)
    assert path.read_text() == '{"keep": true}' and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_update_refuses_a_file_it_cannot_read(tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(b'{"half": ')
    with pytest.raises(ValueError):
        storage.update_json(str(path), lambda value: ({"replaced": True}, None))
    assert path.read_bytes() == b'{"half": '


# --- remove_older_than ------------------------------------------------------------------------------------------


def test_remove_older_than(tmp_path):
    now = time.time()
    for name, age_days in (("old.idx", 40), ("old.lock", 40), ("old.txt", 40), ("new.idx", 1)):
        path = tmp_path / name
        path.write_text("x")
        os.utime(path, (now - age_days * 86400, now - age_days * 86400))
    assert storage.remove_older_than(str(tmp_path), 30 * 86400, now=now, suffixes=(".idx", ".lock")) == 2
    assert sorted(os.listdir(tmp_path)) == ["new.idx", "old.txt"]
    assert storage.remove_older_than(str(tmp_path), 30 * 86400, now=now) == 1
    assert storage.remove_older_than(str(tmp_path / "missing"), 0) == 0
