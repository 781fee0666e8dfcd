"""The labelled relevance corpus: 34 knowledge nodes of a web-shop project and 160 tool calls.

Labels say which nodes a careful engineer would want to see before that call,
decided from the call and the node's meaning — written before the scorer was
run on them, and not changed to fit it.  ``ROOT`` is a fake project root; calls
use absolute, ``./``-relative, Windows-style and outside-the-project paths.
"""

ROOT = "/home/dev/shop"


def node(node_id, priority, ptype, label, tools=(), files=(), actions=(), context=(), status="active", text=None):
    block = {
        "checklist": {"title": label, "items": [text or label]},
        "pattern": {"situation": label, "action": text or label},
        "warning": {"risk": text or label, "mitigation": "Stop and check first."},
        "requirement": {"constraint": text or label},
    }[ptype]
    return {
        "id": node_id, "type": "Concept", "label": label, "process_type": ptype, "priority": priority, "status": status,
        "trigger_conditions": {"tool_names": list(tools), "file_patterns": list(files), "action_keywords": list(actions), "context_keywords": list(context)},
        ptype: block,
    }


WE = ("Write", "Edit")
NODES = [
    node("ck-version-bump", "CRITICAL", "checklist", "Version bump: marketplace.json and CHANGELOG.md change too", WE, ["**/.claude-plugin/plugin.json", "pyproject.toml"], ["version", "release"], ["release"]),
    node("req-alembic-migration", "CRITICAL", "requirement", "Every model change ships with an alembic migration", WE, ["app/models/**/*.py"], ["column", "relationship"]),
    node("warn-force-push", "CRITICAL", "warning", "Never force-push shared branches", ["Bash"], [], ["push --force", "push -f", "push --force-with-lease"]),
    node("ck-npm-publish", "CRITICAL", "checklist", "npm publish: build, test, bump, tag, then publish", ["Bash"], [], ["npm publish", "pnpm publish"]),
    node("warn-prod-db", "CRITICAL", "warning", "Commands against the production database need a backup first", ["Bash"], [], ["prod-db", "production"], ["production database"]),
    node("req-no-secrets", "CRITICAL", "requirement", "Secrets never go into tracked files", WE, [".env", ".env.*", "**/*.pem", "**/secrets/**"]),
    node("pat-async-tests", "MEDIUM", "pattern", "In async tests wait on a condition, never sleep", WE, ["tests/**/*.py"], ["sleep", "asyncio"]),
    node("ck-api-endpoint", "HIGH", "checklist", "API endpoint changes: auth dependency, tests, OpenAPI tags", WE, ["app/api/**/*.py"], ["router", "endpoint"]),
    node("warn-terraform-apply", "CRITICAL", "warning", "terraform apply/destroy only after a reviewed plan", ["Bash"], [], ["terraform apply", "terraform destroy"]),
    node("req-tf-fmt-plan", "HIGH", "requirement", "Terraform edits: run terraform fmt and plan", WE, ["infra/**/*.tf"]),
    node("ck-dockerfile", "HIGH", "checklist", "Dockerfile: pinned base digest, non-root user, no secrets in layers", WE, ["**/Dockerfile", "docker-compose*.yml"]),
    node("pat-react-effects", "MEDIUM", "pattern", "useEffect needs a dependency list and cleanup", WE, ["web/src/**/*.tsx"], ["useEffect"]),
    node("req-i18n-strings", "HIGH", "requirement", "User-visible strings in components go through t()", WE, ["web/src/components/**/*.tsx"]),
    node("ck-lockfile", "HIGH", "checklist", "Dependency change: regenerate requirements.lock with pip-compile", WE, ["requirements*.in", "requirements.txt"]),
    node("pat-changelog-format", "MEDIUM", "pattern", "CHANGELOG entries follow keep-a-changelog sections", WE, ["CHANGELOG.md"]),
    node("pat-raw-sql", "HIGH", "pattern", "Raw SQL only through text() with bound parameters", WE, ["app/db/**/*.py", "app/repositories/**/*.py"], ["execute", "raw sql"]),
    node("warn-rm-rf", "CRITICAL", "warning", "rm -rf on data or export folders destroys the only copy", ["Bash"], [], ["rm -rf", "rm -r"]),
    node("ck-release-tag", "HIGH", "checklist", "Release tags: changelog committed first, annotated tag, push tag", ["Bash"], [], ["git tag", "gh release"]),
    node("ck-pr-description", "HIGH", "checklist", "Pull requests link the issue and carry a test plan", ["mcp__github__*"], [], ["pull request", "pull"]),
    node("pat-typing", "LOW", "pattern", "New Python functions carry type hints", WE, ["**/*.py"]),
    node("ck-k8s-manifest", "HIGH", "checklist", "Kubernetes manifests: resource limits and readiness probes", WE, ["deploy/k8s/**/*.yaml"]),
    node("warn-kubectl-prod", "CRITICAL", "warning", "kubectl changes against production need the change ticket", ["Bash"], [], ["kubectl apply", "kubectl delete", "kubectl rollout"], ["production"]),
    node("req-generated-client", "HIGH", "requirement", "The generated API client is never edited by hand: run make api-client", WE, ["web/src/api/generated/**"]),
    node("warn-catalog-cache", "HIGH", "warning", "Catalog writes must invalidate the product cache", WE, ["app/services/catalog*.py"], ["cache", "update"]),
    node("pat-css-tokens", "MEDIUM", "pattern", "Use design tokens, not raw colours, in stylesheets", WE, ["web/src/**/*.css"]),
    node("req-no-print", "HIGH", "requirement", "Use the logger, not print(), in application code", WE, [], ["print"]),
    node("ck-git-commit", "MEDIUM", "checklist", "Commits: run pre-commit and reference the issue", ["Bash"], [], ["git commit"]),
    node("warn-global-pip", "HIGH", "warning", "pip install outside the virtualenv pollutes the system Python", ["Bash"], [], ["sudo pip", "pip install --user", "pip install"]),
    node("pat-alembic-downgrade", "HIGH", "pattern", "Every migration has a working downgrade()", WE, ["migrations/versions/*.py"]),
    node("req-notebook-outputs", "MEDIUM", "requirement", "Notebooks are committed with outputs cleared", ["NotebookEdit", "Write"], ["**/*.ipynb"]),
    node("pat-subagent-brief", "HIGH", "pattern", "Subagents get the file list and acceptance criteria", ["Task", "Agent"], [], ["review", "audit", "refactor"]),
    node("warn-payment-webhooks", "CRITICAL", "warning", "Payment webhook handlers must verify the signature", WE, ["app/payments/**"], ["webhook"]),
    node("draft-version-bump", "CRITICAL", "checklist", "(draft) Version bump also updates the docs badge", WE, ["**/.claude-plugin/plugin.json"], status="draft"),
    node("archived-docker-latest", "HIGH", "warning", "(archived) Avoid the :latest tag", WE, ["**/Dockerfile"], status="archived"),
]


