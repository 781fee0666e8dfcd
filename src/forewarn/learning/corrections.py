"""User corrections: what a person typed to say the assistant did something wrong or left it out.

:func:`find_corrections` takes the text of one human-typed prompt and
returns the correction sentences in it.  A sentence counts when it carries
one of the correction phrases (:data:`CORRECTION`), or opens with a
correction word ("No, …", "Actually …") and says what is right instead
(:data:`OPENER` + :data:`CONTRAST`), and shows none of the false-positive
signs: it is a question, a polite request ("could you…"), about the speaker
rather than the assistant ("I forgot"), hypothetical ("if you forgot"),
praise ("you didn't miss anything"), or inside quoted, fenced or pasted
text (see :mod:`forewarn.learning.text`).  A correction is joined with the
short sentence after it, which usually says what is right ("… no print
statements. Use the module logger.").

:func:`pushes_back` and :func:`reply_correction` read a prompt that answers
what the assistant just did (the capture calls them only right after a turn
that changed files or ran commands): there a correction needs no phrase —
"dont hand edit types.ts, it's generated", "NOT to main. never force push
main", "we do table driven tests in this repo, redo" — and a short reply is
one lesson as a whole, its other sentences saying what was wrong or right.

:func:`find_rejection_correction` reads the reason a person typed when
rejecting a tool call: the rejection itself says the call was wrong, so no
phrase is needed.
"""

import re

from .lazy_regex import lazy
from .statements import STATEMENT
from .text import own_sentences, word_count

_YOU = r"(?:you|u|ya)"
CORRECTION = lazy(
    r"\b" + _YOU + r"(?:'ve|\s+have)?\s+(?:still\s+)?(?:forgot(?:ten)?|forgto|frogot|forgt|missed|skipped|overlooked|neglected|ignored)\b|"
    r"\b" + _YOU + r"(?:'ve|\s+have)?\s+left\s+(?:a|an|the|in|out|it|them|some|that|this|debug)\b|"
    r"\b" + _YOU + r"\s+only\s+(?:changed|updated|fixed|edited|touched|bumped|did|added|renamed)\b|"
    r"\b" + _YOU + r"\s+(?:can'?t|cannot|can\s+not|mustn'?t|must\s+not)\b|"
    r"\b" + _YOU + r"\s+(?:still\s+)?(?:didn'?t|did\s+not|never|shouldn'?t\s+have|should(?:'ve|\s+have)|keep\s+\w+ing)\b|"
    r"\b(?:you'?re|youre|ur|u\s+r)\s+(?:still\s+)?(?:missing|forgetting|ignoring)\b|"
    r"\bbut\s+you\s+(?:also\s+)?need\b|\byou\s+also\s+need(?:ed)?\s+to\b|"
    r"\bdon'?t\s+forget\b|\bremember\s+to\b|\bmake\s+sure\s+(?:you|to)\b|"
    r"\b(?:that|this|it)(?:'?s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+(?:right|correct|how|what)|the\s+wrong)\b|"
    r"\b(?:that|this)\s+(?:isn'?t|wasn'?t)\s+(?:right|correct|how|what)\b|"
    r"\bwrong\s+(?:file|command|version|place|branch|directory|folder|path|module|repo|environment|env|table|database|port|name|flag)s?\b|"
    r"\bi\s+(?:told|asked)\s+you\b|\bnot\s+what\s+i\s+(?:asked|wanted|meant)\b|"
    r"\bi\s+(?:(?:literally|already|clearly|specifically|just|explicitly)\s+){0,2}said\b|"
    r"\bi\s+(?:literally|already|clearly|specifically|just|explicitly)\s+(?:told|asked)\b|"
    r"\b" + _YOU + r"(?:'ve|\s+have)?\s+(?:did|done|made|make|doing)\s+(?:it|this|that|the\s+same(?:\s+(?:thing|mistake))?)\s+ag(?:ai|ia|i)n\b|"
    r"\bsame\s+mistake\b|\bsame\s+thing\s+again\b|\bwrong\s+again\b|\bagain\s*(?:!!|\?\?|!\?)|\bhow\s+many\s+times\b|"
    r"^(?:please\s+)?stop\s+\w+ing\b|\bwe\s+(?:don'?t|do\s+not|never)\s+(?:do|use|put|write|call|add|commit|run)\b|"
    r"\bbut\s+[^.!?]*\b(?:never|always|every|must|should(?:n'?t)?)\b|\b(?:don'?t|dont|never|always)\b[^.!?]*\b(?:tho|though)\b|"
    r"\buse\s+[\w.\-/]+(?:\s+[\w.\-/]+){0,2}\s*,?\s+(?:not|instead\s+of|rather\s+than)\s+[\w.\-/]+",
    re.I,
)
# "No, …" / "Actually …" corrects only when it also says what is right instead.
OPENER = lazy(r"^(?:(?:ugh|hmm+|oh)[\s,.!]+)?(?:no|nope|nah|actually|not\s+quite)\b[\s,.!:;—–-]+(?=\S)", re.I)
CONTRAST = lazy(
    r"\bnot\s+(?!(?:for|now|yet|really|sure|needed|quite|today|this\s+time|that\s+one|this\s+one)\b)[\w.\-/<>]+|\binstead\b|\brather\s+than\b|\b(?:is|are)\s+(?:called|named)\b|"
    r"\b(?:goes|go|belongs?|lives?)\s+(?:in|into|under|to|on)\b|\b(?:should|must|needs?\s+to)\s+be\b",
    re.I,
)
OPENER_ANYWHERE = lazy(
    r"(?:^|[.!?]\s+|\n)\s*(?:no|nope|nah|actually|not\s+quite|wrong|incorrect|stop|wait|whoa|woah|hold\s+on|hang\s+on|ugh)\b",
    re.I,
)
WHY_ANYWHERE = lazy(
    r"\bwhy\s+(?:would|did|do|are|were)\s+(?:you|u)\b|\bwhy\s+(?:is|are|does|do|did)\s+(?:this|that|it|these|those)\b|"
    r"\bwhat\s+happens\s+(?:when|if)\b",
    re.I,
)
# "A, not B" after a verb: "the API returns cents, not euros", "tests live in tests/unit, not test/".
CONTRAST_STATEMENT = lazy(
    r"\b(?:is|are|was|were|returns?|uses?|lives?|goes|go|means?|takes?|expects?|belongs?|runs?|should\s+be|must\s+be)\s+"
    r"(?:in\s+|under\s+|on\s+|called\s+|named\s+|a\s+|an\s+|the\s+)?[\w./<>:-]+(?:\s+[\w./<>:-]+){0,2},\s+not\s+"
    r"(?!(?:a\s+)?(?:big\s+deal|problem|issue|worry)|urgent|bad|sure|yet|really|now|needed|important)[\w./<>-]+",
    re.I,
)
BARE_OPENER = lazy(r"^(?:(?:no|nope|nah|wrong|incorrect|not\s+quite|stop|wait|whoa|woah|hold\s+on|hang\s+on)[\s,.!—–-]*)+$", re.I)
REBUKE = lazy(
    r"^(?:(?:wait|wtf|hmm+|ugh|oh|so|uh|um)[\s,.!]+)?(?:why\s+(?:would|did|do|are|were)\s+(?:you|u)\b|" + _YOU + r"\s+\w+ed\b.*\?\?\s*$|"
    r"why\s+(?:is|are|does|do|did)\s+(?:this|that|it|these|those|there)\b.*\?|(?:and\s+)?what\s+happens\s+(?:when|if)\b.*\?|"
    r"[^\s?!]+(?:\s+[^\s?!]+)?\s*\?[?!]+\s*$|"
    # Tagalog "bakit mo …?" (why did you …?), Japanese "なぜ…んですか？" (why did you …?)
    r"bakit\s+(?:mo|ka|niyo|nyo|naka|hindi)\b.*\?|(?:なぜ|なんで|どうして).*[?？])",
    re.I,
)
RULE = lazy(
    r"^(?:please\s+)?(?:(?:we|you|u|this\s+(?:repo|project|codebase|team))\s+(?:always|never|don'?t|do\s+not|must|should|only)\b|"
    r"(?:always|never|don'?t|dont|do\s+not|use|run|ask|open|keep|put|check|wait|only|read|add|move|call|go|set|store|"
    r"load|wrap|log|send|enqueue|enque|batch)\b)",
    re.I,
)
# After "No." or "why did you…??" a sentence that says what must or must not be done states the rule.
RULE_ANYWHERE = lazy(
    r"\b(?:must(?:n'?t)?|should(?:n'?t)?|has\s+to|have\s+to|needs?|always|never|every|whenever|only\s+ever)\b", re.I
)
ACCEPT = lazy(r"\b(?:thanks|thank\s+you|worries|problem|fine|good|great|perfect|ok|okay|worry|need\s+to\s+worry)\b", re.I)
# "do not touch state by hand" is an order, "do you…" a question.
QUESTION_START = lazy(r"^(?:could|can|would|will|should|did|do|does|is|are|have(?!\s+to\b)|has(?!\s+to\b)|why|what|how|when|where|"
                      r"which|shall|may)\b(?!\s+not\b)", re.I)  # "has to be DATE(…)" says, it does not ask
