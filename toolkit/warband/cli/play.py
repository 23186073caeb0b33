"""`warband play`: one game, its record printed (text or JSON) or saved, and replays of a record.

A record (`-o game.json`, or `--format json`) holds the scenario, the seed, the players'
policies and every event. `--replay game.json` plays the game again taking every choice from the
record, checks that each roll and each result comes out as recorded, and prints it.
"""

from __future__ import annotations

import json
import sys

from warband.diagnostics import Sources, diag, render_text

LOG_FORMAT = "warband-game-log"


def game_record(scenario_ref: str, scenario, seed: int, policies: dict, max_rounds,
                result, events: list) -> dict:
    return {
        "format": LOG_FORMAT, "version": 1,
        "scenario": scenario_ref, "scenario_title": scenario.title, "seed": seed,
        "policies": policies, "max_rounds": max_rounds,
        "result": {"winner": result.winner, "scores": result.scores, "rounds": result.rounds,
                   "ended": result.ended,
                   "kills": {side: dict(sorted(k.items())) for side, k in result.kills.items()}},
        "events": events,
    }


def run_play(scenario_ref: str | None, seed: int, policies: list[tuple[str, str]],
             max_rounds: int | None, fmt: str, output: str | None, force: bool,
             replay: str | None) -> int:
    from warband.game.engine import Game, ScenarioProblem, loaded, policies_of
    from warband.game.gamelog import ReplayMismatch
    from warband.game.gamelog import render_text as render_log
    from warband.game.results import PlayRequest

    script = None
    if replay is not None:
        record, problem = _read_record(replay)
        if problem is not None:
            return _fail([problem])
        scenario_ref = record["scenario"]
        seed = record["seed"]
        policies = sorted(record.get("policies", {}).items())
        max_rounds = record.get("max_rounds")
        script = record["events"]
    request = PlayRequest(scenario_ref, tuple(policies), max_rounds)
    try:
        scenario = loaded(request)
        game = Game(scenario, seed, policies_of(request), max_rounds, script=script,
                    record=True)
        result = game.play()
    except ScenarioProblem as problem:
        return _fail(problem.diagnostics, problem.sources)
    except ReplayMismatch as mismatch:
        return _fail([diag("E917", f"the record no longer fits the rules: {mismatch}", None,
                           hint="the rules or the scenario changed since it was recorded; "
                                "play the game anew")], code=1)
    except Exception as error:   # a rule that fails in play: its own diagnostic
        from warband.run.evaluate import RulesError
        if isinstance(error, RulesError):
            return _fail([error.diagnostic], scenario.sources)
        raise
    record_out = game_record(scenario_ref, scenario, seed, dict(policies), max_rounds, result,
                             game.log.events)
    if replay is not None:
        differs = _first_difference(script, game.log.events)
        if differs is not None:
            return _fail([diag("E917", f"the replay differs from the record at event "
                                       f"{differs + 1}", None,
                               hint="the rules or the scenario changed since it was recorded")],
                         code=1)
    text = json.dumps(record_out, indent=1) + "\n"
    if output is not None:
        from warband.cli.output import OutputError, write_atomic
        try:
            write_atomic(output, text, force=force)
        except OutputError as error:
            return _fail([diag("E918", str(error), None,
                               hint="use --force to replace it" if "exists" in str(error)
                               else None)])
    sys.stdout.write(text if fmt == "json" else render_log(record_out))
    return 0


def _first_difference(recorded: list, played: list) -> int | None:
    for i, (a, b) in enumerate(zip(recorded, played)):
        if a != b:
            return i
    if len(recorded) != len(played):
        return min(len(recorded), len(played))
    return None


def _read_record(path: str):
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as error:
        return None, diag("E916", f"cannot read {path}: {error.strerror}", None)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return None, diag("E916", f"{path} is not a game record: {error}", None,
                          hint="a record is what `warband play -o FILE` writes")
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT or \
            not isinstance(record.get("events"), list) or \
            not isinstance(record.get("seed"), int) or \
            not isinstance(record.get("scenario"), str):
        return None, diag("E916", f"{path} is not a game record", None,
                          hint="a record is what `warband play -o FILE` writes")
    return record, None


def _fail(diagnostics: list, sources=None, code: int = 2) -> int:
    texts = sources if isinstance(sources, dict) else getattr(sources, "texts", {}) or {}
    sys.stderr.write(render_text(diagnostics, Sources(dict(texts))))
    return code