def at(rel):
    return ROOT + "/" + rel


def W(rel, content="", relevant=(), path=None, cwd=None):
    return {"tool": "Write", "input": {"file_path": path or at(rel), "content": content}, "relevant": list(relevant), "cwd": cwd}


def E(rel, new="", old="x", relevant=(), path=None, cwd=None, tool="Edit"):
    return {"tool": tool, "input": {"file_path": path or at(rel), "old_string": old, "new_string": new}, "relevant": list(relevant), "cwd": cwd}


def B(command, relevant=(), description="", context=None):
    return {"tool": "Bash", "input": {"command": command, "description": description}, "relevant": list(relevant), "context": context}


def T(tool, tool_input, relevant=(), context=None):
    return {"tool": tool, "input": tool_input, "relevant": list(relevant), "context": context}


CALLS = [
    # --- the plugin manifest and pyproject (version bump)
    W(".claude-plugin/plugin.json", '{"name": "shop-tools", "version": "1.4.0"}', ["ck-version-bump"]),
    E(".claude-plugin/plugin.json", '"version": "1.4.1"', relevant=["ck-version-bump"]),
    E(".claude-plugin/plugin.json", '"description": "Shop tools"', relevant=[]),
    E("pyproject.toml", 'version = "2.0.0"', relevant=["ck-version-bump"]),
    E("pyproject.toml", 'dependencies = ["fastapi>=0.110"]', relevant=[]),
    W("README.md", "# Shop\nRelease 1.4.0 is out.", relevant=[]),
    E("README.md", "Install with pip", relevant=[]),
    W("docs/release.md", "How we release a new version", relevant=[]),
    E(".claude-plugin/marketplace.json", '"version": "1.4.0"', relevant=[]),
    E("plugin.json", '"version": "3"', relevant=[]),
    T("MultiEdit", {"file_path": at(".claude-plugin/plugin.json"), "edits": [{"old_string": "1.3.0", "new_string": "1.4.0"}]}, ["ck-version-bump"]),
    E("x", '"version": "9.9.9"', path="C:\\Users\\dev\\shop\\.claude-plugin\\plugin.json", relevant=["ck-version-bump"], cwd="C:\\Users\\dev\\shop"),
    W("x", '{"version": "1.0"}', path="./.claude-plugin/plugin.json", cwd=ROOT, relevant=["ck-version-bump"]),
    W("x", '{"version": "0.1.0"}', path="/tmp/scratch/.claude-plugin/plugin.json", relevant=["ck-version-bump"]),
    # --- models and migrations
    E("app/models/order.py", "discount = Column(Numeric)", relevant=["req-alembic-migration"]),
    E("app/models/user.py", "orders = relationship('Order')", relevant=["req-alembic-migration"]),
    W("app/models/__init__.py", "from .order import Order", relevant=[]),
    E("app/models/order.py", "# TODO: document", relevant=[]),
    W("migrations/versions/20261120_add_discount.py", "def upgrade():\n    op.add_column('orders', sa.Column('discount'))\ndef downgrade():\n    op.drop_column('orders', 'discount')", relevant=["pat-alembic-downgrade"]),
    E("migrations/versions/20261101_init.py", "def downgrade():\n    pass", relevant=["pat-alembic-downgrade"]),
    E("migrations/env.py", "target_metadata = Base.metadata", relevant=[]),
    E("app/schemas/order.py", "discount: Decimal", relevant=[]),
    # --- secrets
    W(".env", "DATABASE_URL=postgres://localhost/shop", relevant=["req-no-secrets"]),
    E(".env.production", "STRIPE_KEY=...", relevant=["req-no-secrets"]),
    W("deploy/certs/server.pem", "-----BEGIN CERTIFICATE-----", relevant=["req-no-secrets"]),
    W("config/secrets/stripe.json", '{"key": "..."}', relevant=["req-no-secrets"]),
    W(".env.example", "DATABASE_URL=", relevant=["req-no-secrets"]),
    E("app/settings.py", "DATABASE_URL = os.environ['DATABASE_URL']", relevant=[]),
    # --- tests
    W("tests/test_cart.py", "async def test_cart():\n    await asyncio.sleep(1)", relevant=["pat-async-tests"]),
    E("tests/api/test_orders.py", "assert resp.status_code == 201", relevant=[]),
    E("tests/conftest.py", "@pytest.fixture\ndef client():", relevant=[]),
    W("web/src/components/Cart.test.tsx", "it('renders', () => {})", relevant=[]),
    # --- API
    E("app/api/orders.py", "@router.post('/orders')", relevant=["ck-api-endpoint"]),
    W("app/api/refunds.py", "router = APIRouter()\n@router.post('/refunds')", relevant=["ck-api-endpoint"]),
    E("app/api/deps.py", "def get_db():", relevant=["ck-api-endpoint"]),
    E("app/main.py", "app.include_router(orders.router)", relevant=[]),
    # --- terraform
    B("terraform apply -auto-approve", ["warn-terraform-apply"]),
    B("cd infra && terraform destroy -target=aws_s3_bucket.exports", ["warn-terraform-apply"]),
    B("terraform plan -out=tfplan", []),
    B("terraform fmt -recursive infra", []),
    E("infra/main.tf", 'resource "aws_s3_bucket" "exports" {}', relevant=["req-tf-fmt-plan"]),
    W("infra/modules/db/variables.tf", 'variable "size" {}', relevant=["req-tf-fmt-plan"]),
    E("infra/README.md", "Run terraform plan first", relevant=[]),
    # --- docker
    W("Dockerfile", "FROM python:3.12-slim", relevant=["ck-dockerfile"]),
    E("services/worker/Dockerfile", "USER app", relevant=["ck-dockerfile"]),
    E("docker-compose.yml", "image: postgres:16", relevant=["ck-dockerfile"]),
    E("docker-compose.override.yml", "ports: ['5432:5432']", relevant=["ck-dockerfile"]),
    E(".dockerignore", ".venv", relevant=[]),
    # --- web
    E("web/src/pages/Checkout.tsx", "useEffect(() => { load() }, [])", relevant=["pat-react-effects"]),
    W("web/src/components/ProductCard.tsx", "export function ProductCard() { return <div>Add to cart</div> }", relevant=["req-i18n-strings"]),
    E("web/src/components/Header.tsx", "<h1>{t('title')}</h1>", relevant=["req-i18n-strings"]),
    E("web/src/utils/format.ts", "export const money = (x) => x.toFixed(2)", relevant=[]),
    E("web/src/styles/theme.css", "color: #ff0000;", relevant=["pat-css-tokens"]),
    W("web/src/components/Button.module.css", ".btn { color: var(--accent) }", relevant=["pat-css-tokens"]),
    E("web/src/api/generated/orders.ts", "export type Order = {}", relevant=["req-generated-client"]),
    W("web/src/api/generated/index.ts", "export * from './orders'", relevant=["req-generated-client"]),
    E("web/src/api/client.ts", "baseURL: '/api'", relevant=[]),
    E("web/package.json", '"react": "^19.0.0"', relevant=[]),
    # --- dependencies
    E("requirements.in", "httpx>=0.27", relevant=["ck-lockfile"]),
    E("requirements-dev.in", "pytest-xdist", relevant=["ck-lockfile"]),
    E("requirements.txt", "httpx==0.27.0", relevant=["ck-lockfile"]),
    E("requirements.lock", "httpx==0.27.0 --hash=sha256:...", relevant=[]),
    # --- changelog
    E("CHANGELOG.md", "## [1.4.0]\n### Added\n- refunds", relevant=["pat-changelog-format"]),
    W("docs/CHANGELOG-old.md", "old notes", relevant=[]),
    # --- raw sql
    E("app/db/reports.py", "session.execute(text('select * from orders where id = :id'), {'id': i})", relevant=["pat-raw-sql"]),
    E("app/repositories/orders.py", "return session.get(Order, order_id)", relevant=[]),
    E("app/db/session.py", "engine = create_engine(url)", relevant=[]),
    # --- print
    E("app/services/mailer.py", "print('sending', to)", relevant=["req-no-print"]),
    W("scripts/seed.py", "print('seeded')", relevant=["req-no-print"]),
    E("app/services/mailer.py", "logger.info('sending %s', to)", relevant=[]),
    # --- catalog cache
    E("app/services/catalog.py", "def update_product(p):\n    db.save(p)", relevant=["warn-catalog-cache"]),
    E("app/services/catalog_search.py", "def search(q):", relevant=[]),
    E("app/services/pricing.py", "def update_price(p):", relevant=[]),
    # --- payments
    W("app/payments/webhooks.py", "@router.post('/stripe/webhook')\ndef hook(req):", relevant=["warn-payment-webhooks"]),
    E("app/payments/stripe_client.py", "stripe.api_version = '2024-06-20'", relevant=[]),
    E("app/payments/refunds.py", "def refund(order):", relevant=[]),
    # --- k8s
    E("deploy/k8s/web.yaml", "resources:\n  limits:\n    cpu: 500m", relevant=["ck-k8s-manifest"]),
    W("deploy/k8s/worker/deployment.yaml", "kind: Deployment", relevant=["ck-k8s-manifest"]),
    E("deploy/helm/values.yaml", "replicas: 3", relevant=[]),
    # --- notebooks
    T("NotebookEdit", {"notebook_path": at("analysis/sales.ipynb"), "new_source": "df.plot()"}, ["req-notebook-outputs"]),
    W("analysis/churn.ipynb", '{"cells": []}', relevant=["req-notebook-outputs"]),
    E("analysis/helpers.py", "def load():", relevant=[]),
    # --- Bash: git
    B("git push --force origin main", ["warn-force-push"]),
    B("git push -f", ["warn-force-push"]),
    B("git push --force-with-lease origin feature/cart", ["warn-force-push"]),
    B("git push origin feature/cart", []),
    B("git status --short", []),
    B("git log --oneline -5", []),
    B("git commit -m 'Add refunds'", ["ck-git-commit"]),
    B("git commit --amend --no-edit", ["ck-git-commit"]),
    B("git tag -a v1.4.0 -m 'v1.4.0' && git push origin v1.4.0", ["ck-release-tag"]),
    B("gh release create v1.4.0 --notes-file CHANGELOG.md", ["ck-release-tag"]),
    B("git diff HEAD~1", []),
    B("git checkout -b feature/refunds", []),
    # --- Bash: npm
    B("npm publish --access public", ["ck-npm-publish"]),
    B("pnpm publish --no-git-checks", ["ck-npm-publish"]),
    B("npm install", []),
    B("npm run build", []),
    B("npm test -- --watch=false", []),
    B("pnpm lint", []),
    # --- Bash: databases
    B("psql $PROD_DB_URL -c 'delete from carts where created_at < now() - interval 30 day'", ["warn-prod-db"], context="clean up the production database carts"),
    B("./scripts/backup.sh prod-db", []),
    B("alembic upgrade head --sql > production.sql", []),
    B("psql -h localhost shop_test -c 'select 1'", []),
    B("alembic upgrade head", []),
    B("alembic revision --autogenerate -m 'discount'", []),
    # --- Bash: rm
    B("rm -rf exports/", ["warn-rm-rf"]),
    B("rm -r build dist", ["warn-rm-rf"]),
    B("rm tmp.txt", []),
    B("ls -la exports", []),
    # --- Bash: kubectl
    B("kubectl apply -f deploy/k8s/web.yaml", ["warn-kubectl-prod"], context="roll this out to production"),
    B("kubectl rollout restart deployment/web -n shop", ["warn-kubectl-prod"]),
    B("kubectl delete pod web-abc123", ["warn-kubectl-prod"]),
    B("kubectl get pods -n shop", []),
    B("kubectl logs deployment/web --tail=50", []),
    # --- Bash: pip
    B("sudo pip install requests", ["warn-global-pip"]),
    B("pip install --user black", ["warn-global-pip"]),
    B("pip install -r requirements.txt", ["warn-global-pip"]),
    B(".venv/bin/python -m pip install -e .", []),
    B("uv pip install httpx", []),
    B("pip-compile requirements.in", []),
    # --- Bash: misc
    B("pytest -q tests/api", []),
    B("ruff check app", []),
    B("docker compose up -d db", []),
    B("docker build -t shop:dev .", []),
    B("make api-client", []),
    B("python scripts/seed.py --env production", ["warn-prod-db"]),
    B("echo 'release notes' > notes.txt", []),
    B("cat CHANGELOG.md | head", []),
    B("sed -i 's/1.3.0/1.4.0/' .claude-plugin/plugin.json", []),
    B("curl -s https://api.example.com/health", []),
    # --- MCP and subagents
    T("mcp__github__create_pull_request", {"title": "Add refunds", "body": "Closes #12", "head": "feature/refunds"}, ["ck-pr-description"]),
    T("mcp__github__update_pull_request", {"pull_number": 12, "body": "Test plan: pytest"}, ["ck-pr-description"]),
    T("mcp__github__get_issue", {"issue_number": 12}, []),
    T("mcp__github__search_code", {"q": "def refund"}, []),
    T("mcp__slack__post_message", {"channel": "#dev", "text": "pull request is up"}, []),
    T("Task", {"description": "Review the refunds module", "prompt": "Review app/payments/refunds.py for bugs", "subagent_type": "general-purpose"}, ["pat-subagent-brief"]),
    T("Agent", {"description": "Refactor", "prompt": "Refactor the catalog service into smaller modules"}, ["pat-subagent-brief"]),
    T("Task", {"description": "Find usages", "prompt": "List every caller of update_price"}, []),
    # --- read-only tools (never injected)
    T("Read", {"file_path": at(".claude-plugin/plugin.json")}, []),
    T("Read", {"file_path": at("app/models/order.py")}, []),
    T("Grep", {"pattern": "version", "path": at(".claude-plugin")}, []),
    T("Glob", {"pattern": "**/*.tf"}, []),
    T("WebFetch", {"url": "https://docs.example.com", "prompt": "release process"}, []),
    T("TodoWrite", {"todos": [{"content": "bump version", "status": "pending"}]}, []),
    # --- ordinary edits that need no knowledge
    E("app/services/pricing.py", "return round(total, 2)", relevant=[]),
    E("app/utils/dates.py", "def today():", relevant=[]),
    W("docs/architecture.md", "## Services", relevant=[]),
    E("web/src/index.ts", "import './styles.css'", relevant=[]),
    W("scripts/report.sh", "#!/bin/sh\necho report", relevant=[]),
    E("Makefile", "test:\n\tpytest", relevant=[]),
    E(".github/workflows/ci.yml", "runs-on: ubuntu-latest", relevant=[]),
    W("notes/todo.txt", "buy milk", relevant=[]),
    E("LICENSE", "MIT", relevant=[]),
    W("x", "hello", path="/etc/hosts", relevant=[]),
    W("x", "outside", path="/home/dev/other-project/app/models/order.py", relevant=[]),
    E("app/api/health.py", "return {'ok': True}", relevant=["ck-api-endpoint"]),
    E("tests/fixtures/orders.json", '{"id": 1}', relevant=[]),
    E("app/models/README.md", "Models overview", relevant=[]),
    W("web/src/components/icons/Cart.svg", "<svg/>", relevant=[]),
    E("infra/terraform.tfvars", 'region = "eu-west-1"', relevant=[]),
    W("deploy/k8s/README.md", "How to deploy", relevant=[]),
]

