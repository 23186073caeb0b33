"""`warband play`: one game, its record printed (text or JSON) or saved, and replays of a record.

A record (`-o game.json`, or `--format json`) holds the scenario, the seed, the players'
policies, the warband files given with `--side SIDE=FILE`, and every event. `--replay game.json` plays the game again taking every choice from the
record, checks that each roll and each result comes out as recorded, and prints it. A record may
come from anyone: it is read and checked as data (game/gamelog.read_record) before anything uses
it, and the game's settings come from it alone: a SCENARIO that is not the record's, or --seed,
--policy, --side or --max-rounds with --replay, is refused (E901).

`--update` (a campaign game) writes what the scenario's aftermath changed back into the warband
files, after showing the diff; `--dry-run` shows it only (game/campaign.py works it out; the
functions at the end of this module show and write it).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import typer

from warband.cli.common import (
    FINDINGS,
    OK,
    check_output,
    fail,
    rewrite_output,
    write_output,
)
from warband.cli.options import parse_policies, parse_sides, whole_number

if TYPE_CHECKING:
    from enum import Enum

    from warband.diagnostics import Diagnostic


def play(
    scenario: str | None, seed: str | None, policy: list[str], max_rounds: str | None,
    fmt: Enum,
    output: str | None, force: bool, replay: str | None, *, sides: list[str] | None = None,
    update: str | None = None, svg: str | None = None,
) -> None:
    """`warband play` (its options and help: cli/commands.py; `fmt` a PlayFormat there)."""
    from warband.diagnostics import Diagnostic, Sources, diag
    sources = Sources()
    problems: list[Diagnostic] = []
    pairs = parse_policies(list(policy), sources, problems)
    side_files = parse_sides(list(sides or ()), sources, problems)
    seed_given, seed = seed is not None, seed if seed is not None else "1"
    sources.add("--seed", seed)
    seed_value = whole_number(seed, "--seed", 0, "a seed", problems)
    if max_rounds is not None:
        sources.add("--max-rounds", max_rounds)
    rounds = whole_number(max_rounds, "--max-rounds", 1, "a number of rounds", problems) \
        if max_rounds is not None else None
    if scenario is None and replay is None:
        problems.append(diag("E902", "name a scenario to play (or a record to --replay)", None,
                             hint="warband play sss-standard-game --seed 1"))
    if replay is not None:   # the record says how the game was played: nothing may differ
        given = [name for name, there in (("--seed", seed_given), ("--policy", policy),
                                          ("--max-rounds", max_rounds is not None),
                                          ("--side", sides)) if there]
        for name in given:
            problems.append(diag("E901", f"{name} cannot be used with --replay", None,
                                 hint="a replay plays the game as its record says (its seed, "
                                      "its players' policies, its rounds, its sides' warband "
                                      "files); leave out " + name))
    if replay is not None and update is not None:
        problems.append(_update_with_replay(update))
    svg_round = None
    if svg is not None:   # the board at the end of a round, instead of the log
        sources.add("--svg", svg)
        svg_round = whole_number(svg, "--svg", 0, "a round of the game (0: after set-up)",
                                 problems)
    problems += picture_conflicts(fmt.value, svg, update)
    if output is not None:   # before the game is played, as every command checks its output
        unwritable = check_output(output, force)
        if unwritable is not None:
            problems.append(unwritable)
    if problems or seed_value is None:
        raise typer.Exit(fail(problems, sources))
    raise typer.Exit(run_play(scenario, seed_value, list(pairs), rounds,
                              "svg" if svg_round is not None else fmt.value, output,
                              force, replay, update, side_files=side_files, sources=sources,
                              svg_round=svg_round))


def picture_conflicts(fmt: str, svg: str | None, update: str | None) -> list[Diagnostic]:
    """E643: --svg with another --format, or a page or picture with --update/--dry-run."""
    from warband.diagnostics import diag
    problems = []
    if svg is not None and fmt != "text":
        problems.append(diag("E643", f"--svg cannot be used with --format {fmt}", None,
                             hint="--svg ROUND draws one moment of the game as SVG; for the "
                                  "whole game to step through, --format html"))
    if update is not None and (svg is not None or fmt == "html"):
        what = "--svg" if svg is not None else "--format html"
        flag = "--dry-run" if update == "dry-run" else "--update"
        problems.append(diag("E643", f"{what} cannot be used with {flag}", None,
                             hint=f"play the campaign game with {flag} (its record is kept "
                                  "beside the warband), then draw it: warband play --replay "
                                  f"RECORD {what if svg is None else '--svg ROUND'} -o FILE"))
    return problems


def side_texts(side_files: tuple) -> dict[str, str]:
    """The texts of the --side files, by the names their diagnostics use, for the excerpts."""
    from warband.lists.warband_file import read_source
    texts = {}
    for f in side_files:
        raw = read_source(f.shown, shared=f.shared).raw   # (a record's: regular files only)
        if raw is not None:
            texts[f.shown] = raw.decode("utf-8-sig", errors="replace")
    return texts


def run_play(scenario_ref: str | None, seed: int, policies: list[tuple[str, str]],
             max_rounds: int | None, fmt: str, output: str | None, force: bool,
             replay: str | None, update: str | None = None, *, side_files: tuple = (),
             sources=None, svg_round: int | None = None) -> int:
    """Play (or replay) the game and print it; returns the exit code."""
    from warband import catalog
    from warband.diagnostics import Sources, diag
    from warband.game.engine import Game
    from warband.game.gamelog import (
        ReplayMismatch,
        as_json,
        first_difference,
        game_record,
        read_record,
    )
    from warband.game.gamelog import render_text as render_log
    from warband.game.results import PlayRequest
    from warband.game.worker import ScenarioProblem, loaded, policies_of
    from warband.run.evaluate import RulesError

    script = None
    record = None
    sources = sources if sources is not None else Sources()
    if replay is not None:
        record, problem = read_record(replay, sources)
        if record is None:
            return fail([problem] if problem else [], sources)
        data = record.data
        if scenario_ref is not None and scenario_ref != data["scenario"]:
            return fail([diag("E901", f"the record is a game of '{data['scenario']}', not of "
                                      f"'{scenario_ref}'", None,
                              hint="leave SCENARIO out: --replay plays the record's own "
                                   "scenario")])
        if scenario_ref is None:
            # named by the record alone, which may come from anyone: a shipped scenario, or a
            # rules file by a relative path, never another file (docs/robustness.md, section 6)
            found = catalog.resolve(data["scenario"], catalog.scenarios(),
                                    suffixes=catalog.RULES_SUFFIXES)
            if found.refused is not None:
                return fail([diag("E916", f"the record's scenario '{data['scenario']}' is not "
                                          "a rules file a record may name", None,
                                  hint=catalog.refusal_hint(found, "rules") + "; if you trust "
                                  "the record, name it: warband play SCENARIO --replay LOG")])
            if found.path is None and found.tried is None:   # (never a file of the folder)
                return fail([diag("E916", f"the record's scenario '{data['scenario']}' is not "
                                          "a shipped scenario", None,
                                  hint=f"shipped scenarios: {', '.join(found.known)}")])
        scenario_ref = data["scenario"]
        seed = data["seed"]
        policies = sorted(data["policies"].items())
        max_rounds = data["max_rounds"]
        script = data["events"]
        side_files, problem = record_sides(record, sources)
        if problem is not None:
            return fail([problem], sources)
    assert scenario_ref is not None   # the command line asks for one without --replay
    request = PlayRequest(scenario_ref, tuple(policies), max_rounds, sides=side_files)
    scenario = None
    try:
        if record is not None:   # a record's sides are checked here, to point into it
            scenario = loaded(PlayRequest(scenario_ref, (), max_rounds))
            for key, named in (("policies", record.data["policies"]),
                               ("sides", record.data.get("sides", {}))):
                for side in named:
                    if side != "*" and side not in scenario.side_names:
                        return fail([record.diagnostic(
                            "E916", f"the record gives {_GIVES[key]} to a side its scenario "
                                    "does not have",
                            (key, side),
                            hint=f"the scenario's sides: {', '.join(scenario.side_names)}",
                            sources=sources)], sources)
        scenario = loaded(request)
        game: Game
        if fmt in ("html", "svg"):   # a game to draw: its worlds noted as it is played
            from warband.game.viewer import WatchedGame
            game = WatchedGame(scenario, seed, policies_of(request), max_rounds, script=script)
        else:
            game = Game(scenario, seed, policies_of(request), max_rounds, script=script,
                        record=True)
        result = game.play()
    except ScenarioProblem as problem:
        return fail(problem.diagnostics, {**side_texts(side_files), **sources.texts,
                                          **problem.sources})
    except ReplayMismatch as mismatch:
        message = f"the record no longer fits the rules: {mismatch}"
        hint = _kept_hint(replay) or "the rules or the scenario changed since it was " \
            "recorded; play the game anew"
        return fail([record.diagnostic("E917", message, ("events", mismatch.index), hint,
                                       sources)
                     if record is not None and mismatch.index is not None else
                     diag("E917", message, None, hint=hint)], sources, code=FINDINGS)
    except RulesError as error:   # a rule that fails in play: its own diagnostic
        return fail([error.diagnostic], scenario.sources if scenario else None)
    record_out = game_record(scenario_ref, scenario, seed, dict(policies), max_rounds, result,
                             game.log.events, sides=_recorded(side_files))
    if record is not None and script is not None:
        differs = first_difference(script, game.log.events)
        if differs is not None:
            return fail([record.diagnostic(
                "E917", f"the replay differs from the record at event {differs + 1}",
                ("events", differs) if differs < len(script) else ("events",),
                _kept_hint(replay) or "the rules or the scenario changed since it was "
                "recorded (or the record was edited)", sources)], sources, code=FINDINGS)
        for key, what in (("result", "result"), ("scenario_title", "scenario's title")):
            replayed = json.loads(as_json(record_out[key]))
            if as_json(replayed) != as_json(record.data[key]):
                return fail([record.diagnostic(
                    "E917", f"the record's {what} is not the replayed game's", (key,),
                    f"the replay gives {_summary(key, replayed)}; the record says "
                    f"{_summary(key, record.data[key])}", sources)], sources, code=FINDINGS)
    text = json.dumps(record_out, indent=1) + "\n"
    if fmt in ("html", "svg"):
        return _picture(record_out, game, fmt, output, force, svg_round)
    if output is not None:
        unwritten = write_output(output, text, force)
        if unwritten is not None:
            return fail([unwritten])
    if update is not None:
        assert scenario is not None   # the game was played
        return _campaign(scenario, scenario_ref, game, record_out, text, fmt, update)
    sys.stdout.write(text if fmt == "json" else render_log(record_out))
    return OK


_GIVES = {"policies": "a policy", "sides": "a warband file"}


def _picture(record_out: dict, game, fmt: str, output: str | None, force: bool,
             svg_round: int | None) -> int:
    """The game page (--format html) or the board at the end of a round (--svg), written to
    -o (atomically) or to standard output."""
    from warband.diagnostics import diag
    from warband.game.page import render_page
    from warband.game.svg import board_svg
    from warband.game.viewer import state_after_round, view
    data = view(record_out, game)
    if fmt == "svg":
        assert svg_round is not None
        state = state_after_round(data, svg_round)
        if state is None:
            played = data["result"]["rounds"]
            return fail([diag("E644", f"--svg {svg_round}: the game ended after round "
                                      f"{played}", None,
                              hint=f"a round from 0 (after set-up) to {played}")])
        moment = "after set-up" if svg_round == 0 else f"at the end of round {svg_round}"
        out = board_svg(data, state, caption=f"{data['title']}, seed {data['seed']}: {moment}")
    else:
        out = render_page(data)
    if output is None:
        sys.stdout.write(out)
        return OK
    unwritten = write_output(output, out, force)
    return fail([unwritten]) if unwritten is not None else OK


def _recorded(side_files: tuple) -> dict[str, str]:
    """The side files as a record names them: relative to the working directory, as the
    record's scenario is, so that `--replay` from there plays the same game."""
    import os
    from pathlib import Path
    return {f.side: Path(os.path.relpath(f.path)).as_posix() for f in side_files}


