"""Peak resident memory of one child process, measured with the standard library.

``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` taken in the benchmark
process itself would be wrong: ``subprocess`` starts children with
``vfork``, and Linux carries the parent's high-water mark across ``exec``
into the child's figure, so every child would look as large as the
benchmark.  So a small launcher (``python -S`` with :mod:`resource`, about
the size of a bare interpreter) starts the command with ``posix_spawn``,
waits for it and prints its children's ``ru_maxrss``.  The figure is
``max(launcher, command)``: exact whenever the command is larger than the
launcher, which :func:`launcher_kib` measures (``true`` run the same way).

:func:`gnu_time_kib` is the independent cross-check (``/usr/bin/time -f %M``,
a small C program doing the same ``wait4``), None where it is missing.
"""

import os
import subprocess
import sys

LAUNCHER = """
import os, resource, sys
devnull = os.open(os.devnull, os.O_WRONLY)
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], dict(os.environ), file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
os.waitpid(pid, 0)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss_kib(cmd, stdin, env):
    """Peak RSS in KiB of ``cmd`` (argv, absolute program path) fed ``stdin`` bytes."""
    proc = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, *cmd], input=stdin, stdout=subprocess.PIPE, env=env, check=True)
    return int(proc.stdout.decode().strip())


def launcher_kib(env):
    """What :func:`peak_rss_kib` reports for a trivial command: the launcher's own share, its lower bound."""
    return peak_rss_kib([_true()], b"", env)


def gnu_time_kib(cmd, stdin, env):
    """Peak RSS in KiB from GNU time, or None where ``/usr/bin/time`` is missing or says nothing usable."""
    if not os.path.exists("/usr/bin/time"):
        return None
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        return int(proc.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def _true():
    for folder in ("/bin", "/usr/bin"):
        path = os.path.join(folder, "true")
        if os.path.exists(path):
            return path
    raise FileNotFoundError("no 'true' program to measure the launcher with")
