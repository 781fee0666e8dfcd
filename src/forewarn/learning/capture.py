"""From transcript records to draft knowledge nodes; and when a new lesson is an old one.

:func:`extract_lessons` walks the records in order.  It keeps the tool calls
the assistant made since the last human prompt, so a correction gets its
triggers from what the assistant was doing when it was corrected.  It finds,
in order of trust, ``[PROCESS_KNOWLEDGE]`` blocks (assistant), corrections
(human prompts, and the reasons people give when they reject a tool call)
and lesson statements (both), builds one redacted draft node per lesson,
and merges lessons of the same batch that say the same thing (a repeated
mistake: occurrences 2, CRITICAL).

:func:`same_lesson`, :func:`already_counted` and :func:`merge_occurrence`
let the Stop hook fold a new lesson into an existing item instead of adding
a duplicate.  Everything here is pure: no file is read or written.
"""

import re

from ..inject import read_only
from . import inference, markers, reply_model, transcript
from .corrections import (ACCEPT, NEXT_TASK, command_programs, find_corrections, find_rejection_correction, moves_on,
                          opens_with_command, pushes_back, reply_correction, reply_lessons)
from .lazy_regex import lazy
from .redact import redact, redact_node
from .statements import find_statements

CREATED_BY = "forewarn-stop-hook"
CONFIDENCE = {"process_knowledge": 0.9, "user_correction": 0.7, "lesson_statement": 0.6}
MAX_COMMAND_REPLY = 300  # characters of a reply that is only the command to run
REJECTION_CONFIDENCE = 0.8  # a person rejected the tool call and said why
MAX_EVIDENCE = 10
MAX_EXCERPT = 500
MAX_CANDIDATES = 200  # per call, before merging: a pathological backlog is cut, and reported
SAME_TERMS = 0.5  # Jaccard of key terms that makes two lessons the same
SAME_TERMS_CONTAINED = 0.75  # share of the smaller lesson's terms found in the other (at least 2 terms)
SAME_TERMS_WITH_FILES = 0.25  # Jaccard that suffices when they also share a file pattern
TRUST = {"process_knowledge": 0, "user_correction": 1, "lesson_statement": 2}


def _excerpt(text):
    """Redacted first, then cut: a cut never leaves half a secret that no pattern recognises."""
    text = redact((text or "").strip())
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 1] + "…"


def _node(kind, text, fields, session_id, now, excerpt, timestamp=None, confidence=None):
    excerpt = _excerpt(excerpt)
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
        "evidence": [excerpt],
        "created_by": CREATED_BY,
        "created_at": now,
        "confidence": confidence if confidence is not None else CONFIDENCE[kind],
        "source": {"kind": kind, "session_id": session_id, "excerpt": excerpt,
                   "timestamp": timestamp if isinstance(timestamp, str) and timestamp else now},
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
        "priority": inference.infer_priority(kind, sentence, task, _edited_paths(tool_calls), tool_calls[-1:]),
        "trigger_conditions": _triggers(tool_calls, terms, sentence),
        ptype: inference.content_block(ptype, sentence, situation),
    }


def _edited_paths(tool_calls):
    return [i[k] for n, i in tool_calls if n in inference.FILE_TOOLS for k in inference.FILE_KEYS if isinstance(i.get(k), str)]


def _triggers(tool_calls, terms, sentence):
    """From the tool calls before the lesson; from the files and commands it names when they give neither.

    A file the lesson names that the turn did not touch joins the file patterns ("__version__ in
    src/hostctl/__init__.py needs the bump as well" after an edit of pyproject.toml is about both)."""
    trig = inference.triggers_from_tools(tool_calls, terms)
    if not trig["tool_names"] and not trig["file_patterns"]:
        return inference.triggers_from_text(sentence, terms)
    if not terms and not trig["file_patterns"]:
        # a lesson in words key_terms cannot read (Chinese, Japanese) about a command: the command's program is what
        # it is about ("加分区条件。这表一天四十亿行" after a hive query fires on the next hive command)
        programs = [p for p in command_programs(tool_calls) if p not in ("sudo", "env", "echo")][:3]
        trig["action_keywords"], trig["context_keywords"] = programs, programs
    if trig["file_patterns"] and "." in sentence:
        named = [f for f in inference.triggers_from_text(sentence, terms)["file_patterns"] if not f.endswith("/**")]
        trig["file_patterns"] = list(dict.fromkeys(trig["file_patterns"] + named))[: inference.MAX_FILE_PATTERNS]
    return trig


