"""The game around the rules, as the interpreter sees it: the names that mean something in play
(every side, every fighter, a scenario's sides) and the board it asks its questions of
(run/board_view.py): NoBoard's answers, so that odds keep working, until a game gives its own
(game/engine.py).

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.lang.absence import means_nobody
from warband.run.board_view import NO_BOARD, BoardView
from warband.run.interpreter_parts import InterpreterParts
from warband.run.world import FIGHTER_REFS, SIDE_REFS, Ref, World

if TYPE_CHECKING:
    from warband.run.campaign import Aftermath
    from warband.run.host import GameHost


class BoardQuestions(InterpreterParts):
    # ---- the game around the rules ------------------------------------------------------------------
    game: GameHost | None = None   # set by the engine (game/engine.py) while a game is played
    blocks: dict = {}   # a game's setup, round and aftermath, by their names (game/engine.py)
    # campaigns: while a game's aftermath runs, what it does to the warbands (run/campaign.py)
    campaign: Aftermath | None = None

    def global_value(self, name: str):
        """A name that means something in play: every side, every fighter in play, a side of
        the scenario, or the zone the scenario names for a role of the ruleset."""
        if name == "sides":
            return lambda world: tuple(SIDE_REFS[i] for i in range(len(world.sides)))
        if name == "fighters":   # every fighter in play, of every side, in the World's order
            return lambda world: tuple(FIGHTER_REFS[i] for i, f in enumerate(world.fighters)
                                       if not f.removed)
        if means_nobody(self.ruleset, name):   # no side, no fighter (lang/absence.py)
            return lambda world: None
        zone = self.ruleset.role_zones.get(name)
        if type(zone) is str:   # zones the ruleset can name: the scenario's zone for a role
            return lambda world: zone
        scenario = self.ruleset.scenario
        if scenario is not None:
            for i, side in enumerate(scenario.sides):
                if side.name.name == name:
                    ref = Ref("side", i)
                    return lambda world: ref
        return None

    # the board's answers (run/board_view.py): without a game's board, NoBoard's
    board: BoardView = NO_BOARD

    def use_board(self, board: BoardView) -> None:
        """Answer the rules' questions of the board (and areas, facing) from this one."""
        self.board = board

    def board_question(self, name: str, args: list, world: World):
        return getattr(self.board, name)(*args, world)