# Held out: written after the action and specificity gates were designed on CALLS above, labelled before
# being scored, measured once and reported as measured (docs/relevance.md); never used for tuning.
HELD_OUT = [
    E(".claude-plugin/plugin.json", '"version": "2.0.0-rc.1"', relevant=["ck-version-bump"]),
    W("pyproject.toml", '[project]\nname = "shop"\nversion = "2.0.0"', relevant=["ck-version-bump"]),
    E("app/models/product.py", "sku = Column(String(32), unique=True)", relevant=["req-alembic-migration"]),
    E("app/models/product.py", '"""Products sold in the shop."""', relevant=[]),
    B("git push origin +main", ["warn-force-push"]),
    B("git push --force-with-lease", ["warn-force-push"]),
    B("npm publish --dry-run", []),
    B("terraform apply tfplan", ["warn-terraform-apply"]),
    B("rm -rf node_modules", []),
    B("kubectl apply -f deploy/k8s/worker/deployment.yaml -n shop-prod", ["warn-kubectl-prod"]),
    W(".env.local", "DEBUG=1", relevant=["req-no-secrets"]),
    E("infra/modules/db/main.tf", 'resource "aws_db_instance" "main" {}', relevant=["req-tf-fmt-plan"]),
    E("web/src/components/Checkout/Summary.tsx", "<p>Total</p>", relevant=["req-i18n-strings"]),
    E("app/payments/webhooks.py", "def handle_webhook(payload, sig):", relevant=["warn-payment-webhooks"]),
    E("app/services/catalog.py", "cache.delete(product_key(p))", relevant=["warn-catalog-cache"]),
    W("migrations/versions/20261201_sku.py", "def upgrade():\n    pass\ndef downgrade():\n    pass", relevant=["pat-alembic-downgrade"]),
    T("mcp__github__create_pull_request", {"title": "Pin sku", "body": "no issue"}, ["ck-pr-description"]),
    E("docs/index.md", "Welcome", relevant=[]),
    B("python -m pytest -x", []),
    E("app/api/products.py", "@router.get('/products/{sku}')", relevant=["ck-api-endpoint"]),
]
