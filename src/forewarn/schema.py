"""The documented schema of forewarn's knowledge, as pydantic models.

These models are the source of ``docs/schemas/*.json`` (``forewarn
schema``) and of ``forewarn validate``'s messages.  The hooks never import
pydantic: they use :func:`forewarn.knowledge.problems`, which checks the
same rules with the standard library (``tests/test_schema.py`` keeps the
two in agreement, so no coercion here: ``"0.5"`` is not a confidence).

A process node is one of four models, chosen by ``process_type``
(:data:`ProcessNode`, a tagged union): each requires its own content block
and carries the other three, if present, as free extra fields, as the
hooks do.  Every model allows extra fields, so graphs written by the
original design or by other tools round-trip without loss
(``model_dump(exclude_unset=True)`` gives back the input).
"""

from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, field_validator, model_validator
from pydantic_core import PydanticCustomError

from .globs import GlobError, compile_glob
from .knowledge import PROCESS_TYPES

Priority = Literal["CRITICAL", "HIGH", "MEDIUM", "LOW"]
Status = Literal["draft", "active", "archived"]
SCHEMA_BASE = "https://raw.githubusercontent.com/forewarn/forewarn/main/docs/schemas/"


def _not_blank(value):
    if not value.strip():  # str.strip(), as knowledge.problems does (it strips more than JSON Schema's \S)
        raise PydanticCustomError("blank", "must be a non-empty string")
    return value


NonBlank = Annotated[str, Field(min_length=1, json_schema_extra={"pattern": "\\S"}), AfterValidator(_not_blank)]
Strings = Optional[List[str]]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class TriggerConditions(_Open):
    """When an item is relevant: tools, gitignore-style file globs, keywords."""

    tool_names: Strings = Field(None, description="Tool names; 'x*' is a prefix (mcp__github__*).")
    file_patterns: Strings = Field(None, description="gitignore-style globs relative to the project root.")
    action_keywords: Strings = Field(None, description="Words looked for in the tool input.")
    context_keywords: Strings = Field(None, description="Words looked for in the recent conversation.")
    triad_names: Strings = Field(None, description="Carried for the original design; not scored.")

    @field_validator("file_patterns")
    @classmethod
    def _globs_compile(cls, value):
        for pattern in value or ():
            try:
                compile_glob(pattern)
            except GlobError as exc:
                raise PydanticCustomError("glob", "{pattern} is not a usable glob ({why})", {"pattern": repr(pattern), "why": str(exc)}) from exc
        return value


def _one_non_empty_string(*names):
    """JSON Schema for "at least one of ``names`` is a non-empty string" (what the after-validators check)."""
    return {"anyOf": [{"required": [name], "properties": {name: {"type": "string", "minLength": 1}}} for name in names]}


class ChecklistItem(_Open):
    """A checklist entry in the original design's object form."""

    model_config = ConfigDict(json_schema_extra=_one_non_empty_string("item", "text"))

    item: Optional[str] = Field(None, description="The entry's text (older graphs may call it 'text').")
    required: Optional[bool] = Field(None, strict=True, description="false renders the entry as optional.")
    file: Optional[str] = Field(None, description="The file the entry concerns.")

    @model_validator(mode="after")
    def _has_text(self):
        text = self.item or (self.model_extra or {}).get("text")
        if not (isinstance(text, str) and text):
            raise PydanticCustomError("checklist_item", "an entry object needs a non-empty 'item'")
        return self


def _entry_kind(value):
    return "text" if isinstance(value, str) else "object"


ChecklistEntry = Annotated[
    Union[Annotated[str, Field(min_length=1), Tag("text")], Annotated[ChecklistItem, Tag("object")]],
    Discriminator(_entry_kind),
]


class ChecklistContent(_Open):
    title: Optional[str] = None
    items: List[ChecklistEntry] = Field(min_length=1, description="Non-empty strings or {item, required, file} objects.")
    format: Optional[str] = None


class _AtLeastOne(_Open):
    model_config = ConfigDict(json_schema_extra=lambda schema, cls: schema.update(_one_non_empty_string(*cls.model_fields)))

    @model_validator(mode="after")
    def _not_empty(self):
        names = type(self).model_fields
        if not any(getattr(self, name) not in (None, "") for name in names):
            raise PydanticCustomError("empty_block", "needs at least one of {fields}", {"fields": ", ".join(names)})
        return self


class PatternContent(_AtLeastOne):
    situation: Optional[str] = None
    action: Optional[str] = None
    rationale: Optional[str] = None
    example: Optional[str] = None


class WarningContent(_AtLeastOne):
    risk: Optional[str] = None
    severity: Optional[str] = None
    detection: Optional[str] = None
    mitigation: Optional[str] = None


