"""`warband odds --sweep NAME=LOW..HIGH`, and where odds' reports and charts go (-o, --plot).

NAME is, in this order: a parameter of the action (what `--with NAME=V` sets; the sweep
replaces a --with of it); `attacker.STAT` or `target.STAT`, a number stat (or a trait with a
number, as toughness=N gives one) of the first --attacker or --target; or a bare STAT, the
attacker's. Each value is checked as --attacker's
own values are (the stat's bounds, and the bounds the fighter's class allows); the action is
then weighed once per value, exactly.
"""

from __future__ import annotations

import copy
import io
import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import typer

from warband.cli.common import UNUSABLE, emit

if TYPE_CHECKING:
    from warband.cli.odds_page import Sweep
    from warband.diagnostics import Diagnostic, Sources
    from warband.lang.ruleset import Ruleset
    from warband.run.odds import ParsedFighter

_RANGE = re.compile(r"^\s*(-?\d{1,15})\s*\.\.\s*(-?\d{1,15})\s*$")


class Asked(NamedTuple):
    """A checked --sweep: what it sets (a parameter, or a stat of the fighter at `who`)."""

    name: str                 # as written
    parameter: str | None     # the action's parameter swept, or
    stat: str | None          # the stat swept (its declared name), or
    trait: str | None         # the trait with a number swept (toughness=N) ...
    who: int                  # ... of this fighter (0: the first attacker, 1: the first target)
    values: list[int]

    @property
    def label(self) -> str:
        """What the sweep varies, as its axis and its column name it: a parameter by its name
        (`range`), a stat or a trait by whose it is (`attacker.Might`, though written `might`)."""
        if self.parameter is not None:
            return self.parameter
        return f"{'attacker' if self.who == 0 else 'target'}.{self.stat or self.trait}"


def parse(text: str, ruleset: Ruleset, decl, fighters: list, targeted: bool, solve: bool,
          diagnostics: list[Diagnostic]) -> Asked | None:
    """The --sweep text checked (E901 located in it; E645 with --solve); None if it is bad."""
    from warband.diagnostics import Span, diag, did_you_mean
    from warband.limits import MAX_SWEEP_VALUES
    name, eq, raw = text.partition("=")
    name = name.strip()
    at_name = Span("--sweep", 1, 1, 1, max(len(name), 1) + 1)
    at_range = Span("--sweep", 1, len(text.partition("=")[0]) + 2, 1, len(text) + 1)
    if solve:
        diagnostics.append(diag("E645", "--sweep and --solve do not go together", at_name,
                                hint="solve one value at a time: --with NAME=V --solve"))
        return None
    params = {p.name.name: p for p in decl.params}
    stats = {s.key: s for s in ruleset.stats.values()}
    traits = {t.lower(): t for t, d in ruleset.traits.items() if d.numeric}
    who, key = (0, name)
    if "." in name:
        side, _, key = name.partition(".")
        if side not in ("attacker", "target"):
            diagnostics.append(diag("E901", f"'{side}' is not attacker or target",
                                    Span("--sweep", 1, 1, 1, len(side) + 1),
                                    hint="write attacker.STAT or target.STAT"))
            return None
        who = 0 if side == "attacker" else 1
    parameter = stat = trait = None
    if "." not in name and name in params:
        kind = params[name].type.name if params[name].type else "number"
        if kind != "number":
            diagnostics.append(diag("E901", f"parameter '{name}' is a {kind}; --sweep "
                                            "sweeps whole numbers", at_name,
                                    hint=f"set it with --with {name}=VALUE"))
            return None
        parameter = name
    elif key.lower() in stats:
        found = stats[key.lower()]
        if found.enum:
            diagnostics.append(diag("E901", f"{found.name} is one of "
                                            f"{', '.join(n for n, _ in ruleset.enums[found.enum])}"
                                            "; --sweep sweeps whole numbers", at_name))
            return None
        if found.always_derived:
            diagnostics.append(diag("E901", f"{found.name} is worked out by the rules, so it "
                                            "cannot be swept", at_name,
                                    hint="sweep what it is worked out from"))
            return None
        if who == 1 and not targeted:
            diagnostics.append(diag("E901", f"'{name}' is the target's, and there is no "
                                            "--target", at_name, hint="give --target too"))
            return None
        stat = found.name
    elif key.lower() in traits:   # as toughness=N gives it: no bounds but the rules'
        if who == 1 and not targeted:
            diagnostics.append(diag("E901", f"'{name}' is the target's, and there is no "
                                            "--target", at_name, hint="give --target too"))
            return None
        trait = traits[key.lower()]
    else:
        keys = list(stats) + list(traits)
        names = list(params) + keys + [f"{side}.{s}" for side in ("attacker", "target")
                                       for s in keys]
        diagnostics.append(diag("E901", f"no parameter, stat or trait '{name}' to sweep", at_name,
                                hint=did_you_mean(name, names) or "sweep a parameter of the "
                                f"action ({', '.join(params) or 'it has none'}) or a stat "
                                "(attacker.STAT, target.STAT)"))
        return None
    bounds = _RANGE.match(raw) if eq else None
    if bounds is None:
        diagnostics.append(diag("E901", f"'{raw}' is not a range LOW..HIGH of whole numbers"
                                if eq else f"--sweep {name} needs a range", at_range if eq
                                else at_name, hint=f"e.g. --sweep {name}=1..6"))
        return None
    low, high = int(bounds.group(1)), int(bounds.group(2))
    if low > high:
        diagnostics.append(diag("E901", f"the range {low}..{high} is empty: {low} is more "
                                        f"than {high}", at_range,
                                hint=f"write {high}..{low}"))
        return None
    if high - low + 1 > MAX_SWEEP_VALUES:
        diagnostics.append(diag("E901", f"{high - low + 1} values is too many to sweep: at "
                                        f"most {MAX_SWEEP_VALUES}", at_range,
                                hint="sweep a narrower range"))
        return None
    values = list(range(low, high + 1))
    if stat is not None:
        problem = _outside(ruleset, stat, fighters[who] if who < len(fighters) else None,
                           values)
        if problem is not None:
            diagnostics.append(diag("E901", problem[0], at_range if problem[2] else at_name,
                                    hint=problem[1]))
            return None
    return Asked(name, parameter, stat, trait, who, values)


