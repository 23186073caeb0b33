"""The abstract syntax of the rules language: frozen nodes, each carrying its source span.

Nodes compare by identity (eq=False), so a node can key a table of facts the checker learns
about it, and two identical expressions at different places stay distinct.

The nodes live in four modules by what they are (nodes_core: names, expressions and
statements; nodes_decl: declarations, house rules and conversions; nodes_board: play on a
board and scenarios; nodes_flow: decks and bags, and turn flow; nodes_campaign: what an
aftermath does to a warband between games); this module gathers them, so that the rest of the package says
`nodes.ClassDecl` whichever part holds it, and holds what a whole file is (Decl, Module).
"""

from __future__ import annotations

from warband.lang.nodes_board import *  # noqa: F403
from warband.lang.nodes_campaign import *  # noqa: F403
from warband.lang.nodes_core import *  # noqa: F403
from warband.lang.nodes_decl import *  # noqa: F403
from warband.lang.nodes_event import *  # noqa: F403
from warband.lang.nodes_flow import *  # noqa: F403
from warband.lang.nodes_board import MarkerDecl, ScenarioDecl, ZoneRoleDecl
from warband.lang.nodes_core import NODE_CLASSES, children, node, walk  # noqa: F401
from warband.lang.nodes_decl import ConversionDecl, Header, Overridable, OverrideDecl, RemoveDecl
from warband.lang.nodes_event import EventDecl
from warband.lang.nodes_flow import DeckDecl

# Everything a file may declare at its top level (the grammar's `item`). Once layer() has merged
# house rules into their base, a module holds no OverrideDecl or RemoveDecl any more.
Decl = (Overridable | OverrideDecl | RemoveDecl | ConversionDecl | MarkerDecl | ScenarioDecl
        | DeckDecl | EventDecl | ZoneRoleDecl)


@node
class Module:
    """One parsed rules file. `partial`: some of its declarations could not be read (and were
    reported); `unreadable` holds the names those seem to declare, so that later passes neither
    call them unknown nor call what they use unused."""
    file: str
    header: Header | None
    decls: tuple[Decl, ...]
    partial: bool = False
    unreadable: frozenset[str] = frozenset()
