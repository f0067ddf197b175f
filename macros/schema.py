"""Derived artefact of the model: JSON Schema files for editors (data/schema/).

Generated, never edited by hand; a test fails when they drift from `model.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

from macros.model import Release, SourceRegistry, TopicRegistry

SCHEMAS = {
    "release.schema.json": Release,
    "sources.schema.json": SourceRegistry,
    "topics.schema.json": TopicRegistry,
}


def schema_texts() -> dict[str, str]:
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(mode="validation")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        texts[name] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return texts


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
