"""Renderers: the third stage. Pure functions from the catalog to text; they never write files.

`markdown` (escaping, the Jinja setup, finished-HTML blocks) -> one module per view: `release`,
`upgrade`, `compare` (+ `charts`), `home`, `about`, and for machines `api` and `feed`. `pages` is
the registry of generated pages: path, title, description, search, section and renderer of each.
Templates for the Markdown live in `macros/templates/`.
"""
