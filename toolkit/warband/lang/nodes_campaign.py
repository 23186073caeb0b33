"""The abstract syntax of the rules language, part five: campaigns, what a scenario's aftermath
does to a warband between games (equipment given and taken, fighters hired), written into the
warband files by `warband play --update` (game/campaign.py). lang/nodes.py gathers all the parts.
"""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes_core import Expr, Ident, node


@node
class Gear:
    """`give EQUIPMENT to FIGHTER` or `take EQUIPMENT from FIGHTER`, in an aftermath."""
    kind: str                 # give | take
    equipment: Ident
    fighter: Expr
    span: Span


@node
class Hire:
    """`hire "NAME" as CLASS for SIDE [equipment A, B]`, in an aftermath: a new entry of the
    side's warband file."""
    name: str
    fighter_class: Ident
    side: Expr
    equipment: tuple[Ident, ...]
    span: Span


CampaignStmt = Gear | Hire