POLITE = lazy(r"^(?:(?:please|pls|kindly)[,\s]+)?(?:could|can|would|will)\s+you\b|^would\s+it\s+be\b|^if\s+you\s+(?:could|can|have\s+time)\b", re.I)
SELF = lazy(r"\b(?:i|we)\s+(?:forgot|missed|didn'?t)\b", re.I)
# The person correcting their own instruction ("I told you the wrong file, sorry, I meant checkout.ts"): no lesson.
SELF_CORRECTION = lazy(r"\bi\s+(?:told|gave|sent)\s+you\s+the\s+wrong\b|\bi\s+meant\b|\bmy\s+(?:bad|mistake)\b|"
                       r"我说错了|我說錯了|我搞错了|我搞錯了|我写错了|我寫錯了|口误|口誤|"  # Chinese "sorry, I misspoke"
                       r"제가\s*잘못|잘못\s*말씀|제\s*실수", re.I)  # Korean "제가 잘못 말씀드렸네요" (I told you wrong)
HYPOTHETICAL = lazy(r"\b(?:if|in\s+case|whether|unless)\s+" + _YOU + r"\s+(?:forgot|missed|didn'?t|skipped)\b", re.I)
PRAISE = lazy(
    r"\byou\s+didn'?t\s+(?:break|miss)\s+anything\b|\bnothing\s+(?:you\s+)?(?:forgot|missed)\b|"
    r"\b(?:nice|great|good|thanks|perfect|cool)\b[^.!?]*\byou\s+didn'?t\b|\byou\s+didn'?t\s+\w+[^.!?]*\bthis\s+time\b",
    re.I,
)
YOU_WORD = lazy(r"\byou\b", re.I)
YOU_DID = lazy(r"(?:you|u)\s+(?:just\s+)?\w+(?:ed|ote|ut|ent|ew|ook|ade)\b", re.I)
# A rejection that only puts the call off ("hold off, I'll run it myself later") says nothing about how to do it.
DEFERRAL = lazy(r"^(?:hold\s+off|not\s+(?:now|yet)|later|wait\s+(?:a\s+(?:sec|second|bit|moment)|until)|let\s+me\b|"
                r"i'?ll\s+(?:do|run|handle)|give\s+me\s+a\s+(?:sec|second|minute|moment)|one\s+(?:sec|second|moment))", re.I)
# "hold on, I've got uncommitted work in config.rs. give me a sec to commit it, then go ahead exactly as you planned"
DEFERRAL_ANYWHERE = lazy(r"\bgive\s+me\s+a\s+(?:sec|second|minute|moment)\b|\bthen\s+(?:go\s+ahead|go\s+on|carry\s+on|continue|proceed)\b|"
                         r"\besp[ée]rame\b|\btodav[ií]a\s+no\b|\ba[uú]n\s+no\b|"
                         r"\bgo\s+ahead\s+(?:exactly\s+)?as\s+(?:you\s+)?planned\b", re.I)
# Every correction pattern (CORRECTION, OPENER_ANYWHERE, WHY_ANYWHERE) needs one of these words; a prompt with
# none of them is not scanned at all (tests/learning checks the word list against the patterns on the corpus).
GATE_WORDS = frozenset(
    """you u ya ur youre you're you've youve r but don't dont do remember make that this it that's thats this's
    it's its wrong i not same again how stop we use never always tho though isn't isnt wasn't wasnt no nope nah
    actually wait whoa woah hold hang ugh incorrect why what mistake""".split()
)
_PUNCTUATION_TO_SPACE = str.maketrans({c: " " for c in ".,!?;:()[]{}<>\"`*_~|/=+—–-"})
# The gate of find_corrections scans lowercased text with case-sensitive copies: about twice as fast as re.I.
# (Their patterns hold no upper-case letter; tests/learning checks that.)
_CORRECTION_LOWER, _OPENER_ANYWHERE_LOWER, _WHY_ANYWHERE_LOWER = (lazy(p.pattern) for p in (CORRECTION, OPENER_ANYWHERE, WHY_ANYWHERE))

# After the assistant changed something, a prompt that pushes back on what it did is a correction even without
# one of the phrases above: "dont hand edit types.ts, it's generated", "NOT to main omg. never force push main",
# "we do table driven tests in this repo. redo pls", "jest?? it's vitest not jest", "this breaks every client",
# "that add_index locks the table", "nope, the wire stays bincode", "this has no jitter", "CI is red".
# Only read by pushes_back, which the capture calls for a prompt right after a turn that changed files or ran
# commands (and that does not answer the assistant's question); the same words in a session's first prompt are
# instructions.
JAPANESE_PUSHBACK = (r"ないで(?:ください|下さい|ね|よ|って|[。、！!]|$)|やめてください|やめて下さい|忘れて(?:い|る|ま)|忘れないで|^(?:なぜ|なんで|どうして)|"
                     # casual: "…って決めてる" (we decided …), "…とは言ってない" (I never said …), "…だってば" (I said …!), "は？" (huh?)
                     r"って(?:決めて|言った|言ってる)|言ってない|だってば|^は[？?]|"
                     # formal: "…はお控えください" (please refrain from …), "…する方針です" (it is our policy to …), "以前もお伝えしましたが"
                     r"お控えください|方針(?:です|で[すは])|以前もお伝え|"
                     r"違います|ちがいます|ではなく|じゃなくて|ルール(?:です|だ|で|に|が)|決まり(?:です|だ|で|に|が)|前にも言|何度も言|"
                     r"必要はなかった|必要はありません|消えています|消えてる|落ちています|落ちてる|ダメです|だめです|いけません|禁止")
# held-out 89: Chinese (Simplified, and the Traditional forms), also written without spaces: "为什么…？" (why …?), "谁让你…"
# (who told you to …), "别…" / "不要…" (don't …), "不能…" (can't …), "改回去" (change it back), "又…" / "说过" (… again, I said),
# "被你…" (… by you), "应该是 X" (it should be X), "…而不是…" (… rather than …), "停！" (stop!)
CHINESE_PUSHBACK = (r"^(?:为什么|為什麼|为啥|為啥)|谁让你|誰讓你|谁叫你|誰叫你|"
                    r"[别別](?:把|用|再|碰|动|動|改|删|刪|直接|乱|亂|忘|写|寫|存|打|提交|往|给|給|加|装|裝)|"
                    r"不要(?!紧|緊)|不能|不可以|不准|不对|不對|错了|錯了|改回去|改回来|改回來|撤回|"
                    r"说过|說過|我都说了|我都說了|^又|怎么又|怎麼又|被你|你没看|你沒看|应该是|應該是|应该用|應該用|而不是|^停[！!。]|^不过|^不過")
# held-out 86: Korean: "…하지 마세요" / "…쓰지 마세요" (don't …), "…면 안 됩니다" (must not …), "왜 …했어요?" (why did you …?),
# "되돌려 주세요" (put it back), "…말고 …" (… not …), "…곤란해요" (… is a problem), "잘못" (wrong)
KOREAN_PUSHBACK = (r"마세요|말아\s*주세요|지\s*마|안\s*됩니다|안\s*돼요|안\s*되는|^왜\s|\s왜\s.*(?:했어요|했나요|했죠|했어|했습니까)|"
                   r"되돌려|원복|말고|곤란해요|곤란합니다|틀렸|잘못")
