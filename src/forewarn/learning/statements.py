"""Lesson statements: "lesson learned: …", "from now on …", said by the user or the assistant.

:func:`find_statements` returns the sentences of a message that state a
lesson for the future.  The explicit markers ("lesson learned", "note for
future", "rule of thumb:", "takeaway:", "for future reference") count with
any content of three words or more.  "important:" and "from now on" are common in
ordinary reports ("From now on the cache is warmed at startup"), so there a
statement must also read as guidance: a normative word anywhere after the
marker (always, never, must, should, need, make sure, …) or an imperative
verb right after it ("In future, put fixtures under …").  Questions, quoted
and pasted text are ignored as for corrections.
"""

import re

from .lazy_regex import lazy
from .text import own_sentences, word_count

_STATEMENT = (
    r"\blessons?\s+learned\b|\bnote\s+(?:for|to)\s+(?:the\s+)?(?:future|self|next\s+time)\b|\bimportant\b[^:.!?\n]{0,60}:|"
    r"\b(?:going|moving)\s+forward\b(?!\s+with\b)|\bfrom\s+(?:now|here)\s+on(?:\s+out|wards?)?\b|\bhenceforth\b|\bremember\s+th(?:at|is)\b|"
    # "this holds for every home on this cluster", "rule for the Remix app, effective today", Hinglish "aage se"
    r"\bthis\s+(?:holds|applies)\s+(?:for|to)\s+(?:every|all|any)\b|\brule\s+for\s+the\s+[\w-]+\s+(?:app|service|repo|module|package|cluster)\b|"
    r"\beffective\s+(?:today|immediately)\b|\baage\s+se\b|"
    r"\b(?:in|for)\s+(?:the\s+)?future\b|\bfor\s+future\s+reference\b|\b(?:for\s+)?next\s+time\b|\brule\s+of\s+thumb\b|"
    r"\btakeaways?(?:\s+(?:here|is|was))?\s*:|\bworth\s+remembering\b|"
    r"\b(?:important\s+)?lessons?\s+(?:for\s+(?:next\s+time|the\s+future)|here\s*:)|\b(?:important|key|main|big|biggest|real)\s+(?:lesson|takeaway)s?\b|"
    r"\bnever\s+again\s*:|\b(?:the|our|a|house|team)\s+rule\s+(?:(?:here|in|on|for)\s+(?:this\s+\w+\s*)?)?"
    r"(?:is\b(?!\s+(?:now\s+)?(?:recorded|saved|written|noted|added|stored|documented|captured|in\s+place)\b)|:)|"
    # "Standing rule for this repo, …:", "make that a rule from now on:", "Takeaway for this codebase:"
    r"\b(?:standing|house|team|hard|general)\s+rule\b|\brule\s+for\s+(?:this|the|our)\s+(?:repo|project|codebase|team|code\s*base)\b|"
    r"\bmake\s+(?:that|this|it)\s+(?:a\s+)?(?:rule|standing\s+rule)\b|"
    r"\b(?:takeaways?|lessons?|notes?)\s+for\s+(?:this|the|our)\s+(?:repo|project|codebase|team|code\s*base)\s*:|"
    # German, as a colleague types it: "Merk dir das für die Zukunft", "ab jetzt"
    r"\bmerk\s+dir\b|\bf(?:ü|ue)r\s+die\s+zukunft\b|\bin\s+zukunft\b|\bab\s+jetzt\b|"
    # Spanish: "ojo para el futuro", "de ahora en adelante", "a partir de ahora", "la próxima vez"
    r"\bpara\s+el\s+futuro\b|\bde\s+ahora\s+en\s+adelante\b|\bde\s+aqu(?:í|i)\s+en\s+adelante\b|\bimportante\s*:|\b(?:como|una)\s+regla\b|\ba\s+partir\s+de\s+ahora\b|\bla\s+pr(?:ó|o)xima\s+vez\b|"
    # Dutch: "voor de toekomst", "vanaf nu"
    r"\bvoor\s+de\s+toekomst\b|\bvanaf\s+nu\b|"
    # French: "désormais", "dorénavant", "à partir de maintenant", "pour la suite, retiens ça", "à l'avenir"
    r"\bd(?:é|e)sormais\b|\bdor(?:é|e)navant\b|\b(?:à|a)\s+partir\s+de\s+maintenant\b|\bpour la suite\b|\bretiens(?:\s+(?:ça|ca|bien))?\b|"
    r"\b(?:à|a)\s+l'avenir\b|"
    # Portuguese: "a partir de agora", "daqui pra frente", "regra da casa", "lembra disso", "isso vale pra sempre"
    r"\ba\s+partir\s+de\s+agora\b|\bdaqui\s+(?:pra|para)\s+(?:frente|diante)\b|\bde\s+agora\s+em\s+diante\b|\bregra\s+da\s+casa\b|"
    r"\b(?:lembra|lembre)\s+(?:disso|dessa|desse|que)\b|\b(?:pra|para)\s+sempre\b|\bpara\s+siempre\b|"
    # Norwegian and Danish "husk at/dette" (remember that/this), "fra nå av"; "that's a rule", "a forever thing"
    r"\bhusk\s+(?:at|dette|for)\b|\bfra\s+n(?:å|aa)\s+av\b|\bmulai\s+(?:sekarang|skrg)\b|\bke\s+depan(?:nya)?\b|\bdari\s+sekarang\b|"
    # Vietnamese "từ giờ (trở đi)", "từ nay"; Turkish "bundan sonra", "bundan böyle"; Franco-Arabic "ba3d keda", "men delwa2ty"
    r"\btừ\s+(?:giờ|nay)\b|\bbundan\s+(?:sonra|böyle)\b|\bba3d\s+k(?:e)?da\b|\bmen\s+delwa2ty\b|\b(?:that'?s|this\s+is|it'?s)\s+a\s+(?:rule|forever\s+thing)\b|\ba\s+forever\s+thing\b|"
    # Japanese (no word boundaries): "これからは" / "今後は" (from now on), "覚えておいてください" (remember), "次回から" (from
    # next time), "重要：" (important:); Tagalog and Taglish: "tandaan mo" (remember), "simula/mula ngayon" (from now on),
    # "sa susunod" (next time), "remember na" (remember that)
    r"これからは|これからも|今後は|今後、|今後ずっと|これからずっと|覚えておいて|覚えといて|次回から|次回は|次回以降|次からは|以後は|重要[：:]|"
    r"重要なこと|教訓[：:]|大事なことだから|"
    r"\btandaan\s+(?:mo|niyo|nyo|natin)\b|\b(?:simula|mula)\s+ngayon\b|\bsa\s+susunod\b|\bremember\s+na\b|"
    # Chinese (Simplified and Traditional, no word boundaries): "从现在开始" / "从今天起" / "今后" (from now on), "以后所有…"
    # (from now on every …; not "修好以后", after it is fixed), "下次记得" (next time remember), "记住" (remember), "教训" (lesson)
    r"从现在开始|从现在起|從現在開始|從現在起|从今天起|从今天开始|從今天起|從今天開始|从今以后|從今以後|今后|"
    r"以后(?=[^。！？]{0,12}?(?:所有|都|一律|每|任何|凡是|统一|不|别|要|必须|记得)|[，,])|"
    r"以後(?=[^。！？]{0,12}?(?:所有|都|一律|每|任何|凡是|統一|不|別|要|必須|記得)|[，,])|"
    r"下次(?=记得|記得|注意|别|別|不要|要|一定)|记住|記住|教训[：:]|教訓[：:]|"
    # Korean: "다음부터(는)" (from next time), "앞으로(는)" (from now on), "이제부터" (from now), "기억해 두세요" (remember),
    # "명심하세요" (keep in mind), "교훈:" (lesson:)
    r"\b다음부터는?|\b앞으로는?\s|\b이제부터는?|\b기억해\s*(?:두세요|둬|주세요)|\b기억하세요|\b명심|\b교훈\s*[:：]"
)
STATEMENT = lazy(_STATEMENT, re.I)
# The same markers for lowercased text: a case-sensitive scan is about five times faster than re.I, and
# deciding that a message holds no statement is what a long transcript mostly asks.  (The pattern holds no
# upper-case letter; tests/learning checks that.)
_STATEMENT_LOWER = lazy(_STATEMENT)
# Every alternative of _STATEMENT holds one of these words: a text with none of them needs no regex at all.
GATE_WORDS = ("lesson", "note", "important", "forward", "now", "here", "henceforth", "remember", "future", "next",
              "thumb", "takeaway", "never", "rule", "merk", "zukunft", "jetzt", "futuro", "ahora", "vez", "toekomst", "vanaf",
              "sormais", "navant", "maintenant", "pour la suite", "retiens", "avenir", "adelante", "regla",
              "holds", "applies", "effective", "aage", "agora", "frente", "diante", "casa", "lembra", "lembre", "sempre",
              "siempre", "husk", "av", "rule", "forever", "mulai", "depan", "sekarang", "từ", "bundan", "ba3d", "delwa2ty",
              "これから", "今後", "覚えて", "覚えと", "次回", "次から", "以後", "重要", "教訓", "大事なこと", "tandaan", "ngayon",
              "susunod", "从现在", "從現在", "从今", "從今", "今后", "以后", "下次", "记住", "記住", "教训", "다음부터", "앞으로",
              "이제부터", "기억", "명심", "교훈")
