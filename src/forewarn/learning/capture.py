"""From transcript records to draft knowledge nodes; and when a new lesson is an old one.

:func:`extract_lessons` walks the records in order.  It keeps the tool calls
the assistant made since the last human prompt, so a correction gets its
triggers from what the assistant was doing when it was corrected.  It finds,
in order of trust, ``[PROCESS_KNOWLEDGE]`` blocks (assistant), corrections
(human prompts only) and lesson statements (both), builds one redacted
draft node per lesson, and merges lessons of the same batch that say the
same thing (a repeated mistake: occurrences 2, CRITICAL).

:func:`same_lesson`, :func:`already_counted` and :func:`merge_occurrence`
let the Stop hook fold a new lesson into an existing item instead of adding
a duplicate.  Everything here is pure: no file is read or written.
"""

from . import inference, markers, transcript
from .corrections import find_corrections
from .redact import redact, redact_node
from .statements import find_statements

CREATED_BY = "forewarn-stop-hook"
CONFIDENCE = {"process_knowledge": 0.9, "user_correction": 0.7, "lesson_statement": 0.6}
MAX_EVIDENCE = 10
SAME_TERMS = 0.5  # Jaccard of key terms that makes two lessons the same
SAME_TERMS_CONTAINED = 0.75  # share of the smaller lesson's terms found in the other (at least 2 terms)
SAME_TERMS_WITH_FILES = 0.25  # Jaccard that suffices when they also share a file pattern


def _node(kind, text, fields, session_id, now, excerpt):
    node = {
        "id": inference.lesson_id(kind, text),
        "type": "Concept",
        "label": fields["label"],
        "description": fields.get("description", ""),
        "process_type": fields["process_type"],
        "priority": fields["priority"],
        "status": "draft",
        "trigger_conditions": fields["trigger_conditions"],
        fields["process_type"]: fields[fields["process_type"]],
        "evidence": [excerpt[:500]],
        "created_by": CREATED_BY,
        "created_at": now,
        "confidence": CONFIDENCE[kind],
        "source": {"kind": kind, "session_id": session_id, "excerpt": excerpt[:500], "timestamp": now},
        "occurrences": 1,
    }
    return redact_node(node)


def _inferred(kind, sentence, tool_calls, situation, task=""):
    terms = inference.key_terms(sentence)
    ptype = inference.infer_process_type(sentence)
    return {
        "label": inference.label_from(sentence),
        "description": " ".join(sentence.split()),
        "process_type": ptype,
        "priority": inference.infer_priority(kind, sentence, task),
        "trigger_conditions": inference.triggers_from_tools(tool_calls, terms),
        ptype: inference.content_block(ptype, sentence, situation),
    }


def _situation(tool_calls):
    files = [inference.path_to_glob(i.get("file_path")) for n, i in tool_calls if isinstance(i.get("file_path"), str)]
    files = [f[3:] if f and f.startswith("**/") else f for f in files if f]
    if files:
        return "When changing " + ", ".join(dict.fromkeys(files[:3]))
    tools = list(dict.fromkeys(n for n, _i in tool_calls))
    return ("When using " + ", ".join(tools[:3])) if tools else ""


def extract_lessons(records, last_assistant_message, session_id, now):
    """``(candidate nodes, problems)`` from transcript records and the final assistant message.

    Records are taken turn by turn (a turn ends at the next human prompt):
    the assistant's text of a turn is read with every tool call of that
    turn, and a correction gets the tool calls of the turn it corrects and
    the prompt that started it (its task).
    """
    candidates, problems = [], []
    tool_calls, texts = [], []
    task = ""
    for record in records:
        who = transcript.role(record)
        if who == "assistant":
            tool_calls.extend(transcript.tool_uses(record))
            text = transcript.text_of(record)
            if text:
                texts.append(text)
        elif who == "user" and transcript.is_human_prompt(record):
            for text in texts:
                _from_assistant(text, tool_calls, session_id, now, candidates, problems)
            prompt = transcript.text_of(record)
            corrections = find_corrections(prompt)
            for sentence in corrections:
                fields = _inferred("user_correction", sentence, tool_calls, _situation(tool_calls), task)
                candidates.append(_node("user_correction", sentence, fields, session_id, now, sentence))
            for sentence in find_statements(prompt):
                if any(sentence in c or c in sentence for c in corrections):
                    continue
                fields = _inferred("lesson_statement", sentence, tool_calls, _situation(tool_calls))
                candidates.append(_node("lesson_statement", sentence, fields, session_id, now, sentence))
            tool_calls, texts = [], []
            task = prompt
    if last_assistant_message and not any(last_assistant_message.strip() == t.strip() for t in texts):
        texts.append(last_assistant_message)
    for text in texts:
        _from_assistant(text, tool_calls, session_id, now, candidates, problems)
    return _merge_batch(candidates), problems


