"""Whole-process timings of the PreToolUse hook against the bare interpreter, in one run.

For each knowledge size (default 100, 1,000 and 10,000 process nodes, from
:mod:`generate`) and each scenario (a matching Write, a non-matching Write, a
Bash call, a Read) the hook runs exactly as hooks/hooks.json runs it
(``python -S hooks/pre_experience_injection.py``, real hook JSON on stdin,
a fresh session id per run so dedupe never shortens a run) with a warm
index.  Every round runs the two floors and the four scenarios once each in
a shuffled order (seeded), so drift of the machine hits all alike:

* **floor** ``python -c pass``: the interpreter as a user starts it;
* **floor -S** ``python -S -c pass``: the interpreter started the way the
  hook is started (stricter: it is what forewarn adds beyond Python itself).

Before timing, each size checks that the matching Write injects (one
``additionalContext``, the version-bump checklist in it) and that the
non-matching Write and the Read print nothing; after timing, that the index
file was never rewritten and every traced decision read a ``fresh`` index.

Then per size: the hook right after a real graph change, the rebuild as the
detached process runs it (``python -S -m forewarn.index_build``), the
rebuild in process, and peak RSS of each process (see :mod:`peak_rss`).
Last, whole-process import costs of the JSON parsers (json, _json, orjson)
and of the forewarn modules a Write decision imports.  Everything printed
is measured in this run; all interpreters are ``sys.executable``.

    python3 benchmarks/run_hook_bench.py [--runs 100] [--sizes 100,1000,10000] [--rebuild-runs 20] [--rss-runs 3]
"""

import argparse
import contextlib
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SRC = os.path.join(REPO, "src")
HOOK = os.path.join(REPO, "hooks", "pre_experience_injection.py")
sys.path.insert(0, HERE)
sys.path.insert(0, SRC)

from generate import change_a_graph, generate  # noqa: E402
from peak_rss import gnu_time_kib, launcher_kib, peak_rss_kib  # noqa: E402
from stats import summary  # noqa: E402

from forewarn import index, index_build, storage  # noqa: E402

PY = sys.executable
FLOORS = {"floor": [PY, "-c", "pass"], "floor -S": [PY, "-S", "-c", "pass"]}
SCENARIOS = ("matching Write", "non-matching Write", "Bash", "Read")
AFTER_CHANGE = "hook right after a graph change (matching Write)"
REBUILD_PROCESS = "rebuild process (python -S -m forewarn.index_build)"
REBUILD_IN_PROCESS = "rebuild in process (index_build.rebuild)"


