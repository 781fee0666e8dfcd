"""From a lesson sentence and the tool calls before it to a knowledge node's fields.

Pure functions: :func:`key_terms`, :func:`infer_priority`,
:func:`infer_process_type`, :func:`triggers_from_tools`, :func:`label_from`,
:func:`content_block` and :func:`lesson_id`.  The rules follow the original
design: a user correction with production impact is CRITICAL, other
corrections and explicit lessons HIGH, suggestions MEDIUM; steps make a
checklist, risks a warning, must/never a requirement, when/always/before a
pattern.
"""

import re

from .call_impact import calls_have_impact
from .lazy_regex import lazy

STOPWORDS = frozenset(
    """a about above after again against all also always am an and any are as at be because been before being
    below between both but by can cannot could did didn do does doing don down during each else even ever every
    few for forget forgot from further going had has have having he her here hers him his how i if in into is it
    its itself just let like make me might missed more most must my myself need never next no nor not now of off
    on once only or other our ours out over own please remember same shall she should so some such sure than that
    the their them then there these they this those through to too under until up upon us use used using very
    was we were what when whenever where which while who why will with without would yes yet you your yours
    thing things stuff way time lesson learned note future important forward again actually really
    didn doesn isn wasn aren won shouldn couldn wouldn haven hasn ve ll re told asked wrong keep kept keeps still
    instead rather right correct incorrect mistake oops ugh hey thanks thank want wanted meant said already pls
    okay yeah nope got get one two first last ask asking also new put run check add edit change make made call called
    needs needed self reference rule thumb takeaway anything everything something hm hmm otherwise here there directly
    back done work works working whatever sure look lot bit""".split()
)
PRODUCTION_TERMS = lazy(
    r"\b(deploy\w*|(?<![\w-])release(?!\w*\s+(?:builds?|mode|configs?|configuration|variants?|flavou?rs?|notes?|script|job)\b)(?!-please)\w*|version\w*|__version__|publish\w*|secur\w*|migrations?|migrate|data loss|lose data|lost data|"
    r"(?:lose|lost|losing|wipe[sd]?|wiping|drop(?:ped|s)?|delet(?:e|es|ed|ing))\s+(?:the\s+|our\s+|all\s+|every\s+)?(?:[\w-]+\s+)?"
    r"(?:db|dbs|database|databases|data|table|tables|records|rows|volume|bucket)|"
    r"production|prod|rollback|roll\s?outs?|roll(?:ing)?\s+(?:it|them|this|that)\s+out|credential\w*|secret\w*|backup\w*|drop table|force[- ]push\w*|"
    r"git\s+push\s+(?:-f|--force)|push\s+--force|plain\s+--force|rewrit\w*\s+(?:\S+\s+){0,2}history|"
    r"signature\s+check|csrf|grants?\s+(?:\S+\s+){0,3}access|to\s+(?:whoever|anyone)\s+(?:posts|calls|asks|has)|"
    # card data and transport security: PCI, a PAN or CVV, certificate verification switched off
    r"compliance|legal\s+(?:retention|hold)|wipes?\s+(?:\w+\s+){0,2}(?:history|time\s+travel|backups?|snapshots?)|restore\s+path|"
    r"pci(?:-dss)?|cvv|cvc|pans?|card\s+(?:data|numbers?)|cardholders?|insecure\w*|(?:tls|certificate)\s+verif\w*|"
    r"pii|gdpr|hipaa|(?:data\s+)?privacy\s+(?:act|law)|data\s+protection\s+(?:act|law)|appi|popia|kvkk|lgpd|pipeda|phipa|personal\s+data|data\s+pribadi|datos\s+personales|dados\s+pessoais|donn(?:é|e)es\s+personnelles|personenbezogene\s+daten|"
    # the production of a game or an app, as its people say it: "it went straight into the real game", "the LIVE title"
    r"live\s+(?:game|title|site|app|env(?:ironment)?|servers?|players)|real\s+(?:game|players|users|customers|accounts?)|"
    # personal data named by what it is: "customer emails and postcodes in git"
    r"(?:customer|user|patient|member|student|learner|driver)s?'?\s+(?:data|emails?|e-mails?|addresses|names|records|details)|"
    r"email\s+addresses|postcodes?|zip\s+codes|phone\s+numbers|dates?\s+of\s+birth|"
    # a secret that got out, or content made public: "I'll rotate this one now", "anyone with the URL could watch them"
    r"rotat(?:e|ed|ing)|(?:access|api|auth|bearer|deploy)\s+(?:tokens?|keys?)|private\s+keys?|public-read|"
    r"anyone\s+with\s+the\s+(?:url|link)|squatt?\w*|typo-?squat\w*|dependency\s+confusion|"
    # held-out 23-26: destroyed data by what it is, a person's own credential, open access, release notes, state
    r"truncat\w*|wip(?:e|es|ed|ing)\s+(?:\w+\s+){0,3}(?:sectors?|flash|partitions?|disks?|calibrations?|eeprom|state)|"
    r"overwrit\w*\s+(?:\w+\s+){0,3}state|state\s+(?:rm|mv|push|surgery)|my\s+(?:[\w-]+\s+)?(?:tokens?|api\s+keys?|passwords?)|"
    r"anyone\s+with\s+(?:\w+\s+){1,2}(?:can|could)|"
    # held-out 27-30: shipping, a key to roll, overwritten results, patient-linked and identifiable data, an open write
    r"shipping\s+(?:that|this|it)|(?:roll|revoke)\s+(?:that|the|this|those)\s+(?:\w+\s+)?(?:keys?|tokens?|secrets?|credentials?)|"
    r"overwrit\w*\s+(?:[\w'’]+\s+){0,3}(?:data|results?|outputs?|matri(?:x|ces)|counts|history|reports?)|"
    r"patient-linked|patient\s+ids?|identifiable|phone\s+number|unauthenticated|(?:sas|root|master|signing)\s+keys?|"
    # French and Portuguese privacy and loss: "ma clé privée", "drop ma base", "deviennent publics", "LGPD", "RGPD"
    r"cl(?:é|e)s?\s+priv(?:é|e)es?|drop\w*\s+(?:ma|la|notre|toute\s+la)\s+base|deviennent\s+publi\w*|lgpd|rgpd|"
    # held-out 35-38: a live key printed into the conversation, access checks, a pen test, pinning, PSD2 consent,
    # national ids, plaintext, SQL built by concatenation, an admin role, an apply from a laptop
    r"(?:live|prod\w*)\s+(?:[\w-]+\s+)?keys?|into\s+(?:this|the)\s+(?:conversation|transcript|chat)|check\w*\s+permissions?|permission\s+checks?|access\s+control|pen\s*test\w*|"
    r"(?:certificate\s+)?pinning|psd2|national\s+ids?|plain\s*text|concatenat\w*|sql\s+injection|bound\s+parameters|accountadmin|"
    r"apply\s+from\s+(?:(?:a|my|your|the)\s+)?laptop|"
    # held-out 39-42: Spanish exposure and loss, shell history, a bricked unit, one tenant seeing another's data
    r"p[úu]blic[oa]s?\s+en\s+internet|truncan?|historial\s+de\s+cualquiera|shell\s+history|brick\w*|device\s+keys?|"
    r"can\s+see\s+(?:every|all|each)\s+other|(?:locations?|coordinates)\s+(?:are|is)\s+private|"
    r"(?:visitor|user|customer|client)s?(?:'s|s')?\s+ips?|ip\s+address\w*|client\s+bundle|"
    # held-out 47-50: anyone reaching what is not theirs, the live site, injection and escaping, a whole index deleted
    r"(?:anyone|anybody|any\s+(?:[\w-]+\s+){0,2}?(?:user|customer|parent|client|member|tenant|one|person)|cualquiera|qualquer)"
    r"(?:\s+[\w'-]+){0,5}?\s+(?:can|could|puede|pode)\s+(?:\w+\s+){0,2}?(?:read|see|view|access|delete|change|edit|fetch|download|"
    r"create|cancel|crear|cancelar|ver|leer|trocar|mudar|ler|apagar)|"
    r"(?:on|to|in|into|pro|no|na)\s+(?:the\s+)?live(?!\s+(?:reload|preview|region|updates?|mode|data|server\s+in\s+dev)\b)|"
    r"xss|cross-site|sanitiz\w*|escap\w+\s+(?:the\s+)?(?:output|html)|(?:output|html)\s+escap\w*|nonces?|"
    r"delet\w*\s+(?:the\s+)?(?:whole|entire)\s+\w+|"
    # held-out 95-98: identity documents and financial ids in logs or fixtures, a secret scanner skipped, another
    # customer's records
    r"passports?|kyc\s+(?:documents?|data|files?|records?|scans?)|tax\s+ids?|bank\s+(?:account\s+)?numbers?|gitleaks|trufflehog|"
    r"secret\s+scann\w*|someone\s+else'?s\s+(?:data|accounts?|tenanc\w*|orders?|records?|files?|payments?|invoices?|money|"
    r"profiles?|bookings?|messages?)|"
    # held-out 55-62: a force push by its safe flag's name or in French, credentials by their short name, a secret
    # shown in plain text in French, an internal service put on the public load balancer
    r"force-with-lease|r[ée]{1,2}cri\w*\s+(?:\w+\s+){0,3}historique|creds|en\s+clair|public\s+(?:lb|load\s*balancer|ingress))\b",
    re.I,
)
# Japanese and Chinese, which have no word boundaries.  Japanese: production (本番), a private key, a password, a token,
# credentials, personal information, a leak, a migration, a release, a deploy, account, My Number, card numbers and PINs.
CJK_IMPACT = lazy(r"本番|秘密鍵|パスワード|トークン|認証情報|個人情報|漏洩|漏えい|マイグレーション|リリース|デプロイ|口座番号|マイナンバー|カード番号|暗証番号|"
                       # Chinese: production, online, release, go live, migration, keys, passwords, tokens, credentials,
                       # leaks, personal data, ID and phone numbers, bank cards, dropping a database, data loss, rollback
                       r"生产|生產|线上|線上|正式环境|正式環境|发布|發布|上线|上線|发版|發版|迁移|遷移|私钥|私鑰|密钥|金鑰|密码|密碼|令牌|凭证|憑證|"
                       r"泄露|洩露|外泄|个人信息|個人資料|个资|個資|身份证|身分證|身份證|手机号|手機號|银行卡|銀行卡|删库|刪庫|删表|刪表|删数据|刪資料|谁让你删|誰讓你刪|丢数据|資料遺失|回滚|回滾|"
                       # Korean: production, deploy, release, migration, passwords, tokens, personal data, resident registration
                       # numbers, leaks, lost events, deletion, the regulator's audit
                       r"운영|프로덕션|배포|릴리스|릴리즈|마이그레이션|비밀번호|패스워드|토큰|시크릿|개인정보|주민번호|주민등록번호|유출|유실|삭제|감사")
