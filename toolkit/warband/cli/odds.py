"""`warband odds`: exact odds of one action between fighters described on the command line."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, cast

import typer

from warband.cli.common import UNUSABLE, Format, emit, load_or_exit

if TYPE_CHECKING:
    from warband.diagnostics import Diagnostic, Sources, Span
    from warband.lang.ruleset import Ruleset
    from warband.run.odds import OddsResult, ParsedFighter

def _origins(option: str, texts: list[str]) -> list[str]:
    """Where each of a repeated option's values is said to be: --attacker, --attacker(2), ..."""
    return [option if i == 0 else f"{option}({i + 1})" for i in range(len(texts))]


def odds(
    ruleset_ref: str, attackers: str | list[str], targets: str | list[str] | None, action: str,
    cover: bool, policy: list[str], with_: list[str], solve: bool, fmt: Format | str,
    sweep: str | None = None, plot: str | None = None, output: str | None = None,
    force: bool = False, samples: int | None = None, seed: int = 1,
) -> None:
    """`warband odds` (its options and help: cli/commands.py). A group of fighters on a side
    (--attacker or --target given more than once): the first of each is the action's
    fighter; the others stand beside it on its side, for rules that read a side's fighters."""
    kind = fmt if isinstance(fmt, str) else fmt.value   # text, json or html
    ruleset = load_or_exit(ruleset_ref)
    from warband.diagnostics import Sources, Span, diag, did_you_mean
    from warband.run import odds as odds_mod
    attacking = [attackers] if isinstance(attackers, str) else list(attackers)
    targeted = [targets] if isinstance(targets, str) else list(targets or [])
    attacker = attacking[0]
    diagnostics: list[Diagnostic] = []
    sources = Sources({"--attacker": attacker, "--target": targeted[0] if targeted else "",
                       "--policy": " ".join(policy), "--action": action})
    if action not in ruleset.procedures:
        runnable = list(ruleset.procedures)
        emit([diag("E902", f"'{ruleset.id}' has no action '{action}'",
                   Span("--action", 1, 1, 1, len(action) + 1),
                   hint=did_you_mean(action, runnable) or (
                       f"actions: {', '.join(runnable)}" if runnable else
                       "it has no actions or phases to weigh: odds runs an action"))],
             sources)
        raise typer.Exit(UNUSABLE)
    decl = ruleset.procedures[action]
    # the action's fighters first (the first attacker, the first target), then the rest of
    # each group: the action's fighter parameters take the fighters in this order
    given = [(text, origin, 0) for text, origin in zip(attacking, _origins("--attacker",
                                                                            attacking))]
    given += [(text, origin, 1) for text, origin in zip(targeted, _origins("--target",
                                                                           targeted))]
    given = [g for g in given if g[1] in ("--attacker", "--target")] + \
        [g for g in given if g[1] not in ("--attacker", "--target")]
    fighters = []
    for text, origin, side in given:
        sources.add(origin, text)
        fighters.append(_fighter(text, origin, ruleset, side, diagnostics, sources))
    policies = odds_mod.parse_policies(policy, ruleset, diagnostics)
    params = {p.name.name: p for p in decl.params}
    options = {}
    settings = [("--cover", "cover=yes")] if cover else []
    for origin, text in settings + [("--with", t) for t in with_]:
        sources.add(origin, text)
        name, _, raw = text.partition("=")
        where = Span(origin, 1, 1, 1, len(name) + 1)
        if name not in params:
            diagnostics.append(diag("E901", f"action '{action}' has no parameter '{name}'",
                                    where, hint=did_you_mean(name, params)
                                    or f"its parameters: {', '.join(params)}"))
            continue
        value_at = Span(origin, 1, len(name) + 2, 1, len(text) + 1)
        options[name] = _parse_value(raw, params[name].type.name if params[name].type
                                     else "number", ruleset, diagnostics, name, value_at)
    needed = sum(1 for p in decl.params if p.type and p.type.name == "fighter")
    if needed > len(fighters) or needed == 2 and not targeted:
        diagnostics.append(diag("E901", f"action '{action}' needs {needed} fighters; "
                                        "give --target too",
                                Span("--attacker", 1, 1, 1, len(attacker) + 1)))
    swept = None
    if sweep is not None:
        import warband.cli.odds_sweep as odds_sweep
        sources.add("--sweep", sweep)
        swept = odds_sweep.parse(sweep, ruleset, decl, fighters, bool(targeted), solve,
                                 diagnostics)
    if samples is not None and (samples < 1 or solve or sweep is not None or plot is not None
                                or kind == "html"):
        sources.add("--samples", str(samples))
        diagnostics.append(diag(
            "E901", "--samples is a number of runs, 1 or more, and weighs one action as text or "
                    "JSON: not with --solve, --sweep, --plot or --format html" if samples >= 1 else
                    f"--samples is a number of runs, 1 or more, not {samples}",
            Span("--samples", 1, 1, 1, len(str(samples)) + 1),
            hint="e.g. --samples 20000 (each share then has a 95% interval of about ±0.7%)"))
    from warband.cli.common import check_outputs
    diagnostics += check_outputs([("--output", output), ("--plot", plot)], force, sources)
    if diagnostics:
        emit(diagnostics, sources)
        raise typer.Exit(UNUSABLE)
    parsed = cast("list[ParsedFighter]", fighters)   # a fighter not parsed left a diagnostic
    set_texts = [t for _, t in settings] + list(with_)
    if swept is not None and swept.parameter is not None:   # the sweep sets it instead
        set_texts = [t for t in set_texts if t.partition("=")[0] != swept.parameter]
    asked = computed(ruleset.id, action, attacking, targeted, set_texts, policy,
                     swept.label if swept is not None else None,
                     sweep.partition("=")[2].strip() if sweep is not None else None)
    # weapon profiles: an equipment parameter not given is each piece the attacker carries
    pieces = _pieces(decl, ruleset, parsed, options)
    if pieces is not None:
        if swept is not None or output is not None or plot is not None or kind == "html":
            # one report of each piece's odds, printed: a sweep, a picture or a file is of
            # one set of odds, so the piece must be named
            emit([diag("E645", f"'{action}' is weighed with each piece the attacker carries, "
                               "one after another, which --sweep, --plot, -o and --format "
                               "html do not take", Span("--attacker", 1, 1, 1,
                                                        len(attacker) + 1),
                       hint=f"name the piece: --with {pieces[0]}=PIECE")], sources)
            raise typer.Exit(UNUSABLE)
        _each_piece(ruleset_ref, ruleset, action, parsed, options, policies, solve,
                    kind == "json", sources, attacker, *pieces, samples=samples, seed=seed)
        return
    if swept is not None:
        import warband.cli.odds_sweep as odds_sweep
        found = odds_sweep.run(swept, ruleset, ruleset_ref, action, parsed, options, policies,
                               sources)
        report = odds_sweep.render(found, kind, ruleset, policies, output is None, asked)
        odds_sweep.deliver(report, odds_sweep.plot_svg(found, ruleset, asked) if plot else None,
                           output, plot, force, sources)
        return
    try:
        result = odds_mod.compute(ruleset, action, parsed, options, policies, solve,
                                  samples=samples, seed=seed)
    except odds_mod.NotAllowed as refusal:
        # the first part of the `requires` that is false, in the rules' words
        emit([diag("E903", f"these fighters may not '{action}': {refusal.reason}",
                   Span("--attacker", 1, 1, 1, len(attacker) + 1),
                   hint=f"'{action}' requires {refusal.requirement}: give fighters for whom "
                        "it holds, or choose another --action")], sources)
        raise typer.Exit(UNUSABLE)
    except odds_mod.RulesError as error:
        from warband.lang.compiler import load
        emit([error.diagnostic], load(ruleset_ref).sources)
        raise typer.Exit(UNUSABLE)
    if output is None and plot is None and kind != "html":   # as it always was
        if kind == "json":
            typer.echo(json.dumps(_json(result, ruleset, policies, attacking, targeted,
                                        set_texts), indent=2))
        else:
            _print_odds(result)
        return
    import warband.cli.odds_page as odds_page
    import warband.cli.odds_sweep as odds_sweep
    title = f"{ruleset.id}: odds of {action}"
    if kind == "json":
        report = json.dumps(_json(result, ruleset, policies, attacking, targeted, set_texts),
                            indent=2) + "\n"
    elif kind == "html":
        report = odds_page.odds_html(result, title, odds_mod.solution_lines(result.solution)
                                     if result.solution is not None else [], asked)
    else:
        report = odds_sweep.captured(lambda console: _print_odds(result, console),
                                     output is None)
    svg = odds_page.figure(odds_page.odds_panels(result), title, asked) if plot else None
    odds_sweep.deliver(report, svg, output, plot, force, sources)