# pushes_back's gate for text without (or with foreign) space-separated words
CJK_CUE = lazy((JAPANESE_PUSHBACK + "|" + CHINESE_PUSHBACK + "|" + KOREAN_PUSHBACK).replace("^", ""))
PUSHBACK = lazy(
    r"^(?:(?:hmm+|ugh|ah+|oh|ok|okay|well|no|nope|nah|wait|omg|please|pls)[\s,.!]+)*"
    r"(?:don'?t|dont|do\s+not|never|no|(?:nope|nah)(?![\s,.!]+(?:not\s+)?(?:for|now|yet|needed|necessary|thanks|all\s+good|good|fine))|"
    r"not|stop|nobody|nothing\s+(?:goes|gets)|nein|nee|niet|nej|falsch)\b"
    r"(?!\s+(?:worries|worry|bother|problem|problems|complaints?|issues?|objections?|bad|now|yet|sure|really|need|needed|necessary|for|quite|"
    r"necessarily|much|mind|rush|hurry)\b)|"
    r"^(?:no+|nope|nah)\b[\s,.!—–-]+(?:the|we|it'?s|its|it|this|that|that'?s|thats|there'?s|theres|you|u|they|our)\b|"
    r"\b(?:this|that|it)\s+(?:has|had)\s+no\b|\b(?:ci|build|pipeline|main|tests?)\s+(?:is|are|went|turned|goes)\s+(?:red|broken)\b|"
    r"\b(?:this|that|it)(?:\s+\w+)?\s+(?:shouldn'?t|should\s+not|mustn'?t|must\s+not|can'?t|cannot)\b|"
    r"\b(?:that|this|it)\s+(?:file\s+)?(?:is|'s)\s+(?:auto-?)?generated\b|\bdo\s+not\s+edit\b|"
    r"\b(?:(?:the\s+)?other\s+way\s+a?round|backwards)\b|^(?:kill|cancel|abort)\s+(?:that|it|this)\b|"
    r"[,;—–]\s*(?:and\s+)?(?:never|always)\b|\b(?:lives?|goes|go|belongs?|stays?)\s+(?:in|into|under|next\s+to)\b|"
    r"\bpush(?:ing)?\s+back\b|\bthe\s+wrong\s+(?:way|direction|order|side|default|value)\b|\b(?:is|are)\s+(?:committed|checked\s+in)\b|"
    r"\b(?:can'?t|cannot|can\s+not|must\s+not|mustn'?t|shouldn'?t|should\s+not)\s+be\s+\w+ed\b|"
    r"^(?:take|pull|rip)\s+(?:the\s+|that\s+|this\s+|it\s+)?(?:[\w.\-/]+\s+)?out\b|\bare\s+(?:never|not)\s+\w+ed\s+(?:in|to|into|on)\b|"
    r"^(?:this|that|it)(?:'s|\s+is)\s+only\s+(?:for|in|on)\b|[,;—–]\s*no\s+(?!\w+\s+(?:yet|for\s+now)\b)\w+(?:[\s-]\w+)?\s*[.!]*$|"
    r"\balready\s+(?:does|do|handles|covers)\b|\balready\s+has\s+(?:this|that|it)\b|\bonly\s+then\b|^stopp?\b|"
    r"\b(?:like|as)\s+(?:everywhere\s+else|(?:in\s+)?the\s+rest\s+of\s+the\s+(?:code|repo|app|codebase|project))\b|"
    # "same as every other play", "every periodic job here sets …", "anything mail stays grey cloud", "the other panels
    # reference …": what every other one does; "put that back", "leave 0007 alone"; "before inventing labels"
    r"\b(?:same\s+as|like)\s+every\s+other\b|\b(?:every|each|all)\s+(?:[\w-]+\s+){0,2}?(?:here|in\s+this\s+repo)\s+\w+|"
    r"^(?:anything|everything)\s+[\w-]+\s+(?:stays?|goes|is|uses?|gets?)\b|^(?:all\s+)?the\s+other\s+[\w-]+\s+(?:use|reference|call|do|are|have|go)\b|"
    r"^(?:put|change|set|turn)\s+(?:that|it|this|them)\s+back\b|\bleave\s+(?:[\w.\-/]+\s+){1,5}?alone\b|"
    r"\bbefore\s+(?:inventing|guessing|assuming|making\s+(?:\w+\s+)?up|you\s+(?:tell|say|claim|report))\b|"
    r"\bmak(?:e|ing)\s+(?:numbers|things|stuff|values|it)\s+up\b|\bmatch(?:es)?\s+no\b|"
    r"\b(?:is|are|went|turned)\s+(?:red|failing)\b|\b(?:is|are)\s+an?\s+(?:oom|outage|incident|data\s+leak)\b|"
    r"\b(?:is|are)\s+(?:prod|production)\b(?=\s*[.!,;]|\s*$)|\bstill\s+(?:prints|shows|says|returns|points|reads)\b|"
    r"\bneeds?\b[^.!?]*\bas\s+well\b|^without\s+(?:it|one|this|that|them)\b|"
    # held-out 15 and 16: what breaks ("just dies at xcodebuild", "throws away the phone number", "CI will complain"),
    # what already went out, house rules said as facts, hedged conventions, rebukes asked as questions
    r"\b(?:just\s+)?(?:dies|crashes|hangs|blows\s+up|falls\s+over|bails)\b|\bthrows?\s+away\b|\bwill\s+complain\b|"
    r"\brejects?\s+the\b|\balready\s+(?:ran|shipped|went\s+out|deployed|applied)\b|"
    r"\b(?:can'?t|cannot|must\s+not|mustn'?t|shouldn'?t)\s+be\s+(?:true|false|null|empty|on|off|public|zero)\b|"
    r"\b(?:everything|anything)\b[^.!?]{0,40}\b(?:has\s+to|must|needs\s+to)\b|\b(?:is|are)\s+always\s+\w+ed\b|"
    r"\bwe(?:'re|\s+are)\s+(?:only\s+)?supposed\s+to\b|\bwe\s+(?:usually|normally|typically|generally)\s+\w+|"
    r"\b(?:contributing(?:\.md)?|the\s+style\s*guide|the\s+readme|our\s+docs)\s+(?:is\s+(?:explicit|clear)|says)\b|"
    r"\bfeels?\s+(?:a\s+bit\s+|rather\s+|too\s+|quite\s+|kinda\s+)?(?:heavy|wrong|off|hacky|fragile|overkill)\b|"
    r"\b(?:a|the)\s+(?:security|privacy)\s+(?:problem|issue|hole)\b|\bbefore\s+(?:telling|saying|claiming)\b|"
    r"^(?:i\s+think\s+|i\s+believe\s+|iirc\s+)?(?:all\s+)?the\s+other\s+[\w-]+\s+(?:use|call|reference|do|are|have|go)\b|"
    # held-out 18: code-review prefixes, what an edit lost, rules said mid-sentence, what just happened
    r"^(?:blocking|issue|must[- ]fix|needs[- ]fix)\b[^:]{0,20}:|\b(?:in|with)\s+(?:that|this|your|the\s+last)\s+(?:edit|change|commit|diff)\b|"
    r"\b(?:never|always)\s+(?:gets?|goes|go|uses?|runs?)\b|\b(?:threw|throws?|thrown)\s+(?:\w+\s+)?away\b|"
    r"\b(?:panics?|panicked|segfaults?|errors\s+out)\b|^(?:(?:ah|oh|ouch|whoa|hmm+)[\s,.!]+)?(?:that|this|it)\s+just\s+\w+|"
    r"\bonly\s+(?:go(?:es)?\s+out|ships?|deploys?|releases?)\s+(?:through|via|from)\b|\bbefore\s+calling\s+it\b|"
    # held-out 17: a formal reviewer ("cannot be accepted in its present form", "two matters of conformance", "one
    # correction before you proceed"), a product owner's consequences, a French "attention,"
    r"\bin\s+its\s+present\s+form\b|\bobliged\s+to\s+ask\b|\bmust\s+raise\b|\bcannot\s+be\s+accepted\b|"
    r"\bask\s+you\s+(?:not\s+)?to\s+(?:revise|reconsider|redo|commit|change|remove)\b|"
    r"\b(?:two|three|a\s+few|several|one|some)\s+(?:matters|points|issues|problems|corrections?)\b|\bmore\s+serious\s+matter\b|"
    r"\bone\s+(?:problem|issue|correction)\b|^attention\b\s*[,:!]|\b(?:is|are)\s+(?:broken|down|empty|gone)\s+now\b|"
    r"\bnothing\s+(?:tests|checks|covers|catches)\s+(?:it|this|that)\b|\blike\s+the\s+others\b|\bshould\s+only\s+ever\b|"
    r"\banyone\s+(?:\w+\s+){0,3}could\s+(?:read|see|access|download|open)\b|^(?:this|that)\s+(?:line|bit|part)\b\s*[.:]|"
    r"\b(?:eats?|burns?|wastes?)\s+(?:\w+\s+){0,3}(?:credits|budget|money|quota)\b|"
    r"^(?:it|this|that)\s+looks\s+(?:great|good|nice|fine)\b[^.!?]*,\s*but\b|"
    # held-out 19 and 20: what a user of the app would see, restrictions, universal rules, Socratic reviews, Dutch
    r"^(?:(?:ok|oh|hmm+|yeah|nice)[\s,.!]+)?(?:it|this|that)\s+looks\s+(?:really\s+|very\s+|super\s+)?(?:great|good|nice|fine)\b[^.!?]*\bbut\b|"
    r"^(?:kinda|sort\s+of|mostly)\s+works\s+but\b|\banyone\s+(?:\w+\s+){0,4}(?:is\s+gonna|will|would)\s+(?:see|read|get)\b|"
    r"\b(?:has|have)\s+to\s+come\s+from\b|\bnowhere\s+else\b|\bstill\s+needs?\b|^tried\s+it\b|"
    r"\b(?:every|each|all)\s+(?:[\w.-]+\s+){1,3}?(?:needs?|gets?|goes\s+out|has\s+to|must|takes?|requires?)\b|\band\s+that'?s\s+it\b|"
    r"\balways\s+(?:has|have)\b|\bis\s+a\s+bug\b|"
    r"^(?:that|this)\s+was\s+(?:a|an)\b[^.!?]*\bwith\s+no\b|^here\s+[\w-]+\s+(?:get|go|use|run|are|is)\b|"
    r"\bfeels\s+like\s+(?:\w+\s+){0,4}(?:broken|a\s+bug|wrong)\b|\b(?:never|always)\s+(?:calls?|ships?|writes?|stores?|reads?)\b|"
    r"\b(?:are|is)\s+written\s+to\b|\bonly\s+(?:hides|masks|papers\s+over)\b|\bis\s+only\s+(?:right|correct|true)\s+for\b|"
    r"\btake\s+(?:\w+\s+){0,3}back\s+out\b|^an?\s+(?:[\w-]+\s+){1,2}(?:gets?|takes?)\s+|"
    r"^(?:nee|wacht)\b|\blet\s+op\b|\bnooit\b|\baltijd\b|\bnergens\b|"
    # held-out 21 and 22: Portuguese, a bare duration as a complaint, an agency's brand guide and checklist
    r"^(?:não|nao)\b|\bcuidado\b|\bdesfaz\b|^\d+(?:\.\d+)?\s*(?:s|sec|secs|seconds|min|mins|minutes|h|hrs?|hours?)\b[^.!?]{0,30}[.!]|"
    # held-out 57: Indonesian "jangan/jgn" (don't), "lu lupa" (you forgot), "kenapa …" (why …), "harusnya" (should have
    # been), "…, bukan numeric" (not numeric)
    r"^(?:(?:eh|bro|waduh|duh|lho|loh|aduh)[\s,.!]+)*(?:jangan|jgn)\b|\b(?:lu|lo|kamu|u)\s+lupa\b|^kenapa\b|\bharusnya\b|"
    r"[,;]\s*bukan\s+[^\s,.!?]+\s*[.!]*$|"
    # held-out 63, 65, 66: Vietnamese "đừng" (don't), "không phải" (it isn't); Turkish "olmaz" (not allowed), "değil"
    # (not), "unuttun" (you forgot), "yanlış" (wrong), "hayır" (no), "yapma/atma/kullanma …" (don't do/send/use);
    # Franco-Arabic "ghalat" (wrong), "nseet" (you forgot), "matensash" (don't forget), "la2" (no), "mesh keda"
    r"\bđừng\b|\bkhông\s+phải\b|\bolmaz\b|\bde[ğg]il\b|\bunuttun\w*|\byanl[ıi][şs]\b|^hay[ıi]r\b|"
    r"\b(?:yapma|atma|kullanma|silme|dokunma|koyma|çalıştırma)\b|\b(?:ghalat|8alat|nseet|matensash)\b|^la2\b|\bm(?:e)?sh\s+k(?:e)?da\b|"
    # held-out 72: Tagalog and Taglish "bakit …" (why …), "nakalimutan mo" (you forgot), "wag/huwag" (don't), "dapat"
    # (must), "mali" (wrong), "na naman" (again!), "… lang hiningi ko" (I only asked for …), "bawal" (not allowed)
    r"^bakit\b|\bnakalimutan\s+(?:mo|niyo|nyo)\b|\b(?:wag|huwag)\b|\bdapat\b|\bmali\b|\bna\s+naman\b|\bhiningi\s+ko\b|"
    r"\bbawal\b|\bhindi\s+(?:ganyan|ganito|dapat|pwede|puwede)\b|"
    # held-out 73: Japanese, which has no word boundaries: "…ないでください" / "…はやめてください" (please don't / stop),
    # "なぜ…" (why …), "忘れています" (forgot), "違います" (wrong), "AではなくB" (B, not A), "…ルールです" / "決まりです"
    # (the rule is), "前にも言いましたが" (as I said before), "…が消えています" (… is gone), "…が落ちています" (… fails)
    + JAPANESE_PUSHBACK + r"|" + CHINESE_PUSHBACK + r"|" + KOREAN_PUSHBACK + r"|"
    r"\blike\s+[\w.-]+\s+does\b|\bbefore\s+(?:writing|running|touching|changing)\b|"
    r"\b(?:every|each|all)\s+[\w.-]+\s+(?:that|which|who)\b[^.!?]{0,60}\b(?:has\s+to|must|needs\s+to)\b|"
    r"^(?:lol|haha)[\s,]+(?:no+|nope|nah)\b|\b(?:brand\s+guide|style\s+guide|the\s+checklist|the\s+spec)\b[^.!?]{0,20}\b(?:says|asks|puts|is\s+specific)\b|"
    r"\btanks\s+(?:the\s+|our\s+)?\w+|^(?:(?:thank\s+you|thanks)[.!,]?\s*)?one\s+thing\b[^.!?]*:|\bhowever\s*[:,]|"
    r"^still\s+(?:\d{3}|broken|failing|red|slow|empty|wrong)\b|[,;—–]\s*(?:has|needs)\s+to\s+be\b|"
    r"\bbut\s+(?:the\s+)?[\w-]+\s+(?:has|have|needs?)\s+to\b|\bthis\s+(?:repo|project)\s+(?:is|uses)\b|\b(?:is\s+not|isn'?t)\s+what\b|"
    # French, as a (Québécois) colleague types it: "Non.", "sérieux?", "pourquoi tu cat ma clé", "t'as mis public: true",
    # "encore bundle exec rspec", "on log seller.id, rien d'autre", "demande-moi avant", "bin/rspec, pas bundle exec"
    r"^(?:non|euh|wo+|ouf|oups)\b[\s,.!]|\bs(?:é|e)rieux\s*[?!]|\bpourquoi\s+(?:tu|t'as|as-tu|vous)\b|\bt'as\s+(?:mis|oubli(?:é|e)|roul(?:é|e)|fait|pas|encore)\b|"
    r"^encore\b|\bencore\s+(?:une\s+fois|le|la|les|des|du)\b|\brien\s+d'autre\b|\bdemande-moi\s+avant\b|\bjamais\b|\btoujours\b|\bfaut\s+(?:pas|jamais|toujours)\b|"
    r"\bon\s+(?:\w+\s+)?(?:touche|log|met|fait|roule|utilise|hardcode)\s+(?:pas|jamais|rien|seulement|juste)\b|,\s*pas\s+(?:de\s+|le\s+|la\s+|les\s+)?[\w.\-/:]+\s*[.!]*$|"
    r"\b(?:deviennent|devient)\s+publi(?:c|cs|que|ques)\b|\bva\s+(?:planter|capoter|casser|crasher)\b|\ba\s+tout\s+(?:crash(?:é|e)|cass(?:é|e)|plant(?:é|e))\b|"
    # Spanish, as a colleague types it: "no no no, asi no", "no edites el .prefab a mano", "mira, con param() …"
    r"\b(?:as[ií]\s+no|no\s+(?:edites|toques|hagas|uses|subas|pongas)|otra\s+vez|ya\s+te\s+lo\s+dije|siempre|nunca|revierte)\b|"
    r"^(?:(?:oh|hmm+|ok|thanks?|thank\s+you)[\s,.!]+)*(?:(?:small|tiny|one|little|minor)\s+thing|nit|suggestion)\s*:|^(?:pero|ojo)\b|^mira\s*[,:]|"
    r"\b(?:everything|every|all|any)\s+new\b|\bwe're\s+(?:on|using)\b|\bwe\s+are\s+(?:on|using)\b|\b(?:is|are)\s+deprecated\b|"
    r"\byou\s+(?:just\s+)?\w+ed\b[^.!?]*?,?\s+not\s+\S|"
    r"\b(?:you'?re|youre|you\s+are|u\s+r|you|u)\b[^.!?]*\bagain\b|\bagain\s*[?!]|\bsame\s+(?:thing|mistake|problem)\s+as\s+before\b|"
    r"\b(?:second|2nd|third|3rd)\s+time\b|"
    r"\b(?:redo|revert|undo|amend|recreate)\b|\bnot\s+like\s+that\b|\bwe\s+(?:can'?t|cannot|can\s+not|mustn'?t|must\s+not|aren'?t\s+allowed)\b|"
    r"\bwe\s+(?:do|use|always|never|don'?t|dont|only|prefer|keep|put|write|run|call|moved|switched|migrated|dropped|stopped|"
    r"store|name|format|log|tag|pin|ship|deploy|release|validate|hash|encrypt|lost|ripped|removed|killed|banned|left|"
    r"deprecated|got\s+rid)\b|"
    r"\bwe\s+(?:already\s+)?have\b(?:[^.!?]|\.(?=\w))*\bfor\s+(?:exactly\s+)?(?:this|that|it|these|those)\b|"
    r"\buse\s+[^.!?,]{1,60}?,\s+not\s+\S|"
    r"\bin\s+this\s+(?:repo|project|codebase|team|code\s*base)\b|"
    r"\b(?:this|that|it|which|would|will|could|we'd|you'd|it'd)\b(?:\s+[\w:.\-/]+){0,3}?\s+(?:breaks?|broke|locks?|overwrites?|clobbers?|"
    r"deletes?|wipes?|drops?|leaks?|exposes?|corrupts?|loses?|destroys?|nukes?|fails?)\b|\balready\s+exists?\b|"
    r"\b(?:it'?s|its|it\s+is|that'?s|thats|should\s+be|must\s+be|use)\s+[\w.\-/:<>@]+\s*,?\s+not\s+[\w.\-/:<>@]+|"
    r"^(?:that|this|it)(?:'?s|\s+is)\s+(?:a\s+|an\s+)?(?:leak\w*|bug|race(?:\s+condition)?|regression|breaking\s+change|security\s+hole|"
    r"data\s+leak)\b|"
    r"\b(?:drops?|deletes?|wipes?|truncates?|overwrites?|removes?|nukes?)\s+(?:every|all|the\s+(?:whole|entire))\b|"
    r"^what\s+did\s+(?:you|u)\s+just\b|\b(?:is|was)\s+not\s+(?:correct|right)\b|^not\s+correct\b|"
    r"^(?:(?:it|this|that)\s+)?(?:has\s+to|needs\s+to|must)\s+be\b|"
    # "s3 disk not local.": a whole terse sentence that says what it is instead
    r"^[\w.\-/:@]+(?:\s+[\w.\-/:@]+)?\s*,?\s+not\s+(?!(?:bad|yet|now|sure|really|needed|quite|much)\b)[\w.\-/:@]+\s*[.!]*$",
    re.I,
)
SHOUTED_AGAIN = lazy(r"\bAGAIN\b")
# "you pushed straight to main.", "wait, you uploaded it yourself??": saying back to the assistant what it did, with
# no praise in the sentence, is pushing back on it.
YOU_DID_THAT = lazy(
    r"^(?:(?:wait|hmm+|ugh|oh|oof|so|and|but|uh|um|wow|lol|lmao|bruh|omg|dude|man)[\s,.!]+)?(?:you|u)\s+(?:just\s+|also\s+|actually\s+|really\s+)?"
    r"(?:\w+ed|wrote|put|made|ran|took|did|broke|set|left|sent|built|threw|hid|kept|let|lost|gave|went|forgot|stuck|swapped)\b",
    re.I,
)
# "works, but might be worth using errors.Is rather than matching the text?": a suggestion to do it otherwise, even
# asked as a question, is a (MEDIUM) correction of what was just done.
SUGGESTED_INSTEAD = lazy(
    r"\b(?:might|maybe|perhaps|worth|consider|prefer|better\s+to|could|would(?!\s+like)|just\s+use|fwiw|can\s+just)\b(?:[^.!?]|\.(?=\w))*"
    r"\b(?:rather\s+than|instead\s+of|(?:nicer|better|cleaner|simpler|easier|safer|cheaper)\s+than|next\s+time|would\s+(?:save|avoid|spare))\b",
    re.I,
)
YOU_AT_SENTENCE_START = lazy(r"(?:^|[.!?]\s|\n)\s*(?:(?:wait|hmm+|ugh|oh|so|and|but|uh|um|wow|lol|lmao|bruh|omg|dude|man)[\s,.!]+)?(?:you|u)\s", re.I)  # YOU_DID_THAT's gate
PRAISE_WORDS = lazy(r"\b(?:thanks?|thank\s+you|thx|nice|great|good|perfect|awesome|cool|love|lovely|exactly|correct|right|lgtm|works|neat|brilliant|"
                    r"bravo|merci|parfait|super|chido|ching[oó]n|n[ií]tido|perfecto|gracias|genial)\b", re.I)
