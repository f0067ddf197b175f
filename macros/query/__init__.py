"""Queries: the second stage. Answers about the validated data, as records, never as text.

`catalog` (open the data once per build; releases, items, lifecycles, citations) -> `platform`
(the one list of platform facts) -> `tables` (comparison tables), `guide` (upgrade guides),
`install` (install commands), `coverage` (what the data does not know yet).
"""