class RequirementContent(_AtLeastOne):
    constraint: Optional[str] = None
    rationale: Optional[str] = None
    validation: Optional[str] = None


class _Node(_Open):
    """Fields every process node has, whatever its type."""

    id: NonBlank
    type: Literal["Concept"]
    label: NonBlank
    description: Optional[str] = None
    priority: Priority = "MEDIUM"
    status: Optional[Status] = Field(None, description="Missing means active.")
    trigger_conditions: Optional[TriggerConditions] = None
    evidence: Optional[Union[List[Any], str]] = Field(None, description="Excerpts that justify the item.")
    created_by: Optional[str] = None
    created_at: Optional[str] = Field(None, description="ISO-8601 UTC, e.g. 2026-11-22T10:00:00Z.")
    confidence: Optional[float] = Field(None, strict=True, ge=0, le=1)
    source: Optional[Any] = Field(None, description="Where the item came from (captured lessons: kind, session_id, excerpt).")
    occurrences: Optional[int] = Field(None, strict=True, ge=1, description="How often a captured lesson was seen.")

    @field_validator("evidence", mode="before")
    @classmethod
    def _list_or_string(cls, value):
        if value is not None and not isinstance(value, (list, str)):
            raise PydanticCustomError("evidence", "must be a list or a string")
        return value


class ChecklistNode(_Node):
    process_type: Literal["checklist"]
    checklist: ChecklistContent


class PatternNode(_Node):
    process_type: Literal["pattern"]
    pattern: PatternContent


class WarningNode(_Node):
    process_type: Literal["warning"]
    warning: WarningContent


class RequirementNode(_Node):
    process_type: Literal["requirement"]
    requirement: RequirementContent


NODE_MODELS = {"checklist": ChecklistNode, "pattern": PatternNode, "warning": WarningNode, "requirement": RequirementNode}


def _process_type(value):
    tag = value.get("process_type") if isinstance(value, dict) else getattr(value, "process_type", None)
    return tag if isinstance(tag, str) else None


ProcessNode = Annotated[
    Union[tuple(Annotated[model, Tag(name)] for name, model in NODE_MODELS.items())],
    Discriminator(
        _process_type,
        custom_error_type="process_type",
        custom_error_message="must be one of " + "|".join(PROCESS_TYPES),
        custom_error_context={"field": "process_type"},
    ),
]
process_node = TypeAdapter(ProcessNode)


class Graph(_Open):
    """A NetworkX node-link graph file; nodes other than process nodes are free-form objects."""

    directed: Optional[bool] = Field(True, strict=True)
    multigraph: Optional[bool] = Field(False, strict=True)
    graph: Optional[Dict[str, Any]] = None
    nodes: List[Dict[str, Any]] = Field(default_factory=list, description="Process nodes follow process-node.schema.json.")
    links: Optional[List[Dict[str, Any]]] = None
    edges: Optional[List[Dict[str, Any]]] = Field(None, description="NetworkX 3.4+ may write the links under this name.")


SCHEMA_FILES = ("process-node.schema.json", "graph.schema.json")


def json_schemas():
    """``{file name: JSON Schema dict}`` for docs/schemas/."""
    node = process_node.json_schema()
    node["title"] = "ProcessNode"
    node["description"] = "A process-knowledge node: type Concept, a process_type, and that type's content block."
    graph = Graph.model_json_schema()
    graph["properties"]["nodes"]["items"] = {
        "type": "object",
        "if": {"properties": {"type": {"const": "Concept"}}, "required": ["type", "process_type"]},
        "then": {"$ref": "process-node.schema.json"},
    }
    out = {"process-node.schema.json": node, "graph.schema.json": graph}
    for name, schema in out.items():
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = SCHEMA_BASE + name
    return out


_TAGS = frozenset(NODE_MODELS) | {"text", "object"}


def _field_path(err):
    """The error's location as ``a.b.0.c``, without the union tags pydantic inserts."""
    parts = []
    for position, part in enumerate(err["loc"]):
        if position == 0 and part in NODE_MODELS:
            continue  # the node model chosen by process_type
        if parts and isinstance(parts[-1], int) and part in _TAGS:
            continue  # the kind of checklist entry (text or object)
        parts.append(part)
    if not parts:
        field = (err.get("ctx") or {}).get("field")
        return field or "(node)"
    return ".".join(str(p) for p in parts)


def node_errors(node):
    """``["field.path: message", ...]`` for a process node (empty when valid)."""
    from pydantic import ValidationError

    try:
        process_node.validate_python(node)
    except ValidationError as exc:
        return ["%s: %s" % (_field_path(err), err["msg"]) for err in exc.errors(include_url=False)]
    return []
