"""The builder's rules for play on a board and scenarios (lang/nodes_board.py)."""

from __future__ import annotations

from lark import v_args

from warband.lang import nodes
from warband.lang.build_base import BuildBase, unquote


@v_args(meta=True)
class BoardBuilder(BuildBase):
    """Play on a board and scenarios, one method per grammar rule."""

    # ---- play on a board --------------------------------------------------------------------------
    def for_sorted_stmt(self, meta, c):
        var, items, high_low, key, *more, body = c
        then = tuple((str(more[i]) == "highest", more[i + 1]) for i in range(0, len(more), 2))
        return nodes.ForSorted(self.ident(var), items, high_low == "highest", key, body,
                             self.span(meta), then)

    def choose_among_stmt(self, meta, c):
        name, decider, group, doc = c
        return nodes.ChooseAmong(self.ident(name), decider, group, doc, self.span(meta))

    def choose_spot_stmt(self, meta, c):   # a spot on the board (lang/nodes_board.py)
        name, reach, at, decider, doc = c
        return nodes.ChooseSpot(self.ident(name), decider, reach, at, doc, self.span(meta))

    # several values at once: a decision that picks a number for each of several names
    def choose_tuple_stmt(self, meta, c):
        name, names, decider, low, high, where, default, doc = c
        return nodes.ChooseTuple(self.ident(name), names, decider, low, high, where, default,
                                 doc, self.span(meta))

    def tuple_names(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def tuple_values(self, meta, c):
        return tuple(c)

    def tuple_expr(self, meta, c):
        return nodes.TupleExpr(tuple(c), self.span(meta))

    def tuple_types(self, meta, c):
        return tuple(c)

    def let_tuple_stmt(self, meta, c):
        return nodes.LetTuple(c[0], c[1], self.span(meta))

    def procedure_tuple_decl(self, meta, c):
        name, params, results, doc, body = c
        return nodes.ProcedureDecl("procedure", self.ident(name), params or (), results[0], doc,
                                   None, body, self.span(meta), results)

    def using(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def activate_stmt(self, meta, c):
        fighter, using, exclude, bind = c
        return nodes.Activate(fighter, using or (), exclude,
                            self.ident(bind) if bind is not None else None, self.span(meta))

    def travel_stmt(self, meta, c):
        return nodes.Travel(c[0], c[1], False, c[2], self.span(meta), c[3])

    def travel_away_stmt(self, meta, c):
        return nodes.Travel(c[0], c[1], True, None, self.span(meta), c[2])

    def withdraw_stmt(self, meta, c):
        return nodes.Withdraw(c[0], self.span(meta), c[1])

    # facing: `face f towards g`
    def face_stmt(self, meta, c):
        return nodes.Face(c[0], c[1], self.span(meta))

    def concede_stmt(self, meta, c):
        return nodes.Concede(c[0], self.span(meta))

    def deploy_stmt(self, meta, c):
        return nodes.Deploy(c[0], c[1], self.span(meta))

    def bring_back_stmt(self, meta, c):   # back into play
        return nodes.BringBack(c[0], c[1], self.span(meta))

    def point(self, meta, c):
        return nodes.Point(c[0], c[1], self.span(meta))

    def place_stmt(self, meta, c):
        count, kind, by, zone, apart = c
        return nodes.Place(count, self.ident(kind), by, zone, apart, None, None, self.span(meta))

    def place_at_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], None, self.span(meta))

    def place_wall_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], c[2], self.span(meta))

    # terrain with extent (game/terrain.py)
    def place_rectangle_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], c[2], self.span(meta),
                           "rectangle")

    def place_circle_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], None, self.span(meta),
                           "circle", (), c[2])

    def place_polygon_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], None, self.span(meta),
                           "polygon", tuple(c[2:]))

    # moves the rules choose
    def travel_clear_stmt(self, meta, c):
        return nodes.TravelClear(c[0], c[1], self.span(meta), c[2])

    def through(self, meta, c):
        return self.ident(c[0])

    # position as a value
    def place_at_value_stmt(self, meta, c):
        return nodes.PlaceAt(self.ident(c[0]), c[1], self.span(meta))

    # carrying pieces
    def carry_stmt(self, meta, c):
        return nodes.Carry(c[0], c[1], self.span(meta))

    def put_down_stmt(self, meta, c):
        return nodes.PutDown(c[0], self.span(meta))

    def put_at_stmt(self, meta, c):   # moving a piece (lang/nodes_board.py)
        return nodes.PutAt(c[0], c[1], self.span(meta))

    def marker_prop(self, meta, c):
        return str(c[0])

    def marker_entered(self, meta, c):
        return self.ident(c[0]), c[1]

    def marker_decl(self, meta, c):
        name, doc, *rest = c
        entered = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], tuple)) \
            else None
        by, body = entered if entered else (None, None)
        return nodes.MarkerDecl(self.ident(name), doc, tuple(rest), by, body, self.span(meta))

    def board_unit(self, meta, c):
        return str(c[0])

    def board(self, meta, c):
        return "board", (c[0], c[1], c[2])

    def side_from(self, meta, c):
        return "side", nodes.SideDecl(self.ident(c[0]), c[1], unquote(c[2]), (), self.span(meta))

    def side_inline(self, meta, c):
        name, doc, *specs = c
        return "side", nodes.SideDecl(self.ident(name), doc, None, tuple(specs), self.span(meta))

    def spec_class(self, meta, c):
        return "class", self.ident(c[0])

    def spec_models(self, meta, c):   # units of several models
        return "models", c[0]

    def fighter_spec(self, meta, c):
        name, count, *entries = c
        cls, traits, equipment, stats = None, [], [], []
        models = None
        for entry in entries:
            kind, value = entry
            if kind == "class":
                cls = value
            elif kind == "traits":
                traits.extend(value)
            elif kind == "equipment":
                equipment.extend(value)
            elif kind == "stat":
                stats.append(value)
            elif kind == "models":   # units of several models
                models = value
        return nodes.FighterSpecDecl(unquote(name), int(count) if count is not None else 1, cls,
                                   tuple(traits), tuple(equipment), tuple(stats),
                                   self.span(meta), models)

    def zone(self, meta, c):
        name, doc, (shape, where, size, corners) = c
        return "zone", nodes.ZoneDecl(self.ident(name), doc, shape, where, size, corners,
                                    self.span(meta))

    # zones the ruleset can name
    def zone_role_decl(self, meta, c):
        name, per_side, doc = c
        return nodes.ZoneRoleDecl(self.ident(name), doc, per_side is not None, self.span(meta))

    def role_per_side(self, meta, c):
        return True

    def role_zone(self, meta, c):
        zone, side = c
        return nodes.RoleZone(self.ident(zone), self.ident(side) if side is not None else None,
                              self.span(meta))

    def zone_role_fill(self, meta, c):
        name, *zones = c
        return "role", nodes.RoleFill(self.ident(name), tuple(zones), self.span(meta))

    def zone_edge(self, meta, c):
        return "edge", tuple(self.ident(t) for t in c[:-1]), c[-1], ()

    def zone_corner(self, meta, c):
        return "corner", tuple(self.ident(t) for t in c[:-1]), c[-1], ()

    def zone_area(self, meta, c):
        return "area", (), None, (c[0], c[1])

    def zone_everywhere(self, meta, c):
        return "everywhere", (), None, ()

    def setup(self, meta, c):
        return "setup", c[1]

    def round(self, meta, c):
        return "round", c[1]

    def aftermath(self, meta, c):
        return "aftermath", c[1]

    def round_limit(self, meta, c):
        return "rounds", c[0]

    def score(self, meta, c):
        return "score", (self.ident(c[0]), c[2], c[1])

    def value(self, meta, c):
        return "value", (self.ident(c[0]), c[2])

    def end_when(self, meta, c):
        return "end", c[0]

    def scenario_decl(self, meta, c):
        name, doc, *entries = c
        parts: dict = {"board": None, "side": [], "zone": [], "role": [], "setup": None,
                       "round": None, "aftermath": None, "rounds": None, "score": [], "value": [],
                       "end": []}
        events = tuple(e for e in entries if isinstance(e, nodes.EventDecl))
        for kind, value in (e for e in entries if not isinstance(e, nodes.EventDecl)):
            if isinstance(parts[kind], list):
                parts[kind].append(value)
            else:
                parts[kind] = value
        return nodes.ScenarioDecl(self.ident(name), doc, parts["board"], tuple(parts["side"]),
                                tuple(parts["zone"]), parts["setup"], parts["round"],
                                parts["rounds"], tuple(parts["score"]), tuple(parts["value"]),
                                tuple(parts["end"]), self.span(meta), parts["aftermath"],
                                events, tuple(parts["role"]))
