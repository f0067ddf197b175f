"""Templates read only what their view models give: each renderer hands its template a frozen
dataclass (render/markdown.py `View`), and every name a template reads (with what it imports with
context) must be a field of that view or a global of the environment."""

from __future__ import annotations

import dataclasses

import jinja2
from jinja2 import meta, nodes

from macros.render import about, compare, home, release, upgrade  # noqa: F401 (they define the views)
from macros.render.markdown import TEMPLATES, View, environment

ALWAYS = {"_aside"}  # the set-aside store `fill` adds to every rendering


def all_views() -> list[type[View]]:
    found, todo = [], list(View.__subclasses__())
    while todo:
        view = todo.pop()
        if view.__module__.startswith("macros."):  # not the test's planted view
            found.append(view)
        todo.extend(view.__subclasses__())
    return sorted(found, key=lambda view: view.__name__)


def names_read(env: jinja2.Environment, name: str) -> set[str]:
    """What template `name` reads from its context, with the templates it imports with context."""
    source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
    tree = env.parse(source)
    # A name set inside an `{% if %}` of a macro counts as undeclared for jinja2.meta (it might
    # come from the context when the branch is not taken); names the template sets are its own.
    assigned = {node.name for node in tree.find_all(nodes.Name) if node.ctx == "store"}
    names = set(meta.find_undeclared_variables(tree)) - assigned
    for node in tree.find_all((nodes.Import, nodes.FromImport, nodes.Include)):
        if getattr(node, "with_context", True) and isinstance(node.template, nodes.Const):
            names |= names_read(env, node.template.value)
    return names


def unread_and_unknown(env: jinja2.Environment, view: type[View]) -> tuple[set[str], set[str]]:
    fields = {field.name for field in dataclasses.fields(view)}  # type: ignore[arg-type]
    read = names_read(env, view.TEMPLATE)
    return fields - read, read - fields - set(env.globals) - ALWAYS


def test_every_name_a_template_reads_is_given_by_its_view_and_every_field_is_read() -> None:
    env = environment()
    views = all_views()
    assert len({view.TEMPLATE for view in views}) >= 10
    for view in views:
        unread, unknown = unread_and_unknown(env, view)
        assert not unknown, f"{view.TEMPLATE} reads {sorted(unknown)}, which {view.__name__} does not give"
        assert not unread, f"{view.__name__} gives {sorted(unread)}, which {view.TEMPLATE} never reads"


def test_every_template_has_a_view_or_is_imported_without_context() -> None:
    env = environment()
    viewed = {view.TEMPLATE for view in all_views()}
    for path in sorted(TEMPLATES.glob("*.j2")):
        if path.name in viewed:
            continue
        # A template imported without context (a library of macros) reads globals only.
        extra = names_read(env, path.name) - set(env.globals) - ALWAYS
        assert not extra, f"{path.name} has no view and reads {sorted(extra)}"


def test_a_name_no_view_gives_is_reported() -> None:
    @dataclasses.dataclass(frozen=True)
    class Planted(View):
        TEMPLATE = "planted.j2"
        shown: str
        spare: int

    env = environment()
    env.loader = jinja2.DictLoader({"planted.j2": "{{ shown }} {{ missing }}"})
    unread, unknown = unread_and_unknown(env, Planted)
    assert unknown == {"missing"} and unread == {"spare"}