NORMATIVE = lazy(
    r"\b(?:always|never|must|should|shouldn'?t|needs?|requires?|make\s+sure|don'?t|do\s+not|avoid|remember|"
    r"ensure|instead|has\s+to|have\s+to|no\s+exceptions|"
    r"siempre|nunca|tiene\s+que|tienen\s+que|hay\s+que|lleva|chahiye|sempre|tem\s+que|precisa|n(?:ã|a)o\s+pode|aldri|alltid|harus|selalu|jangan|luôn|phải|đừng|her\s+zaman|asla|dayman|"
    r"jamais|toujours|faut|doit|doivent|sans\s+exception|r(?:è|e)gle|avant\s+(?:chaque|de|tout)|on\s+(?:roule|fait|met|passe|v(?:é|e)rifie)|"
    r"dapat|lagi|palagi|huwag|wag|bawal)\b|"
    # Japanese guidance has no word boundaries: "…してください" (please do), "必ず" (always), "絶対" (never ever), "禁止"
    r"ください|必ず|絶対|禁止|しない|ないこと|すること|ルール|決まり|ようにします|回します|お願いします|お願いいたします|"
    # Chinese: must, have to, all (of them) must, don't, can't, not allowed, without exception, uniformly, only, be sure to
    r"꼭|반드시|무조건|절대|항상|해\s*주세요|하세요|마세요|안\s*됩니다|안\s*돼요|해야|씁니다|"  # Korean: must, always, never, please do/don't
    r"必须|必須|一定要|都要|都得|都会|都會|不要|[别別](?:把|用|再|碰|动|動|改|删|刪|直接|写|寫|存|打|提交)|不能|不准|不可以|一律|统一|統一|只能|务必|務必|记得|記得",
    re.I,
)
IMPERATIVE = lazy(
    r"^[\s,:;—–-]*(?:(?:please|pls|we|i|you)(?:\s+will\s+|\s+should\s+|'ll\s+|\s+))?(?:always\s+|never\s+)?"
    r"(?:use|run|check|update|add|keep|bump|verify|put|leave|write|call|prefer|pin|tag|commit|push|ask|wait|test|"
    r"document|include|exclude|store|place|name|set|pass|start|stop|create|delete|remove|rebase|squash|review|read|"
    r"open|close|build|deploy|release|publish|lock|regenerate|restart|clear|disable|enable|mention|follow|stick|"
    r"double-check|look|do|don'?t|avoid)\b|"
    r"^[\s,:;—–-]*(?:i|we)(?:'ll|\s+will)\s+(?:always\s+)?[a-z]+\b",  # "going forward I'll render every chart first"
    re.I,
)