# A file under a database migrations folder: a correction of that edit is about a migration.
MIGRATION_PATH = lazy(r"(?:^|[/\\])(?:migrations?|alembic[/\\]versions|db[/\\]migrate|migrate)[/\\]", re.I)
CAMEL_HUMP = lazy(r"(?<=[a-z0-9])(?=[A-Z])")
WARNING_WORDS = lazy(r"\b(risk\w*|danger\w*|careful|caution|beware|break\w*|corrupt\w*|lose|lost|destroy\w*|irreversible)\b", re.I)
REQUIREMENT_WORDS = lazy(r"\b((?<!not\sa\s)must|never|required|mandatory|always have to|has to|have to|not allowed)\b", re.I)
PATTERN_WORDS = lazy(r"\b(when|whenever|always|before|after|every time|each time)\b", re.I)
ALWAYS = lazy(r"\balways\b", re.I)
SUGGESTION_WORDS = lazy(r"\b(consider|maybe|might(?!\s+be\s+wrong)|could(?!\s+not\b|n'?t|\s+you\s+(?:redo|undo|revert|fix|change|move|put|use)\b)|perhaps|prefer|nice to|try to|(?:just|only)\s+an\s+idea|nicer\s+than|not\s+a\s+must|(?:would|'d|itd)\s+be\s+nicer|take\s+it\s+or\s+leave\s+it|would\s+hold\s+up\s+better)\b|\bsuggestion\s*:" + r"|かもしれません|方がいい|ほうがいい|것\s*같아요|면\s*좋겠|게\s*좋을|어떨까요|\b(?:siguro|mas\s+maganda|optional\s+lang|ikaw\s+(?:na\s+)?bahala)\b"
                      r"|可能会|可能會|建议|建議|可以考虑|可以考慮|不妨|或许|或許|你看着办|你看著辦", re.I)
