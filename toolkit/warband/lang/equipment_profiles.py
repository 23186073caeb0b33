"""Weapon profiles: values each piece of equipment carries, and traits that belong to the piece.

    stat Range on equipment: 0..48 default 0      # a profile value: every piece has one
    equipment Longbow { Range = 24  traits Volley } # the piece's own values and traits

A profile value is read from a piece (`w.Range`); a piece's own traits are asked of the piece
(`w has Volley`) and, unlike `grants`, are not the wielder's. `f has w` asks whether a fighter
carries the piece a name holds (an action's equipment parameter, a loop over `f.equipment`).

This is the checker's part for them, mixed into the Checker as the other parts are; the values
themselves are assembled in ruleset.py and read by the interpreter and generated code.
"""

from __future__ import annotations

from typing import cast

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.typesystem import ANY, NUMBER, TRAITS, Scope, Type


class ProfileChecker(CheckerParts):
    def profile(self, decl: nodes.ProfileDecl) -> None:
        """`stat NAME on equipment: LOW..HIGH [default V]`, or of an enum's values."""
        if isinstance(decl.type, nodes.RangeType):
            for end in (decl.type.low, decl.type.high):
                self.fixed_number(end, Scope({}), "a profile's bound")
        else:
            expected = self.type_of_ref(decl.type)
            if expected.kind != "enum" and expected is not ANY:
                self.error("E204", f"a profile value is a range of numbers or an enum, not "
                                   f"'{decl.type.name}'", decl.type.span,
                           hint="write a range such as 0..48, or declare an enum and name it")
                return
        if decl.default is not None:
            expected = self.profile_type(decl)
            t = self.member(decl.default, expected, Scope({})) or \
                self.expr(decl.default, Scope({}))
            self.expect(expected, t, decl.default.span, "the default")
            self.require_fixed(t, decl.default.span, "a default")

    def profile_type(self, decl: nodes.ProfileDecl) -> Type:
        if isinstance(decl.type, nodes.RangeType):
            return NUMBER
        return self.type_of_ref(decl.type)

    def equipment_profile(self, decl: nodes.EquipmentDecl) -> None:
        """A piece's own values (each a declared profile, given once, fixed) and traits."""
        owner = f"equipment '{decl.name.name}'"
        self.repeated([name for name, _ in decl.values], "value", owner)
        self.repeated([ref.name for ref in decl.traits], "trait", owner)
        for ref in decl.traits:
            self.trait_ref(ref)
        for name, value in decl.values:
            sym = self.lookup(name.name)
            if sym is None or sym.kind != "profile":
                profiles = self.table.names_of_kind("profile")
                what = "" if sym is None else f"a {sym.kind}, "
                self.error("E313", f"'{name.name}' is {what}not a value pieces of equipment "
                                   "carry", name.span,
                           hint=did_you_mean(name.name, profiles) or (
                               f"a fighter's {name.name} is given in its class (stat "
                               f"{name.name} = ...); a value of each piece is declared as: "
                               "stat Reach on equipment: 0..10"
                               if sym is not None and sym.kind == "stat" else
                               f"declare it first: stat {name.name} on equipment: 0..10"))
                self.expr(value, Scope({}))
                continue
            expected = self.profile_type(cast(nodes.ProfileDecl, sym.decl))
            t = self.member(value, expected, Scope({})) or self.expr(value, Scope({}))
            self.expect(expected, t, value.span, f"'{name.name}'")
            self.require_fixed(t, value.span, "a piece's value")

    def piece_field(self, field: nodes.Ident, mutable: bool) -> Type:
        """A field of a piece of equipment: its own traits (`w.traits`), the number of a trait
        it carries as its own (`w.Blast` for `traits Blast(3)`; 0 when it does not), or one of
        its profile values (`w.Range`)."""
        name = field.name
        trait = next((s for s in self.table.globals.values() if s.kind == "trait" and
                      s.name.lower() == name.lower()), None)
        if name == "traits" or trait is not None and not any(
                s.kind == "profile" and s.name.lower() == name.lower()
                for s in self.table.globals.values()):
            if mutable:
                self.error("E308", f"a piece's '{name}' cannot be changed during play",
                           field.span, hint="a house rule changes it: override equipment "
                                            "... { ... }")
            if name == "traits":
                return TRAITS
            assert trait is not None
            self.used.add(trait.name)
            if not cast(nodes.TraitDecl, trait.decl).param:
                self.error("E204", f"trait '{trait.name}' carries no number", field.span,
                           hint=f"ask whether the piece has it: w has {trait.name}")
                return ANY
            return NUMBER
        return self.profile_field(field, mutable)

    def profile_field(self, field: nodes.Ident, mutable: bool) -> Type:
        """`w.Range`: a profile value of a piece of equipment."""
        for sym in self.table.globals.values():
            if sym.kind == "profile" and sym.name.lower() == field.name.lower():
                self.used.add(sym.name)
                if mutable:
                    self.error("E308", f"a piece's '{sym.name}' cannot be changed during play",
                               field.span, hint="a house rule changes it: override equipment "
                                                "... { ... }; keep what changes in a counter")
                return self.profile_type(cast(nodes.ProfileDecl, sym.decl))
        profiles = self.table.names_of_kind("profile")
        hint = did_you_mean(field.name, profiles)
        if hint is None:
            hint = (f"the values of a piece are {', '.join(profiles)}" if profiles else
                    f"declare it: stat {field.name} on equipment: 0..10")
        self.error("E203", f"a piece of equipment has no value '{field.name}'", field.span,
                   hint=hint)
        return ANY

    def weapon_has(self, e: nodes.Has, t: Type, scope: Scope) -> bool:
        """`w has Rending` (a piece's own trait) and `f has w` (a fighter carries the piece `w`
        holds); False when `e` is neither, for the ordinary check."""
        name = e.name.name
        local = scope.locals.get(name)
        if local is not None and local[0].kind == "trait":   # traits as values: `f has t`
            if t.kind not in ("fighter", "equipment", "any"):
                self.error("E302", f"what 'has' looks at must be a fighter or a piece of "
                                   f"equipment, not {t}", e.subject.span)
            return True
        if local is not None and local[0].kind == "equipment" and t.kind != "equipment":
            sym = self.table.globals.get(name)
            if sym is not None and sym.kind in ("trait", "equipment"):
                self.error("E315", f"'{name}' is both a piece of equipment here and "
                                   f"{'a trait' if sym.kind == 'trait' else 'a piece declared'}"
                                   " elsewhere", e.name.span,
                           related=[Related(local[1], "named here"),
                                    Related(sym.span, "declared here")],
                           hint="give the parameter or loop name another name")
            elif t.kind not in ("fighter", "any"):
                self.error("E302", f"what 'has' looks at must be a fighter, not {t}",
                           e.subject.span)
            return True
        if t.kind != "equipment":
            return False
        sym = self.lookup(name)
        if sym is not None and sym.kind == "trait":
            return True
        if sym is not None and sym.kind == "equipment":
            self.error("E315", f"a piece of equipment carries traits, not other equipment "
                               f"('{name}')", e.name.span,
                       hint=f"compare the pieces: {_who(e)} == {name}")
            return True
        self.unknown(e.name, ("trait",))
        return True


def _who(e: nodes.Has) -> str:
    return e.subject.name if isinstance(e.subject, nodes.Name) else "w"
