"""`warband rules check --playouts N`: play a scenario's games at random and report what a
designer should know before anyone paints a figure.

- games that only end because the engine stopped them (a scenario without a round limit whose
  games reach the engine's cap): their end condition may never hold;
- states in which a side had fighters to activate and no legal action for any of them;
- objectives (score terms) that no game ever scored;
- rules that fail in play (a table with no matching row, no room on the board...): errors.
"""

from __future__ import annotations

from warband.diagnostics import Diagnostic, Related, diag
from warband.game.engine import Game
from warband.game.objectives import objectives
from warband.game.scenario import load_scenario
from warband.game.worker import ScenarioProblem
from warband.limits import DEFAULT_ROUNDS
from warband.run.evaluate import RulesError


def playouts(path: str, compiled, games: int) -> list[Diagnostic]:
    """Findings of `games` random games of the scenario in a compiled rules file."""
    decl = compiled.ruleset.scenario
    scenario = load_scenario(path)
    if isinstance(scenario, list):
        return scenario
    capped: list[int] = []
    stuck: list[tuple[int, str]] = []
    scored: set[str] = set()
    for seed in range(1, games + 1):
        try:
            result = Game(scenario, seed).play()
        except RulesError as error:
            d = error.diagnostic
            return [diag(d.code, f"{d.message} (in game {seed} of the playouts)", d.span,
                         hint=f"see it happen: warband play {path} --seed {seed}")]
        except ScenarioProblem as problem:
            return problem.diagnostics
        except Exception as error:   # a fault of the engine itself: a diagnostic all the same
            return [diag("E914", f"game {seed} of the playouts failed: "
                                 f"{type(error).__name__}: {error}", decl.name.span,
                         hint=f"a fault of warband, not of the rules: please report it; see it "
                              f"happen: warband play {path} --seed {seed}")]
        if decl.rounds is None and result.ended == "limit" and result.rounds >= DEFAULT_ROUNDS:
            capped.append(seed)
        if result.stuck is not None:
            stuck.append((seed, result.stuck))
        scored |= result.scored
    found = []
    if capped:
        found.append(diag(
            "W901", f"{len(capped)} of {games} games did not end on their own; the engine "
                    f"stopped them after {DEFAULT_ROUNDS} rounds", decl.name.span,
            hint=f"give the scenario a limit ('rounds N') or an 'end when' that play reaches; "
                 f"see one: warband play {path} --seed {capped[0]}"))
    if stuck:
        seed, what = stuck[0]
        found.append(diag(
            "W902", f"in {len(stuck)} of {games} games a side had no legal action: {what}",
            decl.name.span, hint=f"see it happen: warband play {path} --seed {seed}"))
    sides = {side.name: side for side, _, _ in decl.scores}
    for objective in objectives(decl):
        if objective.name not in scored:
            part = "" if objective.name == f"score {objective.side}" else \
                f" from {objective.name.split(': ', 1)[1]}"
            found.append(diag(
                "W903", f"no game of {games} scored anything{part} for '{objective.side}'",
                objective.span, related=[Related(sides[objective.side].span, "the side")],
                hint="an objective no game reaches: check its condition, or play more games"))
    return found
