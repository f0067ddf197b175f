"""Derived artefacts of the models: JSON Schema files for editors (data/schema/) and for users of
the JSON API (docs/api/v1/schema/, published as api/v1/schema/).

Generated, never edited by hand; a test fails when they drift from `model.py` or `api.py`. The API
schemas are committed rather than generated on each build because they change only with the code.
"""

from __future__ import annotations

import json
from pathlib import Path

from macros import ROOT
from macros.dataset.model import DriverTable, GpuTable, Ledger, Release, SourceRegistry, TopicRegistry
from macros.dataset.safe_io import check_writable, write_text
from macros.render.api import api_schemas

API_SCHEMA_DIR = ROOT / "docs" / "api" / "v1" / "schema"

SCHEMAS = {
    "release.schema.json": Release,
    "sources.schema.json": SourceRegistry,
    "topics.schema.json": TopicRegistry,
    "ledger.schema.json": Ledger,
    "gpus.schema.json": GpuTable,
    "drivers.schema.json": DriverTable,
}


def _text(schema: dict) -> str:
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_texts() -> dict[str, str]:
    """data/schema/: what a release or registry file may contain."""
    return {name: _text(model.model_json_schema(mode="validation")) for name, model in SCHEMAS.items()}


def api_schema_texts() -> dict[str, str]:
    """docs/api/v1/schema/: what each file of the JSON API contains."""
    return {name: _text(adapter.json_schema()) for name, adapter in api_schemas().items()}


def write_schemas(data_schema_dir: Path, api_schema_dir: Path = API_SCHEMA_DIR, *, api_root: Path = ROOT) -> list[Path]:
    """Write every schema, each atomically, inside its project (the data folder's, for
    data/schema/; `api_root` for the API's) and through no link: a pull request can plant a link
    at data/schema/x.json pointing anywhere. `UnsafeFile` names the first refused file, and is
    raised before anything is written."""
    data_root = data_schema_dir.parent.parent
    planned = [(data_schema_dir / name, text, data_root) for name, text in schema_texts().items()]
    planned += [(api_schema_dir / name, text, api_root) for name, text in api_schema_texts().items()]
    for path, _, root in planned:
        check_writable(path, root)
    for path, text, root in planned:
        write_text(path, text, root=root)
    return [path for path, _, _ in planned]