def _situation(tool_calls):
    files = [inference.path_to_glob(i.get("file_path")) for n, i in tool_calls if isinstance(i.get("file_path"), str)]
    files = [f[3:] if f and f.startswith("**/") else f for f in files if f]
    if files:
        return "When changing " + ", ".join(dict.fromkeys(files[:3]))
    tools = list(dict.fromkeys(n for n, _i in tool_calls))
    return ("When using " + ", ".join(tools[:3])) if tools else ""


class _Batch:
    """The state of one :func:`extract_lessons` call."""

    def __init__(self, session_id, now):
        self.session_id, self.now = session_id, now
        self.candidates, self.problems = [], []
        self.dropped = 0
        self.corrections = []  # candidates from the latest prompt (and rejections since): what the next blocks answer
        self.answering = []  # corrections of the latest prompt and blocks written since: what the assistant may restate
        self.repeat_only = []  # candidates that count only as repeats of an earlier lesson
        self.quiet = []  # (candidate count, prompt, tool calls, task, stamp) of replies to an action that held no lesson

    def full(self):
        return len(self.candidates) >= MAX_CANDIDATES

    def add(self, node):
        if self.full():
            self.dropped += 1
        else:
            self.candidates.append(node)

    def _build(self, kind, sentence, tool_calls, task="", timestamp=None, confidence=None):
        sentence = redact(sentence)
        fields = _inferred(kind, sentence, tool_calls, _situation(tool_calls), task)
        return _node(kind, sentence, fields, self.session_id, self.now, sentence, timestamp, confidence)

    def lesson(self, kind, sentence, tool_calls, task="", timestamp=None, confidence=None):
        """Add a lesson to the batch and return its node (None when the batch is full)."""
        if self.full():
            self.dropped += 1
            return None
        node = self._build(kind, sentence, tool_calls, task, timestamp, confidence)
        self.add(node)
        if kind == "user_correction":
            self.corrections.append(node)
            self.answering.append(node)
        return node

    def new_prompt(self):
        self.corrections, self.answering = [], []

    def _restated(self, sentence):
        """The lesson of this exchange that an assistant's lesson statement restates ("From now on I'll push to a
        branch and open a PR." after "you pushed to main?? … everything goes on a branch and through a PR"), or
        None: a correction of the prompt it answers, or a block it wrote since, that holds at least two and half of
        its key terms (a note on a neighbouring matter, "the cron is in UTC too: any new job that depends on local
        midnight must set a timeZone", is a lesson of its own)."""
        own = frozenset(inference.key_terms(sentence, limit=30))
        terms = _with_parts(own)
        best, shared = None, max(1, len(own) // 2 - 1)
        for node in self.answering:
            n = len(own & _with_parts(_terms(node))) if len(own) > 2 else len(terms & _with_parts(_terms(node)))
            if n > shared and any(c is node for c in self.candidates):
                best, shared = node, n
        return best

    def recall_first_sighting(self, correction):
        """When ``correction`` says the mistake was made again and repeats no lesson of the batch, the earlier
        reply to an action that it repeats (one that held no correction phrase: "that's an N+1 on customers.
        includes(:customer) in the controller") was the first correction: it is added where it was said."""
        if correction is None or self.full() or not REPEAT_CUE.search(correction["source"]["excerpt"]):
            return
        key = _match_key(correction)
        if any(_same(_match_key(c), key) for c in self.candidates if c is not correction):
            return
        best, best_shared = None, 0
        for i in range(len(self.quiet) - 1, -1, -1):
            at, prompt, tool_calls, task, stamp = self.quiet[i]
            if NEXT_TASK.match(prompt) or prompt.rstrip().endswith("?") or ACCEPT.match(prompt.lstrip()):
                continue  # moving on ("thanks. the shift report needs…"), or asking: not a correction
            text = reply_correction(prompt)
            if not text:
                continue
            first = self._build("user_correction", text, tool_calls, task, stamp)
            first_key = _match_key(first)
            shared = len(_with_parts(first_key[1]) & _with_parts(key[1]))
            if shared > best_shared and _same(first_key, key):
                best, best_shared = (i, at, first), shared
        if best is not None:
            i, at, first = best
            self.candidates.insert(at, first)
            del self.quiet[i]
            self.quiet = [(n + (n >= at), *rest) for n, *rest in self.quiet]

    def _answered(self, blocks):
        """Fold each pending correction into the block written in reply that shares most key terms with it.

        The skill asks Claude to write a block after a correction: the block
        and the correction are one lesson, and the block is the better
        written one.  A correction that shares no key term with any block
        stays a lesson of its own.
        """
        for correction in self.corrections:
            terms = _terms(correction)
            best, shared = None, 0
            for block in blocks:
                n = len(terms & _terms(block))
                if n > shared:
                    best, shared = block, n
            if best is None or not any(c is correction for c in self.candidates):
                continue
            self.candidates = [c for c in self.candidates if c is not correction]
            for excerpt in correction["evidence"]:
                if excerpt not in best["evidence"] and len(best["evidence"]) < MAX_EVIDENCE:
                    best["evidence"].append(excerpt)
        self.corrections = []

    def assistant_text(self, text, tool_calls, timestamp=None):
        blocks = []
        for fields, error, body in markers.find_blocks(text):
            if error:
                self.problems.append(redact(error))
                continue
            if self.full():
                self.dropped += 1
                continue
            node_fields, notes = markers.to_node_fields(redact_node(fields))
            self.problems.extend(redact(n) for n in notes)
            trig = node_fields["trigger_conditions"]
            if not trig["tool_names"] and not trig["file_patterns"] and tool_calls:
                inferred = inference.triggers_from_tools(tool_calls, trig["action_keywords"])
                trig["tool_names"], trig["file_patterns"] = inferred["tool_names"], inferred["file_patterns"]
            key_text = node_fields["label"] + " " + node_fields["description"]
            node = _node("process_knowledge", key_text, node_fields, self.session_id, self.now, body.strip(), timestamp)
            self.add(node)
            blocks.append(node)
        if blocks and self.corrections:
            self._answered(blocks)
        self.answering.extend(blocks)
        if "[PROCESS_KNOWLEDGE]" in text:
            text = markers.BLOCK.sub(" ", text)
        for sentence in find_statements(text):
            restated = self._restated(sentence)
            if restated is None:
                self.lesson("lesson_statement", sentence, tool_calls, timestamp=timestamp)
            elif len(restated["evidence"]) < MAX_EVIDENCE:
                excerpt = _excerpt(sentence)
                if excerpt not in restated["evidence"]:
                    restated["evidence"].append(excerpt)


def _norm(text):
    return " ".join((text or "").split())


def extract_lessons(records, last_assistant_message, session_id, now, context=None, earlier=None):
    """``(candidate nodes, problems)`` from transcript records and the final assistant message.

    Contract:

    * ``records``: dicts as parsed from the transcript JSONL, in file order
      (any record type; what is not a user or assistant message is skipped,
      as are subagent records).
    * ``last_assistant_message``: the Stop hook's field; read as the final
      assistant text unless the records already hold it.
    * ``context``: the records just before ``records`` (the turn being
      corrected, see :func:`forewarn.learning.transcript.read_turn_before`):
      only their tool calls and prompt are used, nothing is extracted from
      them.  ``[]`` says ``records`` start the session, so a prompt before
      any assistant reply is an instruction, not a correction; ``None``
      (unknown) assumes the assistant spoke before.
    * ``session_id`` and ``now`` (ISO-8601 UTC) are stamped on the nodes.
    * ``earlier``: a callable returning the process nodes already stored,
      called only when a prompt after an action says a mistake is made
      again without a correction phrase ("utcnow again. aware datetimes
      only"); such a prompt is a lesson only when it repeats a correction
      of this batch or one of these (:func:`same_lesson`).  ``None``: none.

    Every returned node is a redacted draft in the process-node schema, with
    a deterministic id for the same lesson text; lessons of the batch that
    say the same thing are already merged.  ``problems`` are short redacted
    strings for the caller to log (malformed blocks, inferred fields, a cut
    backlog).  Never raises for odd records; writes nothing.
    """
    batch = _Batch(session_id, now)
    tool_calls, texts, prev_tool_calls = [], [], []
    task = ""
    assistant_seen = context is None
    for record in context or ():
        if not isinstance(record, dict) or record.get("isSidechain") is True:
            continue
        if transcript.is_human_prompt(record):
            tool_calls, task = [], transcript.typed_text(record)
        elif transcript.role(record) == "assistant":
            assistant_seen = True
            tool_calls.extend(transcript.tool_uses(record))
    for record in records:
        if not isinstance(record, dict) or record.get("isSidechain") is True:
            continue
        who = transcript.role(record)
        if who == "assistant":
            assistant_seen = True
            tool_calls.extend(transcript.tool_uses(record))
            text = transcript.text_of(record) if not batch.full() else ""
            if text:
                texts.append((text, record.get("timestamp")))
        elif who == "user":
            stamp = record.get("timestamp")
            if batch.full():
                batch.dropped += 1
                continue
            if transcript.is_human_prompt(record):
                _flush(batch, texts, tool_calls or prev_tool_calls)
                batch.new_prompt()
                prompt = transcript.typed_text(record)
                corrections = find_corrections(prompt) if assistant_seen else []
                statements = find_statements(prompt, by_user=assistant_seen, person=True)  # by_user: a reply to the assistant
                # "no, not for a readme typo" after "Should I also bump the version?" answers; it pushes nothing back
                answers = bool(texts) and texts[-1][0].rstrip().endswith("?") and bool(ANSWER.match(prompt.lstrip()))
                acted = not answers and any(not read_only(name) for name, _input in tool_calls)
                if corrections and statements and not acted:
                    # nothing was done to correct: "Note for future: … must use this pivot, not the Java default" is
                    # the statement, its "use X, not Y" part no correction of its own
                    corrections = [c for c in corrections if not any(c in s for s in statements)]
                repeat = ""
                if acted and (len(corrections) == 1 or not corrections and not statements and (
                        _pushes_back(prompt, tool_calls, [t for t, _s in texts]))):
                    # a reply to what the assistant just did: the whole reply is the one lesson
                    replies = reply_lessons(prompt)
                    if not replies and not corrections and opens_with_command(prompt, tool_calls):
                        replies = [" ".join(prompt.split())[:MAX_COMMAND_REPLY]]  # "`pnpm turbo typecheck`": the reply is the lesson
                    corrections = (replies or corrections[:1]) if corrections else replies
                elif acted and not corrections and not statements and _says_repeat(prompt):
                    repeat = reply_correction(prompt)  # "utcnow again." is a lesson only if it repeats an earlier one
                latest = None
                for sentence in corrections:
                    latest = batch.lesson("user_correction", sentence, tool_calls, task, stamp)
                if repeat:
                    latest = batch.lesson("user_correction", repeat, tool_calls, task, stamp)
                    if latest is not None:
                        batch.repeat_only.append(latest)
                if corrections or repeat:
                    batch.recall_first_sighting(latest)
                elif acted and not statements:
                    batch.quiet.append((len(batch.candidates), prompt, tool_calls, task, stamp))
                    if len(batch.quiet) > QUIET_KEPT:
                        del batch.quiet[0]
                for sentence in statements:
                    if not any(sentence in c or c in sentence for c in corrections):
                        batch.lesson("lesson_statement", sentence, tool_calls, timestamp=stamp)
                prev_tool_calls, tool_calls, texts = tool_calls, [], []
                task = prompt
                continue
            reason = transcript.rejection_reason(record)
            correction = find_rejection_correction(reason) if reason else ""
            if correction:
                batch.lesson("user_correction", correction, tool_calls, task, stamp, REJECTION_CONFIDENCE)
    last = last_assistant_message if isinstance(last_assistant_message, str) else ""
    if last.strip():
        joined, final = _norm(" ".join(t for t, _s in texts)), _norm(last)
        if final not in joined:
            texts = [(last, None)] if joined and joined in final else texts + [(last, None)]
    _flush(batch, texts, tool_calls or prev_tool_calls)
    if batch.dropped:
        batch.problems.append("lesson capture stopped at %d candidates; the rest of this read was not scanned" % MAX_CANDIDATES)
    return _merge_batch(batch.candidates, batch.repeat_only, earlier), batch.problems


def _pushes_back(prompt, tool_calls, texts):
    """Whether a reply to an action corrects it, without a correction phrase: the pushback patterns, unless the
    reply model is nearly sure it is a request (:data:`reply_model.REQUEST`: "The terratest keeps failing at
    teardown. Can you sort it out?"); or the model, unless the reply moves on (:func:`moves_on`)."""
    if pushes_back(prompt):
        return not reply_model.says_request(prompt, tool_calls, texts)
    if opens_with_command(prompt, tool_calls):
        return not moves_on(prompt)  # "`pnpm turbo typecheck`" after "npx tsc --noEmit": the command to run instead
    return reply_model.says_correction(prompt, tool_calls, texts) and not moves_on(prompt)  # the model first: cheaper


def _flush(batch, texts, tool_calls):
    """Read the assistant texts of a finished turn (its tool calls, or the corrected turn's, give block triggers)."""
    for text, stamp in texts:
        batch.assistant_text(text, tool_calls, stamp)


def _merge_batch(candidates, repeat_only=(), earlier=None):
    """One node per lesson in a batch.

    Two corrections that say the same thing are a repeated mistake
    (:func:`merge_occurrence`).  The same lesson from different kinds (a
    correction and the ``[PROCESS_KNOWLEDGE]`` block the assistant wrote
    about it) is one event: the most trusted kind is kept and the other's
    excerpt joins its evidence.  A ``repeat_only`` candidate that matches
    no lesson of the batch is kept only when it matches one of
    ``earlier()`` (the caller then merges it there).
    """
    merged, keys = [], []
    stored = None
    for candidate in candidates:
        if any(candidate is r for r in repeat_only) and not any(_same(k, _match_key(candidate)) for k in keys):
            if stored is None:
                stored = [_match_key(n) for n in (earlier() if earlier else ()) if isinstance(n, dict)]
            if not any(_same(k, _match_key(candidate)) for k in stored):
                continue
        key = _match_key(candidate)
        for i, kept in enumerate(merged):
            if not _same(keys[i], key):
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
                keys[i] = _match_key(combined)
            break
        else:
            merged.append(candidate)
            keys.append(key)
    return merged


def _terms(node):
    parts = [str(node.get("label", "")), str(node.get("description", ""))]
    block = node.get(node.get("process_type")) or {}
    if isinstance(block, dict):
        for key, value in block.items():
            if key == "format":  # "markdown": every checklist has it, it says nothing of the lesson
                continue
            if isinstance(value, str):
                parts.append(value)
            elif isinstance(value, list):
                parts.extend(str(v.get("item", "")) if isinstance(v, dict) else str(v) for v in value)
    return frozenset(inference.key_terms(" ".join(parts), limit=30))


def _with_parts(terms):
    """``terms``, the parts of the dotted or joined ones (``datetime.utcnow`` also gives ``utcnow``), and crude
    stems (``blocking`` also gives ``block``)."""
    out = set(terms)
    for term in terms:
        if any(c in term for c in "._-:/"):
            out.update(p for p in TERM_PARTS.split(term) if len(p) >= 3 and p not in inference.STOPWORDS)
    for term in list(out):
        for suffix in ("ing", "ed", "es", "s"):
            if term.endswith(suffix) and len(term) - len(suffix) >= 4:
                out.add(term[: -len(suffix)])
                break
    return frozenset(out)


def _repeated_subject(text):
    """The word a person puts before "again" ("`any` again, three times", "utcnow again."), or ""."""
    match = AGAIN_SUBJECT.search(text)
    word = match.group(1).strip("`'\".,*").lower() if match else ""
    return "" if word in NOT_A_SUBJECT or len(word) < 2 else word


def _match_key(node):
    trig = node.get("trigger_conditions")
    files = trig.get("file_patterns") if isinstance(trig, dict) else None
    source = node.get("source") if isinstance(node.get("source"), dict) else {}
    said = " ".join(str(t) for t in (node.get("label"), source.get("excerpt")) if t)
    said_again = bool(REPEAT_CUE.search(said))
    text = " ".join(str(t) for t in (node.get("label"), node.get("description"), source.get("excerpt")) if t).lower()
    return (node.get("id"), _terms(node), frozenset(f for f in files or () if isinstance(f, str)), said_again,
            _repeated_subject(said) if said_again else "", text)


def _names(subject, text):
    return bool(subject) and re.search(r"(?<![\w-])" + re.escape(subject) + r"(?![\w-])", text) is not None


def _same(key_a, key_b):
    (id_a, a, files_a, again_a, subject_a, text_a), (id_b, b, files_b, again_b, subject_b, text_b) = key_a, key_b
    if id_a is not None and id_a == id_b:
        return True
    if not a or not b:
        return False
    shared = len(a & b)
    if _names(subject_a, text_b) or _names(subject_b, text_a):
        return True  # "`any` again" repeats "no `any` please", whatever else either says
    if again_a or again_b:
        # "again the full e2e run??": a person saying it is a repeat needs less overlap to be believed, and a
        # term counts when only a part of it is shared ("Timber.e(e, ...) same as I said" and "use Timber")
        loose = len(_with_parts(a) & _with_parts(b))
        if loose >= 2 or files_a & files_b and loose >= 1:
            return True
    if shared >= 2 and shared / min(len(a), len(b)) >= SAME_TERMS_CONTAINED:
        return True
    jaccard = shared / len(a | b)
    if files_a & files_b and jaccard >= SAME_TERMS_WITH_FILES:
        return True
    return jaccard >= SAME_TERMS


# Words with which a person says a mistake was made before ("again", "how many times", "I said this").
REPEAT_CUE = lazy(
    r"\bag(?:ai|ia|i)n\b|\bhow\s+many\s+times\b|\bsame\s+(?:thing|mistake|problem|issue)\b|\bsame\s+as\s+(?:before|last\s+time|i\s+said)\b|"
    r"\bsame\s+[\w-]+\s+as\s+(?:before|last\s+time|earlier)\b|\b(?:a|the)\s+second\s+time\b|\b(?:second|2nd|third|3rd|fourth|4th)\s+time\s+(?:now|today)\b|\bsame\s+story\s+as\b|\bweer\b|\bde\s+novo\b|\b(?:tweede|derde)\s+keer\b|\b(?:return\s+to|back\s+to)\s+the\s+point\s+i\s+(?:raised|made)\b|\bexactly\s+as\s+in\s+the\s+(?:first|last|previous|other)\b|\bno\b[^.!?]*\beither\b|^\W*(?:second|third|fourth|2nd|3rd|4th)\s+time\b|\b(?:second|third|fourth|2nd|3rd)\s+[\w-]+\s+(?:today|now|in\s+a\s+row)\b|"
    r"\botra\s+vez\b|\bde\s+nuevo\b|\bya\s+te\s+lo\s+dije\b|\bsame\s+as\s+(?:this\s+morning|yesterday|earlier|before)\b|\btwice\s+now\b|"
    r"\b(?:exactly|just)\s+the\s+same\b|"
    r"\b(?:as\s+)?i\s+(?:said|told\s+you|mentioned)\s+(?:this|that|it|before|earlier|already|\d+\s+min)|\bas\s+i\s+(?:said|told\s+you)\b|"
    r"\bonce\s+more\b|"
    # Tagalog "na naman" (again!), Japanese "前にも言いましたが" (as I said before), "何度も" (many times), "また同じ" (the same again)
    r"\bna\s+naman\b|前にも言|以前も(?:お伝え|言)|何度も|また同じ|(?:^|[。\s])また\s*\w|"
    # Chinese: "又直接 protoc？" (protoc again?), "刚刚才说过" / "说了多少次" (I just said, how many times have I said), "再次" (once more)
    r"(?:^|[。！？，,\s])又|怎么又|怎麼又|说过|說過|多少次|再次|"
    # Korean: "또 @Data네요" (@Data again), "말씀드렸잖아요" / "말했잖아요" (I told you), "전에도" (before too), "몇 번" (how many times)
    r"(?:^|\s)또\s|드렸잖아|했잖아|말했잖|전에도|몇\s*번",
    re.I,
)
TERM_PARTS = lazy(r"[._\-:/()]+")
AGAIN_SUBJECT = lazy(r"([\w`'\".*/-]+)\s+ag(?:ai|ia|i)n\b", re.I)
NOT_A_SUBJECT = frozenset("it this that them you u did done do doing same thing mistake wrong me us is are was it's thats that's "
                          "here there run try".split())
# "run the tests again", "try again": asking for a step once more says nothing was done wrong.
REDO_REQUEST = lazy(
    r"^\W*again\W*(?:pls|please)?\W*$|\b(?:try|run|rerun|do|redo|check|test|build|deploy|start|restart|retry|look|call|send|push|ask|show|read|"
    r"open|execute|install|fetch|pull|generate|render|compile|load|sync|go|click|refresh|reload)\b(?:\s+\S+){0,4}?\s+again\b",
    re.I,
)


ANSWER = lazy(r"(?:no+|nope|nah|yes|yeah|yep|yup|sure|ok(?:ay)?)\b", re.I)
REPEAT_GATE = lazy("ag(?:ai|ia|i)n|same|said|told|times?|more|mentioned|second|2nd|twice|third|3rd|fourth|4th|otra|nuevo|dije|either|point|exactly|weer|keer|novo|naman|前にも|以前も|何度も|また")  # in every REPEAT_CUE match (lower case)
QUIET_KEPT = 20  # replies without a lesson remembered for a later "again": the turns a person still has in mind


def _says_repeat(prompt):
    """True when a reply to an action says a mistake is made again ("utcnow again.", "same problem as the
    migrate container"), not when it asks for a step once more ("run the tests again")."""
    if not REPEAT_GATE.search(prompt.lower()):
        return False
    return bool(REPEAT_CUE.search(prompt)) and not REDO_REQUEST.search(prompt)


def same_lesson(existing, candidate):
    """True when ``candidate`` records the same lesson as ``existing`` (both node dicts).

    Same id; or key terms (stopword-filtered words of label, description
    and content) that overlap: Jaccard ≥ 0.5, or ≥ 75 % of the smaller
    lesson's terms (at least two), or Jaccard ≥ 0.25 when they also share a
    file pattern; or, when either says it is a repeat ("again", "how many
    times"), two shared terms or a shared file and one term.  Symmetric;
    tolerates nodes with missing fields.
    """
    return _same(_match_key(existing), _match_key(candidate))


def already_counted(existing, candidate):
    """True when this very sighting (same session, same excerpt) is already recorded on ``existing``."""
    source = candidate.get("source") or {}
    key = [source.get("session_id"), source.get("excerpt")]
    first = existing.get("source") if isinstance(existing.get("source"), dict) else {}
    return key == [first.get("session_id"), first.get("excerpt")] or key in (existing.get("sightings") or [])


def merge_occurrence(existing, candidate):
    """``existing`` seen once more, as a new dict (neither argument is changed).

    occurrences + 1; the candidate's excerpt joins ``evidence`` (the last
    :data:`MAX_EVIDENCE` kept) and ``sightings`` (``[session_id, excerpt]``
    pairs, for :func:`already_counted`); its tool names and file patterns
    join the triggers; ``last_seen_at`` is set; from two occurrences on the
    priority is CRITICAL.  Status, label and content stay as they were, so
    a reviewed item keeps its review.
    """
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
