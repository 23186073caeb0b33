"""The grammar of the rules language (dsl/warband.lark) loaded as an LALR parser, and the
keywords that the parser and the wording of syntax errors both look for."""

from __future__ import annotations

import re
from functools import lru_cache

from lark import Lark

from warband.catalog import GRAMMAR

DECLARATION_KEYWORDS = (
    "ruleset", "stat", "enum", "flag", "counter", "tier", "trait", "class", "equipment",
    "table", "define", "outcomes", "procedure", "action", "phase", "army", "marker", "scenario",
    "conversion",
    "override", "remove",   # house rules: `override class X { ... }`, `remove trait Y`
)
STATEMENT_KEYWORDS = ("let", "set", "if", "choose", "return", "remove", "for", "repeat",
                      "activate", "travel", "withdraw", "concede", "deploy", "place",
                      "face",      # facing: `face f towards g`
                      "inflict")   # inflict: units of several models


@lru_cache(maxsize=1)
def grammar() -> Lark:
    # cache=True keeps the LALR tables in a temporary file keyed by the grammar's hash
    return Lark.open(str(GRAMMAR), parser="lalr", propagate_positions=True, strict=True,
                     maybe_placeholders=True, start=["start", "items"], cache=True)


def first_word(piece: str) -> str:
    """The first word of a piece of rules text, comments skipped."""
    piece = re.sub(r"#[^\n]*", "", piece)
    m = re.match(r"\s*([A-Za-z_]\w*)", piece)
    return m.group(1) if m else ""
