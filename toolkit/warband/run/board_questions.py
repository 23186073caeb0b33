"""The game around the rules, as the interpreter sees it: the names that mean something in play
(every side, every fighter, a scenario's sides) and the board's questions, answered without a
board so that odds keep working. A game puts its own answers in their place (game/engine.py).

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.lang.absence import means_nobody
from warband.run import areas, units
from warband.run.evaluate import FAR
from warband.run.interpreter_parts import InterpreterParts
from warband.run.world import FIGHTER_REFS, PIECE_REFS, SIDE_REFS, Ref, World

if TYPE_CHECKING:
    from warband.run.host import GameHost


class BoardQuestions(InterpreterParts):
    # ---- the game around the rules ------------------------------------------------------------------
    game: GameHost | None = None   # set by the engine (game/engine.py) while a game is played
    blocks: dict = {}   # a game's setup, round and aftermath, by their names (game/engine.py)

    def global_value(self, name: str):
        """A name that means something in play: every side, every fighter in play, or a side of
        the scenario."""
        if name == "sides":
            return lambda world: tuple(SIDE_REFS[i] for i in range(len(world.sides)))
        if name == "fighters":   # every fighter in play, of every side, in the World's order
            return lambda world: tuple(FIGHTER_REFS[i] for i, f in enumerate(world.fighters)
                                       if not f.removed)
        if means_nobody(self.ruleset, name):   # no side, no fighter (lang/absence.py)
            return lambda world: None
        scenario = self.ruleset.scenario
        if scenario is not None:
            for i, side in enumerate(scenario.sides):
                if side.name.name == name:
                    ref = Ref("side", i)
                    return lambda world: ref
        return None

    def board_question(self, name: str, args: list, world: World):
        return getattr(self, "q_" + name)(*args, world)

    # The board's answers without a board: in reach, in sight, so that odds keep working. A
    # game puts its own (questions.Questions) in their place on its interpreter.
    def q_distance(self, a, b, world):
        # fighters and pieces stand side by side; a kind of marker has no piece and a position
        # is none without a board: as far as no piece, as on a board with none (evaluate.FAR)
        if type(b) is str or b is None or type(b) is tuple:
            return FAR
        return 0

    def q_sees(self, a, b, world):
        return True

    def q_obscured(self, a, b, world):
        return False

    def q_contact(self, a, b, world):
        return True

    def q_engaged(self, a, world):
        return False

    def q_carriers(self, a, piece, world):   # (no board question: the World answers it)
        return units.carriers(world, a, piece)

    # areas and templates, facing (run/areas.py): without a board an area holds the fighter it
    # is placed on or aimed at, and a fighter faces every other. A game on a board puts its own
    # in their place (game/facing.py), and keeps the fighters' facing in `facing`.
    facing = None

    def q_square(self, *args):
        return areas.make("square", args[:-1], args[-1], False)

    def q_circle(self, *args):
        return areas.make("circle", args[:-1], args[-1], False)

    def q_cone(self, *args):
        return areas.make("cone", args[:-1], args[-1], False)

    def q_line(self, *args):
        return areas.make("line", args[:-1], args[-1], False)

    def q_in_front(self, *args):
        if len(args) > 3:   # an arc worked out while the rules run is checked as on a board
            areas.check_size(args[2], "a facing arc", 360)
        return True

    def q_in_rear(self, *args):
        if len(args) > 3:
            areas.check_size(args[2], "a facing arc", 360)
        return False

    # pieces as values: without a board there are none
    def q_pieces(self, kind, world):   # (without a board: the pieces fighters carry, if any)
        return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces) if p.kind == kind)

    # moves the rules choose: without a board, everyone stands where the rules need them
    def q_inside(self, a, zone, world):
        return True