def _from_assistant(text, tool_calls, session_id, now, candidates, problems):
    for fields, error, body in markers.find_blocks(text):
        if error:
            problems.append(redact(error))
            continue
        node_fields, notes = markers.to_node_fields(fields)
        problems.extend(redact(n) for n in notes)
        trig = node_fields["trigger_conditions"]
        if not trig["tool_names"] and not trig["file_patterns"] and tool_calls:
            inferred = inference.triggers_from_tools(tool_calls, trig["action_keywords"])
            trig["tool_names"], trig["file_patterns"] = inferred["tool_names"], inferred["file_patterns"]
        key_text = node_fields["label"] + " " + node_fields["description"]
        candidates.append(_node("process_knowledge", key_text, node_fields, session_id, now, body.strip()))
    for sentence in find_statements(markers.BLOCK.sub(" ", text)):
        fields = _inferred("lesson_statement", sentence, tool_calls, _situation(tool_calls))
        candidates.append(_node("lesson_statement", sentence, fields, session_id, now, sentence))


TRUST = {"process_knowledge": 0, "user_correction": 1, "lesson_statement": 2}


def _merge_batch(candidates):
    """One node per lesson in a batch.

    Two corrections that say the same thing are a repeated mistake
    (:func:`merge_occurrence`).  The same lesson from different kinds (a
    correction and the ``[PROCESS_KNOWLEDGE]`` block the assistant wrote
    about it) is one event: the most trusted kind is kept and the other's
    excerpt joins its evidence.
    """
    merged = []
    for candidate in candidates:
        for i, kept in enumerate(merged):
            if not same_lesson(kept, candidate):
                continue
            kinds = (kept["source"]["kind"], candidate["source"]["kind"])
            if candidate["source"]["excerpt"] == kept["source"]["excerpt"]:
                pass
            elif kinds == ("user_correction", "user_correction"):
                merged[i] = merge_occurrence(kept, candidate)
            else:
                first, second = (kept, candidate) if TRUST[kinds[0]] <= TRUST[kinds[1]] else (candidate, kept)
                combined = dict(first)
                combined["evidence"] = (list(first["evidence"]) + [e for e in second["evidence"] if e not in first["evidence"]])[:MAX_EVIDENCE]
                combined["occurrences"] = max(first.get("occurrences", 1), second.get("occurrences", 1))
                if combined["occurrences"] >= 2:
                    combined["priority"] = "CRITICAL"
                merged[i] = combined
            break
        else:
            merged.append(candidate)
    return merged


def _terms(node):
    parts = [str(node.get("label", "")), str(node.get("description", ""))]
    block = node.get(node.get("process_type")) or {}
    if isinstance(block, dict):
        for value in block.values():
            if isinstance(value, str):
                parts.append(value)
            elif isinstance(value, list):
                parts.extend(str(v.get("item", "")) if isinstance(v, dict) else str(v) for v in value)
    return set(inference.key_terms(" ".join(parts), limit=30))


def same_lesson(existing, candidate):
    """True when ``candidate`` records the same lesson as ``existing`` (same id, or same files and key terms)."""
    if existing.get("id") == candidate.get("id"):
        return True
    a, b = _terms(existing), _terms(candidate)
    if not a or not b:
        return False
    shared = len(a & b)
    jaccard = shared / len(a | b)
    if shared >= 2 and shared / min(len(a), len(b)) >= SAME_TERMS_CONTAINED:
        return True
    files_a = set((existing.get("trigger_conditions") or {}).get("file_patterns") or ())
    files_b = set((candidate.get("trigger_conditions") or {}).get("file_patterns") or ())
    if files_a & files_b and jaccard >= SAME_TERMS_WITH_FILES:
        return True
    return jaccard >= SAME_TERMS


def already_counted(existing, candidate):
    """True when this very sighting (same session, same excerpt) is already recorded on ``existing``."""
    source = candidate.get("source") or {}
    key = [source.get("session_id"), source.get("excerpt")]
    first = existing.get("source") if isinstance(existing.get("source"), dict) else {}
    return key == [first.get("session_id"), first.get("excerpt")] or key in (existing.get("sightings") or [])


def merge_occurrence(existing, candidate):
    """``existing`` seen once more: occurrences + 1, evidence added, CRITICAL from two occurrences on."""
    node = dict(existing)
    source = candidate.get("source") or {}
    sightings = list(node.get("sightings") or [])
    if not sightings and isinstance(node.get("source"), dict):
        first = node["source"]
        sightings.append([first.get("session_id"), first.get("excerpt")])
    sightings.append([source.get("session_id"), source.get("excerpt")])
    node["sightings"] = sightings[-MAX_EVIDENCE:]
    node["occurrences"] = int(node.get("occurrences") or 1) + 1
    evidence = node.get("evidence")
    evidence = list(evidence) if isinstance(evidence, list) else ([evidence] if evidence else [])
    excerpt = source.get("excerpt")
    if excerpt and excerpt not in evidence:
        evidence.append(excerpt)
    node["evidence"] = evidence[-MAX_EVIDENCE:]
    if node["occurrences"] >= 2:
        node["priority"] = "CRITICAL"
    node["last_seen_at"] = source.get("timestamp") or candidate.get("created_at")
    trig = dict(node.get("trigger_conditions") or {})
    new_trig = candidate.get("trigger_conditions") or {}
    for key in ("tool_names", "file_patterns"):
        values = list(trig.get(key) or [])
        for value in new_trig.get(key) or []:
            if value not in values:
                values.append(value)
        trig[key] = values
    node["trigger_conditions"] = trig
    return node