# ---- what was computed: named in every saved page, chart and JSON ------------------------------
def computed(ruleset: str, action: str, attackers: list[str], targets: list[str],
             settings: list[str], policy: list[str], sweep: str | None = None,
             values: str | None = None) -> list[tuple[str, str]]:
    """What a report weighed, as (what, value) lines: the ruleset, the action, each --attacker
    and --target as written, the parameters set (--cover, --with), the policies (--policy), and
    a sweep's value and range; so that two saved pages of odds can be told apart."""
    lines = [("ruleset", ruleset), ("action", action)]
    lines += [("attacker", text) for text in attackers]
    lines += [("target", text) for text in targets]
    lines += [("with", text) for text in settings]
    lines.append(("policy", ", ".join(policy) if policy else "first (the default)"))
    if sweep is not None:
        lines.append(("sweep", f"{sweep} = {values}"))
    return lines


def _json(result: OddsResult, ruleset: Ruleset, policies, attackers: list[str],
          targets: list[str], settings: list[str]) -> dict:
    """The odds as JSON, with what was weighed: the fighters as written and the parameters
    set (`with`: --cover and each --with), beside the ruleset, the action and the policy it
    always named."""
    from warband.run import odds as odds_mod
    found = odds_mod.as_json(result, ruleset, policies)
    named = {"attacker": attackers, "target": targets,
             "with": dict(text.partition("=")[::2] for text in settings)}
    at = list(found).index("action") + 1
    items = list(found.items())
    return dict(items[:at] + list(named.items()) + items[at:])


