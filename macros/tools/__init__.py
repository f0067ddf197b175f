"""Contributor tools run from the command line (`python -m macros ...`), beside the build:
JSON Schemas (`schema`), the permalink manifest (`permalinks`), and the hook-free copy of the
site (`materialize`). They may write files; the stages before them never do.
"""