# A reply that moves on to the next task ("great, now add pagination. don't change the API") sets rules for that
# task from there on: its prohibitions are instructions, not pushback on what was done.
NEXT_TASK = lazy(
    r"^(?:(?:ok(?:ay)?|great|cool|nice|perfect|thanks|thank\s+you|good|lgtm|awesome|looks\s+good|works|"
    r"chido|n[ií]tido|va|sale|[óo]rale|perfecto|gracias|genial|bien|bene|ottimo|grazie|merci|parfait|super)[\s,.!]+)*"
    r"(?:(?:now|next|also|then|and\s+now|after\s+that|moving\s+on|on\s+to|ahora|luego|siguiente|adesso|ora|maintenant)\b|"
    r"(?:じゃあ|では|それでは)?(?:次は|次に|続いて|ついでに)|"  # Japanese: "次は…作って" (next, make …), "ついでに" (while at it)
    r"(?:好|行|可以)?[。，,！!\s]*(?:下一个|下一個|接下来|接下來|顺便|順便))",  # Chinese "好。下一个：…" (ok. next: …)
    re.I,
)
# Portuguese "no" is "in the": "no staging do lojaverde …", "no lv-frete usa …", a place and then what to do there.
PLACE_NO = lazy(r"^no\s+(?=[\w-]+(?:\s+[\w-]+){0,3}\s+(?:do|da|dos|das)\s|[\w-]+\s+(?:p[õo]e|coloca|tira|mostra|deixa|faz|usa|"
                r"cria|adiciona|muda|troca|remove|atualiza|arruma|corrige|bota)\b)", re.I)
