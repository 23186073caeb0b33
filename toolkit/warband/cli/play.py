"""`warband play`: one game, its record printed (text or JSON) or saved, and replays of a record.

A record (`-o game.json`, or `--format json`) holds the scenario, the seed, the players'
policies and every event. `--replay game.json` plays the game again taking every choice from the
record, checks that each roll and each result comes out as recorded, and prints it.
"""

from __future__ import annotations

import json
import sys

import typer

from warband.cli.common import FINDINGS, OK, Format, fail, write_output
from warband.cli.options import parse_policies, whole_number


def play(
    scenario: str | None, seed: str, policy: list[str], max_rounds: str | None, fmt: Format,
    output: str | None, force: bool, replay: str | None,
) -> None:
    """`warband play` (its options and help: cli/__init__.py)."""
    from warband.diagnostics import Diagnostic, Sources, diag
    sources = Sources()
    problems: list[Diagnostic] = []
    pairs = parse_policies(list(policy), sources, problems)
    sources.add("--seed", seed)
    seed_value = whole_number(seed, "--seed", 0, "a seed", problems)
    if max_rounds is not None:
        sources.add("--max-rounds", max_rounds)
    rounds = whole_number(max_rounds, "--max-rounds", 1, "a number of rounds", problems) \
        if max_rounds is not None else None
    if scenario is None and replay is None:
        problems.append(diag("E902", "name a scenario to play (or a record to --replay)", None,
                             hint="warband play sss-standard-game --seed 1"))
    if problems or seed_value is None:
        raise typer.Exit(fail(problems, sources))
    raise typer.Exit(run_play(scenario, seed_value, list(pairs), rounds, fmt.value, output,
                              force, replay))


def run_play(scenario_ref: str | None, seed: int, policies: list[tuple[str, str]],
             max_rounds: int | None, fmt: str, output: str | None, force: bool,
             replay: str | None) -> int:
    """Play (or replay) the game and print it; returns the exit code."""
    from warband.diagnostics import diag
    from warband.game.engine import Game
    from warband.game.gamelog import ReplayMismatch, first_difference, game_record, read_record
    from warband.game.gamelog import render_text as render_log
    from warband.game.results import PlayRequest
    from warband.game.worker import ScenarioProblem, loaded, policies_of
    from warband.run.evaluate import RulesError

    script = None
    if replay is not None:
        record, problem = read_record(replay)
        if record is None:
            return fail([problem] if problem else [])
        scenario_ref = record["scenario"]
        seed = record["seed"]
        policies = sorted(record.get("policies", {}).items())
        max_rounds = record.get("max_rounds")
        script = record["events"]
    assert scenario_ref is not None   # the command line asks for one without --replay
    request = PlayRequest(scenario_ref, tuple(policies), max_rounds)
    scenario = None
    try:
        scenario = loaded(request)
        game = Game(scenario, seed, policies_of(request), max_rounds, script=script,
                    record=True)
        result = game.play()
    except ScenarioProblem as problem:
        return fail(problem.diagnostics, problem.sources)
    except ReplayMismatch as mismatch:
        return fail([diag("E917", f"the record no longer fits the rules: {mismatch}", None,
                          hint="the rules or the scenario changed since it was recorded; "
                               "play the game anew")], code=FINDINGS)
    except RulesError as error:   # a rule that fails in play: its own diagnostic
        return fail([error.diagnostic], scenario.sources if scenario else None)
    record_out = game_record(scenario_ref, scenario, seed, dict(policies), max_rounds, result,
                             game.log.events)
    if script is not None:
        differs = first_difference(script, game.log.events)
        if differs is not None:
            return fail([diag("E917", f"the replay differs from the record at event "
                                      f"{differs + 1}", None,
                              hint="the rules or the scenario changed since it was recorded")],
                        code=FINDINGS)
    text = json.dumps(record_out, indent=1) + "\n"
    if output is not None:
        unwritten = write_output(output, text, force)
        if unwritten is not None:
            return fail([unwritten])
    sys.stdout.write(text if fmt == "json" else render_log(record_out))
    return OK
