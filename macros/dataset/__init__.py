"""Loading and validation: the first stage, and the only one that reads data files.

`problems` (how a fault is reported) -> `vocabulary` (closed value sets and their wording) ->
`model` (frozen, typed records) -> `load` (YAML with positions, validated against the model) ->
`checks` (rules across records and files). Nothing here renders or knows about MkDocs.
"""
