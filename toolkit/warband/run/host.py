"""What the interpreter asks of a game it runs in: the host protocol.

Outside a game (the odds of one action, an army rule) the interpreter runs on its own; in a
game the engine (game/engine.py) sets itself as `Interpreter.game` and answers the statements
only a board and its players can: activate, travel, deploy, place and concede, and the choices
a player makes by looking ahead (weigh); a game's log records the dice and the choices. The run layer declares what it needs here, and the
game layer above implements it: the interpreter never imports the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from warband.lang import nodes
    from warband.run.world import Ref, World


# moves the rules choose: the target of `travel f up to D not into contact`, as the interpreter
# and generated code hand it to the game's travel
CLEAR = "not into contact"


class Recorder(Protocol):
    """A game's log, while a game is recorded or replayed: the dice rolled and the choices
    made; in a replay, the recorded choices (`script`) taken instead of the policies'."""

    record: bool
    script: Any   # the recorded events still to replay, or None

    def rolled(self, value: Any, fields: dict) -> None:
        """A roll: its value, and what run/roll_labels.roll_event says of it."""

    def changed(self, who: dict, field: str, old: Any, new: Any) -> None:
        """A rule's `set` changed a fighter's or a side's value."""

    def out_of_play(self, fighter: str, side: str, withdrawn: bool, by: dict) -> None:
        """A rule removed a fighter from play, or withdrew it; `by`: who did (removal_by)."""

    def called(self, procedure: str, fighters: list[str]) -> None:
        """A procedure called on fighters other than the one acting (names, in order)."""

    def tested(self, label: str, test: str, made: bool) -> None:
        """A roll labelled `label` was compared later by the rules (`roll < band.stun (15)`)."""

    def phase(self, name: str, by: dict | None) -> None:
        """A phase begins (its name, and the side or fighter it is of), a header."""

    def event_ran(self, name: str, when: str, why: str | None) -> None:
        """An event's rule runs (run/events.py): its name, its trigger, why it fired."""

    def decided(self, kind: str, side: str | None, choice: Any) -> None: ...

    def scripted(self, kind: str, labels: list | None) -> Any: ...

    def pieces(self, world: Any) -> None:
        """Pieces as values: log what changed of the pieces since the log last looked."""


class GameHost(Protocol):
    """The game the interpreter runs in (see the module's docstring)."""

    # whether actions go straight to generated code, a turn's Draft changed in place
    direct: bool
    # whether a player may play on from a decision past the run it is in: the interpreter
    # runs the game's blocks then, never generated code (which cannot stop in the middle)
    positions: bool

    def weigh(self, side: int, name: str, legal: list, show: Callable[[Any], Any],
              run: Callable[[Any, World], Any], world: World) -> int:
        """A decision the rules name, in a sampled run, by a player that weighs its options
        (greedy, mcts): the index of the option it takes among `legal`. `run(option, world)`
        is the rest of the run once the option is taken; `show` labels an option."""

    def casualties(self, ref: Ref, places: list, lost: int, world: World) -> list[int]:
        """Units of models with places whose casualties are the owner's choice: which of the
        models at `places` fall (`lost` of them, indices, in the order they fall), as the
        unit's side's player picks them (run/places.py; sampled runs only)."""

    def statement(self, stmt: nodes.Stmt, env: dict, world: World,
                  next_: Callable[[dict, World], Any]) -> Any:
        """Run a game statement (activate, travel, concede, deploy, place, bring back), then
        next_."""

    def activate_now(self, stmt: nodes.Activate, ref: Ref, exclude: str | None, world: World,
                     generated: bool = False) -> tuple[str, World]: ...

    def travel(self, ref: Ref, reach: Any, away: bool, world: World,
               target: Any = None, through: str | None = None) -> World:
        """Move a fighter up to `reach` (away from the enemy when `away`; towards `target`, a
        fighter's Ref or a marker's kind, when one is given; else where its player picks),
        passing through the bases `through` says ("friends", "everyone"; None: none)."""

    def deploy_now(self, stmt: nodes.Deploy, side: Ref, zone_name: str,
                   world: World) -> World: ...

    def bring_back_now(self, stmt: nodes.BringBack, ref: Ref, zone_name: str,
                       world: World) -> World:
        """Back into play: a fighter out of play placed again in a zone by its side."""

    def place_now(self, stmt: nodes.Place, at: Any, to: Any, count: Any, zone_name: Any,
                  apart: Any, by: Any, world: World) -> World:
        """The pieces placed: the World after it holds their state (pieces as values)."""

    def concede_now(self, ref: Ref, world: World) -> World: ...

    def blocked(self, at: Any) -> bool:
        """Whether nothing may lie at a position: off the board, or on an impassable piece
        (moving a piece, run/carrying.py)."""

    def spots(self, centre: Any, reach: Any, world: World, every: bool) -> list:
        """A spot on the board (run/spots.py): every spot within reach of centre, or the short
        list a greedy player weighs (game/spots.py)."""

    def spot_fits(self, centre: Any, reach: Any, spot: Any) -> bool:
        """Whether a spot named by a policy or a record may be chosen."""

    def note_moved(self, label: str, at: Any) -> None:
        """Tell the game's log that a piece now lies elsewhere (moving a piece)."""