# A sentence that opens with how long something took ("11 min.. why the whole build?"): PUSHBACK's one alternative
# that starts from a number, which no gate word can stand for ("45s", "2h").
DURATION_LEAD = lazy(r"(?:^|[.!?]\s)\s*\d+(?:\.\d+)?\s*(?:s|sec|secs|seconds|min|mins|minutes|h|hrs?|hours?)\b", re.I)
# Every other PUSHBACK alternative holds one of these words: most replies hold none and are not split into sentences.
PUSHBACK_GATE_WORDS = frozenset(
    "don't dont do never no not stop nobody nothing again same redo revert undo we repo project codebase team code "
    "breaks broke break use nein nee niet nej falsch lock locks overwrite overwrites clobber clobbers delete deletes "
    "wipe wipes drop drops leak leaks expose exposes corrupt corrupts lose loses destroy destroys nuke nukes already "
    "nooo noo red broken fail fails shouldn't shouldnt should must mustn't can't cant cannot generated other "
    "backwards kill cancel abort lives live goes belongs moved switched migrated dropped stopped deprecated rid "
    "rather instead amend recreate second 2nd third 3rd new we're leakage bug race regression breaking security truncate "
    "truncates remove removes what has needs stay stays than next push pushing committed checked take pull rip only "
    "stopp does handles covers go wrong like as every each all here anything everything other put change set turn leave "
    "before making make match matches went turned failing oom outage prod production still needs need without thing nit "
    "dies crashes hangs blows falls bails throws throw complain rejects reject ran shipped deployed applied cant true false "
    "null empty on off public zero always supposed usually normally typically generally contributing contributing.md "
    "style readme docs feels feel security privacy telling saying claiming asi así edites toques hagas uses subas pongas "
    "otra ya siempre nunca revierte pero mira ojo thats that's theres there's shouldn't shouldnt wouldn't isn't isnt "
    "aren't doesn't did might think believe undo roll could can would save avoid spare blocking issue fix edit change "
    "commit diff threw throws thrown panic panics panicked segfault segfaults errors just only calling suggestion "
    "present obliged raise accepted ask matters points issues problems problem corrections correction serious attention "
    "broken down gone nothing others anyone eats eat burns burn wastes waste looks line bit part kinda sort mostly "
    "come nowhere tried gets get goes has must that's thats feels calls call ships writes stores reads written hides masks "
    "papers right correct take a an nee wacht let nooit altijd nergens here takes take requires require bug não nao "
    "cuidado desfaz like before writing running touching changing lol haha guide checklist spec tanks thing "
    "however still repo project isn't isnt nope nah non euh wo woo wooo ouf oups sérieux serieux pourquoi t'as encore rien "
    "demande-moi jamais toujours faut on pas deviennent devient va a jangan jgn lupa kenapa harusnya bukan đừng không "
    "olmaz değil degil unuttun unuttunuz yanlış yanlis hayır hayir yapma atma kullanma silme dokunma koyma çalıştırma "
    "ghalat 8alat nseet matensash la2 mesh msh bakit nakalimutan wag huwag dapat mali naman hiningi bawal hindi".split()
)
PUSHBACK_WORDS = 200  # words of the prompt kept from the first pushback sentence on

SHORT = 5  # words: "Wrong file." says little without the sentence after it
FOLLOW_UP = 20  # words: a sentence after a correction this short says what is right or why
JOINED = 60  # words: adjacent correction sentences up to this length are one lesson
MAX_REASON = 400  # characters kept of a rejection reason


def is_false_positive(sentence):
    """True when a sentence with a correction phrase is not a correction."""
    s = sentence.strip()
    if s.endswith("?") or QUESTION_START.match(s):
        return True
    if POLITE.match(s):
        return True
    if SELF.search(s) and not YOU_WORD.search(s) or SELF_CORRECTION.search(s):
        return True
    return bool(HYPOTHETICAL.search(s) or PRAISE.search(s))


def _opener_correction(sentence):
    match = OPENER.match(sentence)
    if not match:
        return False
    rest = sentence[match.end():]
    if YOU_DID.match(rest) and not is_false_positive(rest):
        return True  # "ugh no, you wrote the token straight into .npmrc"
    return len(rest.split()) >= 3 and bool(CONTRAST.search(rest)) and not ACCEPT.search(rest) and not is_false_positive(rest)


def _is_correction(sentence):
    if CORRECTION.search(sentence):
        return not is_false_positive(sentence)
    return _opener_correction(sentence)


def _contrast(sentence):
    """"A, not B" — a correction only next to one: alone it is as often a plain statement ("slow, not broken")."""
    return bool(CONTRAST_STATEMENT.search(sentence)) and not is_false_positive(sentence) and not ACCEPT.search(sentence)


def _sets_a_rule(sentence):
    """True when ``sentence`` states how things are done (after "Nope." or "why would you…?")."""
    s = sentence.strip()
    return bool(s) and not s.endswith("?") and not QUESTION_START.match(s) and not ACCEPT.search(s) and bool(
        RULE.search(s) or RULE_ANYWHERE.search(s))


def _rule_after(sentences, i):
    """The index of the rule stated in the one or two sentences after an opener or rebuke at ``i``, or None."""
    for j in (i + 1, i + 2):
        if j < len(sentences) and _sets_a_rule(sentences[j]):
            return j
    return None


ECHO_WORDS = 12  # words: "0.0.0.0/0 on the patient records database?" repeats what was done; a longer question asks


def _echoes_the_mistake(sentence):
    """True for a short question that only repeats what was done, before a bare "No.": "0.0.0.0/0 on the patient
    records database? No. Add its security group ID": the question names the mistake the rule after it corrects."""
    s = sentence.strip()
    return s.endswith("?") and 0 < len(s.split()) <= ECHO_WORDS and not QUESTION_START.match(s) and not POLITE.match(s)


def _follows(sentence):
    """True when ``sentence`` can complete the correction before it (short, a statement, not thanks)."""
    s = sentence.strip()
    words = len(s.split())
    return (0 < words <= FOLLOW_UP and not s.endswith("?") and not QUESTION_START.match(s) and not ACCEPT.match(s)
            and not STATEMENT.search(s))  # "Lesson learned: …" after a correction is a lesson of its own