def _outside(ruleset: Ruleset, stat: str, fighter: ParsedFighter | None,
             values: list[int]) -> tuple[str, str, bool] | None:
    """Why some value cannot be the fighter's stat, as --attacker's parsing says it (the stat's
    bounds; worked out by the rules; a class that fixes it, or allows only some values), and
    whether the values are to blame (else the stat), or None."""
    declared = ruleset.stats[stat]
    if declared.low is not None and declared.high is not None:
        wrong = [v for v in values if not declared.low <= v <= declared.high]
        if wrong:
            return (f"{stat} {wrong[0]} is outside {declared.low}..{declared.high}",
                    f"sweep within {declared.low}..{declared.high}", True)
    if fighter is None:
        return None
    if declared.derived is not None and _works_out(ruleset, stat, fighter):
        return (f"{stat} is worked out by the rules for this fighter, so it cannot be swept",
                "sweep what it is worked out from", False)
    if not fighter.spec.fighter_class:
        return None
    cls = ruleset.classes[fighter.spec.fighter_class]
    if cls.fixes(stat):
        return (f"class {cls.name} fixes {stat} at {dict(cls.stats)[stat]}, so it cannot be swept",
                "sweep a stat the class leaves open, or a fighter of another class", False)
    choice = cls.choice(stat)
    wrong = [v for v in values if choice is not None and not choice.allows(v)]
    if choice is not None and wrong:
        allowed = f"the range class {cls.name} allows"
        return (f"{stat} {wrong[0]} is outside {choice.shown}, {allowed}",
                f"sweep within {choice.shown}", True)
    return None


def _works_out(ruleset: Ruleset, stat: str, fighter: ParsedFighter) -> bool:
    """Whether the rules work the stat out for this fighter (as --attacker's parsing asks)."""
    from warband.run.interpreter import Interpreter, RulesError
    from warband.run.world import Ref, make_world
    try:
        return bool(Interpreter(ruleset).works_out(stat, Ref("fighter", 0),
                                                   make_world(ruleset, [fighter.spec])))
    except (RulesError, TypeError):   # a condition that fails here fails in the odds too
        return ruleset.stats[stat].always_derived