# Markers that name a lesson outright; the others ("important:", "from now on", "next time", …) need guidance words too.
EXPLICIT = lazy(
    r"^(?:lessons?\s+learned|教訓|教训|note\s+(?:for|to)|rule\s+of\s+thumb|takeaway|for\s+future\s+reference|worth\s+remembering|"
    r"(?:important|key|main|big|biggest|real)\s+(?:lesson|takeaway)|lessons?\s+(?:for|here)|never\s+again|(?:the|our|a|house|team)\s+rule|"
    r"(?:standing|hard|general)\s+rule|rule\s+for|a\s+partir\s+de\s+agora|daqui|de\s+agora|regra|lembr|(?:pra|para)\s+sempre|para\s+siempre|husk|fra\s+n|mulai|ke\s+depan|dari\s+sekarang|từ|bundan|ba3d|men\s+delwa2ty|(?:that'?s|this\s+is|it'?s)\s+a\s+(?:rule|forever)|a\s+forever|make\s+(?:that|this|it)|(?:takeaways?|notes?)\s+for|merk|f(?:ü|ue)r\s+die|in\s+zukunft|ab\s+jetzt|para\s+el|de\s+ahora|a\s+partir|la\s+pr|voor\s+de|vanaf|d(?:é|e)sormais|dor(?:é|e)navant|pour\s+la\s+suite|retiens|de\s+aqu|(?:como|una)\s+regla|this\s+(?:holds|applies)|rule\s+for\s+the|effective|aage\s+se)", re.I
)