def find_corrections(prompt_text):
    """The correction sentences of one human prompt, in order (each with its short follow-up sentence, if any)."""
    found = []
    if not prompt_text:
        return found
    plain = prompt_text.replace("`", "") if "`" in prompt_text else prompt_text  # "use `uv` not `pip`"
    lowered = plain.lower()
    if GATE_WORDS.isdisjoint(lowered.translate(_PUNCTUATION_TO_SPACE).split()):
        return found  # no word any correction pattern starts from: most prompts end here
    if not (_CORRECTION_LOWER.search(lowered) or _OPENER_ANYWHERE_LOWER.search(lowered) or _WHY_ANYWHERE_LOWER.search(lowered)
            or "??" in lowered):  # REBUKE: "you hardcoded the prod password??"
        return found  # one scan decides for the rest
    if CHANGE_OF_PLAN.search(plain):
        return found
    sentences = own_sentences(prompt_text, phrases=CORRECTION)
    if _opens_new_work(sentences):
        return found  # "Could you add pagination? Please don't forget the page size": instructions for the new work
    i = 0
    while i < len(sentences):
        sentence = sentences[i]
        nxt = sentences[i + 1] if i + 1 < len(sentences) else None
        rule_at = _rule_after(sentences, i) if nxt and (BARE_OPENER.match(sentence) or REBUKE.match(sentence)) else None
        if rule_at is not None:
            # "Nope. We don't use default exports." / "WHY did you push?? I never asked. don't push unless I say so"
            start = i - 1 if i > 0 and _echoes_the_mistake(sentences[i - 1]) and BARE_OPENER.match(sentence) else i
            sentence, i = " ".join(sentences[start : rule_at + 1]), rule_at
        elif not _is_correction(sentence):
            i += 1
            continue
        elif i > 0 and _contrast(sentences[i - 1]) and (not found or sentences[i - 1] not in found[-1]):
            sentence = sentences[i - 1] + " " + sentence  # "the tests directory is tests/unit, not test/. you put it in the wrong folder"
        while i + 1 < len(sentences) and (_is_correction(sentences[i + 1]) or _contrast(sentences[i + 1])) and len(sentence.split()) + len(sentences[i + 1].split()) <= JOINED:
            sentence, i = sentence + " " + sentences[i + 1], i + 1  # one prompt elaborating one mistake
        nxt = sentences[i + 1] if i + 1 < len(sentences) else None
        if nxt and not _is_correction(nxt) and (len(sentence.split()) < SHORT or _follows(nxt)):
            sentence, i = sentence + " " + nxt, i + 1
        found.append(sentence)
        i += 1
    return found


# "product changed their mind, make it 50 per page instead": a new requirement, not a mistake the assistant made;
# "not saying it's wrong, just curious": a question, not a correction.
CHANGE_OF_PLAN = lazy(
    # Japanese: "仕様変更が入った" (the spec changed), "方針を変え…" (we change course), "問題があったわけではな…" (not that
    # anything was wrong)
    r"仕様変更|方針を変え|問題があったわけではな|"
    # Chinese: "算了，…先不加了" (never mind, we'll leave it out for now), "产品那边说…" (product says …), "需求变了" (the spec changed)
    r"算了|先不(?:加|做|改|弄|搞)了|产品那边说|產品那邊說|需求变了|需求變了|"
    # Korean: "생각해 보니 … 빼고 가죠" (on second thought, let's leave … out), "요구사항이 바뀌" (the requirements changed)
    r"생각해\s*보니|요구사항이\s*바뀌|기획이\s*바뀌|궁금해서요|궁금합니다|"  # "… 궁금해서요" (just curious)
    r"\bchanged\s+(?:their|his|her|my|our|the)\s+minds?\b|\bchange\s+of\s+plans?\b|\bcambio\s+de\s+planes?\b|"
    r"\bno\s+es\s+(?:reclamo|queja|cr[ií]tica)\b|\bsorry\s+for\s+the\s+(?:churn|back[\s-]+and[\s-]+forth)\b|"
    r"\brequirements?\s+(?:changed|have\s+changed|has\s+changed)\b|\bnew\s+requirements?\b|"
    r"\bnot\s+saying\s+(?:it'?s|that'?s|you'?re|it\s+is|that\s+is)\b|\bjust\s+curious\b|\bout\s+of\s+curiosity\b|"
    r"\b(?:told|asked)\s+(?:us|me)\b[^.!?]*\b(?:they|he|she)\s+(?:now\s+)?(?:want|need|prefer)s?\b|"
    r"^(?:(?:ok(?:ay)?|hmm+|so)[\s,.]+)?actually[\s,]+let'?s\b|\brequirements?\s+(?:is|are)\s+now\b|\basked\s+for\b[^.!?]*\bas\s+well\b|"
    r"\bunrelated\s+to\s+(?:anything|what)\s+you\b|\bnot\s+(?:from|caused\s+by)\s+(?:you|your|this\s+branch)\b",
    re.I,
)
# A prompt that opens by asking for new work ("Could you add pagination to the orders list?", "add stripe webhooks for
# refunds.", "new task.", "write down how we release the crates"): what its later sentences say must or must not be
# done is about that work, not about what the assistant did before.
NEW_WORK = lazy(
    r"^(?:(?:hi|hey|hello|ok(?:ay)?|so|next|new\s+task)\b[\s,.!:]*)*(?:(?:could|can|would|will)\s+(?:you|we)\s+(?:please\s+)?|please\s+)?"
    r"(?:add|create|write|build|implement|set\s+up|scaffold|introduce|refactor|publish|release|write\s+(?:down|up)|produce|"
    r"prepare|draft|propose|review\s+the\s+following|viết|thêm|tạo)\b"  # Vietnamese write, add, create
    r"(?!\s+(?:it|that|this|them)\s+(?:back|again)\b)|"
    # Chinese "帮我…" / "請幫我…" (please help me …: a request), "写个脚本…" (write a script …), "给 X 加一个…" (add a … to X)
    r"^(?:(?:好|ok|那)[。，,！!\s]*)?(?:请|請|麻烦|麻煩)?(?:帮我|幫我|帮忙|幫忙)|^(?:写|寫|做|建|加)(?:个|個|一个|一個)|"
    # Japanese puts the verb last: "…を作ってください" (please make …), "…調べてください" (look into …); not "…に追加して"
    # (add it to …) or "…に書いてください" (write it in …), which as often say where the done work should have gone
    r"^[^。！？]*(?:作って|作成して|実装して|用意して|下書きして|調べて)(?:ください|下さい|くれ|ほしい|もらえますか)?[。！]?$|"
    # Korean, verb last too: "…만들어 주세요" (please make …), "…초안 써 주세요" (draft …), "…봐 주세요" (look into …)
    r"^.*?(?:만들어|작성해|준비해|초안\s*써|정리해|찾아|봐)\s*주세요[.!]?$",
    re.I,
)
TASK_LEAD = lazy(r"^(?:new\s+task|next\s+(?:one|task|up)|next|ok(?:ay)?|so|hi|hey|hello|thanks|thank\s+you|good\s+(?:morning|afternoon|evening))\W*$", re.I)
# "add it back", "you removed …", "… again", "still …", "instead": about what was done, not new work
REFERS_BACK = lazy(r"\b(?:you|u)\s+(?:just\s+)?(?:\w+ed|broke|wrote|made|put|did|left|forgot|took|ran)\b|\b(?:again|back|still|instead)\b|"
                   r"刚才|剛才|刚刚|剛剛|改回|又|还是|還是|你(?:改|写|寫|加|删|刪|把|用)|"  # Chinese: just now, change back, again, still, you …
                   r"ではなく|じゃなくて|また|やり直|戻して|元に", re.I)  # Japanese: not …, again, redo, put back


def _first_request(sentences):
    """The first sentence that is not a bare "new task." or "ok." lead."""
    for sentence in sentences:
        if not TASK_LEAD.match(sentence.strip()):
            return sentence
    return ""


def _opens_new_work(sentences):
    """True when a prompt opens by asking for new work and does not refer back to what was done."""
    first = _first_request(sentences)
    return bool(first) and bool(NEW_WORK.match(first)) and not REFERS_BACK.search(first)


# A reply that opens with praise ("nice, green.", "lgtm.") before the pushback: the praise is no part of the lesson.
PRAISE_LEAD = lazy(r"^(?:nice|cool|lgtm|awesome|sweet|neat|works|green|passes|looks\s+good)\b(?![\s,.!]+so\s+now\b)", re.I)
# "but why is there a hand-built Trail in conftest?" asks nothing: the sentences after it say what is right.
# "bakit mo ginalaw …?" (why did you touch …?), "なぜ latest にしたんですか？" (why did you make it latest?): after an action,
# asking why the assistant did it is the rebuke (English "why did you …?" is a correction phrase of its own).
FOREIGN_WHY_YOU = lazy(r"^(?:bakit\s+(?:mo|ka|niyo|nyo|naka)\b|(?:なぜ|なんで|どうして).*(?:した|たん|ました|てる|ている)|"
                       r"(?:为什么|為什麼|为啥|為啥|谁让你|誰讓你|谁叫你|誰叫你)|"  # Chinese "为什么是 context.Background()？"
                       r"(?:\S+\s+)*?왜\s.*(?:했어요|했나요|했죠|했어|했습니까|하셨어요|하셨나요))", re.I)  # Korean "… 왜 true로 했어요?"
WHY_REBUKE = lazy(r"^(?:but\s+|and\s+|so\s+)?(?:why|bakit)\b|^(?:なぜ|なんで|どうして|为什么|為什麼|为啥|為啥|谁让你|誰讓你|왜\s)", re.I)

# "don't commit yet", "hold on, not until I've reviewed it": putting the next step off corrects nothing.
PUT_OFF = lazy(r"\b(?:yet|until|for\s+now|first)\b", re.I)
PUT_OFF_LEAD = lazy(r"^(?:(?:hmm+|ugh|ah+|oh|ok|okay|well|wait|please|pls)[\s,.!]+)*(?:don'?t|dont|do\s+not|not|no|nope|stop|hold)\b", re.I)
PUT_OFF_WORDS = 25  # "no, not until I've reviewed it" puts off; a long "oh no, that went out … we always … first" corrects
PRAISE_ONLY_WORDS = 6  # "These read nicely, thank you.", "Looks right.": thanks before the point, no part of it
PUSHBACK_MIN_WORDS = 4  # "stop, wait" says nothing a lesson could keep


