"""Well-formedness of the clinic corpus: JSON parses, ids and transcripts exist, counts. It scores nothing."""
import collections
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
FIELDS = {"session_id", "transcript_path", "cwd", "hook_event_name", "tool_name", "tool_input", "tool_use_id", "permission_mode"}


def main():
    problems = []
    graph = json.loads((HERE / "graph.json").read_text())
    assert graph["directed"] is True and graph["multigraph"] is False
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert len(nodes) == len(graph["nodes"]), "duplicate node ids"
    for link in graph["links"]:
        if link["source"] not in nodes or link["target"] not in nodes:
            problems.append("link to a missing node: %r" % link)
    process = {i: n for i, n in nodes.items() if n.get("type") == "Concept" and n.get("process_type")}
    for i, n in process.items():
        if n["process_type"] not in n:
            problems.append("%s lacks its %s block" % (i, n["process_type"]))
    active = {i for i, n in process.items() if n.get("status", "active") == "active"}
    print("process nodes:", len(process), "active:", len(active))
    print("  by status:", dict(collections.Counter(n.get("status", "active") for n in process.values())))
    print("  active by priority:", dict(collections.Counter(process[i]["priority"] for i in active)))
    print("  active by type:", dict(collections.Counter(process[i]["process_type"] for i in active)))
    print("non-process nodes:", len(nodes) - len(process), "links:", len(graph["links"]))

    calls = [json.loads(line) for line in (HERE / "calls.jsonl").read_text().splitlines() if line.strip()]
    ids = [c["id"] for c in calls]
    if len(set(ids)) != len(ids):
        problems.append("duplicate call ids")
    labels = collections.Counter()
    tools = collections.Counter()
    with_any = windows = 0
    for c in calls:
        hook = c["hook"]
        missing = FIELDS - hook.keys()
        if missing:
            problems.append("%s: hook lacks %s" % (c["id"], sorted(missing)))
        if hook.get("hook_event_name") != "PreToolUse":
            problems.append("%s: not PreToolUse" % c["id"])
        for r in c["relevant"]:
            if r not in active:
                problems.append("%s: %s is not an active process node" % (c["id"], r))
        if len(set(c["relevant"])) != len(c["relevant"]):
            problems.append("%s: repeated label" % c["id"])
        if c.get("transcript") and not (HERE / "transcripts" / c["transcript"]).is_file():
            problems.append("%s: no transcript %s" % (c["id"], c["transcript"]))
        text = json.dumps(c)
        for path in re.findall(r"/home/[A-Za-z0-9_.-]+", text):
            if path != "/home/dev":
                problems.append("%s: machine path %s" % (c["id"], path))
        tools[hook["tool_name"]] += 1
        labels.update(c["relevant"])
        with_any += bool(c["relevant"])
        windows += bool(re.match(r"^[A-Za-z]:\\", hook.get("cwd", "")))
    for t in (HERE / "transcripts").glob("*.jsonl"):
        for n, line in enumerate(t.read_text().splitlines(), 1):
            try:
                json.loads(line)
            except ValueError:
                problems.append("%s:%d does not parse" % (t.name, n))
    critical = sum(v for k, v in labels.items() if process[k]["priority"] == "CRITICAL")
    print("calls:", len(calls), "with a relevant item: %d (%.0f%%)" % (with_any, 100.0 * with_any / len(calls)),
          "Windows:", windows, "with transcript:", sum(bool(c.get("transcript")) for c in calls))
    print("labels:", sum(labels.values()), "CRITICAL labels:", critical)
    print("calls by tool:", dict(tools.most_common()))
    print("labels by item:", dict(labels.most_common()))
    print("active items never labelled:", sorted(active - labels.keys()))
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