# "from now on any new value in values.yaml gets a schema entry": a person stating what holds for every new one.
FOR_EVERY_NEW = lazy(r"\b(?:any|every|each)\s+new\b|\bwhenever\b|\bevery\s+time\b|每个|每個|每次|所有|任何|凡是|"
                     r"\b(?:any|every|each|all)\s+(?:[\w/.-]+\s+){1,3}?(?:that|which|who|touching|changing|gets?|needs?|has|have|must|should|"
    r"sets?|uses?|runs?|goes)\b", re.I)


def _is_guidance(after, person=False):
    return bool(NORMATIVE.search(after) or IMPERATIVE.match(after) or person and FOR_EVERY_NEW.search(after))


# Markers that look ahead.  A person typing one to the assistant ("moving forward, all new responses use camelCase")
# is setting a rule; the assistant saying one is as often reporting a change ("from now on the cache is warm").
FORWARD = lazy(r"^(?:(?:going|moving)\s+forward|from\s+(?:now|here)\s+on|henceforth|(?:in|for)\s+(?:the\s+)?future|(?:for\s+)?next\s+time)", re.I)


# What may come before a look-ahead marker that opens a person's rule: "and from now on …", "ok, going forward …".
LEAD_IN = lazy(r"^[*_]*(?:(?:and|so|ok(?:ay)?|also|but|oh|then|plus|pls|please|btw|fyi|heads\s+up|just|reminder|quick\s+note)[\s,.:;—–-]+)*$", re.I)
JAPANESE_REQUEST = lazy(r"もらえると|いただけると|いただけます|もらえます[か？?]")
QUESTION = lazy(r"^(?:what'?s|what|how|why|when|where|which|who|is\s+there|are\s+there|do\s+we|should\s+we)\b", re.I)


