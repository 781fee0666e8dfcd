"""Commands that do the same act under another tool's name (pure data, no side effects).

An item keyed on ``npm publish`` is about publishing the package, and
``pnpm publish`` or ``yarn npm publish`` publish it too; the index adds a
group's other members to the action keywords of an item that names one of
them (:func:`same_act`), so the knowledge reaches the command the team did
not think to list.  Only commands that perform the same act on the same
kind of target belong in a group: ``helm uninstall`` is not ``helm
upgrade``, ``npm pack`` is not ``npm publish``; and no name whose words a
flag could supply (``cargo release`` would match ``cargo build --release``).
An item that names a deploy command (:data:`DEPLOYS`) also gets
:data:`DEPLOY_DISPATCH`, what a dispatched deploy workflow reads as: the
workflow runs the team's deploy for it.  An item about production that names a
command that destroys rows of a database (:data:`DESTROYS`) gets
:data:`DATA_DESTROYED`, what every such command reads as.
"""

from .shell_writes import DATA_DESTROYED, DEPLOY_DISPATCH  # what the calls read as (defined call-side, hot path)

SAME_ACT = (
    ("npm publish", "pnpm publish", "yarn publish", "yarn npm publish", "bun publish"),
    ("twine upload", "uv publish", "poetry publish", "flit publish", "hatch publish", "pdm publish"),
    ("docker push", "podman push"),
    ("terraform apply", "tofu apply", "terragrunt apply"),
    ("terraform destroy", "tofu destroy", "terragrunt destroy"),
    ("kubectl apply", "kubectl replace", "oc apply"),
    ("helm upgrade", "helm install"),
    ("npm install", "npm i", "pnpm add", "yarn add", "bun add"),
    ("pip install", "uv pip install", "uv add", "poetry add", "pdm add"),
)
_BY_NAME = {name: group for group in SAME_ACT for name in group}
# Commands that deploy: a dispatched deploy workflow (read as DEPLOY_DISPATCH by forewarn.toolcall) may do any of
# them, so an item that names one gets DEPLOY_DISPATCH too.  They are not one group: a team that runs ``cdk deploy``
# for its infrastructure and ``helm upgrade`` for its services keeps different knowledge for each.
DEPLOYS = frozenset((
    "kubectl apply", "kubectl replace", "oc apply", "kubectl set image", "kubectl rollout", "helm upgrade",
    "helm install", "helm rollback", "argocd app sync", "argocd app rollback", "flux reconcile", "fly deploy",
    "cdk deploy", "sam deploy", "serverless deploy", "sls deploy", "gcloud run deploy", "gcloud app deploy", "eb deploy",
    "kamal deploy", "heroku pipelines:promote", "git push heroku", "copilot svc deploy", "vercel deploy",
    "netlify deploy",
))  # not terraform apply or pulumi up: a deploy workflow rolls out a release; changing the infrastructure is its own act
# Destroying stored data: an item about production that names one of these also gets DATA_DESTROYED (on a local or
# scratch database the same statements destroy nothing anyone keeps), what every command that deletes,
# overwrites or drops rows of a database reads as (forewarn.shell_writes.destroys_data): an UPDATE … SET, a
# migration run down.
DESTROYS = frozenset((
    "delete from", "truncate", "truncate table", "drop table", "drop schema", "drop database", "delete_all",
    "destroy_all", "update_all", "pg:reset", "db:drop", "db:reset",
))


def same_act(keywords, about_production=False):
    """``keywords`` followed by the other members of each group one of them names (case-insensitive), by
    :data:`DEPLOY_DISPATCH` if one of them deploys and, for an item ``about_production``, :data:`DATA_DESTROYED`
    if one destroys data; no repeats."""
    out = list(keywords)
    seen = {" ".join(k.lower().split()) for k in out}
    for keyword in keywords:
        name = " ".join(keyword.lower().split())
        extra = (DEPLOY_DISPATCH,) if name in DEPLOYS else (DATA_DESTROYED,) if about_production and name in DESTROYS else ()
        for other in _BY_NAME.get(name, ()) + extra:
            if other not in seen:
                seen.add(other)
                out.append(other)
    return out