def timed(cmd, stdin, env):
    """``(seconds, stdout)`` of one process run to its end."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, proc.stdout


class Knowledge:
    """One generated project at one size, with its own data folder and the hook inputs for it."""

    def __init__(self, work, size):
        self.size = size
        self.project = os.path.join(work, "project%d" % size)
        user = os.path.join(work, "user%d" % size)
        self.transcript = generate(self.project, user, size)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("FOREWARN_") and k not in ("CLAUDE_PROJECT_DIR", "DISABLE_EXPERIENCE_INJECTION")}
        self.env.update(FOREWARN_DATA_DIR=os.path.join(work, "data%d" % size), FOREWARN_USER_GRAPHS=user)
        self.index_path = None
        self.sessions = 0
        self.revision = 0
        p = self.project
        self.inputs = {
            "matching Write": ("Write", {"file_path": p + "/.claude-plugin/plugin.json", "content": '{\n  "name": "shop",\n  "version": "0.2.0"\n}\n'}),
            "non-matching Write": ("Write", {"file_path": p + "/notes/todo.txt", "content": "buy milk\ncall the plumber\n"}),
            "Bash": ("Bash", {"command": "pytest tests/test_billing.py -q && git push origin main", "description": "Run the billing tests, then push"}),
            "Read": ("Read", {"file_path": p + "/src/billing/billing_service.py"}),
        }

    @contextlib.contextmanager
    def in_process(self):
        """forewarn's in-process calls see this size's data folder and user graphs."""
        saved = {k: os.environ.get(k) for k in ("FOREWARN_DATA_DIR", "FOREWARN_USER_GRAPHS")}
        os.environ.update(FOREWARN_DATA_DIR=self.env["FOREWARN_DATA_DIR"], FOREWARN_USER_GRAPHS=self.env["FOREWARN_USER_GRAPHS"])
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def payload(self, scenario):
        """Real PreToolUse JSON for ``scenario``, with a session id never used before."""
        self.sessions += 1
        tool, tool_input = self.inputs[scenario]
        return json.dumps({
            "session_id": "bench-%d-%d" % (self.size, self.sessions), "transcript_path": self.transcript, "cwd": self.project,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_bench_%d" % self.sessions,
        }).encode()

    def hook(self, scenario):
        return timed([PY, "-S", HOOK], self.payload(scenario), self.env)

    def rebuild_cmd(self):
        return [PY, "-S", "-m", "forewarn.index_build", self.project], dict(self.env, PYTHONPATH=SRC)

    def build_warm_index(self):
        with self.in_process():
            assert index_build.rebuild(self.project), "index not built"
            self.index_path = index.index_file(self.project)

    def change(self):
        """A real change of one graph file (the index becomes stale)."""
        self.revision += 1
        change_a_graph(self.project, self.revision)

    def sources(self):
        with self.in_process():
            return index.current_sources(self.project)

    def graph_bytes(self):
        return sum(size for _path, _mtime, size in self.sources())

    def counts(self):
        """The status counts and indexed items the stored index records."""
        with self.in_process():
            idx, _state = index.open_fresh(self.project, rebuild=False)
        try:
            counts = idx.header["counts"]
            return "%d active (%d indexed), %d draft, %d archived" % (counts["active"], idx.header["items"], counts["draft"], counts["archived"])
        finally:
            idx.close()

    def index_stamp(self):
        st = os.stat(self.index_path)
        return st.st_ino, st.st_mtime_ns, st.st_size

    def trace_lines(self):
        path = os.path.join(self.env["FOREWARN_DATA_DIR"], "trace.jsonl")
        try:
            with open(path, "rb") as handle:
                return [json.loads(line) for line in handle.read().splitlines() if line.strip()]
        except FileNotFoundError:
            return []

    def wait_until_fresh(self, timeout=60.0):
        """Wait for a detached rebuild to finish: the stored index is current and no builder holds the lock."""
        deadline = time.monotonic() + timeout
        with self.in_process():
            while True:
                idx, state = index.open_fresh(self.project, rebuild=False)
                if idx is not None:
                    idx.close()
                if state == "fresh":
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError("the background rebuild did not finish within %.0f s" % timeout)
                time.sleep(0.02)
            with storage.locked(self.index_path + ".build", timeout=timeout):
                pass


def check_decisions(k):
    """How many items each scenario injects (from the trace); fails unless the matching Write injects once,
    the version-bump checklist among its items, and the non-matching Write and the Read print nothing."""
    injected = {}
    for scenario in SCENARIOS:
        traced = len(k.trace_lines())
        out = k.hook(scenario)[1]
        lines = k.trace_lines()[traced:]
        injected[scenario] = len(lines[-1]["injected"]) if lines else 0
        if scenario == "matching Write":
            assert out.count(b'"additionalContext"') == 1, "matching Write did not inject: %r" % out[:200]
            assert "checklist-version-bump-sync" in lines[-1]["injected"], "the version-bump checklist was not injected"
        if scenario in ("non-matching Write", "Read"):
            assert out == b"" and injected[scenario] == 0, "%s injected: %r" % (scenario, out[:200])
    return injected


def warm_rounds(k, runs, rng):
    """Timed rounds with a warm index; checks afterwards that it stayed warm."""
    names = list(FLOORS) + list(SCENARIOS)
    times = {name: [] for name in names}
    for name in names:  # one untimed warm-up each (page cache, bytecode)
        timed(FLOORS[name], b"", k.env) if name in FLOORS else k.hook(name)
    stamp, traced_before = k.index_stamp(), len(k.trace_lines())
    for _ in range(runs):
        rng.shuffle(names)
        for name in names:
            t = timed(FLOORS[name], b"", k.env)[0] if name in FLOORS else k.hook(name)[0]
            times[name].append(t)
    assert k.index_stamp() == stamp, "the index was rewritten during the warm runs"
    states = [line["index"] for line in k.trace_lines()[traced_before:]]
    assert len(states) == runs * 3 and set(states) == {"fresh"}, "warm runs did not all read a fresh index: %r" % sorted(set(states))
    return times


def rebuild_rounds(k, runs, rng):
    """Per round, in a shuffled order: both floors, the hook after a graph change, the rebuild process, the in-process rebuild."""
    names = list(FLOORS) + [AFTER_CHANGE, REBUILD_PROCESS, REBUILD_IN_PROCESS]
    times = {name: [] for name in names}
    states = []
    for _ in range(runs):
        rng.shuffle(names)
        for name in names:
            if name in FLOORS:
                times[name].append(timed(FLOORS[name], b"", k.env)[0])
                continue
            k.change()
            if name == AFTER_CHANGE:
                traced = len(k.trace_lines())
                t, out = k.hook("matching Write")
                assert out.count(b'"additionalContext"') == 1, "the hook after a change injected nothing"
                states.extend(line["index"] for line in k.trace_lines()[traced:])
                k.wait_until_fresh()
            elif name == REBUILD_PROCESS:
                cmd, env = k.rebuild_cmd()
                t = timed(cmd, b"", env)[0]
            else:
                with k.in_process():
                    start = time.perf_counter()
                    assert index_build.rebuild(k.project)
                    t = time.perf_counter() - start
            if name != AFTER_CHANGE:
                with k.in_process():
                    assert index.open_fresh(k.project, rebuild=False)[1] == "fresh", "%s left a stale index" % name
            times[name].append(t)
    return times, sorted(set(states))


def rss_rows(k, runs):
    """``(process, getrusage KiB, GNU time KiB)``: the maximum over ``runs`` runs of each process, each way."""
    hook = [PY, "-S", HOOK]
    rebuild_cmd, rebuild_env = k.rebuild_cmd()
    cases = [(name, cmd, lambda: b"", k.env, None) for name, cmd in FLOORS.items()]
    cases += [(s, hook, lambda s=s: k.payload(s), k.env, None) for s in SCENARIOS]
    cases += [(AFTER_CHANGE, hook, lambda: k.payload("matching Write"), k.env, k.change),
              (REBUILD_PROCESS, rebuild_cmd, lambda: b"", rebuild_env, k.change)]
    rows = []
    for label, cmd, stdin, env, before in cases:
        ours, gnu = [], []
        for _ in range(runs):
            for measure, found in ((peak_rss_kib, ours), (gnu_time_kib, gnu)):
                if before:
                    before()
                found.append(measure(cmd, stdin(), env))
                k.wait_until_fresh()
        rows.append((label, max(ours), None if None in gnu else max(gnu)))
    return rows


def hook_imports(k):
    """The modules a matching Write imports beyond ``python -S -c pass`` (from ``-X importtime``), in import order."""

    def imported(cmd, stdin):
        err = subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=k.env).stderr.decode()
        return [line.rsplit("|", 1)[1].strip() for line in err.splitlines() if line.startswith("import time:") and "|" in line][1:]

    bare = set(imported([PY, "-S", "-X", "importtime", "-c", "pass"], b""))
    return [m for m in imported([PY, "-S", "-X", "importtime", HOOK], k.payload("matching Write")) if m not in bare]


def import_rows(k, runs, rng):
    """Whole-process cost of importing the JSON parsers and the hook's Write-path modules, interleaved."""
    forewarn_modules = [m for m in hook_imports(k) if m.startswith("forewarn.")]
    commands = {
        "python -S -c pass": [PY, "-S", "-c", "pass"],
        "python -S -c 'import _json'": [PY, "-S", "-c", "import _json"],
        "python -S -c 'import json'": [PY, "-S", "-c", "import json"],
        "python -S, the forewarn modules a matching Write imports": [PY, "-S", "-c", "import sys; sys.path.insert(0, %r); import %s" % (SRC, ", ".join(forewarn_modules))],
        "python -c pass": [PY, "-c", "pass"],
        "python -c 'import json'": [PY, "-c", "import json"],
        "python -c 'import orjson'": [PY, "-c", "import orjson"],
        "python -S -c 'import orjson'": [PY, "-S", "-c", "import orjson"],
    }
    usable = {name: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=k.env).returncode == 0 for name, cmd in commands.items()}
    names = [n for n in commands if usable[n]]
    times = {n: [] for n in names}
    for _ in range(runs):
        rng.shuffle(names)
        for name in names:
            times[name].append(timed(commands[name], b"", k.env)[0])
    base = {True: summary(times["python -S -c pass"])[0], False: summary(times["python -c pass"])[0]}
    rows = []
    for name in commands:
        if not usable[name]:
            rows.append([name, "fails (not importable)", "-", "-"])
            continue
        med, p95 = summary(times[name])
        rows.append([name, "%.1f" % (med * 1000), "%.1f" % (p95 * 1000), "%+.1f" % ((med - base[" -S" in name]) * 1000)])
    return rows


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--", "src", "hooks"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit, dirty = "?", ""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return ("%s %s on %s, %s, %d cores (%s); commit %s%s; load average %.2f at start"
            % (platform.python_implementation(), platform.python_version(), platform.system(), platform.machine(),
               os.cpu_count(), cpu or "cpu unknown", commit, " with uncommitted changes in src/hooks" if dirty else "", load))


