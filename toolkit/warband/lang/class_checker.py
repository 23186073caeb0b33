"""The part of the checker that checks classes: their tier, traits and equipment, the stats
they fix and those they let a warband entry choose within bounds, and their equipment options.
Traits written with a number (`Armor(2)`) are checked here too, for classes and equipment.

Mixed into the Checker, as the expression, table and army halves are.
"""

from __future__ import annotations

from typing import cast

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.typesystem import ANY, FIGHTER, NUMBER, Scope, Type
from warband.lang.units import UNIT_FIELD_WORDS
from warband.lang.unparse import expr_text


class ClassChecker(CheckerParts):
    def trait_ref(self, ref: nodes.TraitRef) -> None:
        sym = self.named(ref.name, "trait")
        if sym is None:
            return
        trait = cast(nodes.TraitDecl, sym.decl)
        if trait.param and ref.value is None:
            self.error("E301", f"trait '{trait.name.name}' needs a number", ref.span,
                       hint=f"write it as {trait.name.name}(1)")
        elif not trait.param and ref.value is not None:
            self.error("E301", f"trait '{trait.name.name}' takes no number", ref.value.span,
                       hint=f"declare it as 'trait {trait.name.name}(N)' to give it one")
        if ref.value is not None:
            t = self.expr(ref.value, Scope({}))
            self.expect(NUMBER, t, ref.value.span, "a trait's value")
            self.require_fixed(t, ref.value.span, "a trait's value")

    def fighter_class(self, decl: nodes.ClassDecl) -> None:
        if decl.tier is not None:
            self.named(decl.tier, "tier")
        owner = f"class '{decl.name.name}'"
        self.repeated([ref.name for ref in decl.traits], "trait", owner)
        self.repeated(decl.equipment, "equipment piece", owner)
        self.repeated([name for name, _ in decl.stats], "stat", owner)
        self.repeated([c.name for c in decl.choices], "stat", owner)
        fixed = {name.name: name.span for name, _ in decl.stats}
        for choice in decl.choices:   # a stat the class fixes is not also one the list chooses
            if choice.name.name in fixed:
                self.error("E202", f"stat '{choice.name.name}' is both fixed and chosen in "
                                   f"{owner}", choice.name.span,
                           related=[Related(fixed[choice.name.name], "fixed here")],
                           hint=f"keep one: 'stat {choice.name.name} = VALUE' gives every "
                                f"fighter of the class that value; 'stat {choice.name.name}: "
                                "LOW..HIGH' lets the list choose within")
        for ref in decl.traits:
            self.trait_ref(ref)
        for name in decl.equipment:
            self.named(name, "equipment")
        for name, value in decl.stats:
            sym = self.named(name, "stat")
            if sym is None:
                continue
            stat_decl = cast(nodes.StatDecl, sym.decl)
            self.settable(stat_decl, name, f"class '{decl.name.name}'")
            stat_type = stat_decl.type
            expected = NUMBER if isinstance(stat_type, nodes.RangeType) else \
                self.type_of_ref(stat_type)
            t = self.member(value, expected, Scope({})) or self.expr(value, Scope({}))
            self.expect(expected, t, value.span, f"stat '{name.name}'")
            self.require_fixed(t, value.span, "a class's stat")
        for choice in decl.choices:
            self.stat_choice(choice, owner)
        if decl.group is not None:
            for end in (decl.group.low, decl.group.high):
                self.fixed_number(end, Scope({}), "a group size")
        self.equipment_options(decl)
        self.unit_lines(decl)
        self.model_options(decl)
        for words, span, first in decl.repeated:   # a second `models` overrode the first
            self.error("E202", f"{owner} gives '{words}' twice", span,
                       related=[Related(first, "first given here")],
                       hint="give it once: a second line would silently replace the first")

    def model_options(self, decl: nodes.ClassDecl) -> None:
        """`one model may take X` / `up to N models may swap X for Y`: in a unit class only
        (E323); each piece is equipment, offered once across all the class's options and not
        carried anyway (E202); a swap gives up a piece the class carries (E310)."""
        owner = f"class '{decl.name.name}'"
        carried = {e.name for e in decl.equipment}
        offered = {i.name: i for o in decl.options for i in o.items}
        for option in decl.model_options:
            if decl.models is None:
                self.error("E323", f"{owner} offers pieces to single models, but is not a "
                                   "unit of several models", option.span,
                           hint="give the class its models first (models 5..10), or offer "
                                "the piece to the whole fighter: may take X")
            if option.limit is not None:
                self.fixed_number(option.limit, Scope({}), "how many models an option allows")
            if option.replaces is not None and option.replaces.name not in carried:
                self.error("E310", f"{owner} does not carry '{option.replaces.name}', so a "
                                   "model cannot swap it", option.replaces.span,
                           hint=f"swap a piece the class carries: {', '.join(sorted(carried))}"
                           if carried else f"give the class the piece first: equipment "
                                           f"{option.replaces.name}")
            self.offered_pieces(option.items, owner, carried, offered, "a model option")

    def equipment_options(self, decl: nodes.ClassDecl) -> None:
        """Each piece a class's options name is equipment, named by one option only and not one
        the class already carries; a swap gives up a piece the class carries."""
        owner = f"class '{decl.name.name}'"
        carried = {e.name for e in decl.equipment}
        offered: dict[str, nodes.Ident] = {}
        swapped: dict[str, nodes.Ident] = {}
        for option in decl.options:
            if option.limit is not None:
                self.fixed_number(option.limit, Scope({}), "how many pieces an option allows")
            if option.replaces is not None and option.replaces.name in swapped:
                self.error("E202", f"{owner} swaps '{option.replaces.name}' in two options",
                           option.replaces.span,
                           related=[Related(swapped[option.replaces.name].span,
                                            "swapped here")],
                           hint=f"one piece is given up once: may swap {option.replaces.name} "
                                "for A, B (one of them)")
            elif option.replaces is not None:
                swapped[option.replaces.name] = option.replaces
            if option.replaces is not None and option.replaces.name not in carried:
                self.error("E310", f"{owner} does not carry '{option.replaces.name}', so it "
                                   "cannot be swapped", option.replaces.span,
                           hint=f"swap a piece the class carries: {', '.join(sorted(carried))}"
                           if carried else f"give the class the piece first: equipment {option.replaces.name}")
            self.offered_pieces(option.items, owner, carried, offered, "an option")

    def offered_pieces(self, items, owner: str, carried: set[str],
                       offered: dict[str, nodes.Ident], what: str) -> None:
        """The pieces an option (of the class, or of single models) offers: equipment, none the
        class carries already, none offered by another option (E202); noted in `offered`."""
        for name in items:
            if self.named(name, "equipment") is None:
                continue
            if name.name in carried:
                self.error("E202", f"{owner} already carries '{name.name}'", name.span,
                           hint=f"{what} offers what the class does not carry")
            elif name.name in offered:
                self.error("E202", f"'{name.name}' is offered twice in {owner}", name.span,
                           related=[Related(offered[name.name].span, "offered here")],
                           hint="offer each piece in one option only, so that a warband "
                                "entry's choice has one reading")
            else:
                offered[name.name] = name

    def stat_choice(self, choice: nodes.StatChoice, owner: str) -> None:
        """`stat NAME: LOW..HIGH [default V]` or `stat NAME in A, B [default A]` in a class: the
        bounds are fixed values of the stat's kind (a range for a number stat, some of its values
        for an enum stat); that they lie inside the stat's own is the Ruleset's check (E305)."""
        name = choice.name
        sym = self.named(name, "stat")
        if sym is None:
            return
        stat_decl = cast(nodes.StatDecl, sym.decl)
        self.settable(stat_decl, name, owner)
        if isinstance(stat_decl.type, nodes.RangeType):
            if choice.low is None or choice.high is None:
                whole = f"{expr_text(stat_decl.type.low)}..{expr_text(stat_decl.type.high)}"
                self.error("E302", f"stat '{name.name}' is a number, so {owner} chooses it "
                                   "from a range", choice.span,
                           hint=f"write: stat {name.name}: LOW..HIGH, inside {whole}")
                return
            for end in (choice.low, choice.high):
                self.fixed_number(end, Scope({}), "a class's bound")
            if choice.default is not None:
                self.fixed_number(choice.default, Scope({}), "a class's default")
            return
        expected = self.type_of_ref(stat_decl.type)
        if expected.kind != "enum":   # not a stat a file gives: E204 at the stat already
            return
        if not choice.members:
            members = cast(nodes.EnumDecl, self.table.globals[expected.name].decl).members \
                if expected.name in self.table.globals else ()
            example = ", ".join(m.name.name for m in members[:2]) or "A, B"
            self.error("E302", f"stat '{name.name}' is one of the values of "
                               f"'{expected.name}', so {owner} chooses it from some of them",
                       choice.span, hint=f"write: stat {name.name} in {example}")
            return
        self.repeated(choice.members, "value", f"{owner}'s choice of {name.name}")
        known = [self.member(nodes.Name(m.name, m.span), expected, Scope({})) != ANY
                 for m in choice.members]
        default = choice.default
        if all(known) and isinstance(default, nodes.Name) and \
                default.name not in {m.name for m in choice.members}:
            listed = ", ".join(m.name for m in choice.members)
            self.error("E305", f"the default {default.name} is not one of {listed}",
                       default.span, hint=f"give one of the values {owner} allows: {listed}")

    def settable(self, decl: nodes.StatDecl, name: nodes.Ident, who: str) -> None:
        """E308 for a value given to a stat the rules work out for every fighter."""
        if decl.derived is not None and decl.when is None:
            self.error("E308", f"stat '{decl.name.name}' is worked out by the rules, so "
                               f"{who} cannot set it", name.span,
                       related=[Related(decl.name.span, "worked out here")],
                       hint="remove this line; set the values it is worked out from instead")

    # ---- units of several models (docs/language.md, "Units of several models") ----
    def unit_lines(self, decl: nodes.ClassDecl) -> None:
        """`models LOW..HIGH [default N]`: fixed numbers (their range is the Ruleset's check,
        E319). `wounds per model = VALUE`: a fixed whole number, or the name of a number stat
        or a numbered trait, which each fighter of the class reads its own value of (E320)."""
        if decl.models is not None:
            for end in (decl.models.low, decl.models.high, decl.models.default):
                if end is not None:
                    self.fixed_number(end, Scope({}), "a unit's models")
        self.place_lines(decl)
        per = decl.model_wounds
        if per is None:
            return
        value = per.value
        if isinstance(value, nodes.Name):
            sym = self.table.globals.get(value.name)
            numbered = sym is not None and (
                sym.kind == "stat" and isinstance(cast(nodes.StatDecl, sym.decl).type,
                                                  nodes.RangeType)
                and cast(nodes.StatDecl, sym.decl).derived is None   # (read when the game starts)
                or sym.kind == "trait" and cast(nodes.TraitDecl, sym.decl).param is not None)
            if numbered:
                self.used.add(value.name)
                return
            what = "not declared" if sym is None else \
                "worked out by the rules" if sym.kind == "stat" and cast(
                    nodes.StatDecl, sym.decl).derived is not None else \
                "a stat of named values" if sym.kind == "stat" else \
                "a trait without a number" if sym.kind == "trait" else f"a {sym.kind}"
            counted = [n for n, g in self.table.globals.items() if
                        g.kind == "stat" and isinstance(cast(nodes.StatDecl, g.decl).type,
                                                        nodes.RangeType)
                        or g.kind == "trait" and cast(nodes.TraitDecl, g.decl).param]
            self.error("E320", f"a model's wounds are a whole number, a number stat or a "
                               f"numbered trait; '{value.name}' is {what}", value.span,
                       hint=(did_you_mean(value.name, counted) if sym is None else None)
                       or "for example: wounds per model = 2, wounds per model = Toughness "
                          "(a stat), or wounds per model = Tough (a trait written Tough(N))")
            return
        t = self.expr(value, Scope({}))
        if t.kind not in ("number", "any") or t.random or not (
                isinstance(value, nodes.Int) and value.value >= 1):
            self.error("E320", f"a model's wounds are a whole number from 1 up, a number stat "
                               f"or a numbered trait, not {expr_text(value)}", value.span,
                       hint="for example: wounds per model = 2, or wounds per model = Toughness")

    def place_lines(self, decl: nodes.ClassDecl) -> None:
        """`coherency D` and `casualties nearest first`: in a unit class only, and casualties
        only with a coherency (E324); D a fixed number (its sign is the Ruleset's check)."""
        owner = f"class '{decl.name.name}'"
        for line, words in ((decl.coherency, "coherency"), (decl.casualties, "casualties")):
            if line is not None and decl.models is None:
                self.error("E324", f"{owner} gives its models places ('{words}'), but is not a "
                                   "unit of several models", line.span,
                           hint="give the class its models first: models 5..10")
        if decl.coherency is not None:
            self.fixed_number(decl.coherency.distance, Scope({}), "a unit's coherency")
        elif decl.casualties is not None and decl.models is not None:
            self.error("E324", f"{owner} says which models fall first, but its models have no "
                               "places of their own", decl.casualties.span,
                       hint="give the unit places first: coherency 2 (each model within 2 of "
                            "another)")

    def has_units(self) -> bool:
        """Whether some class of the rules is a unit (has `models` or `wounds per model`)."""
        return any(sym.kind == "class" and (cast(nodes.ClassDecl, sym.decl).models is not None
                                            or cast(nodes.ClassDecl, sym.decl).model_wounds
                                            is not None)
                   for sym in self.table.globals.values())

    def unit_field(self, field: nodes.Ident, mutable: bool) -> Type:
        """f.models, f.models_start, f.wounds_left, f.model_wounds: numbers every fighter has
        when some class is a unit; changed only by `inflict` (E308), unknown otherwise (E321)."""
        if not self.has_units():
            self.error("E321", f"a fighter has no field '{field.name}': no class here is a "
                               "unit of several models", field.span,
                       hint="make a class a unit: models 5..10 default 5, and wounds per "
                            "model = 1")
            return ANY
        if mutable:
            self.error("E308", f"a fighter's '{field.name}' ({UNIT_FIELD_WORDS[field.name]}) "
                               "cannot be set", field.span,
                       hint="wounds are taken with: inflict N wounds on f")
        return NUMBER

    def wound_stmt(self, stmt: nodes.Wound, scope: Scope) -> None:
        """`inflict N wounds on UNIT`: a number (it may be rolled) and a fighter."""
        self.expect(NUMBER, self.expr(stmt.amount, scope), stmt.amount.span,
                    "the wounds inflicted")
        self.expect(FIGHTER, self.expr(stmt.target, scope), stmt.target.span,
                    "what takes the wounds")
        if not self.has_units():
            self.error("E321", "'inflict' wounds a unit model by model, but no class here is "
                               "a unit of several models", stmt.span,
                       hint="make a class a unit: models 5..10 default 5, and wounds per "
                            "model = 1; or keep wounds in a counter")