# ---- weapon profiles: the odds with each piece the attacker carries ---------------------------
def _pieces(decl, ruleset: Ruleset, parsed: list[ParsedFighter],
            options: dict) -> tuple[str, list[str]] | None:
    """(the parameter, the attacker's pieces) when the action takes a piece of equipment that
    --with does not name; None otherwise (the first such parameter: --with names the rest)."""
    from warband.run.world import make_world
    wanted = [p.name.name for p in decl.params if p.type is not None and
              p.type.name == "equipment" and p.default is None and p.name.name not in options]
    if not wanted or not parsed:
        return None
    world = make_world(ruleset, [pf.spec for pf in parsed])
    return wanted[0], list(dict.fromkeys(world.fighters[0].equipment))


def _each_piece(ruleset_ref: str, ruleset: Ruleset, action: str, parsed: list[ParsedFighter],
                options: dict, policies, solve: bool, as_json: bool, sources: Sources,
                attacker: str, param: str, pieces: list[str], samples: int | None = None,
                seed: int = 1) -> None:
    """The odds with each piece the attacker carries that the action allows, one after
    another (as if each were named with --with PARAM=PIECE)."""
    from warband.diagnostics import Span, diag
    from warband.run import odds as odds_mod
    results, refused = {}, []
    for piece in pieces:
        try:
            results[piece] = odds_mod.compute(ruleset, action, parsed, {**options, param: piece},
                                              policies, solve, samples=samples, seed=seed)
        except odds_mod.NotAllowed as refusal:
            refused.append(f"with {piece}: {refusal.reason}")
        except odds_mod.RulesError as error:
            from warband.lang.compiler import load
            emit([error.diagnostic], load(ruleset_ref).sources)
            raise typer.Exit(UNUSABLE)
    if not results:
        emit([diag("E903", f"these fighters may not '{action}' with any piece the attacker "
                           f"carries ({'; '.join(refused) if refused else 'it carries none'})",
                   Span("--attacker", 1, 1, 1, len(attacker) + 1),
                   hint=f"give the attacker a piece '{action}' allows, or name one: "
                        f"--with {param}=PIECE")], sources)
        raise typer.Exit(UNUSABLE)
    if as_json:
        typer.echo(json.dumps({param: {piece: odds_mod.as_json(result, ruleset, policies)
                                       for piece, result in results.items()}}, indent=2))
        return
    for i, (piece, result) in enumerate(results.items()):
        if i:
            typer.echo()
        typer.echo(f"{param}={piece}")
        _print_odds(result)
    if refused:
        typer.echo()
        typer.echo("not allowed " + "; ".join(refused))


def _fighter(text: str, origin: str, ruleset: Ruleset, side: int,
             diagnostics: list[Diagnostic], sources: Sources) -> ParsedFighter | None:
    """A fighter written as key=value pairs, or FILE#NAME: a fighter of a warband file."""
    from warband.lists.fighters import find_fighter, is_fighter_ref
    from warband.lists.validate import Validation
    from warband.run import odds as odds_mod
    if not is_fighter_ref(text):
        return odds_mod.parse_fighter(text, origin, ruleset, side, diagnostics)
    validation = Validation()
    found = find_fighter(text, origin, ruleset, side, diagnostics, validation)
    sources.texts.update(validation.sources.texts)
    return found