def ratio_cells(values, floors):
    med, p95 = summary(values)
    cells = []
    for floor in FLOORS:
        fmed, fp95 = summary(floors[floor])
        cells += ["%.2f" % (med / fmed), "%.2f" % (p95 / fp95)]
    return med, p95, cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="timed runs of each process per size (warm index)")
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--rebuild-runs", type=int, default=20, help="graph changes per size for the rebuild timings")
    parser.add_argument("--rss-runs", type=int, default=3, help="runs per process and method for peak RSS (the maximum is reported)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the order of the processes in each round")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(machine())
    print("%d timed runs per process per size, floors and hook interleaved in a shuffled order each round; "
          "%d graph changes per size; peak RSS the maximum of %d runs" % (args.runs, args.rebuild_runs, args.rss_runs))
    work = tempfile.mkdtemp(prefix="forewarn-bench-")
    warm, rebuild, rss, notes = [], [], [], []
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            k = Knowledge(work, size)
            k.build_warm_index()
            injected = check_decisions(k)
            times = warm_rounds(k, args.runs, rng)
            for name in list(FLOORS) + list(SCENARIOS):
                med, p95, cells = ratio_cells(times[name], times)
                warm.append([str(size), name, "-" if name in FLOORS else str(injected[name]), "%.1f" % (med * 1000), "%.1f" % (p95 * 1000)] + cells)
            rtimes, states = rebuild_rounds(k, args.rebuild_runs, rng)
            for name in list(FLOORS) + [AFTER_CHANGE, REBUILD_PROCESS, REBUILD_IN_PROCESS]:
                med, p95, cells = ratio_cells(rtimes[name], rtimes)
                rebuild.append([str(size), name, "%.1f" % (med * 1000), "%.1f" % (p95 * 1000), "%.1f" % (max(rtimes[name]) * 1000)] + cells)
            notes.append("%d nodes: %.1f MB of graph JSON in %d files, %s; the hook right after a change found the index %s"
                         % (size, k.graph_bytes() / 1e6, len(k.sources()), k.counts(), " / ".join(states)))
            for label, ours, gnu in rss_rows(k, args.rss_runs):
                rss.append([str(size), label, "%.1f" % (ours / 1024), "-" if gnu is None else "%.1f" % (gnu / 1024)])
        launcher = launcher_kib(k.env)
        imports = import_rows(k, args.runs, rng)
        modules = hook_imports(k)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print("Warm index (the hook as hooks.json runs it; items = lessons injected):")
    print()
    _table(["nodes", "scenario", "items", "median ms", "p95 ms", "median / floor", "p95 / floor p95", "median / floor -S", "p95 / floor -S p95"], warm)
    print()
    print("Index rebuild after a real graph change:")
    print()
    _table(["nodes", "process", "median ms", "p95 ms", "max ms", "median / floor", "p95 / floor p95", "median / floor -S", "p95 / floor -S p95"], rebuild)
    print()
    for note in notes:
        print("- " + note)
    print()
    print("Peak RSS (getrusage: RUSAGE_CHILDREN in a python -S launcher, which alone reports %.1f MiB; GNU time: /usr/bin/time -f %%M):" % (launcher / 1024))
    print()
    _table(["nodes", "process", "peak RSS MiB (getrusage)", "peak RSS MiB (GNU time)"], rss)
    print()
    print("Import costs, whole process, interleaved:")
    print()
    _table(["command", "median ms", "p95 ms", "median minus its floor ms"], imports, text_columns=1)
    print()
    print("Modules a matching Write imports beyond python -S -c pass: " + ", ".join(modules))


def _table(columns, rows, text_columns=2):
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" if i < text_columns else "---:" for i in range(len(columns))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
