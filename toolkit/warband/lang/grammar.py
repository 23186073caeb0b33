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
    "deck", "bag",   # decks and bags of cards and tokens
    "override", "remove",   # house rules: `override class X { ... }`, `remove trait Y`
    "event",   # events: `event NAME when TRIGGER { ... }`
    "zone",   # zones the ruleset can name: `zone own_edge per side`
)
STATEMENT_KEYWORDS = ("let", "set", "if", "choose", "return", "remove", "for", "repeat",
                      "activate", "travel", "withdraw", "concede", "deploy", "place",
                      "bring",     # back into play: `bring f back into ZONE`
                      "face",      # facing: `face f towards g`
                      "inflict",   # inflict: units of several models
                      "draw", "discard", "shuffle",   # decks and bags
                      "while", "break", "continue", "end",   # turn flow
                      "give", "take", "hire")   # campaigns: in a scenario's aftermath


@lru_cache(maxsize=1)
def grammar() -> Lark:
    # cache=True keeps the LALR tables in a temporary file keyed by the grammar's hash
    return Lark.open(str(GRAMMAR), parser="lalr", propagate_positions=True, strict=True,
                     maybe_placeholders=True, start=["start", "items"], cache=True)


@lru_cache(maxsize=1)
def statement_words() -> tuple[str, ...]:
    """The words statements start with, read from the grammar (so that a hint listing them
    stays right when a statement is added): `stmt`'s alternatives and those it leads to, in
    the order the grammar gives them."""
    g = grammar()
    patterns = {t.name: t.pattern.value for t in g.terminals if t.pattern.type == "str"}
    words: list[str] = []
    seen, todo = set(), ["stmt"]
    while todo:
        origin = todo.pop(0)
        if origin in seen:
            continue
        seen.add(origin)
        for rule in g.rules:
            if rule.origin.name != origin or not rule.expansion:
                continue
            first = rule.expansion[0]
            if first.is_term:
                word = patterns.get(first.name)
                if word is not None and word.isalpha() and word not in words:
                    words.append(word)
            else:
                todo.append(first.name)
    return tuple(words)


@lru_cache(maxsize=1)
def reserved_words() -> tuple[str, ...]:
    """Every word of the grammar (a keyword where it could stand), in alphabetical order."""
    return tuple(sorted({t.pattern.value for t in grammar().terminals
                         if t.pattern.type == "str" and t.pattern.value.isalpha()}))


def first_word(piece: str) -> str:
    """The first word of a piece of rules text, comments skipped."""
    piece = re.sub(r"#[^\n]*", "", piece)
    m = re.match(r"\s*([A-Za-z_]\w*)", piece)
    return m.group(1) if m else ""