# A suggestion that says it can wait is a nicety even when it names a deploy or a release.
NOT_URGENT = lazy(r"\b(?:not\s+blocking|non-?blocking|not\s+urgent|no\s+rush|if\s+you\s+have\s+(?:the\s+)?time|"
                  r"when\s+you\s+get\s+a\s+chance|low\s+priority)\b", re.I)
STEP_SPLIT = lazy(r"(?:^|\n)\s*(?:\d+[.)]|[-*•])\s+|;\s+|\bthen\b|,\s*and\s+(?=[a-z])", re.I)
WORD = lazy(r"_*[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9_]|[A-Za-z]")
FILE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
MAX_FILE_PATTERNS = 3  # a lesson's file patterns: the files of the corrected turn, then those it names
FILE_KEYS = ("file_path", "notebook_path", "path")


def key_terms(text, limit=6):
    """Distinct content words of ``text`` (lower case, stopwords and short words dropped), in order."""
    seen = []
    for word in WORD.findall(text or ""):
        low = word.lower().strip(".-")
        if len(low) < 3 or low in STOPWORDS or low.isdigit() or low in seen:
            continue
        seen.append(low)
        if len(seen) >= limit:
            break
    return seen


def infer_priority(kind, text, task="", paths=(), calls=()):
    """CRITICAL for a correction with production impact, HIGH for corrections and lessons, MEDIUM for suggestions.

    A correction's impact is judged on the correction (identifiers split at
    their humps: ``fallbackToDestructiveMigration`` names a migration), on
    the task it corrects (the prompt that started the turn): "you forgot
    marketplace.json" after "bump the version" is a release mistake, and on
    the files the corrected turn changed (``paths``): one in a migrations
    folder makes it a migration mistake, unless the correction names
    another file of that turn ("after you touch schema.prisma, first npx
    prisma generate" is about the schema, not the migration written with it).
    A hump that names a helper (``withRollback``, ``backupDir``) is no impact, nor a method called
    (``defer tx.Rollback(ctx)``).  A suggestion that says it can wait ("might be nicer in config so ops can tune it
    without a deploy. Not blocking though.") is MEDIUM whatever it names.
    """
    if kind == "user_correction":
        nicety = SUGGESTION_WORDS.search(text) and not REQUIREMENT_WORDS.search(text) and not ALWAYS.search(text)
        if nicety and NOT_URGENT.search(text):
            return "MEDIUM"  # "might be nicer in config so ops can tune it without a deploy. Not blocking though."
        if _impact_in(text):
            return "CRITICAL"
        # "could you please always check …" asks for a rule, not a nicety
        if nicety:
            return "MEDIUM"  # a nicety, whatever the task: "might be nicer in its own lifecycle.tf" during a prod change
        impact = TASK_IMPACT.search(task or "") or any(MIGRATION_PATH.search(p) for p in paths) and not _names_other_file(text, paths)
        return "CRITICAL" if impact or calls and calls_have_impact(calls) else "HIGH"
    if SUGGESTION_WORDS.search(text) and not REQUIREMENT_WORDS.search(text):
        return "MEDIUM"
    return "HIGH"