def run(asked: Asked, ruleset: Ruleset, ruleset_ref: str, action: str,
        fighters: list[ParsedFighter], options: dict, policies, sources: Sources) -> Sweep:
    """The odds once per value: a parameter set as --with sets it, or the fighter's stat
    replaced (a fresh copy of the fighters each time)."""
    from warband.cli.odds_page import Sweep
    from warband.diagnostics import Span, diag
    from warband.run import odds as odds_mod
    results = []
    for value in asked.values:
        these, given = fighters, dict(options)
        if asked.parameter is not None:
            given[asked.parameter] = value
        else:
            these = copy.deepcopy(fighters)
            if asked.trait is not None:
                these[asked.who].spec.traits[asked.trait] = value
            else:
                these[asked.who].spec.stats[asked.stat] = value
        try:
            results.append(odds_mod.compute(ruleset, action, these, given, policies, False))
        except odds_mod.NotAllowed as refusal:
            emit([diag("E903", f"at {asked.name} {value} these fighters may not '{action}': "
                               f"{refusal.reason}", Span("--sweep", 1, 1, 1,
                                                         len(sources.texts["--sweep"]) + 1),
                       hint=f"'{action}' requires {refusal.requirement}: sweep a range where "
                            "it holds, or give fighters for whom it does")], sources)
            raise typer.Exit(UNUSABLE)
        except odds_mod.RulesError as error:   # the rules' own texts show where
            from warband.lang.compiler import load
            emit([error.diagnostic], load(ruleset_ref).sources)
            raise typer.Exit(UNUSABLE)
    return Sweep(asked.label, asked.values, results)


def render(sweep: Sweep, kind: str, ruleset: Ruleset, policies, on_stdout: bool,
           asked: list[tuple[str, str]]) -> str:
    """The report: text (a row per value, a column per outcome), json, or the html page; the
    json and the page name what was weighed (`asked`: cli/odds.computed)."""
    import warband.cli.odds_page as odds_page
    if kind == "json":
        return json.dumps(odds_page.sweep_json(sweep, asked, policies), indent=2) + "\n"
    if kind == "html":
        return odds_page.sweep_html(sweep, f"{ruleset.id}: odds of {sweep.results[0].action} "
                                           f"by {sweep.name}", asked)

    def table(console) -> None:
        from rich.table import Table
        from rich.text import Text

        from warband.diagnostics import printable
        head, rows = odds_page.sweep_rows(sweep)
        if len(head) == 1:
            console.print("no result: the action returns nothing and changes nothing",
                          highlight=False, markup=False)
            return
        shown = Table(box=None, pad_edge=False)
        for h in head:
            shown.add_column(Text(printable(h)), justify="right")
        for row in rows:
            shown.add_row(*row)
        console.print(shown)
    return captured(table, on_stdout)


def captured(show: Callable, on_stdout: bool) -> str:
    """What `show(console)` prints, as text: coloured only for a terminal on standard output."""
    from warband import terminal
    buffer = io.StringIO()
    colour = on_stdout and terminal.colour_wanted(sys.stdout)
    show(terminal.console(buffer, colour=colour,
                          width=None if on_stdout else 100))
    return buffer.getvalue()


def plot_svg(sweep: Sweep, ruleset: Ruleset, asked: list[tuple[str, str]]) -> str:
    import warband.cli.odds_page as odds_page
    return odds_page.figure(odds_page.sweep_panels(sweep),
                            f"{ruleset.id}: odds of {sweep.results[0].action} by {sweep.name}",
                            asked)


def deliver(report: str, svg: str | None, output: str | None, plot: str | None, force: bool,
            sources: Sources) -> None:
    """The chart to --plot, the report to -o or standard output; each file written atomically;
    one that cannot be written is E642 (exit 2), the others still written."""
    from dataclasses import replace

    from warband.cli.common import write_output
    from warband.diagnostics import Span
    problems = []
    for option, path, content in (("--plot", plot, svg), ("--output", output, report)):
        if path is None or content is None:
            continue
        if path == "-":
            typer.echo(content, nl=False)
            continue
        problem = write_output(path, content, force)
        if problem is not None:
            problems.append(replace(problem, span=Span(option, 1, 1, 1, len(path) + 1)))
    if output is None:
        typer.echo(report, nl=False)
    if problems:
        emit(problems, sources)
        raise typer.Exit(UNUSABLE)
