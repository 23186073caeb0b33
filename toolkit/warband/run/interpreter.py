"""Runs compiled rules, exactly or by sampling, from the very same AST.

Statements run in continuation-passing style: each statement receives "what happens next" as a
function. In sampling mode a roll gives one seeded value and the code follows one path. In exact
mode a roll gives a distribution, kept whole (a LazyRef) until a rule asks a question of it: an
`if` then splits it into the outcomes for which the answer is yes and those for which it is no,
and follows each with its probability. Because the rest of the rule is a function, a decision can
look ahead: the greedy policy runs each option's future exactly and keeps the best (expectimax).

Rules are total by construction (the checker rejects recursion; loops are bounded), so every
evaluation ends.

The Interpreter is made of its parts, one module each: the game around the rules and the board's
questions (board_questions.py), the entry points (entry_points.py), lazy rolls (lazy_rolls.py),
statements (statements.py), what expressions read (expr_reads.py) and decisions (decisions.py);
interpreter_parts.py declares what the parts use of one another.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from warband.lang.ruleset import Ruleset
from warband.lang.units import UNIT_FIELDS
from warband.run import events
from warband.run.board_questions import BoardQuestions
from warband.run.decisions import POLICIES, Decisions, Policies
from warband.run.entry_points import EntryPoints
from warband.run.evaluate import Compiler, Record, RulesError
from warband.run.expr_reads import ExpressionReads
from warband.run.lazy_rolls import LazyRolls
from warband.run.statements import Statements
from warband.run.world import Ref, piece_fields

__all__ = ["POLICIES", "Interpreter", "Policies", "Record", "RulesError"]


class Interpreter(BoardQuestions, EntryPoints, LazyRolls, Statements, ExpressionReads,
                  Decisions):
    # Whether exact runs may merge equal situations (run/merging.py); False follows every path
    # on its own, as before issue 35: the tests' twin of a merged run
    merge = True
    # Whether a greedy decision of such a run leaves unfinished the options a later decision
    # shows cannot be taken (run/weighing.py); False weighs every option whole: the tests' twin
    prune = True
    # Whether such a run leaves out of its situations the fighters' and sides' values nothing
    # the action reads, while it gives the result alone (run/merging.py); False: the tests' twin
    forget = True
    # Whether an exact run that weighs no decision is first tried path by path, unmerged, within
    # a few hundred steps (EntryPoints.exact); False merges from the start: the tests' twin
    plain_first = True

    def __init__(self, ruleset: Ruleset, policies: Policies | None = None,
                 rng: random.Random | None = None, compiled: bool = True,
                 choice_rng: random.Random | None = None) -> None:
        self.ruleset = ruleset
        # Sampled runs and 'requires' go through rules translated to Python (run/codegen/) unless
        # compiled=False; exact runs, look-ahead and probing always run here.
        # (rules with events that fire inside rules run here: run/events.py)
        self.compiled = compiled and not events.watched(ruleset)
        self.programs: dict = {}   # the run's policy -> codegen.program_for(self, policy)
        self.policies = policies or Policies()
        self.rng = rng or random.Random(0)
        # Random choices draw from their own stream, so that a replay whose decisions come from
        # a script sees exactly the same dice as the game it replays. (Its seed is drawn from
        # the dice even when the caller gives the stream, a game its own: the dice stay the
        # same, and a game makes no Random it throws away.)
        seed = self.rng.random()
        self.choice_rng = random.Random(seed) if choice_rng is None else choice_rng
        self.exact_mode = True
        # MAX_BRANCHES when None; a game's look-ahead sets a smaller budget
        self.max_branches: int | None = None
        self.observing = False
        self.actor_side = 0
        # the fighter whose action is running (a game's activation, an odds question's actor):
        # who a `remove` with no `by` says removed its fighter (game/engine.py sets it)
        self.acting: Ref | None = None
        self.acting_with: tuple = ()   # and the fighters its action was taken on (a log's)
        # a recorded game: who rolls the dice rolling now, as `d6 rolled by target` says (a
        # side's and a fighter's names: roll_labels.roller); None otherwise
        self.roller: dict | None = None
        self.score: Callable = lambda v: 0
        self.branches = 0
        # the rolls drawn in exact mode: id(roll node) -> [node, times drawn, outcomes drawn],
        # read only to say which roll made the work explode (E504: run/toomuch.py)
        self.rolled: dict = {}
        # a recorded game: what the `dice` argument rolling now is for, and who rolls it
        # (run/roll_labels.py); None otherwise
        self.roll_context: tuple | None = None
        self.steps = 0               # work done by this evaluation: see budget.py
        self.in_sampled_run = False   # inside a run of generated code (a nested run shares
        #                               its budget)
        self.counting = 0             # 1 inside another evaluation whose work is counted
        self.uniform: str | None = None   # the policy of every decision of that run, if one is
        self.drawn = 0   # rolls made in this run (a decision before any is made up front)
        self.fn = Compiler(self)
        # Exact evaluation memoises block(...) by code position, state and continuation; the
        # continuations are interned so that equal futures are the same object (and id).
        self.memo: dict = {}
        self.conts: dict = {}
        # whether block(...) memoises now (run_cps sets it; a procedure that generated code
        # leaves to the interpreter may run before any run_cps: rt.interpreted)
        self.memoise = False
        # Exact odds merge situations (run/merging.py): whether this run does (run_cps sets
        # it; a game's look-ahead, which has a budget of its own, max_branches, does not)
        self.merging = False
        # while a greedy decision of such a run weighs its options: each path gives its
        # expected score, not a distribution (Decisions.look_ahead); memoised apart
        self.valuing = False
        self.value_memo: dict = {}
        # and the options a later decision shows cannot be taken are left unfinished
        # (run/weighing.py): the best worth so far of the decision weighing, the cuts not yet
        # settled (their worths are no situation's: not memoised), and each decision's answer
        # that was best the last time it was weighed
        self.cutoff: tuple | None = None
        self.cuts = 0
        self.killers: dict = {}
        self.running = None   # the procedure an exact run runs (run/situations.py names calls)
        self.events_running: set = set()   # the events whose rules are running (run/events.py)
        self.result_score: Callable = self.score   # what a result scores (not a pair's)
        self.cont_deps: dict = {}   # id of an interned continuation -> the rolls it reads
        self.live_at: dict = {}      # run/liveness.py: the live names of each block, by id
        self.live_after: dict = {}   # and those a call's continuation keeps, by statement
        self.last_state: tuple = (None, None, None, None, None)   # (as last_keyed, when merging)
        # the fighters' and sides' values this run's situations may leave out (merging.py)
        self.unread: tuple | None = None
        self.state_ids: dict = {}   # World.state_key() -> its number in this run's memo keys
        # the last World whose key a memo key took, and that key: statements in a row mostly
        # share their World, and its key walks every fighter (a World never changes, and only
        # Worlds are memoised: a Draft has no key)
        self.last_keyed: tuple = (None, None)
        self.synthetic: dict = {}
        self.tables: dict = {}        # (table, arguments) -> row, for tables in pure_tables
        self.pure_tables: dict = {}   # id of a table -> whether it reads only its arguments
        self.derived: dict = {}   # a derived stat's name -> (fighter's name, value, condition)
        fields: dict[str, tuple[str, str]] = {}
        for name, stat in ruleset.stats.items():
            fields[name.lower()] = ("derived" if stat.derived is not None else "value", name)
        for name, state in ruleset.states.items():
            if state.owner == "fighter":
                fields[name.lower()] = ("value", name)
        for name in ruleset.traits:
            fields[name.lower()] = ("trait", name)
        if ruleset.has_units:   # units of several models: their values, unless a name is declared
            for name, key in UNIT_FIELDS.items():
                fields.setdefault(name, ("value", key))
        self.fighter_fields = fields
        self.side_fields = {n.lower(): n for n, s in ruleset.states.items() if s.owner == "side"}
        self.piece_fields = piece_fields(ruleset)   # pieces as values: their fields' names
