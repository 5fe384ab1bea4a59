"""Shared by the rulebook tests: every setting of the schema, as a path, and the clubs that
set the rare ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ulti_rules.plugins import get_registry
from ulti_rules.ruleset.schema import ruleset_model

FIXTURES = Path(__file__).parent / "fixtures" / "rulebook"
CLUBS = tuple(sorted(FIXTURES.glob("*.yaml")))
"""Club files that set what no bundled ruleset sets (an opener who may pass, a fixed
trump, silent bonuses by marriage, ...), so that each setting's sentence is seen."""

LEAVES = {"Names", "Titles"}
"""Models read as one setting: a name, or a title, in three languages."""


def schema_settings() -> set[str]:
    """Every setting of the ruleset schema, the installed kinds' parameters included, as a
    path: ``deal.talon``, ``contracts.*.value``, ``kontra.levels[].names``."""
    schema = ruleset_model(get_registry().param_models()).model_json_schema()
    defs: dict[str, Any] = schema.get("$defs", {})
    found: set[str] = set()

    def models(node: dict[str, Any]) -> list[str]:
        """The models a property holds (through $ref, anyOf, oneOf), by name."""
        if "$ref" in node:
            return [node["$ref"].rsplit("/", 1)[1]]
        return [m for sub in node.get("anyOf", []) + node.get("oneOf", []) for m in models(sub)]

    def walk(model: dict[str, Any], prefix: str) -> None:
        for key, node in model.get("properties", {}).items():
            path, inner = f"{prefix}{key}", node
            if node.get("type") == "array" and isinstance(node.get("items"), dict):
                path, inner = f"{path}[]", node["items"]
            elif isinstance(node.get("additionalProperties"), dict):
                path, inner = f"{path}.*", node["additionalProperties"]
            held = [name for name in models(inner) if name not in LEAVES]
            nullable = any(sub.get("type") == "null" for sub in node.get("anyOf", []))
            if not held or nullable:  # a value, or a block that may be left out
                found.add(f"{prefix}{key}")
            for name in held:
                walk(defs[name], f"{path}.")

    walk(schema, "")
    return found