def find_statements(text, by_user=False, person=None):
    """The lesson-statement sentences of a message, in order.

    ``by_user``: a person typed it in reply to the assistant (look-ahead
    markers then set a rule by themselves); ``person``: a person typed it
    at all (default: ``by_user``).
    """
    person = by_user if person is None else person
    found = []
    if not text:
        return found
    lowered = text.lower()  # most messages hold no statement: substring tests, then one scan, decide
    for word in GATE_WORDS:
        if word in lowered:
            break
    else:
        return found
    if not _STATEMENT_LOWER.search(lowered):
        return found
    sentences = own_sentences(text, phrases=STATEMENT)
    joined_to_previous = False
    marker_only = None  # a marker sentence that gave no guidance: the next sentence may give it
    for i, sentence in enumerate(sentences):
        s = sentence.strip()
        if s.endswith(("?", "？", "か。")) or QUESTION.match(s) or JAPANESE_REQUEST.search(s):  # "what's the rule going
            # forward for …" asks, it does not state; "…してもらえると助かります" (it would help if you could …) asks too
            joined_to_previous, marker_only = False, None
            continue
        match = STATEMENT.search(s)
        if not match:
            if joined_to_previous and _continues(s, found[-1]):
                found[-1] += " " + s  # "Takeaway: never let money columns turn into float64. Read them as Decimal."
            elif marker_only and NORMATIVE.search(s) and len(marker_only.split()) + len(s.split()) <= JOINED:
                found.append(marker_only + " " + s)  # "Important: the client keeps … Every logout has to …"
                joined_to_previous = True
            else:
                joined_to_previous = False
            marker_only = None
            continue
        pending, marker_only = marker_only, None
        after = s[match.end():]
        explicit = EXPLICIT.match(match.group(0)) or (
            by_user and FORWARD.match(match.group(0)) and LEAD_IN.match(s[: match.start()])  # not "… disappears next time anyone …"
        ) or person and match.group(0).lower().startswith(("remember", "important", "tandaan", "覚えて", "覚えと", "重要", "大事", "记住", "記住",
                                                          "기억", "명심"))  # a person's
        # "remember that bk1 sits in hel1 …"; Tagalog "tandaan mo 'to: …", Japanese "覚えておいてください：…"
        if (explicit and word_count(after) >= 3) or _is_guidance(after or s, person):
            if joined_to_previous and _continues(s, found[-1]):
                found[-1] += " " + s  # "Lesson learned: … Going forward, every MERGE …": one lesson in two sentences
            elif pending and len(pending.split()) + len(s.split()) <= JOINED:
                found.append(pending + " " + s)  # "Important: the dev server serves drafts … From now on, any address …"
            else:
                found.append(s)
            joined_to_previous = True
        else:
            joined_to_previous = False
            marker_only = s
    return found


JOINED = 80  # words: a lesson statement and the sentences that go on stating it, kept as one lesson
CONTINUES = lazy(r"^(?:(?:so|and|also|then|i\.e\.|that\s+is)[\s,]+)?(?:i'?ll|we'?ll|i\s+will|we\s+will|read|use|keep|put|add|only|always|never|don'?t|do\s+not|"
                 r"make|run|check|set|store|pass|wrap|call|prefer|avoid|every|any|each|going\s+forward|from\s+now\s+on|"
                 r"in\s+(?:the\s+)?future|next\s+time)\b|"
                 r"^(?:用|要|先|再|别|別|不要|统一|統一|一律|都)", re.I)  # Chinese: use, must, first, then, don't, uniformly, all


def _continues(sentence, statement):
    """True when ``sentence`` goes on stating the lesson of ``statement`` (the one before it) instead of starting
    another: it opens with an instruction or a look-ahead marker, and the two stay short together."""
    return bool(CONTINUES.match(sentence) or NORMATIVE.search(sentence)) and len(statement.split()) + len(sentence.split()) <= JOINED
