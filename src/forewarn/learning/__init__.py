"""Lesson capture for the Stop hook: from a session's transcript to draft knowledge.

``transcript`` reads only new records; ``markers`` parses the assistant's
``[PROCESS_KNOWLEDGE]`` blocks (``yamlish`` is the YAML subset they use);
``corrections`` and ``statements`` find what people and the assistant said
should be done differently; ``inference`` turns a sentence and the tool
calls before it into triggers, a type, a priority and a label; ``redact``
removes secrets; ``capture`` ties them together and decides when a new
lesson is an old one seen again.  Standard library only, no file writes.
"""