def _impact_in(text):
    """True when ``text`` names production impact (:data:`PRODUCTION_TERMS`, also in identifiers' humps)."""
    if "." in text:
        text = FILE_MENTION.sub(" ", text)  # "see backup-verify.nomad.hcl" names a file, not a backup
    if "(" in text:
        text = METHOD_CALL.sub(" ", text)  # "defer tx.Rollback(ctx)": code that is called, not a rollback
    if "'" in text or '"' in text:
        text = QUOTED.sub(" ", text)  # "xcode shows 'Publishing changes from background threads…'": a quoted message
    split = CAMEL_HUMP.sub(" ", text) if CAMEL_HUMP.search(text) else text
    if "_" in split and SECRET_IDENTIFIER.search(split):
        return True  # STRIPE_SECRET_KEY, aws_secret_access_key: a secret by its name
    if not text.isascii() and CJK_IMPACT.search(text):
        return True
    for match in PRODUCTION_TERMS.finditer(split):
        word = match.group(0).lower()
        if split is not text and word in HELPER_HUMPS and not PRODUCTION_TERMS.search(text):
            continue
        if word.lstrip("_").startswith("version") and not RELEASED_VERSION.search(text):
            continue  # "strip id and version out of that json": a field, not a release
        return True
    return False


# "version" is a release matter when the text says which: bumped, tagged, published, a number, the app's or chart's.
SECRET_IDENTIFIER = lazy(r"[A-Za-z0-9]_(?:secret|private)(?:_|\b)", re.I)
RELEASED_VERSION = lazy(r"\b(?:bump\w*|semver|releas\w*|ota|tag\w*|publish\w*|upload\w*|store|app\s+versions?|chart|higher|lower)\b|"
                        r"versionCode|__version__|\d+\.\d+", re.I)