def record_sides(record, sources) -> tuple[tuple, Diagnostic | None]:
    """The record's side files, each a warband file by a relative path (the record may come
    from anyone: never an absolute path, nor another kind of file), or the E916 why not."""
    import os

    from warband import catalog
    from warband.game.scenario import SideFile
    out = []
    for side, file in record.data.get("sides", {}).items():
        found = catalog.resolve(file, [], None, suffixes=catalog.WARBAND_SUFFIXES)
        if found.refused is not None:
            return (), record.diagnostic(
                "E916", f"the record's warband file for side '{side}' is not a file a record "
                        "may name", ("sides", side), catalog.refusal_hint(found, "warband"),
                sources)
        out.append(SideFile(side, os.path.abspath(file), file, shared=True))
    return tuple(out), None


def _summary(key: str, value) -> str:
    """A record's result (or title) in a few words, for a hint."""
    from warband.game.gamelog import shown
    if key != "result":
        return shown(value)
    scores = ", ".join(f"{shown(side, 30)} {shown(score)}"
                       for side, score in list(value["scores"].items())[:8])
    return (f"winner {shown(value['winner'], 30)}, scores {scores}, "
            f"{shown(value['rounds'])} rounds, ended {shown(value['ended'], 30)}")


# ---- campaigns: --update and --dry-run (game/campaign.py works out what changes) ---------------

