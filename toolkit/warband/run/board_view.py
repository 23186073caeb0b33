"""The board as the interpreter sees it: the questions rules ask of it (distance, sees,
contact, ...), the areas they place on it, and the way fighters face.

The interpreter is given one object that answers them (`Interpreter.use_board`), and its
generated code asks it straight (`I.board.contact(a, b, world)`). Without a game the answers
are NoBoard's, so that odds keep working: everyone stands where the rules need them, in
reach and in sight. A game on a board gives its own (game/questions.py, game/facing.py).

Every question takes the fighters' Refs (or pieces, positions, kinds of marker) and the World
last: the board keeps nothing of a game's state but the fighters' facing, which a game's
state holds (game/state.py).
"""

from __future__ import annotations

from typing import Protocol

from warband.run import areas, units
from warband.run.evaluate import FAR
from warband.run.world import PIECE_REFS

# the board's questions, by the rules' names (lang/symbols.py GAME_FUNCTIONS): every one is
# a method of a BoardView
QUESTIONS = ("distance", "sees", "obscured", "contact", "engaged", "pieces", "inside",
             "partly_inside",
             "carriers", "models_in_range", "models_seeing", "square", "circle", "cone", "line", "in_front", "in_rear")


class BoardView(Protocol):
    """What the interpreter asks of a board."""

    def distance(self, a, b, world): ...
    def sees(self, a, b, world) -> bool: ...
    def obscured(self, a, b, world) -> bool: ...
    def contact(self, a, b, world) -> bool: ...
    def engaged(self, a, world) -> bool: ...
    def pieces(self, kind, world) -> tuple: ...
    def inside(self, a, zone, world) -> bool: ...
    def partly_inside(self, a, where, world) -> bool: ...   # terrain with extent
    def carriers(self, a, piece, world) -> int: ...
    # units of models with places: how many of a unit's models are in range, see
    def models_in_range(self, a, b, reach, world): ...
    def models_seeing(self, a, b, world): ...
    # areas and templates (run/areas.py), facing: the world is the last argument
    def square(self, *args): ...
    def circle(self, *args): ...
    def cone(self, *args): ...
    def line(self, *args): ...
    def in_front(self, *args) -> bool: ...
    def in_rear(self, *args) -> bool: ...

    def face(self, ref, target, world) -> None:
        """`face f towards g` (sampled runs only: exact look-ahead turns nobody)."""


class NoBoard:
    """The answers without a board: in reach, in sight, and nobody else anywhere."""

    def distance(self, a, b, world):
        # fighters and pieces stand side by side; a kind of marker has no piece and a position
        # is none without a board: as far as no piece, as on a board with none (evaluate.FAR)
        if type(b) is str or b is None or type(b) is tuple:
            return FAR
        return 0

    def sees(self, a, b, world) -> bool:
        return True

    def obscured(self, a, b, world) -> bool:
        return False

    def contact(self, a, b, world) -> bool:
        return True

    def engaged(self, a, world) -> bool:
        return False

    def pieces(self, kind, world) -> tuple:   # (the pieces fighters carry, if any)
        return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces) if p.kind == kind)

    def inside(self, a, zone, world) -> bool:   # moves the rules choose: where they need
        return True

    def partly_inside(self, a, where, world) -> bool:   # terrain with extent: where they need
        return True

    def carriers(self, a, piece, world) -> int:   # (the World answers it, board or none)
        return units.carriers(world, a, piece)

    # units of models with places: without a board every model is in range and in sight
    def models_in_range(self, a, b, reach, world):
        return world.fighters[a[1]].values.get("#models", 1)

    def models_seeing(self, a, b, world):
        return world.fighters[a[1]].values.get("#models", 1)

    # an area holds the fighter it is placed on or aimed at; a fighter faces every other
    def square(self, *args):
        return areas.make("square", args[:-1], args[-1], False)

    def circle(self, *args):
        return areas.make("circle", args[:-1], args[-1], False)

    def cone(self, *args):
        return areas.make("cone", args[:-1], args[-1], False)

    def line(self, *args):
        return areas.make("line", args[:-1], args[-1], False)

    def in_front(self, *args) -> bool:
        if len(args) > 3:   # an arc worked out while the rules run is checked as on a board
            areas.check_size(args[2], "a facing arc", 360)
        return True

    def in_rear(self, *args) -> bool:
        if len(args) > 3:
            areas.check_size(args[2], "a facing arc", 360)
        return False

    def face(self, ref, target, world) -> None:
        return None


NO_BOARD = NoBoard()
