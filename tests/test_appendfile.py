"""forewarn.appendfile: whole lines from parallel processes, and one rotation however many see the limit at once."""

import fcntl
import multiprocessing
import os

from forewarn import appendfile

FORK = multiprocessing.get_context("fork")


def test_append_creates_the_folder_and_keeps_every_line(tmp_path):
    path = str(tmp_path / "sub" / "t.log")
    for i in range(3):
        appendfile.append(path, b"line %d\n" % i, 1000)
    assert open(path, "rb").read() == b"line 0\nline 1\nline 2\n"
    assert not os.path.exists(path + ".1")


def test_past_the_limit_the_file_becomes_dot_one_and_the_line_starts_a_new_file(tmp_path):
    path = str(tmp_path / "t.log")
    open(path + ".1", "wb").write(b"older\n")
    open(path, "wb").write(b"x" * 11 + b"\n")
    appendfile.append(path, b"new\n", 10)
    assert open(path + ".1", "rb").read() == b"x" * 11 + b"\n"
    assert open(path, "rb").read() == b"new\n"


def _append_after(barrier, path, worker):
    barrier.wait()
    appendfile.append(path, b"w%02d\n" % worker, 1000)


def test_hooks_that_see_the_limit_at_once_rotate_once_and_lose_no_line(tmp_path):
    path = str(tmp_path / "t.log")
    full = b"".join(b"old %04d\n" % i for i in range(200))  # past the limit
    for _round in range(5):
        open(path, "wb").write(full)
        if os.path.exists(path + ".1"):
            os.remove(path + ".1")
        barrier = FORK.Barrier(12)
        workers = [FORK.Process(target=_append_after, args=(barrier, path, w)) for w in range(12)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        assert all(worker.exitcode == 0 for worker in workers)
        rotated, current = open(path + ".1", "rb").read(), open(path, "rb").read()
        assert rotated.startswith(full)  # a second rename would have put a short file over it
        lines = (rotated[len(full):] + current).splitlines()
        assert sorted(lines) == [b"w%02d" % w for w in range(12)]


def test_a_hook_that_saw_the_full_file_does_not_rename_again_after_another_rotated_it(tmp_path):
    path = str(tmp_path / "t.log")
    full = b"x" * 20 + b"\n"
    open(path, "wb").write(full)
    late = os.open(path, os.O_WRONLY | os.O_APPEND)  # a second hook opened the full file too
    try:
        appendfile.append(path, b"first\n", 10)  # the first hook rotates and starts a new file
        assert appendfile._rotate(late, path) is False  # the new file is not the one it saw: no second rename
        os.write(late, b"late\n")
    finally:
        os.close(late)
    assert open(path + ".1", "rb").read() == full + b"late\n"
    assert open(path, "rb").read() == b"first\n"


def test_while_one_hook_holds_the_rotation_lock_another_does_not_rename(tmp_path):
    path = str(tmp_path / "t.log")
    open(path, "wb").write(b"x" * 20)
    holder, other = os.open(path, os.O_WRONLY | os.O_APPEND), os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        assert appendfile._rotate(other, path) is False and os.path.exists(path)
    finally:
        os.close(holder)
        os.close(other)
