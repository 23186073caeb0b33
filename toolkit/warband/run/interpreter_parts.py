"""What each part of the interpreter (the game around the rules, the entry points, lazy rolls,
statements, what expressions read) may use of the whole Interpreter it is mixed into: declared
once, for the type checker only, so that the parts read as the methods of one class they are."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random

    from warband.lang import nodes
    from warband.lang.ruleset import Ruleset
    from warband.run.board_view import BoardView
    from warband.run.decisions import Policies
    from warband.run.evaluate import Compiler
    from warband.run.campaign import Aftermath
    from warband.run.host import GameHost, Recorder
    from warband.run.world import Ref, World


class InterpreterParts:
    if TYPE_CHECKING:  # what the Interpreter provides, whichever part defines it
        ruleset: Ruleset
        compiled: bool
        programs: dict
        policies: Policies
        rng: random.Random
        choice_rng: random.Random
        exact_mode: bool
        max_branches: int | None
        observing: bool
        actor_side: int
        acting: Ref | None
        acting_with: tuple
        roller: dict | None
        score: Callable
        branches: int
        rolled: dict
        roll_context: tuple | None
        steps: int
        in_sampled_run: bool
        counting: int
        uniform: str | None
        drawn: int
        fn: Compiler
        memo: dict
        conts: dict
        memoise: bool
        merging: bool
        valuing: bool
        value_memo: dict
        cutoff: tuple | None
        cuts: int
        killers: dict
        running: object
        result_score: Callable
        merge: bool
        prune: bool
        forget: bool
        plain_first: bool
        unread: tuple | None
        cont_deps: dict
        live_at: dict
        live_after: dict
        last_state: tuple
        state_ids: dict
        last_keyed: tuple
        synthetic: dict
        tables: dict
        pure_tables: dict
        derived: dict
        fighter_fields: dict[str, tuple[str, str]]
        side_fields: dict[str, str]
        piece_fields: frozenset[str]
        game: GameHost | None
        board: BoardView
        blocks: dict
        campaign: Aftermath | None
        recorder: Recorder | None
        events_running: set   # (run/events.py)
        recording: bool
        probing: bool
        in_action: int

        def global_value(self, name: str): ...
        def intern(self, key, make, *within): ...
        def fell_off(self, decl, world, ret): ...
        def live(self, expr, env: dict, world: World) -> list[int]: ...
        def split(self, ids, world: World, then: Callable): ...
        def mix(self, parts): ...
        def evaluate(self, expr, env: dict, world: World, then: Callable): ...
        def plain(self, expr, env: dict, world: World, then: Callable): ...
        def branch(self, cond, env: dict, world: World, yes: Callable, no: Callable): ...
        def block(self, stmts, i: int, env: dict, world: World, k: Callable,
                  ret: Callable): ...
        def field(self, subject, name: str, world: World): ...
        def choose(self, stmt: nodes.Choose, env, world, k, ret): ...
        def choose_number(self, stmt: nodes.ChooseNumber, env, world, k, ret): ...
        def choose_among(self, stmt: nodes.ChooseAmong, env, world, k, ret): ...
        def choose_tuple(self, stmt: nodes.ChooseTuple, env, world, k, ret): ...
