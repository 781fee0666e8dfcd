"""The documented schema of forewarn's knowledge, as pydantic models.

These models are the source of ``docs/schemas/*.json`` (``forewarn schema``)
and of ``forewarn validate``'s messages.  The hooks never import pydantic:
they use :func:`forewarn.knowledge.problems`, which checks the same rules
with the standard library (``tests/test_schema.py`` keeps the two in
agreement).  Every model allows extra fields, so graphs written by the
original design or by other tools round-trip without loss.
"""

from typing import Any, Dict, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .globs import GlobError, compile_glob

Priority = Literal["CRITICAL", "HIGH", "MEDIUM", "LOW"]
ProcessType = Literal["checklist", "pattern", "warning", "requirement"]
Status = Literal["draft", "active", "archived"]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class TriggerConditions(_Open):
    """When an item is relevant: tools, gitignore-style file globs, keywords."""

    tool_names: Optional[List[str]] = Field(None, description="Tool names; 'x*' is a prefix (mcp__github__*).")
    file_patterns: Optional[List[str]] = Field(None, description="gitignore-style globs relative to the project root.")
    action_keywords: Optional[List[str]] = Field(None, description="Words looked for in the tool input.")
    context_keywords: Optional[List[str]] = Field(None, description="Words looked for in the recent conversation.")
    triad_names: Optional[List[str]] = Field(None, description="Carried for the original design; not scored.")

    @field_validator("file_patterns")
    @classmethod
    def _globs_compile(cls, value):
        for pattern in value or ():
            try:
                compile_glob(pattern)
            except GlobError as exc:
                raise ValueError("%r is not a usable glob (%s)" % (pattern, exc)) from exc
        return value


class ChecklistItem(_Open):
    """A checklist entry in the original design's object form."""

    item: str = Field(min_length=1)
    required: Optional[bool] = None
    file: Optional[str] = None


class Checklist(_Open):
    title: Optional[str] = None
    items: List[Union[str, ChecklistItem]] = Field(min_length=1)
    format: Optional[str] = None

    @field_validator("items")
    @classmethod
    def _items_have_text(cls, value):
        for item in value:
            if isinstance(item, str) and not item:
                raise ValueError("each item is a non-empty string or an object with 'item'")
        return value


class _AtLeastOne(_Open):
    @model_validator(mode="after")
    def _not_empty(self):
        if not any(getattr(self, name) not in (None, "") for name in type(self).model_fields):
            raise ValueError("needs at least one of %s" % ", ".join(type(self).model_fields))
        return self


class Pattern(_AtLeastOne):
    situation: Optional[str] = None
    action: Optional[str] = None
    rationale: Optional[str] = None
    example: Optional[str] = None


class Warning(_AtLeastOne):  # noqa: A001 - the process type is called warning
    risk: Optional[str] = None
    severity: Optional[str] = None
    detection: Optional[str] = None
    mitigation: Optional[str] = None


class Requirement(_AtLeastOne):
    constraint: Optional[str] = None
    rationale: Optional[str] = None
    validation: Optional[str] = None


class ProcessNode(_Open):
    """A process-knowledge node: ``type: "Concept"`` with a ``process_type`` and its content block."""

    id: str = Field(min_length=1, pattern=r"\S")
    type: Literal["Concept"]
    label: str = Field(min_length=1, pattern=r"\S")
    description: Optional[str] = None
    process_type: ProcessType
    priority: Priority = "MEDIUM"
    status: Optional[Status] = Field(None, description="Missing means active.")
    trigger_conditions: Optional[TriggerConditions] = None
    checklist: Optional[Checklist] = None
    pattern: Optional[Pattern] = None
    warning: Optional[Warning] = None
    requirement: Optional[Requirement] = None
    evidence: Optional[Union[List[Any], str]] = None
    created_by: Optional[str] = None
    created_at: Optional[str] = None
    confidence: Optional[float] = Field(None, ge=0, le=1)
    source: Optional[Any] = None
    occurrences: Optional[int] = Field(None, ge=1)

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence_is_a_number(cls, value):
        if isinstance(value, bool):
            raise ValueError("must be a number from 0 to 1")
        return value

    @model_validator(mode="after")
    def _content_block_present(self):
        if getattr(self, self.process_type) is None:
            raise ValueError("a %s node needs a %s object" % (self.process_type, self.process_type))
        return self


class Graph(_Open):
    """A NetworkX node-link graph file; nodes other than process nodes are free-form."""

    directed: Optional[bool] = True
    multigraph: Optional[bool] = False
    graph: Optional[Dict[str, Any]] = None
    nodes: List[Dict[str, Any]] = Field(default_factory=list)
    links: Optional[List[Dict[str, Any]]] = None


SCHEMAS = {"process-node.schema.json": ProcessNode, "graph.schema.json": Graph}


def json_schemas():
    """``{file name: JSON Schema dict}`` for docs/schemas/."""
    out = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = "https://forewarn.dev/schemas/" + name
        out[name] = schema
    return out


def node_errors(node):
    """``["field.path: message", ...]`` for a process node (empty when valid)."""
    from pydantic import ValidationError

    try:
        ProcessNode.model_validate(node)
    except ValidationError as exc:
        found = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and p in ("str", "ChecklistItem")))
            found.append("%s: %s" % (loc or "(node)", err["msg"]))
        return found
    return []