# Asked, but not a question: "Shouldn't this go through AppointmentService?", "did u even compile this?", "I might be
# wrong, but I think we usually send SMS from a Celery task?", "could you undo that and add them with pnpm instead?",
# "could you please always check which database …?"
RHETORICAL = lazy(
    r"^(?:(?:but|so|hmm+|oh|wait|i\s+might\s+be\s+wrong,?\s+but)[\s,]+)?(?:shouldn'?t|should\s+not|wouldn'?t|isn'?t|aren'?t|doesn'?t)\s+"
    r"(?:this|that|it|these|those|we|the)\b|"
    r"^did\s+(?:you|u)\s+even\b|\bi\s+(?:might\s+be\s+wrong|think|believe)\b[^.!?]*\bwe\s+(?:usually|normally|always|typically)\b|"
    r"\b(?:undo|revert|roll\s+back)\s+(?:that|it|this|them)\b|\bput\s+(?:them|it|that)\s+back\b|"
    r"\bfeels?\s+(?:a\s+bit\s+|rather\s+|too\s+|quite\s+|kinda\s+)?(?:heavy|wrong|off|hacky|fragile|overkill)\b|"
    r"^(?:i\s+think\s+|i\s+believe\s+)?(?:all\s+)?the\s+other\s+[\w-]+\s+(?:use|call|reference|do)\b|"
    r"^(?:(?:sorry|so|and|but|ok)[,\s]+)?(?:could|can|would)\s+you\s+(?:please\s+)?(?:always|never)\b|"
    r"\bcould\s+(?:it|we|you)\s+(?:please\s+)?(?:go|switch|change)\s+back\b",
    re.I,
)


def _pushes_back(sentence):
    s = sentence.strip()
    place = PLACE_NO.match(s)
    if place:
        s = s[place.end():]  # Portuguese "no staging do lojaverde tira o selo": "in the", not "no"
    if RHETORICAL.search(s) or FOREIGN_WHY_YOU.match(s):
        return True
    if YOU_DID_THAT.match(s) and not PRAISE_WORDS.search(s) and not s.endswith("?") or s.endswith("??") and YOU_DID_THAT.match(s):
        return not SELF_CORRECTION.search(s)
    if SUGGESTED_INSTEAD.search(s):
        return True
    if not (PUSHBACK.search(s) or SHOUTED_AGAIN.search(s)):
        return False
    if PUT_OFF.search(s) and PUT_OFF_LEAD.match(s) and len(s.split()) <= PUT_OFF_WORDS:
        return False
    if s.endswith(("??", "?!", "!?")):
        s = s.rstrip("?!") + "!"  # "again??" is a rebuke, not a question
    return not is_false_positive(s) and not (ACCEPT.search(s) and not PUSHBACK.match(s))


# A reply that is nothing but the command to run ("`cargo nextest run --workspace` and then `cargo test --doc`"):
# after the assistant acted, the person is saying which command it should have been.
COMMAND_ONLY = lazy(r"^\s*(?:`[a-z][\w.+-]*(?:\s[^`\n]*)?`\s*(?:,|;|&&|and(?:\s+then)?|then)?\s*)+[.!]?\s*$", re.I)


def pushes_back(prompt_text):
    """True when a prompt holds a sentence that pushes back on what was just done (:data:`PUSHBACK`), or is only
    the command to run (:data:`COMMAND_ONLY`)."""
    if not prompt_text:
        return False
    if "`" in prompt_text and COMMAND_ONLY.match(prompt_text):
        return True
    words = prompt_text.lower().translate(_PUNCTUATION_TO_SPACE).split()
    if PUSHBACK_GATE_WORDS.isdisjoint(words) and not (("you" in words or "u" in words) and YOU_AT_SENTENCE_START.search(prompt_text)) and not (
            DURATION_LEAD.search(prompt_text)) and not (prompt_text.isascii() is False and CJK_CUE.search(prompt_text)):
        return False
    sentences = own_sentences(prompt_text, phrases=CORRECTION)
    if _other_business(prompt_text, sentences):
        return False
    for sentence in sentences:
        if NEXT_TASK.match(sentence):
            return False  # what follows is about the next task
        if _pushes_back(sentence):
            return True
    return False


def _other_business(prompt_text, sentences):
    """True for a change of plan, the person correcting their own instruction ("sorry, my bad — I meant
    quiz_attempts"), or a request for new work, which sets its own rules."""
    return bool(CHANGE_OF_PLAN.search(prompt_text) or sentences and SELF_CORRECTION.search(sentences[0]) or _opens_new_work(sentences))


def _puts_off(prompt_text):
    """"wait, I have uncommitted stuff. let me stash first, then go on": the person holds the work up and
    corrects nothing (:data:`DEFERRAL_ANYWHERE`)."""
    return bool(DEFERRAL_ANYWHERE.search(prompt_text))


ACKNOWLEDGEMENT_WORDS = 3  # "bene.", "ok cool.": a sentence this short before "next one: …" only acknowledges


def moves_on(prompt_text):
    """True when a reply to an action is other business (:func:`_other_business`) or opens with the next task
    ("bene. next one: the brake lever frame…"): none of it corrects what was done, whatever its words."""
    if not prompt_text:
        return False
    sentences = own_sentences(prompt_text, phrases=CORRECTION)
    if _other_business(prompt_text, sentences) or _puts_off(prompt_text):
        return True
    for sentence in sentences[:2]:
        if NEXT_TASK.match(sentence.strip()) and not _pushes_back(sentence):
            return True  # "ok. also batch size can't be hardcoded …" pushes back on what was done, it is no next task
        if len(sentence.split()) > ACKNOWLEDGEMENT_WORDS:
            break
    return False


# A reply that opens with a command: a code span holding a space or a flag ("`pnpm turbo typecheck`", "`--pretend`
# muna"), or a plain word; the plain word counts when it is the program of a command the turn ran ("mix test
# --exclude integration" after "mix test").
OPENING_CODE = lazy(r"^\s*`(?:-[^`\n]*|[^`\n]*\s[^`\n]*)`")
OPENING_WORD = lazy(r"^\s*(?:\./)?([\w.-]+)")


def opens_with_command(prompt_text, tool_calls):
    """True when a reply to an action opens with the command to run instead: every such reply in the labelled
    corpus (30 of 30, held-out 10-74) is a correction, whatever follows it."""
    if not prompt_text or OPENING_CODE.match(prompt_text):
        return bool(prompt_text)
    word = OPENING_WORD.match(prompt_text)
    if not word:
        return False
    return word.group(1) in command_programs(tool_calls)


def command_programs(tool_calls):
    """The programs of the shell commands among ``tool_calls``, in order (``cd`` left out): ``mix``, ``gradlew``, ``helm``."""
    from ..shell_writes import split_words, strip_wrappers

    found = {}
    for name, tool_input in tool_calls:
        command = tool_input.get("command") if name in ("Bash", "PowerShell") and isinstance(tool_input, dict) else None
        if not isinstance(command, str):
            continue
        try:
            for words in split_words(command, name == "PowerShell"):
                words = strip_wrappers(words)
                if words and words[0] != "cd":
                    found[words[0][2:] if words[0].startswith("./") else words[0]] = None
        except Exception:
            continue
    return list(found)


def reply_correction(prompt_text):
    """The correction a short reply to an action makes, as one lesson: the prompt's own sentences.

    For a prompt right after the assistant changed files or ran commands
    that holds one correction (a phrase of :func:`find_corrections`, or
    pushback): such a reply is about that one mistake, and its other
    sentences say what was wrong or what is right ("you committed .env, it
    has the DB password in it. never git add -A here").  Leading thanks
    ("ok it works.") are left out; it stops at a later question and at
    :data:`PUSHBACK_WORDS` words, and before a lesson statement (a lesson of its
    own).  A question that opens with "why" is a rebuke, not a question:
    it is kept and so are the sentences after it.  "" when nothing is left.
    """
    sentences = own_sentences(prompt_text, phrases=CORRECTION)
    while sentences and (ACCEPT.match(sentences[0].strip()) or PRAISE_LEAD.match(sentences[0].strip()) or len(
            sentences[0].split()) <= PRAISE_ONLY_WORDS and PRAISE_WORDS.search(sentences[0])) and not _pushes_back(
            sentences[0]) and not _is_correction(sentences[0]):
        sentences = sentences[1:]
    kept, words = [], 0
    for at, sentence in enumerate(sentences):
        n = word_count(sentence)
        asks = sentence.endswith("?") and not sentence.endswith("??") and not WHY_REBUKE.match(sentence.strip())
        if kept and asks and (words < PUSHBACK_MIN_WORDS or _rule_follows(sentences, at) or _only_questions(kept)) and not RHETORICAL.search(sentence):
            continue  # "oh no, wait. isn't that the production one? …", "Where's the event? … Handlers never call it."
        if kept and (words + n > PUSHBACK_WORDS or STATEMENT.search(sentence) or asks and not RHETORICAL.search(sentence)):
            break
        kept.append(sentence)
        words += n
    return " ".join(kept) if words >= PUSHBACK_MIN_WORDS else ""