# What a task does that makes a correction of it a production matter ("bump the version", "deploy the api"); a
# task that only mentions a secret, a backup or prod ("token from my .env in case you need it") does not.
TASK_IMPACT = lazy(r"\b(?:deploy\w*|releas\w*|version\w*|publish\w*(?!\s+(?:an?|the)\s+(?:[\w.-]+\s+){0,2}(?:events?|messages?)\b)|migrat\w*|roll\s?outs?|roll(?:ing)?\s+(?:it|them)\s+out|"
                   r"force[- ]push\w*|drop\s+table|data\s+loss|prod|production)\b", re.I)
METHOD_CALL = lazy(r"\b[A-Za-z_][\w]*\.[A-Za-z_]\w*\([^()\n]{0,80}\)")
QUOTED = lazy(r"(?<![\w'])'[^'\n]{3,200}'(?![\w'])|\"[^\"\n]{3,200}\"")
HELPER_HUMPS = frozenset(("rollback", "backup", "backups"))


def _names_other_file(text, paths):
    """True when ``text`` names a file of ``paths`` that is not in a migrations folder."""
    low = (text or "").lower()
    for path in paths:
        name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
        if name and not MIGRATION_PATH.search(path) and name in low:
            return True
    return False


def split_steps(text):
    """The steps of a lesson: numbered or bulleted lines, ``;``-separated parts, ``then`` sequences."""
    parts = [" ".join(p.split()).strip(" .,;:") for p in STEP_SPLIT.split(text or "")]
    return [p[:1].upper() + p[1:] for p in parts if len(p) > 2]


def infer_process_type(text):
    """warning > requirement > checklist (several steps) > pattern > checklist (a single step)."""
    if WARNING_WORDS.search(text):
        return "warning"
    if REQUIREMENT_WORDS.search(text):
        return "requirement"
    if len(split_steps(text)) >= 2:
        return "checklist"
    if PATTERN_WORDS.search(text):
        return "pattern"
    return "checklist"


def path_to_glob(path):
    """``/abs/path/.claude-plugin/plugin.json`` → ``**/plugin.json`` (the basename at any depth)."""
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if not name or name in (".", ".."):
        return None
    escaped = "".join("\\" + c if c in "*?[]!#" else c for c in name)
    return "**/" + escaped


def triggers_from_tools(tool_calls, terms):
    """Trigger conditions from the tool calls before a lesson and its key terms."""
    tools, files, read = [], [], []
    for name, tool_input in tool_calls:
        if name not in tools and name not in ("Read", "Grep", "Glob", "LS", "TodoWrite"):  # an MCP tool too: its name is its trigger
            tools.append(name)
        if name == "Read" and isinstance(tool_input.get("file_path"), str):
            read.append(path_to_glob(tool_input["file_path"]))
        if name in FILE_TOOLS:
            for key in FILE_KEYS:
                value = tool_input.get(key)
                if isinstance(value, str) and value:
                    glob = path_to_glob(value)
                    if glob and glob not in files:
                        files.append(glob)
    if "Edit" in tools and "MultiEdit" not in tools and files:
        tools.append("MultiEdit")
    if not tools and not files:
        # a turn that only read: "you did not need to open the private signing key" is about that file, and reaches
        # the next command or edit that names it (Read itself never gets knowledge)
        files = [g for g in dict.fromkeys(read) if g]
    return {
        "tool_names": tools[:4],
        "file_patterns": files[:MAX_FILE_PATTERNS],
        "action_keywords": terms[:3],
        "context_keywords": terms[:3],
    }


