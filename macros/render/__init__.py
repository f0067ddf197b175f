"""Stage 5 of the flow (data -> load -> model -> checks -> catalog -> **render** -> edges).

Pure functions `render_<view>(catalog, ...) -> str` that return Markdown. They read the catalog,
fill the Jinja fragments in `macros/templates/`, and never touch files or MkDocs.
"""