def _update_with_replay(update: str):
    from warband.diagnostics import diag
    name = "--dry-run" if update == "dry-run" else "--update"
    return diag("E901", f"{name} cannot be used with --replay", None,
                hint="a replay plays a game already played: its changes were written (or not) "
                     "when it was played; to play the next game, leave out --replay")


def _campaign(scenario, scenario_ref: str, game, record_out: dict, text: str, fmt: str,
              update: str) -> int:
    """After the game: show what its aftermath changes in the warband files (a unified diff),
    and with --update write it, keeping the game's record beside each file. Nothing is written
    when any file cannot be updated."""
    from pathlib import Path

    from warband import catalog
    from warband.game.campaign import plan
    from warband.game.gamelog import render_text as render_log
    worked = plan(scenario, scenario_ref, game.aftermath, game.side_changes, game.campaign)
    sys.stdout.write(text if fmt == "json" else render_log(record_out))
    if worked.diagnostics:
        return fail(worked.diagnostics, worked.sources)
    # the toolkit's own warbands are read-only: --update on a shipped scenario's side says how
    # to play it with a copy of one's own (it rewrote the installed package, and named the file
    # as if it were the user's)
    shipped = [one for one in worked.updates if catalog.shipped(one.path)]
    if shipped and update != "dry-run":
        return fail([_shipped_warband(one, scenario_ref) for one in shipped])
    diffs = sys.stderr if fmt == "json" else sys.stdout   # JSON output stays JSON
    for one in worked.updates:
        diffs.write(one.diff())
    sys.stdout.flush()   # the log and the diffs before the notes, where all go to one terminal
    for note in worked.notes:
        sys.stderr.write(f"note: {note}\n")
    if update == "dry-run":
        if worked.updates:
            sys.stderr.write("note: --dry-run: nothing was written\n")
        for one in shipped:
            sys.stderr.write(f"note: {one.name} is shipped with the toolkit: --update would "
                             f"not change it (play side '{one.side}' with a copy: --side "
                             f"{one.side}=FILE)\n")
        return OK
    for one in worked.updates:
        kept, made, problem = _keep_record(one.path, one.original, scenario_ref,
                                           record_out["seed"], text)
        try:
            if problem is None:
                problem = rewrite_output(str(one.path), one.text, one.original, force=False)
        except BaseException:   # SIGTERM or Ctrl-C in the middle: the warband is as it was
            _unlink(kept, made)
            raise
        if problem is not None:   # the warband is as it was: its record goes too
            _unlink(kept, made)
            return fail([problem])
        shown = Path(one.name).with_suffix(".games") / Path(kept[0]).name
        sys.stderr.write(f"updated {one.name}; the game's record: {shown}\n")
    return OK


