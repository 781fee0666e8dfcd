"""Commands that do the same act under another tool's name (pure data, no side effects).

An item keyed on ``npm publish`` is about publishing the package, and
``pnpm publish`` or ``yarn npm publish`` publish it too; the index adds a
group's other members to the action keywords of an item that names one of
them (:func:`same_act`), so the knowledge reaches the command the team did
not think to list.  Only commands that perform the same act on the same
kind of target belong in a group: ``helm uninstall`` is not ``helm
upgrade``, ``npm pack`` is not ``npm publish``; and no name whose words a
flag could supply (``cargo release`` would match ``cargo build --release``).
"""

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


def same_act(keywords):
    """``keywords`` followed by the other members of each group one of them names (case-insensitive), no repeats."""
    out = list(keywords)
    seen = {" ".join(k.lower().split()) for k in out}
    for keyword in keywords:
        for other in _BY_NAME.get(" ".join(keyword.lower().split()), ()):
            if other not in seen:
                seen.add(other)
                out.append(other)
    return out
