"""The half of the checker that knows the board: game statements, markers and scenarios.

Mixed into the Checker. A game statement (activate, travel, place...) type-checks like any other;
what it means is up to the engine, which supplies the board and the players.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, cast

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.ruleset import constant
from warband.lang.symbols import AREA_FUNCTIONS, GAME_FUNCTIONS
from warband.lang.typesystem import (
    ANY,
    AREA,
    BOOL,
    ENTRY,
    EQUIPMENT,
    FIGHTER,
    FIGHTERS,
    MARKER,
    NUMBER,
    PIECE,
    PIECES,
    POSITION,
    SIDE,
    TEXT,
    TRAIT,
    ZONE,
    Scope,
    Type,
    either,
    numeric,
)
from warband.limits import MAX_BOARD, MAX_FIGHTERS, MAX_NAME_CHARS

if TYPE_CHECKING:
    from warband.diagnostics import Span
    from warband.lang.symbols import Symbol

    # a statement that asks a fighter or a side to decide
    Decision = nodes.Choose | nodes.ChooseNumber | nodes.ChooseAmong | nodes.ChooseTuple
    # the statements only a game gives meaning to
    GameStmt = (nodes.ForSorted | nodes.ChooseAmong | nodes.Activate | nodes.Travel
                | nodes.Withdraw | nodes.Concede | nodes.Deploy | nodes.Place | nodes.Face
                | nodes.Carry | nodes.PutDown | nodes.TravelClear | nodes.PlaceAt
                | nodes.PutAt | nodes.ChooseSpot | nodes.BringBack)

EDGES = ("north", "south", "east", "west")
CORNERS = ("northeast", "northwest", "southeast", "southwest")

# the argument types of the board's built-in questions; a marker kind stands for its nearest one
GAME_SIGNATURES = {
    "distance": ((FIGHTER, ), (FIGHTER, MARKER, PIECE, POSITION), NUMBER),
    "sees": ((FIGHTER, ), (FIGHTER, ), BOOL),
    "obscured": ((FIGHTER, ), (FIGHTER, ), BOOL),
    "contact": ((FIGHTER, ), (FIGHTER, PIECE), BOOL),
    "engaged": ((FIGHTER, ), None, BOOL),
    "pieces": ((MARKER, ), None, PIECES),   # pieces as values: every piece of a kind
    # moves the rules choose: standing in a zone; terrain with extent: in a marker's piece
    "inside": ((FIGHTER, ), (ZONE, MARKER, PIECE), BOOL),
    "partly_inside": ((FIGHTER, ), (MARKER, PIECE), BOOL),
    "carriers": ((FIGHTER, ), (EQUIPMENT, ), NUMBER),   # how many of a unit's models carry it
    # units of models with places: how many of a unit's models are in range (the third
    # argument, a number, is checked as one), see
    "models_in_range": ((FIGHTER, ), (FIGHTER, ), NUMBER),
    "models_seeing": ((FIGHTER, ), (FIGHTER, ), NUMBER),
}
# pieces as values: a piece's own fields (besides its kind's flags and counters), and which of
# them a rule may change
PIECE_BUILTINS = {"holder": SIDE, "held": BOOL, "carrier": FIGHTER, "carried": BOOL,
                  "carried_off": BOOL, "position": POSITION}
PIECE_SETTABLE = ("holder",)


THROUGH = ("friends", "everyone")   # travel's `through`: whose bases a move may pass


class GameChecker(CheckerParts):
    # ---- statements ------------------------------------------------------------------------------
    def through(self, through: nodes.Ident | None) -> None:
        """`travel ... through friends|everyone`: the bases a move may pass but not end on."""
        if through is not None and through.name not in THROUGH:
            self.error("E201", f"a move passes through 'friends' or 'everyone', not "
                               f"'{through.name}'", through.span,
                       hint=did_you_mean(through.name, THROUGH)
                       or "travel f up to 6 through friends (its own side's bases do not block "
                          "it; no move ends on a base)")

    def game_stmt(self, stmt: GameStmt, scope: Scope) -> None:  # noqa: C901 - one case per statement
        match stmt:
            case nodes.ForSorted(var=var, items=items, key=key, body=body, then=then):
                element = self.group_element(items, scope)
                inner = Scope(dict(scope.locals), scope.procedure, scope.result)
                inner.locals[var.name] = (element, var.span)
                for k in (key, *(k for _, k in then)):
                    kt = self.expr(k, inner)
                    if not numeric(kt):
                        self.error("E302", f"'by highest/lowest' orders by a number, not {kt}",
                                   k.span, hint="order by a number of it, such as a stat or a "
                                                "counter (a fighter's side's: f.side.Order)")
                self.block(body, inner)
            case nodes.ChooseAmong(name=name, group=group):
                self.decider(stmt, scope)
                element = self.group_element(group, scope)
                if element.kind == "equipment":   # a policy picks a fighter or a side
                    self.error("E302", "'choose ... among' picks a fighter, a side or a "
                                       "piece on the board, not a piece of equipment", group.span,
                               hint="choose among options instead: choose NAME by WHO "
                                    "{ option ... }")
                self.local(name, element, scope)
            case nodes.Activate(fighter=fighter, using=using, exclude=exclude, bind=bind):
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span,
                            "who is activated")
                for ident in using:
                    sym = self.lookup(ident.name)
                    if sym is None or sym.kind != "action":
                        self.unknown(ident, ("action",))
                if exclude is not None:
                    sym = self.lookup(exclude.name) if isinstance(exclude, nodes.Name) and \
                        exclude.name not in scope.locals else None
                    if sym is not None and sym.kind == "action":   # `except strike`
                        self.error("E302", "'except' leaves out an action by its name, a text, "
                                           "not the action itself", exclude.span,
                                   hint=f'write except "{sym.name}", or a name bound with '
                                        f"'as' (activate f as done, then except done)")
                    else:
                        self.expect(TEXT, self.expr(exclude, scope), exclude.span,
                                    "the action to leave out (a name bound with 'as')")
                if bind is not None:
                    self.local(bind, TEXT, scope)
            case nodes.Travel(fighter=fighter, distance=distance, target=target):
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span, "who travels")
                self.expect(NUMBER, self.expr(distance, scope), distance.span, "a distance")
                self.through(stmt.through)
                if target is not None:
                    where = self.expr(target, scope)
                    if where.kind not in ("fighter", "marker", "piece", "zone", "any"):
                        self.error("E302", f"where a fighter travels to must be a fighter or "
                                   f"a marker (or one piece, or a zone), not {where}", target.span,
                                   hint="travel f up to 6 to enemy (into base contact with it), "
                                        "to a marker's name (onto its nearest piece), to one "
                                        "piece (for each p in pieces(KIND)), or into a zone")
            case nodes.Withdraw(fighter=fighter, by=by):
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span,
                            "who leaves the table")
                self.remover(by, scope)
            case nodes.Concede(side=side):
                self.expect(SIDE, self.expr(side, scope), side.span, "the side that concedes")
            case nodes.Deploy(side=side, zone=zone):
                self.expect(SIDE, self.expr(side, scope), side.span, "the side deployed")
                self.zone_arg(zone, scope, "where it deploys")
            case nodes.BringBack(fighter=fighter, zone=zone):   # back into play
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span,
                            "who comes back into play (a casualty, or one withdrawn)")
                self.zone_arg(zone, scope, "where it comes back")
            case nodes.Place(count=count, kind=kind, by=by, zone=zone, apart=apart, at=at, to=to):
                sym = self.lookup(kind.name)
                if sym is None or sym.kind != "marker":
                    self.unknown(kind, ("marker",))
                if zone is not None:
                    self.zone_arg(zone, scope, "where")
                for part, expected, what in ((count, NUMBER, "how many"),
                                             (by, SIDE, "who places them"),
                                             (apart, NUMBER, "how far apart")):
                    if part is not None:
                        t = self.expr(part, scope)
                        self.expect(expected, t, part.span, what)
                        if expected is NUMBER:
                            self.require_fixed(t, part.span, what)
                for point in (at, to):
                    if point is not None:
                        self.point(point, scope)
                if stmt.area is not None:   # terrain with extent
                    self.area_piece(stmt, scope)
            # facing: `face f towards g`
            case nodes.Face(fighter=fighter, towards=towards):
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span, "who turns")
                self.expect(FIGHTER, self.expr(towards, scope), towards.span,
                            "whom it turns to face")
            # moves the rules choose
            case nodes.TravelClear(fighter=fighter, distance=distance):
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span, "who travels")
                self.expect(NUMBER, self.expr(distance, scope), distance.span, "a distance")
                self.through(stmt.through)
            # position as a value
            case nodes.PlaceAt(kind=kind, where=where):
                sym = self.lookup(kind.name)
                if sym is None or sym.kind != "marker":
                    self.unknown(kind, ("marker",))
                self.expect(POSITION, self.expr(where, scope), where.span,
                            "where it is placed (a position: f.position, p.position, or (x, y))")
            # carrying pieces
            case nodes.Carry(piece=piece, fighter=fighter):
                self.expect(PIECE, self.expr(piece, scope), piece.span, "what is picked up")
                self.expect(FIGHTER, self.expr(fighter, scope), fighter.span, "who carries it")
            case nodes.PutDown(piece=piece):
                self.expect(PIECE, self.expr(piece, scope), piece.span, "what is put down")
            case nodes.ChooseSpot(name=name, reach=reach, at=at):   # a spot on the board
                self.decider(stmt, scope)   # type: ignore[arg-type]
                rt = self.expr(reach, scope)
                self.expect(NUMBER, rt, reach.span, "how far the spot may be")
                self.require_fixed(rt, reach.span, "how far the spot may be")
                t = self.expr(at, scope)
                if t.kind not in ("fighter", "piece", "position", "any"):
                    self.error("E302", f"a spot is chosen near a fighter, a piece or a position, "
                                       f"not {t}", at.span,
                               hint="choose s within 6 of f by f (or of p, or of p.position)")
                self.local(name, POSITION, scope)
            case nodes.PutAt(piece=piece, where=where):   # moving a piece
                self.expect(PIECE, self.expr(piece, scope), piece.span, "what is moved")
                self.expect(POSITION, self.expr(where, scope), where.span,
                            "where it is put (a position: f.position, or p.position)")
            case _:  # pragma: no cover - the builder makes only the statements above
                raise TypeError(f"unknown statement {stmt!r}")

    def local(self, name: nodes.Ident, t: Type, scope: Scope) -> None:
        if name.name in scope.locals:
            self.error("E202", f"'{name.name}' is already a name here", name.span,
                       related=[Related(scope.locals[name.name][1], "first here")],
                       hint="choose another name")
        scope.locals[name.name] = (t, name.span)

    def group_element(self, group: nodes.Expr, scope: Scope) -> Type:
        t = self.expr(group, scope)
        if t.kind == "sides":
            return SIDE
        if t.kind == "entries":
            return ENTRY
        if t.kind == "gear":   # a fighter's equipment: its pieces
            return EQUIPMENT
        if t.kind == "traits":   # the traits a fighter or a piece has
            return TRAIT
        if t.kind == "pieces":   # pieces as values: the pieces of a kind on the board
            return Type("piece", t.name)
        if t.kind == "cards":   # decks and bags: the cards of a hand
            return Type("enum", t.name) if t.name else ANY
        self.expect(FIGHTERS, t, group.span, "a group")
        return FIGHTER

    def point(self, point: nodes.Point, scope: Scope) -> None:
        for part in (point.x, point.y):
            t = self.expr(part, scope)
            self.expect(NUMBER, t, part.span, "a position on the board")
            self.require_fixed(t, part.span, "a position on the board")

    def area_piece(self, stmt: nodes.Place, scope: Scope) -> None:
        """`place KIND area ...` (terrain with extent, game/terrain.py): its corners and radius
        are numbers written out (E336 otherwise), a rectangle has room inside, a circle a
        radius above 0, a polygon three corners or more."""
        numbers: list = []
        parts = [stmt.at, stmt.to, *stmt.corners]
        for point in parts:
            if point is not None:
                self.point(point, scope)
                numbers += [point.x, point.y]
        if stmt.radius is not None:
            self.expect(NUMBER, self.expr(stmt.radius, scope), stmt.radius.span, "a radius")
            numbers.append(stmt.radius)
        values = []
        for e in numbers:
            try:
                value = constant(e)
            except (ValueError, TypeError):
                value = None
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                self.error("E336", "an area's corners and radius are numbers written out",
                           e.span, hint="write them as numbers: place wood area (4, 4) to "
                                        "(10, 8); a half as 7/2")
                return
            values.append(value)
        if stmt.area == "circle" and values[-1] <= 0:
            self.error("E336", "a circle's radius is more than 0", numbers[-1].span,
                       hint="place pond area (12, 12) radius 3")
        elif stmt.area == "rectangle" and (values[0] == values[2] or values[1] == values[3]):
            self.error("E336", "a rectangle's two corners are opposite ones, apart in both "
                               "directions", stmt.span, hint="place wood area (4, 4) to (10, 8)")
        elif stmt.area == "polygon" and len(set(zip(values[::2], values[1::2]))) < 3:
            self.error("E336", "a polygon has three corners or more", stmt.span,
                       hint="place hill area (2, 2), (8, 2), (5, 7)")

    # ---- the board's questions -----------------------------------------------------------------------
    def game_call(self, e: nodes.Call, scope: Scope) -> Type:
        name = e.callee.name
        if name in AREA_FUNCTIONS:
            return self.area_call(e, scope)
        first, second, result = GAME_SIGNATURES[name]
        arity = GAME_FUNCTIONS[name]
        if len(e.args) != arity:
            self.error("E301", f"'{name}' takes {arity} argument{'s' if arity != 1 else ''}, "
                               f"not {len(e.args)}", e.span)
        for arg, allowed in zip(e.args, (first, second)):
            if allowed == (ZONE, ):   # a zone, or a zone named by a role
                self.zone_arg(arg, scope, f"the zone '{name}' asks about")
                continue
            if allowed is not None and ZONE in allowed and self.unknown_name(arg, scope):
                # inside(f, ZONE | KIND | p): a misspelt zone or kind of marker, with a
                # did-you-mean among both
                self.zone_arg(arg, scope, f"the zone '{name}' asks about", markers=True)
                continue
            t = self.expr(arg, scope)
            if allowed is not None and t.kind != "any" and t.kind not in (a.kind for a in allowed):
                words = " or ".join(str(a) for a in allowed)
                self.error("E302", f"'{name}' needs {words} here, not {t}", arg.span)
        if name == "models_in_range" and len(e.args) == 3:   # the range: a number
            t = self.expr(e.args[2], scope)
            self.expect(NUMBER, t, e.args[2].span, "the range")
            self.require_fixed(t, e.args[2].span, "the range")
        if name == "pieces" and e.args and isinstance(e.args[0], nodes.Name):
            return Type("pieces", e.args[0].name)   # of one kind: its flags and counters known
        return result

    # ---- areas and templates, facing (run/areas.py, game/facing.py) -------------------------------------
    def area_call(self, e: nodes.Call, scope: Scope) -> Type:
        """square(AT, SIDE, TOWARDS?), circle(AT, RADIUS), cone(FROM, TOWARDS, LENGTH, ANGLE?),
        line(FROM, TOWARDS, LENGTH, WIDTH): an area; in_front/in_rear(f, g, ARC?): yes or no."""
        name = e.callee.name
        fewest, most = AREA_FUNCTIONS[name]
        # what each argument is: a fighter, or a number (a size, or the angle of a cone or arc)
        kinds = {"square": "FNF", "circle": "FN", "cone": "FFNA", "line": "FFNN",
                 "in_front": "FFA", "in_rear": "FFA"}[name]
        words = {"square": "square(AT, SIDE) or square(AT, SIDE, TOWARDS)",
                 "circle": "circle(AT, RADIUS)",
                 "cone": "cone(FROM, TOWARDS, LENGTH) or cone(FROM, TOWARDS, LENGTH, ANGLE)",
                 "line": "line(FROM, TOWARDS, LENGTH, WIDTH)",
                 "in_front": "in_front(f, g) or in_front(f, g, ARC)",
                 "in_rear": "in_rear(f, g) or in_rear(f, g, ARC)"}[name]
        if not fewest <= len(e.args) <= most:
            count = str(fewest) if fewest == most else f"{fewest} or {most}"
            self.error("E301", f"'{name}' takes {count} arguments, not {len(e.args)}", e.span,
                       hint=f"write {words}")
        for arg, kind in zip(e.args, kinds):
            t = self.expr(arg, scope)
            if kind == "F" and name in ("in_front", "in_rear"):
                self.expect(FIGHTER, t, arg.span, f"where '{name}' is placed (a fighter)")
                continue
            if kind == "F":   # a fighter, a piece, or a position (f.position, a chosen spot)
                if t.kind not in ("fighter", "piece", "position", "any"):
                    self.error("E302", f"where '{name}' is placed must be a fighter, a piece or "
                                       f"a position, not {t}", arg.span,
                               hint="place it on a fighter (g), a piece (p), or a position "
                                    "(g.position, p.position)")
                continue
            self.expect(NUMBER, t, arg.span, "an angle in degrees" if kind == "A" else
                        "a size on the board")
            self.require_fixed(t, arg.span, f"the size of '{name}'")
            value = arg.value if isinstance(arg, nodes.Int) else None
            if value is not None and (value <= 0 or (kind == "A" and value > 360)
                                      or (kind == "A" and name == "cone" and value > 180)):
                top = 180 if name == "cone" else 360
                self.error("E322", f"{'an angle' if kind == 'A' else 'a size'} of "
                                   f"{value} {'degrees ' if kind == 'A' else ''}makes no "
                                   f"{'arc' if name.startswith('in_') else name}", arg.span,
                           hint=f"an angle is 1 to {top} degrees" if kind == "A" else
                           "a size is more than 0")
        return BOOL if name.startswith("in_") else AREA

    def under(self, e: nodes.Under, scope: Scope) -> Type:
        """`fighters under AREA` (a group) and `f is under AREA` (yes or no)."""
        t = self.expr(e.area, scope)
        if t.kind not in ("area", "any"):
            self.error("E302", f"'under' needs an area, not {t}", e.area.span,
                       hint="make one with square(g, 3), circle(g, 2), cone(f, g, 8) or "
                            "line(f, g, 12, 1)")
        if e.subject is None:
            return FIGHTERS
        self.expect(FIGHTER, self.expr(e.subject, scope), e.subject.span,
                    "who may be under the area")
        return BOOL
    # ---- pieces as values: their fields, and flags and counters declared on a kind -----------------
    def piece_field_type(self, subject: Type, field: nodes.Ident, mutable: bool) -> Type:
        """p.holder, p.held, or a flag or counter declared on the piece's kind (on any kind
        when the kind is not known)."""
        name = field.name
        if name in PIECE_BUILTINS:
            if mutable and name not in PIECE_SETTABLE:
                self.error("E308", f"a piece's '{name}' cannot be changed", field.span,
                           hint="set who holds it (set p.holder = s); carry it with "
                                "'pick up p by f' and 'put down p'")
            return PIECE_BUILTINS[name]
        candidates = list(PIECE_BUILTINS)
        for sym in self.table.globals.values():
            if sym.kind not in ("flag", "counter"):
                continue
            owner = cast(nodes.StateDecl, sym.decl).owner
            if owner in ("fighter", "side") or subject.name not in (None, owner):
                continue
            candidates.append(sym.name)
            if sym.name.lower() == name.lower():
                self.used.add(sym.name)
                return BOOL if sym.kind == "flag" else NUMBER
        self.error("E316", f"{subject} has no field '{name}'", field.span,
                   hint=did_you_mean(name, candidates) or
                   f"declare it on the kind: counter {name} on {subject.name or 'KIND'}")
        return ANY

    def piece_state(self, decl: nodes.StateDecl) -> None:
        """A flag or counter declared on a kind of marker: the kind must be one."""
        if decl.owner in ("fighter", "side"):
            return
        sym = self.lookup(decl.owner)
        if sym is None or sym.kind != "marker":
            self.used.add(decl.name.name)   # (unusable, not unused: one message is enough)
            self.error("E316", f"'{decl.owner}' is not a kind of marker, so nothing can keep "
                               f"{decl.kind} '{decl.name.name}'", decl.span,
                       hint=did_you_mean(decl.owner, self.table.names_of_kind("marker")) or
                       f"keep it on each fighter, each side, or the pieces of a marker: "
                       f"{decl.kind} {decl.name.name} on fighter")

    # ---- zones the ruleset can name ---------------------------------------------------------------
    def unknown_name(self, e: nodes.Expr, scope: Scope) -> bool:
        """Whether e is a bare name the rules do not know (no local, declaration or member)."""
        return isinstance(e, nodes.Name) and e.name not in scope.locals and \
            self.lookup(e.name) is None and not self.table.members.get(e.name) and \
            e.name not in self.unreadable

    def zone_arg(self, zone: nodes.Expr, scope: Scope, what: str, markers: bool = False) -> None:
        """Where a statement (or `inside`) wants a zone: a zone of the scenario, a zone the
        ruleset names by a role (`own_edge(f.side)` for a role per side), or a local holding
        one. A name that is none of these is E201 with a did-you-mean among the zones (and the
        kinds of marker, where one may stand instead: `markers`)."""
        if self.unknown_name(zone, scope):
            assert isinstance(zone, nodes.Name)
            zones = self.table.names_of_kind("zone", "zone role")
            kinds = self.table.names_of_kind("marker") if markers else []
            hint = self.suggest(zone.name, list(zones) + list(kinds) + list(scope.locals))
            if hint is None:
                hint = (f"the zones are {', '.join(zones)}" if zones and len(zones) <= 8 else
                        "a scenario declares its zones (zone NAME = edge south depth 6), a "
                        "ruleset the zones it names by a role (zone NAME per side)")
            shown = "zone or kind of marker" if markers else "zone"
            self.error("E201", f"unknown {shown} '{zone.name}'", zone.span, hint=hint)
            return
        self.expect(ZONE, self.expr(zone, scope), zone.span, what)

    def role_call(self, e: nodes.Call, decl: nodes.ZoneRoleDecl, scope: Scope) -> Type:
        """`own_edge(s)`: the zone a role per side names for side s."""
        name = decl.name.name
        if not decl.per_side:
            self.error("E302", f"'{name}' is one zone for every side, not a zone of each side",
                       e.span, hint=f"write {name} alone, or declare it 'zone {name} per side'")
        elif len(e.args) != 1:
            self.error("E301", f"'{name}' takes one argument, the side whose zone it is, not "
                               f"{len(e.args)}", e.span, hint=f"as in: {name}(f.side)")
        for arg in e.args:
            t = self.expr(arg, scope)
            if decl.per_side:
                self.expect(SIDE, t, arg.span, f"whose {name} it is")
        return ZONE

    def role_fills(self, decl: nodes.ScenarioDecl) -> None:
        """Each role the ruleset declares is played by one of the scenario's zones (per side:
        one for each side); a fill names a declared role, zones and sides of the scenario."""
        roles = {s.name: cast(nodes.ZoneRoleDecl, s.decl) for s in self.table.of_kind("zone role")}
        sides = [s.name.name for s in decl.sides]
        zones = [z.name.name for z in decl.zones]
        filled: dict[str, Span] = {}
        for fill in decl.roles:
            role = roles.get(fill.role.name)
            if fill.role.name in filled:
                self.error("E202", f"zone role '{fill.role.name}' is filled twice",
                           fill.role.span, related=[Related(filled[fill.role.name], "first here")],
                           hint="say which zones play it in one line")
                continue
            filled[fill.role.name] = fill.role.span
            if role is None:
                self.error("E201", f"unknown zone role '{fill.role.name}'", fill.role.span,
                           hint=self.suggest(fill.role.name, roles) or
                           f"declare it in the ruleset first: zone {fill.role.name} per side "
                           "(or without 'per side': one zone for every side)")
                continue
            for z in fill.zones:
                if z.zone.name not in zones:
                    self.error("E201", f"unknown zone '{z.zone.name}'", z.zone.span,
                               hint=did_you_mean(z.zone.name, zones) or
                               (f"the scenario's zones are {', '.join(zones)}" if zones else
                                "declare it first: zone NAME = edge south depth 6"))
                if z.side is not None and z.side.name not in sides:
                    self.unknown(z.side, ("side name",))
            self.role_sides(fill, role, sides)
        missing = [name for name in roles if name not in filled]
        if missing:
            shown = ", ".join(f"{name}{' (per side)' if roles[name].per_side else ''}"
                              for name in missing)
            example = missing[0]
            zones_text = (", ".join(f"ZONE for {s}" for s in sides[:2])
                          if roles[example].per_side else "ZONE")
            self.error("E340", f"scenario '{decl.name.name}' leaves {either(missing, 'and')} "
                               f"unfilled: the ruleset names {'them' if len(missing) > 1 else 'it'}"
                               f" by {'roles' if len(missing) > 1 else 'a role'} and each "
                               "scenario says which of its zones plays it", decl.name.span,
                       related=[Related(roles[name].name.span, f"'{name}' declared here")
                                for name in missing],
                       hint=f"fill {shown}, as in: zone {example} is {zones_text}")

    def role_sides(self, fill: nodes.RoleFill, role: nodes.ZoneRoleDecl,
                   sides: list[str]) -> None:
        """A role per side names a zone for every side, once each; a role for everyone one
        zone, for no side in particular."""
        name = role.name.name
        if not role.per_side:
            if len(fill.zones) != 1 or fill.zones[0].side is not None:
                self.error("E340", f"'{name}' is one zone for every side: the scenario names "
                                   "one zone for it, for no side in particular", fill.span,
                           hint=f"as in: zone {name} is ZONE (or declare it 'zone {name} per "
                                "side' in the ruleset)")
            return
        seen: dict[str, Span] = {}
        for z in fill.zones:
            if z.side is None:
                self.error("E340", f"'{name}' is a zone for each side: say whose this one is",
                           z.span, hint=f"as in: zone {name} is {z.zone.name} for {sides[0]}"
                           if sides else None)
            elif z.side.name in seen:
                self.error("E202", f"side '{z.side.name}' has two zones for '{name}'",
                           z.side.span, related=[Related(seen[z.side.name], "first here")],
                           hint="name one zone for each side")
            else:
                seen[z.side.name] = z.side.span
        left = [s for s in sides if s not in seen]
        if left and all(z.side is not None for z in fill.zones):
            self.error("E340", f"'{name}' is a zone for each side, and the scenario names none "
                               f"for {either(left, 'or')}", fill.span,
                       hint=f"add one: zone {name} is ..., ZONE for {left[0]}")

    # ---- declarations ------------------------------------------------------------------------------------
    def marker(self, decl: nodes.MarkerDecl) -> None:
        if decl.entered is not None:
            assert decl.entered_by is not None  # the builder gives both or neither
            scope = Scope({decl.entered_by.name: (FIGHTER, decl.entered_by.span)})
            self.block(decl.entered, scope)

    def scenario(self, decl: nodes.ScenarioDecl) -> None:
        empty = Scope({})
        if decl.board is None:
            self.error("E402", f"scenario '{decl.name.name}' has no board", decl.name.span,
                       hint="add one, as in: board 24 by 24 inches")
        else:
            for part in decl.board[:2]:
                t = self.expr(part, empty)
                self.expect(NUMBER, t, part.span, "the board's size")
                self.require_fixed(t, part.span, "the board's size")
                size = part.value if isinstance(part, nodes.Int) else None
                if size is not None and not 1 <= size <= MAX_BOARD:
                    self.error("E403", f"a board is 1 to {MAX_BOARD} {decl.board[2]} a side, "
                                       f"not {size}", part.span,
                               hint="a skirmish table is a few feet across: 24 by 24 inches, "
                                    "or 8 by 8 squares")
        if len(decl.sides) < 2:
            self.error("E402", f"scenario '{decl.name.name}' needs at least two sides",
                       decl.name.span, hint="add them, as in: side red from \"red.yaml\"")
        for side_decl in decl.sides:
            for spec in side_decl.fighters:
                self.fighter_spec(spec)
        for zone in decl.zones:
            known = EDGES if zone.shape == "edge" else CORNERS
            for where in zone.where:
                if where.name not in known:
                    self.error("E201", f"unknown {zone.shape} '{where.name}'", where.span,
                               hint=did_you_mean(where.name, known)
                               or f"the {zone.shape}s are {', '.join(known)}")
            if zone.size is not None:
                t = self.expr(zone.size, empty)
                self.expect(NUMBER, t, zone.size.span, "the zone's size")
                self.require_fixed(t, zone.size.span, "the zone's size")
            for point in zone.corners:
                self.point(point, empty)
        self.role_fills(decl)   # zones the ruleset can name
        if decl.round is None:
            self.error("E402", f"scenario '{decl.name.name}' has no round", decl.name.span,
                       hint="say what happens in each round, as in: round { ... }")
        for block in (decl.setup, decl.round):
            self.block(block, Scope({}))
        self.in_aftermath = True   # (campaigns: give, take and hire stand there)
        try:
            self.block(decl.aftermath, Scope({}))
        finally:
            self.in_aftermath = False
        for event in decl.events:   # the scenario's own events (event_checker.py)
            self.event(event)
        if decl.rounds is not None:
            t = self.expr(decl.rounds, empty)
            self.expect(NUMBER, t, decl.rounds.span, "the number of rounds")
            self.require_fixed(t, decl.rounds.span, "the number of rounds")
        for what, lines in (("score", decl.scores), ("value", decl.values)):
            first: dict[str, Span] = {}
            for side, *_ in lines:   # one of each per side: which would count?
                if side.name not in first:
                    first[side.name] = side.span
                    continue
                self.error("E202", f"side '{side.name}' has two {what}s", side.span,
                           related=[Related(first[side.name], "first here")],
                           hint=f"write the side's {what} as one expression")
        for side, expr, *_ in decl.scores + decl.values:
            sym = self.lookup(side.name)
            if sym is None or sym.kind != "side name":
                self.unknown(side, ("side name",))
            t = self.expr(expr, empty)
            if not numeric(t):
                self.error("E302", f"a score is a number, not {t}", expr.span)
            self.require_fixed(t, expr.span, "a score")
        for condition in decl.end_when:
            t = self.expr(condition, empty)
            self.expect(BOOL, t, condition.span, "the end condition")
            self.require_fixed(t, condition.span, "the end condition")

    def fighter_spec(self, spec: nodes.FighterSpecDecl) -> None:
        if len(spec.name) > MAX_NAME_CHARS:   # (named on every line of the log about it)
            self.error("E403", f"a fighter's name is at most {MAX_NAME_CHARS} characters, not "
                               f"{len(spec.name):,}", spec.span, hint="give it a shorter name")
        if spec.count > MAX_FIGHTERS:
            self.error("E403", f"a game holds at most {MAX_FIGHTERS} fighters, not {spec.count} "
                               f"'{spec.name}'", spec.span, hint="write a smaller count")
        if spec.fighter_class is not None:
            self.named(spec.fighter_class, "class")
        for ref in spec.traits:
            self.trait_ref(ref)
        for item in spec.equipment:
            self.named(item, "equipment")
        for stat, value in spec.stats:
            sym = self.named(stat, "stat")
            if sym is not None:
                self.settable(cast(nodes.StatDecl, sym.decl), stat, f"fighter '{spec.name}'")
            self.require_fixed(self.expr(value, Scope({})), value.span, "a stat")
        if spec.models is not None:   # units of several models
            self.fixed_number(spec.models, Scope({}), "a unit's models")


def game_name_type(sym: Symbol) -> Type | None:
    """The type of a scenario's own names used as values (and of the zones the ruleset names
    by a role)."""
    return {"side name": SIDE, "zone": ZONE, "marker": MARKER, "zone role": ZONE}.get(sym.kind)


__all__ = ["GameChecker", "game_name_type", "ANY"]
