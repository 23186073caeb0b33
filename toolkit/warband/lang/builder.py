"""Parse tree -> AST: one method per grammar rule, each returning a frozen node with its span.

The rules are split by the kind of node they make: statements and expressions (build_core),
declarations (build_decl), conversions, army and house rules (build_lists), play on a board and
scenarios (build_board). Builder gathers them with the file's header."""

from __future__ import annotations

from lark import Tree, v_args

from warband.lang import nodes
from warband.lang.build_base import unquote
from warband.lang.build_board import BoardBuilder
from warband.lang.build_core import CoreBuilder
from warband.lang.build_decl import DeclBuilder
from warband.lang.build_event import EventBuilder
from warband.lang.build_flow import FlowBuilder
from warband.lang.build_lists import ListsBuilder


@v_args(meta=True)
class Builder(DeclBuilder, ListsBuilder, CoreBuilder, BoardBuilder, FlowBuilder, EventBuilder):
    """Turns one file's parse tree into an nodes.Module."""

    # ---- module ---------------------------------------------------------------------------
    def start(self, meta, children):
        header, *decls = children
        return header, tuple(decls)

    def items(self, meta, children):
        return None, tuple(children)

    def header(self, meta, children):
        fields = {"title": None, "source": None, "version": None, "extends": None}
        for kind, value in children[1:]:
            fields[kind] = value
        extends_span = None
        if fields["extends"] is not None:
            fields["extends"], extends_span = fields["extends"]
        return nodes.Header(unquote(children[0]), span=self.span(meta),
                          extends_span=extends_span, **fields)

    def title(self, meta, c):
        return "title", unquote(c[0])

    def source(self, meta, c):
        return "source", unquote(c[0])

    def version(self, meta, c):
        return "version", unquote(c[0])

    def extends(self, meta, c):
        return "extends", (unquote(c[0]), self.span(meta))

    def doc(self, meta, c):
        return unquote(c[0])

    def __default__(self, data, children, meta):  # pragma: no cover - a grammar rule without a method
        raise NotImplementedError(f"no AST builder for grammar rule {data!r}")


def build(tree: Tree, file: str) -> nodes.Module:
    header, decls = Builder(file).transform(tree)
    return nodes.Module(file, header, decls)