# Command-line tools whose name and subcommand make a good action keyword ("git add", "terraform state").
CLI_NAMES = (
    "git|npm|pnpm|yarn|npx|pip|pip3|uv|poetry|pytest|cargo|go|make|docker|kubectl|helm|terraform|tofu|aws|gcloud|az|gh|"
    "alembic|rails|rake|flutter|fastlane|twine|psql|mysql|buf|protoc|mvn|gradle|gradlew|dotnet|deno|bun|brew|"
    "ansible|argocd|flyctl|heroku|vercel|wrangler|dbt|airflow|prisma|composer|rustup|xcodebuild|kustomize|skaffold|"
    "ruff|mypy|eslint|prettier|jest|vitest|rubocop|rspec|mkdocs|tox|nox|hatch|pdm|conda|sbt|cmake|bazel|nx|"
    "pulumi|cdk|minikube|bin/rails|bin/rake"
)
# A folder named as one: "legacy/", "web/src/views", "tests/fixtures/v2" (not "and/or", "ci/cd", a URL).
DIR_MENTION = lazy(r"(?<![\w/.:@-])((?:[\w.-]{2,}/)+(?:[\w-]{2,}(?![\w./-]))?)(?![\w/.-])")
NOT_FOLDERS = frozenset(("and/or", "ci/cd", "i/o", "tcp/ip", "n/a", "w/o", "read/write", "input/output", "client/server"))
# English words after a command name that make it English ("make sure", "go ahead"), not a subcommand.
NOT_SUBCOMMANDS = frozenset(
    "the a an to of sure ahead back it its and or is are in on for with that this these those through over into all any "
    "some my your our their what when where how".split()
)
PRODUCT_JS = frozenset(("node", "next", "nuxt", "vue", "react", "express", "three", "d3", "chart", "ember", "backbone", "nest"))
COMMAND_MENTION = lazy(r"(?<![\w./-])(?:\./)?(" + CLI_NAMES + r")\s+(-{0,2}[a-z][\w:-]*)", re.I)
FILE_MENTION = lazy(
    r"(?<![\w/.-])((?:[\w.-]+/)*(?:[\w-][\w.-]*\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|rb|java|kt|kts|swift|md|json|ya?ml|"
    r"toml|lock|sql|proto|tf|tfvars|sh|cfg|ini|html|css|scss|vue|svelte|dart|gradle|xml|mod|sum|arb|erb|rake|gemspec|hcl|conf|"
    r"j2|tpl|php|cs|csproj|ps1|ipynb|c|h|cpp|hpp|lua|ex|exs|scala|service|timer)|"
    r"\.env|\.npmrc|\.gitignore|Dockerfile|Makefile|Gemfile|Procfile|Justfile))(?![\w/-])"
)


def triggers_from_text(text, terms):
    """Trigger conditions for a lesson made without tool calls, from the files and commands it names.

    A lesson stated at the start of a turn or in a conversation has no tool
    calls to take its triggers from; left with keywords alone it could never
    be injected (forewarn.reach).  A file it names (``docs/api.md``, ``.env``)
    makes it an edit lesson for that file (``**/api.md``; Write, Edit,
    MultiEdit), a folder it names (``legacy/``, ``tests/fixtures/v2``) one
    for what is under it (``legacy/**``); a command it names (``terraform state rm``) a Bash lesson
    with that command's first two words as an action keyword.  Neither:
    keywords only, as before.
    """
    files, actions = [], []
    for match in FILE_MENTION.finditer(text or ""):
        name = match.group(1)
        if "/" not in name and name.lower().endswith(".js") and (name[:1].isupper() or name[:-3].lower() in PRODUCT_JS):
            continue  # "Node.js", "Next.js": products, not files
        glob = path_to_glob(name)
        if glob and glob not in files:
            files.append(glob)
    for match in DIR_MENTION.finditer(text or ""):
        folder = match.group(1).rstrip("/")
        if (folder.lower() in NOT_FOLDERS or "." in folder.rsplit("/", 1)[-1] or folder.startswith(("http", "www."))
                or COMMAND_MENTION.match(text, match.start())):
            continue  # "bin/rails assets:precompile" is a command
        glob = folder + "/**"
        if not any(f.startswith(glob[:-2]) or glob.startswith(f[:-2]) for f in files if f.endswith("/**")):
            files.append(glob)
    for match in COMMAND_MENTION.finditer(text or ""):
        sub = match.group(2).lower()
        if sub.startswith("-") or sub in NOT_SUBCOMMANDS:
            continue
        keyword = "%s %s" % (match.group(1).lower(), sub)
        if keyword not in actions:
            actions.append(keyword)
    tools = (["Write", "Edit", "MultiEdit"] if files else []) + (["Bash"] if actions else [])
    return {
        "tool_names": tools,
        "file_patterns": files[:MAX_FILE_PATTERNS],
        "action_keywords": (actions + [t for t in terms if t not in " ".join(actions).split()])[:3],
        "context_keywords": terms[:3],
    }