# A reply that corrects two things says so: "Two things:", "a couple things.", "two quick things", "dos cosas",
# "Deux affaires." — then bullets, "1. … 2. …", "First, … Second, …", or the second lesson's "And …".
ANNOUNCED = lazy(r"\b(two|2|three|3|a\s+few|a\s+couple(?:\s+of)?|couple(?:\s+of)?|dos|deux|zwei|duas|dois|due|twee|tres|trois|drei|tr[eê]s|dua|tiga|iki|üç)"
                 r"\s+(?:[\w-]+\s+)?(?:things|points|issues|notes|problems|comments|changes|cosas|choses|affaires|trucs|dinge|sachen|"
                 r"punkte|coisas|pontos|cose|dingen|hal|şey|sey)\b|"
                 # Japanese "2点" / "2つ" (two points), Tagalog "Dalawa ha." (two, mind you)
                 r"(?<![\w.])(2|3|二|三)\s*(?:点|つ)|\b(dalawa|tatlo)\b(?=\s*(?:ha|na|po|lang)?\s*[.!:,])|"
                 # Chinese "两个问题" / "兩件事" / "三点" (two problems, two things, three points)
                 r"(两|兩|三|2|3)\s*(?:个|個|件|点|點)\s*(?:问题|問題|事情|事)?|"
                 r"(두|세)\s*가지", re.I)  # Korean "두 가지요" (two things)
BULLET = lazy(r"(?m)^[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+")
INLINE_NUMBER = lazy(r"(?:(?<=\s)|^)(?P<n>[1-9])[.)]\s+(?=\S)")
ORDINAL = lazy(r"(?:^|(?<=[.!;:]\s)|(?<=\n)|(?<=[.!;:,]\sand\s))(?:(?:first|second|third)(?:ly)?|finally|primero|segundo|tercero|"
               r"premi[eè]rement|deuxi[eè]mement|erstens|zweitens|primeiro|una|pangalawa|ikalawa|まず|それと|次に|"
               r"(?:one|two|un|une|uno|deux|dos)(?=\s*:))\b[,:、]?\s*|"
               r"(?:^|(?<=[。！？；：])|(?<=[。！？；：]\s))(一|二|第一|第二|其次)[，,、：:]\s*|"  # Chinese "一，… 二，…"
               r"(?:^|(?<=[.!?]\s))(첫째|둘째|셋째)[,:]?\s*", re.I)  # Korean "첫째, … 둘째, …"
SECOND = frozenset(("second", "secondly", "segundo", "deuxièmement", "deuxiemement", "zweitens", "two", "deux", "dos",
                    "pangalawa", "ikalawa", "それと", "次に", "二", "第二", "其次", "둘째"))
FIRST = frozenset(("first", "firstly", "primero", "premièrement", "premierement", "erstens", "primeiro", "one", "un", "une", "uno",
                   "una", "まず", "一", "第一", "첫째"))
# Where the next lesson of an announced reply starts when nothing enumerates them: a sentence that opens with "And",
# "Also", "Plus" (or "y", "et", "e", "und", "además", "aussi"): "Two things. Amounts are never float … And please run …"
JOINER = lazy(r"(?:(?<=[.!;:?])|(?<=\s[\u2014\u2013]))\s+(?=(?:and|also|plus|y|et|e|und|adem[aá]s|tambi[eé]n|aussi)[\s,])", re.I)
LEADING_JOINER = lazy(r"^\s*(?:(?:and|also|plus|oh\s+and|y|et|e|und|adem[aá]s|tambi[eé]n|aussi)\b[\s,]*)+", re.I)
TRAILING_JOINER = lazy(r"[\s,]+(?:and|y|et|e|und)\s*$", re.I)
COUNTS = {"two": 2, "2": 2, "three": 3, "3": 3, "dos": 2, "deux": 2, "zwei": 2, "duas": 2, "dois": 2, "due": 2, "twee": 2,
          "tres": 3, "trois": 3, "drei": 3, "três": 3, "dua": 2, "tiga": 3, "iki": 2, "üç": 3, "二": 2, "三": 3, "dalawa": 2,
          "tatlo": 3, "两": 2, "兩": 2, "두": 2, "세": 3}  # "a few things", "a couple of things": as many as there are
ANNOUNCEMENT = lazy(r"^[^.!?:\n]*?" + ANNOUNCED.pattern + r"[^.!?:\n]*[.!?:]+\s*", re.I)
PART_WORDS = 6  # words: a bullet shorter than this is an item of one checklist, not a lesson of its own


def _split_points(text, count):
    """``(starts, intro_is_a_lesson)``: where the lessons of an announcing reply start ([] when it does not
    enumerate them), and whether the text before the first start is the first lesson ("2 things. k_msleep in the
    ISR … second, no LOG_DBG …") rather than an introduction ("Two things: - … - …").  ``count``: how many it
    announced (None: "a few").  With no bullets, numbers or ordinals, the sentences that open with "And" (or
    "Also", …) start the later lessons when there are as many of them as announced."""
    bullets = [m.start() for m in BULLET.finditer(text)]
    if len(bullets) >= 2:
        return bullets, False
    numbers = list(INLINE_NUMBER.finditer(text))
    if len(numbers) >= 2 and all(m.group("n") == str(i + 1) for i, m in enumerate(numbers)):
        return [m.start() for m in numbers], False
    ordinals = list(ORDINAL.finditer(text))
    words = [m.group(0).strip(" ,:、，：\n").lower() for m in ordinals]
    if any(w in SECOND for w in words):
        return [m.start() for m in ordinals], not any(w in FIRST for w in words)
    body = ANNOUNCEMENT.match(text)
    joins = [m.end() for m in JOINER.finditer(text, body.end() if body else 0)]
    if joins and (count is None or len(joins) == count - 1):
        return joins, True
    return [], False


def _only_questions(kept):
    """True when every sentence kept so far asks: a run of rebuking questions is not the lesson yet, the statement
    after them is ("did you run the tests? or did we merge blind again? run pnpm test before saying it's done")."""
    return all(k.rstrip().endswith("?") for k in kept)


def reply_lessons(prompt_text):
    """The lessons of a reply to an action: one (:func:`reply_correction`), or one per part when the reply
    announces how many things are wrong and enumerates them ("Two things: - … - …", "2 things 1. … 2. …", "Two
    things. First, … Second, …", "A couple things. … And you forgot …"), as many parts as it announced, each a
    lesson of its own (at least :data:`PART_WORDS` words that :func:`reply_correction` keeps).  Bullets or
    numbers alone are as often the steps or reasons of one lesson (a formal review: what is wrong, why, what to
    do)."""
    announced = ANNOUNCED.search(prompt_text)
    count = COUNTS.get(next(g for g in announced.groups() if g).lower()) if announced else None
    points, intro_is_a_lesson = _split_points(prompt_text, count) if announced else ([], False)
    if points:
        parts = [prompt_text[a:b] for a, b in zip(points, points[1:] + [len(prompt_text)])]
        if intro_is_a_lesson:
            parts.insert(0, ANNOUNCEMENT.sub("", prompt_text[: points[0]], count=1))
        kept = [reply_correction(TRAILING_JOINER.sub("", LEADING_JOINER.sub("", part))) for part in parts]
        if len(kept) >= 2 and (count is None or len(kept) == count) and all(k and word_count(k) >= PART_WORDS for k in kept):
            return kept
    whole = reply_correction(prompt_text)
    return [whole] if whole else []


def _rule_follows(sentences, at):
    """True when a sentence after ``at`` states the rule (a Socratic review: the question, then what is right)."""
    return any(_sets_a_rule(s) or _pushes_back(s) for s in sentences[at + 1 : at + 4] if not s.strip().endswith("?"))


# Words that, two of them alone, only stop or refuse ("no wait", "not now", "stop that"): no lesson.
REFUSAL_WORDS = frozenset("no nope nah stop wait hold on not now yet that this it please pls cancel don't dont never "
                          "mind nevermind hmm hm ok okay sorry later one sec second moment hang".split())


def _too_short(text):
    """One word, or two that only refuse; two words that say what to do instead ("staging first") are a lesson."""
    words = text.lower().replace(",", " ").replace(".", " ").replace("!", " ").split()
    return len(words) < 2 or len(words) == 2 and all(w in REFUSAL_WORDS for w in words)


def find_rejection_correction(reason):
    """The correction in the reason a person gave for rejecting a tool call ("" for none).

    Questions, polite requests, one-word reasons and two words that only
    refuse ("no", "stop that", "not now") carry no lesson; two that say
    what to do instead do ("staging first").
    """
    sentences = own_sentences(reason, phrases=CORRECTION)
    if not sentences:
        return ""
    text = " ".join(sentences)
    if len(sentences) > 1 and REBUKE.match(sentences[0]) and not is_false_positive(sentences[1]):
        pass  # "why are you calling the db in a loop? batch it": the question is the rebuke, the rest the rule
    elif is_false_positive(sentences[0]) and _rule_follows(sentences, 0) and not DEFERRAL_ANYWHERE.search(text):
        # the question, then the rule: a review; a question that only repeats what was done names the mistake
        text = " ".join(s for s in sentences if not s.strip().endswith("?") or _echoes_the_mistake(s))
    elif _too_short(text) or is_false_positive(sentences[0]) or DEFERRAL.match(sentences[0].strip()) or DEFERRAL_ANYWHERE.search(text):
        return ""
    if len(text) > MAX_REASON:
        text = text[:MAX_REASON].rsplit(" ", 1)[0] + "…"
    return text
