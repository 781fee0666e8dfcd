"""Write the corpus of corpus_spec.py as Claude Code transcripts: tests/learning/corpus/<name>.jsonl + <name>.expect.json.

The records have Claude Code's real shape (uuid/parentUuid chains, sessionId,
message.content blocks, tool_use ids matched by tool_result records) and the
noise a real transcript carries (queue-operation, attachment, system,
file-history-snapshot, progress, summary, last-prompt), and the user-line
variants a Stop hook meets: tool rejections with the person's typed reason,
interrupt markers, prompts carrying IDE context blocks, subagent (sidechain)
prompts and compaction summaries.  Run it after editing corpus_spec.py:
python tests/learning/build_corpus.py
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from corpus_spec import (  # noqa: E402
    CASES, HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6, HELD_OUT_7, HELD_OUT_8, HELD_OUT_9, HELD_OUT_10,
    HELD_OUT_11, HELD_OUT_12, HELD_OUT_13, HELD_OUT_14, HELD_OUT_15, HELD_OUT_16, HELD_OUT_18, HELD_OUT_17, HELD_OUT_20, HELD_OUT_19, HELD_OUT_21, HELD_OUT_22,
    HELD_OUT_23, HELD_OUT_24, HELD_OUT_25, HELD_OUT_26, HELD_OUT_27, HELD_OUT_28, HELD_OUT_29, HELD_OUT_30,
    HELD_OUT_31, HELD_OUT_32, HELD_OUT_33, HELD_OUT_34, HELD_OUT_35, HELD_OUT_36, HELD_OUT_37, HELD_OUT_38,
    HELD_OUT_39, HELD_OUT_40, HELD_OUT_41, HELD_OUT_42, HELD_OUT_43, HELD_OUT_44, HELD_OUT_45, HELD_OUT_46,
    HELD_OUT_47, HELD_OUT_48, HELD_OUT_49, HELD_OUT_50, HELD_OUT_51, HELD_OUT_52, HELD_OUT_53, HELD_OUT_54,
    HELD_OUT_55, HELD_OUT_56, HELD_OUT_57, HELD_OUT_58,
    HELD_OUT_59, HELD_OUT_60, HELD_OUT_61, HELD_OUT_62,
    HELD_OUT_63, HELD_OUT_64, HELD_OUT_65, HELD_OUT_66,
    HELD_OUT_67, HELD_OUT_68, HELD_OUT_69, HELD_OUT_70,
    HELD_OUT_71, HELD_OUT_72, HELD_OUT_73, HELD_OUT_74,
    HELD_OUT_75, HELD_OUT_76, HELD_OUT_77, HELD_OUT_78,
    HELD_OUT_79, HELD_OUT_80, HELD_OUT_81, HELD_OUT_82,
    HELD_OUT_83, HELD_OUT_84, HELD_OUT_85, HELD_OUT_86,
    HELD_OUT_87, HELD_OUT_88, HELD_OUT_89, HELD_OUT_90,
    HELD_OUT_91, HELD_OUT_92, HELD_OUT_93, HELD_OUT_94,
    HELD_OUT_95, HELD_OUT_96, HELD_OUT_97, HELD_OUT_98,
    HELD_OUT_99,
)

# Claude Code's tool_result text when a person rejects a tool call and types why.
REJECTED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
            "the new_string was NOT written to the file). To tell you how to proceed, the user said:\n")


def records(case):
    session = "corpus-" + case["name"]
    out = []
    counter = [0]

    def add(kind, message=None, **extra):
        counter[0] += 1
        uid = "%s-%04d" % (case["name"][:12], counter[0])
        record = {"type": kind, "uuid": uid, "parentUuid": out[-1]["uuid"] if out else None, "sessionId": session,
                  "timestamp": "2026-11-20T10:%02d:%02dZ" % (counter[0] // 60, counter[0] % 60), "cwd": "/home/dev/shop",
                  "version": "2.1.328", "gitBranch": "main", "isSidechain": False, "userType": "external"}
        if message is not None:
            record["message"] = message
        record.update(extra)
        out.append(record)

    add("queue-operation", operation="enqueue", content="start")
    add("file-history-snapshot", messageId="snap", snapshot={"trackedFileBackups": {}})
    for turn in case["turns"]:
        kind = turn[0]
        if kind == "user":
            add("user", {"role": "user", "content": turn[1]})
            add("attachment", attachment={"type": "todo_reminder", "content": []})
        elif kind == "meta":
            add("user", {"role": "user", "content": turn[1]}, isMeta=True)
        elif kind == "assistant":
            text, tools = turn[1], turn[2]
            if text:
                add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "text", "text": text}], "stop_reason": None if tools else "end_turn"})
            for i, (name, tool_input) in enumerate(tools):
                tool_id = "toolu_%s_%d_%d" % (case["name"][:8], counter[0], i)
                add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}], "stop_reason": "tool_use"})
                add("progress", data={"type": "hook_progress", "hookEvent": "PreToolUse"})
                add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok", "is_error": False}]}, toolUseResult={"type": "text"})
        elif kind == "result":
            add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": turn[1]}]})
        elif kind == "final":
            add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "text", "text": turn[1]}], "stop_reason": "end_turn"})
        elif kind == "final_blocks":  # one API response persisted as one record per text block
            for i, text in enumerate(turn[1]):
                add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg-final", "content": [{"type": "text", "text": text}],
                                  "stop_reason": "end_turn" if i == len(turn[1]) - 1 else None})
        elif kind == "rejected":  # ("rejected", tool, input, what the person typed)
            tool_id = "toolu_%s_%d_r" % (case["name"][:8], counter[0])
            add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg", "content": [{"type": "tool_use", "id": tool_id, "name": turn[1], "input": turn[2]}], "stop_reason": "tool_use"})
            add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": REJECTED + turn[3], "is_error": True}]},
                toolUseResult="User rejected tool use")
        elif kind == "interrupt":
            add("user", {"role": "user", "content": [{"type": "text", "text": "[Request interrupted by user for tool use]"}]})
        elif kind == "ide":  # ("ide", context block text, prompt): a prompt sent from an IDE session
            add("user", {"role": "user", "content": [{"type": "text", "text": turn[1]}, {"type": "text", "text": turn[2]}]})
        elif kind == "sidechain":  # a subagent's task prompt, written by the main agent
            add("user", {"role": "user", "content": turn[1]}, isSidechain=True, agentId="a1b2c3")
            add("assistant", {"role": "assistant", "model": "claude-sonnet-5", "id": "msg-sub", "content": [{"type": "text", "text": "Checking."}], "stop_reason": "end_turn"},
                isSidechain=True, agentId="a1b2c3")
        elif kind == "compact":
            add("user", {"role": "user", "content": turn[1]}, isCompactSummary=True, isVisibleInTranscriptOnly=True)
    add("system", subtype="turn_duration", durationMs=1234)
    add("summary", summary="a session", leafUuid=out[-1]["uuid"])
    add("last-prompt", lastPrompt="…")
    return out


def main():
    folder = os.path.join(HERE, "corpus")
    os.makedirs(folder, exist_ok=True)
    everything = [dict(c, set="tuned") for c in CASES] + [dict(c, set="held_out_1") for c in HELD_OUT] + [dict(c, set="held_out_2") for c in HELD_OUT_2]
    everything += [dict(c, set="held_out_3") for c in HELD_OUT_3] + [dict(c, set="held_out_4") for c in HELD_OUT_4]
    everything += [dict(c, set="held_out_5") for c in HELD_OUT_5]
    everything += [dict(c, set="held_out_6") for c in HELD_OUT_6]
    everything += [dict(c, set="held_out_7") for c in HELD_OUT_7]
    everything += [dict(c, set="held_out_8") for c in HELD_OUT_8]
    everything += [dict(c, set="held_out_9") for c in HELD_OUT_9]
    everything += [dict(c, set="held_out_10") for c in HELD_OUT_10]
    everything += [dict(c, set="held_out_11") for c in HELD_OUT_11]
    everything += [dict(c, set="held_out_12") for c in HELD_OUT_12]
    everything += [dict(c, set="held_out_13") for c in HELD_OUT_13]
    everything += [dict(c, set="held_out_14") for c in HELD_OUT_14]
    everything += [dict(c, set="held_out_15") for c in HELD_OUT_15]
    everything += [dict(c, set="held_out_16") for c in HELD_OUT_16]
    everything += [dict(c, set="held_out_18") for c in HELD_OUT_18]
    everything += [dict(c, set="held_out_17") for c in HELD_OUT_17]
    everything += [dict(c, set="held_out_20") for c in HELD_OUT_20]
    everything += [dict(c, set="held_out_19") for c in HELD_OUT_19]
    everything += [dict(c, set="held_out_21") for c in HELD_OUT_21]
    everything += [dict(c, set="held_out_22") for c in HELD_OUT_22]
    everything += [dict(c, set="held_out_23") for c in HELD_OUT_23]
    everything += [dict(c, set="held_out_24") for c in HELD_OUT_24]
    everything += [dict(c, set="held_out_25") for c in HELD_OUT_25]
    everything += [dict(c, set="held_out_26") for c in HELD_OUT_26]
    everything += [dict(c, set="held_out_27") for c in HELD_OUT_27]
    everything += [dict(c, set="held_out_28") for c in HELD_OUT_28]
    everything += [dict(c, set="held_out_29") for c in HELD_OUT_29]
    everything += [dict(c, set="held_out_30") for c in HELD_OUT_30]
    everything += [dict(c, set="held_out_31") for c in HELD_OUT_31]
    everything += [dict(c, set="held_out_32") for c in HELD_OUT_32]
    everything += [dict(c, set="held_out_33") for c in HELD_OUT_33]
    everything += [dict(c, set="held_out_34") for c in HELD_OUT_34]
    everything += [dict(c, set="held_out_35") for c in HELD_OUT_35]
    everything += [dict(c, set="held_out_36") for c in HELD_OUT_36]
    everything += [dict(c, set="held_out_37") for c in HELD_OUT_37]
    everything += [dict(c, set="held_out_38") for c in HELD_OUT_38]
    everything += [dict(c, set="held_out_39") for c in HELD_OUT_39]
    everything += [dict(c, set="held_out_40") for c in HELD_OUT_40]
    everything += [dict(c, set="held_out_41") for c in HELD_OUT_41]
    everything += [dict(c, set="held_out_42") for c in HELD_OUT_42]
    everything += [dict(c, set="held_out_43") for c in HELD_OUT_43]
    everything += [dict(c, set="held_out_44") for c in HELD_OUT_44]
    everything += [dict(c, set="held_out_45") for c in HELD_OUT_45]
    everything += [dict(c, set="held_out_46") for c in HELD_OUT_46]
    everything += [dict(c, set="held_out_47") for c in HELD_OUT_47]
    everything += [dict(c, set="held_out_48") for c in HELD_OUT_48]
    everything += [dict(c, set="held_out_49") for c in HELD_OUT_49]
    everything += [dict(c, set="held_out_50") for c in HELD_OUT_50]
    everything += [dict(c, set="held_out_51") for c in HELD_OUT_51]
    everything += [dict(c, set="held_out_52") for c in HELD_OUT_52]
    everything += [dict(c, set="held_out_53") for c in HELD_OUT_53]
    everything += [dict(c, set="held_out_54") for c in HELD_OUT_54]
    everything += [dict(c, set="held_out_55") for c in HELD_OUT_55]
    everything += [dict(c, set="held_out_56") for c in HELD_OUT_56]
    everything += [dict(c, set="held_out_57") for c in HELD_OUT_57]
    everything += [dict(c, set="held_out_58") for c in HELD_OUT_58]
    everything += [dict(c, set="held_out_59") for c in HELD_OUT_59]
    everything += [dict(c, set="held_out_60") for c in HELD_OUT_60]
    everything += [dict(c, set="held_out_61") for c in HELD_OUT_61]
    everything += [dict(c, set="held_out_62") for c in HELD_OUT_62]
    everything += [dict(c, set="held_out_63") for c in HELD_OUT_63]
    everything += [dict(c, set="held_out_64") for c in HELD_OUT_64]
    everything += [dict(c, set="held_out_65") for c in HELD_OUT_65]
    everything += [dict(c, set="held_out_66") for c in HELD_OUT_66]
    everything += [dict(c, set="held_out_67") for c in HELD_OUT_67]
    everything += [dict(c, set="held_out_68") for c in HELD_OUT_68]
    everything += [dict(c, set="held_out_69") for c in HELD_OUT_69]
    everything += [dict(c, set="held_out_70") for c in HELD_OUT_70]
    everything += [dict(c, set="held_out_71") for c in HELD_OUT_71]
    everything += [dict(c, set="held_out_72") for c in HELD_OUT_72]
    everything += [dict(c, set="held_out_73") for c in HELD_OUT_73]
    everything += [dict(c, set="held_out_74") for c in HELD_OUT_74]
    everything += [dict(c, set="held_out_75") for c in HELD_OUT_75]
    everything += [dict(c, set="held_out_76") for c in HELD_OUT_76]
    everything += [dict(c, set="held_out_77") for c in HELD_OUT_77]
    everything += [dict(c, set="held_out_78") for c in HELD_OUT_78]
    everything += [dict(c, set="held_out_79") for c in HELD_OUT_79]
    everything += [dict(c, set="held_out_80") for c in HELD_OUT_80]
    everything += [dict(c, set="held_out_81") for c in HELD_OUT_81]
    everything += [dict(c, set="held_out_82") for c in HELD_OUT_82]
    everything += [dict(c, set="held_out_83") for c in HELD_OUT_83]
    everything += [dict(c, set="held_out_84") for c in HELD_OUT_84]
    everything += [dict(c, set="held_out_85") for c in HELD_OUT_85]
    everything += [dict(c, set="held_out_86") for c in HELD_OUT_86]
    everything += [dict(c, set="held_out_87") for c in HELD_OUT_87]
    everything += [dict(c, set="held_out_88") for c in HELD_OUT_88]
    everything += [dict(c, set="held_out_89") for c in HELD_OUT_89]
    everything += [dict(c, set="held_out_90") for c in HELD_OUT_90]
    everything += [dict(c, set="held_out_91") for c in HELD_OUT_91]
    everything += [dict(c, set="held_out_92") for c in HELD_OUT_92]
    everything += [dict(c, set="held_out_93") for c in HELD_OUT_93]
    everything += [dict(c, set="held_out_94") for c in HELD_OUT_94]
    everything += [dict(c, set="held_out_95") for c in HELD_OUT_95]
    everything += [dict(c, set="held_out_96") for c in HELD_OUT_96]
    everything += [dict(c, set="held_out_98") for c in HELD_OUT_98]
    everything += [dict(c, set="held_out_99") for c in HELD_OUT_99]
    everything += [dict(c, set="held_out_97") for c in HELD_OUT_97]
    for case in everything:
        with open(os.path.join(folder, case["name"] + ".jsonl"), "w", encoding="utf-8") as handle:
            for record in records(case):
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        final = [t[1] if t[0] == "final" else "\n\n".join(t[1]) for t in case["turns"] if t[0] in ("final", "final_blocks")]
        expect = {"last_assistant_message": final[-1] if final else "", "expect": case["expect"],
                  "secrets": case.get("secrets", []), "problems": case.get("problems", 0), "set": case["set"]}
        with open(os.path.join(folder, case["name"] + ".expect.json"), "w", encoding="utf-8") as handle:
            json.dump(expect, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    print("wrote %d transcripts to %s" % (len(everything), folder))


if __name__ == "__main__":
    main()