def _parse_value(raw: str, kind: str, ruleset: Ruleset, diagnostics: list[Diagnostic],
                 name: str, where: Span) -> object:
    """A --with value as the parameter's type wants it: yes/no, a number, a text, a name."""
    from warband.diagnostics import diag, did_you_mean
    if kind == "bool":
        if raw.lower() in ("yes", "true", "1", "on", ""):
            return True
        if raw.lower() in ("no", "false", "0", "off"):
            return False
        diagnostics.append(diag("E901", f"'{name}' is yes or no, not '{raw}'", where))
        return False
    if kind == "text":
        return raw
    if kind == "dice":   # a roll, as the rules write one: 2d6, d6 + 1 (re-rolled at each use)
        from warband.run.odds import dice_argument
        found = dice_argument(raw)
        if found is None:
            diagnostics.append(diag("E901", f"'{name}' is dice, not '{raw}'", where,
                                    hint="write a roll as the rules do: 2d6, d6 + 1, 4d6 keep "
                                         "highest 3"))
        return found
    if kind in ("fighter", "side"):   # a value of the board: --attacker/--target give fighters
        diagnostics.append(diag("E901", f"'{name}' is a {kind}, which --with cannot give",
                                where, hint="odds follows one action between the fighters "
                                "of --attacker and --target; play a phase of the game with: "
                                "warband play SCENARIO"))
        return None
    if kind in ("class", "tier", "equipment"):   # a declared name of that kind
        members = list({"class": ruleset.classes, "tier": ruleset.tiers,
                        "equipment": ruleset.equipment}[kind])
    elif kind in ruleset.enums:
        members = [m for m, _ in ruleset.enums[kind]]
    elif kind in ruleset.outcomes:
        members = [m for m, _ in ruleset.outcomes[kind].scores]
    else:
        members = []
    if members:
        if raw not in members:
            diagnostics.append(diag("E901", f"'{name}' is one of {', '.join(members)}", where,
                                    hint=did_you_mean(raw, members)))
        return raw
    try:
        return int(raw)
    except ValueError:
        diagnostics.append(diag("E901", f"'{name}' must be a whole number, not '{raw}'",
                                where))
        return 0


def _print_odds(result: OddsResult, console=None) -> None:
    from rich.table import Table
    from rich.text import Text

    from warband import terminal
    from warband.diagnostics import printable
    from warband.run.odds import fraction_text, key_text, outcome_text, solution_lines
    from warband.run.odds_sampled import interval
    sampled = result.samples is not None
    table = Table("outcome", "runs" if sampled else "fraction", "percent",
                  *(["95% interval"] if sampled else []), box=None, pad_edge=False)
    for column in table.columns[1:]:
        column.justify = "right"
    for v in result.order:
        p = result.distribution[v]
        # None: the action (a phase, say) gives no result; never a row that reads "None"
        row: list[Text | str] = [Text("(no result)" if v is None else printable(outcome_text(v))),
               fraction_text(p), f"{float(p) * 100:.2f}%"]
        if result.samples is not None:
            low, high = interval(p, result.samples)
            row[1] = f"{int(p * result.samples):,}"
            row.append(f"{low * 100:.2f}% to {high * 100:.2f}%")
        table.add_row(*row)
    console = console or terminal.console()
    if result.samples is not None:
        console.print(f"sampled: {result.samples:,} runs (not exact: each share with its 95% "
                      "interval)", highlight=False, markup=False)
    if list(result.order) == [None]:
        console.print("no result: the action returns nothing; what it changes is below"
                      if result.effects else "no result: the action returns nothing and "
                      "changes nothing", highlight=False, markup=False)
    else:
        console.print(table)
    if result.expected is not None:
        console.print(f"expected: {fraction_text(result.expected)} "
                      f"({float(result.expected):.3f})")
    if result.solution is not None:
        console.print()
        for line in solution_lines(result.solution):
            console.print(printable(line), highlight=False, markup=False)
    if result.effects:
        console.print()
        after = Table("after the action", "value", "fraction", "percent", box=None,
                      pad_edge=False)
        after.columns[2].justify = after.columns[3].justify = "right"
        for label, dist in result.effects.items():
            for i, (v, p) in enumerate(sorted(dist.items(),
                                              key=lambda kv: (str(type(kv[0])), kv[0]))):
                after.add_row(Text(printable(label)) if i == 0 else "",
                              Text(printable(key_text(v))), fraction_text(p),
                              f"{float(p) * 100:.2f}%")
        console.print(after)