def _shipped_warband(one, scenario_ref: str):
    """E920 for --update of a warband the toolkit ships: how to play that side with a copy."""
    import os
    import shlex

    from warband.diagnostics import diag
    mine = f"my-{os.path.basename(str(one.path))}"
    return diag("E920", f"side '{one.side}' plays {one.name}, a warband shipped with the "
                        "toolkit: --update does not change the toolkit's own files", None,
                hint=f"copy it and play that side with your copy: cp "
                     f"{shlex.quote(os.path.realpath(one.path))} {mine}; warband play "
                     f"{shlex.quote(scenario_ref)} --side {one.side}={mine} --update")


def _keep_record(warband, original: bytes, scenario_ref: str, seed: int, text: str):
    """The game's record, and the warband as it was before it, beside the warband:
    NAME.games/NNN-SCENARIO-seedS.json and .yaml, NNN one more than the last game kept there.
    Returns (the files written, the folder if this call made it, a problem). NAME.games must
    be a folder of its own: a link there (planted, to send the record and the old warband
    elsewhere) or another kind of file is refused. Whatever goes wrong (a full disk, SIGTERM),
    what this call wrote is removed, and the folder too if it made it."""
    import os
    import re
    import stat
    from pathlib import Path

    from warband.catalog import display_path
    from warband.diagnostics import diag
    folder = Path(warband).with_suffix(".games")
    shown = display_path(Path(os.path.realpath(folder.parent)) / folder.name)
    made = None
    try:
        try:
            os.mkdir(folder)
            made = folder
        except FileExistsError:
            pass
        if not stat.S_ISDIR(os.lstat(folder).st_mode):   # (lstat: a link is not followed)
            what = "a link" if os.path.islink(folder) else "not a folder"
            return [], None, diag("E642", f"cannot keep the game's record in {shown}: it is "
                                          f"{what}", None,
                                  hint=f"{shown} holds the games kept beside its warband: "
                                       "remove what is there, or move it away")
        taken = [int(m.group(1)) for m in (re.match(r"(\d+)-", n) for n in os.listdir(folder))
                 if m is not None]
    except OSError as error:
        _unlink([], made)
        return [], None, diag("E642", f"cannot keep the game's record in {shown}: "
                                      f"{error.strerror or error}", None)
    number = max(taken, default=0) + 1
    stem = Path(scenario_ref).stem
    written: list[str] = []
    try:
        for attempt in range(number, number + 20):   # a game kept meanwhile takes a number
            name = folder / f"{attempt:03d}-{stem}-seed{seed}"
            problem = write_output(f"{name}.json", text, force=False)
            if problem is not None and os.path.lexists(f"{name}.json"):
                continue   # (that number was taken meanwhile: the next one)
            if problem is not None:   # (a full disk, say: the same for every number)
                break
            written.append(f"{name}.json")
            problem = write_output(f"{name}.yaml", original, force=False)
            if problem is not None:
                break
            written.append(f"{name}.yaml")
            return written, made, None
    except BaseException:
        _unlink(written, made)
        raise
    _unlink(written, made)
    return [], None, problem


def _kept_hint(replay: str | None) -> str | None:
    """For a record `--update` kept (NAME.games/NNN-...json): the warband changed with the game."""
    from pathlib import Path
    if replay is None:
        return None
    path = Path(replay)
    before = path.with_suffix(".yaml")
    if not path.parent.name.endswith(".games") or not before.is_file():
        return None
    return (f"this game was kept by --update, which changed {path.parent.stem}.yaml after it; "
            f"to replay it, put the warband as it was ({before}) in its place first")


def _unlink(paths, folder=None) -> None:
    """Remove the files, and the folder if given and left empty (one --update made)."""
    import os
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass
    if folder is not None:
        try:
            os.rmdir(folder)   # (only if empty: someone may have put a file there meanwhile)
        except OSError:
            pass