INTERJECTION = lazy(
    r"^(?:(?:hm+|ugh|ok(?:ay)?|oh|well|so|right|sigh|pls|please|yeah|yes|wait|stop|whoa|woah|hold\s+on|hang\s+on|omg|ouch|oops|"
    r"argh|yikes|damn|lol|bruh|ah)\b[,.!]*\s+)+",
    re.I,
)
CORRECTION_LEAD = lazy(
    r"^.{0,30}?(?:\bbut\s+)?"
    r"(?:(?:you|u)(?:'ve|\s+have)?\s+(?P<verb>forgot(?:ten)?|missed|skipped|overlooked|keep)(?P<to>\s+to)?|"
    r"(?:you|u)\s+(?:didn'?t|did not|never|also need(?:ed)?|need)(?:\s+to)?|"
    r"don'?t forget(?:\s+to)?|make sure(?:\s+(?:you|to))*|i told you(?:\s+to)?|that'?s (?:wrong|incorrect)[,.:;!]?)\s*|"
    # a lesson's marker leads only where it opens the text: "maybe do a --dry_run first next time to see …" keeps its verb
    r"^(?:\W*\w+[,.!]?\s+){0,2}?(?:remember(?:\s+to|\s+that|\s+(?:it|this)\s*:)?|"
    r"lessons? learned:?|note (?:for|to) (?:the )?(?:future|self):?|important:?|going forward,?|from (?:now|here) on(?: out)?,?|"
    r"in (?:the )?future,?|next time,?|actually,?|no(?:pe)?\s*[,.!:;\u2014\u2013-]+)\s*|"
    # "Standing rule for this repo, since it keeps coming up: …", "rule for this repo, please remember it: …"
    r"^[^:]{0,40}\b(?:rule|lesson|note|takeaway|reminder)\b[^:.!?]{0,60}:\s*",
    re.I,
)
# "you forgot the X" names what was left out: the label says what to do about it.
NOUN_LEAD = {"forgot": "Don't forget ", "forgotten": "Don't forget ", "missed": "Don't miss ", "overlooked": "Don't miss ",
             "skipped": "Don't skip ", "keep": "Stop "}


def label_from(text, limit=80):
    """A short readable label: the lesson with its lead-in removed, first clause, capitalised.

    "You forgot to update X" → "Update X"; "you forgot the X" → "Don't
    forget the X"; "you keep hardcoding X" → "Stop hardcoding X".
    """
    flat = INTERJECTION.sub("", " ".join((text or "").split()))
    match = CORRECTION_LEAD.match(flat)
    prefix = ""
    if match and match.end() < len(flat):
        verb = (match.group("verb") or "").lower()
        if verb and not match.group("to"):
            prefix = NOUN_LEAD.get(verb, "")
        core = flat[match.end():]
    else:
        core = flat
    core = INTERJECTION.sub("", core.strip(" .!:;,-")).split(". ")[0]
    if prefix:
        core = prefix + core
    if len(core) > limit:
        core = core[: limit - 1].rsplit(" ", 1)[0] + "…"
    return (core[:1].upper() + core[1:]) or "Lesson"


def content_block(process_type, text, situation=""):
    """The content block for ``process_type`` from the lesson text."""
    clean = " ".join((text or "").split())
    if process_type == "checklist":
        steps = split_steps(text)
        steps = [label_from(steps[0])] + steps[1:] if len(steps) > 1 else [label_from(text)]
        return {"title": label_from(text), "items": steps[:10], "format": "markdown"}
    if process_type == "warning":
        return {"risk": clean, "severity": "high", "mitigation": label_from(text)}
    if process_type == "requirement":
        return {"constraint": clean}
    return {"situation": situation or "", "action": clean}


def lesson_id(kind, text):
    """A stable id for the same lesson text: ``<kind>-<10 hex digits>``."""
    norm = " ".join(key_terms(text, limit=40)) or " ".join((text or "").lower().split())
    prefix = {"process_knowledge": "pk", "user_correction": "correction", "lesson_statement": "lesson"}.get(kind, kind)
    import hashlib  # 2-3 ms to import: only a Stop that drafts a lesson pays it

    return "%s-%s" % (prefix, hashlib.sha1(norm.encode("utf-8")).hexdigest()[:10])
