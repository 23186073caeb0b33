"""Finding and loading a scenario: its rules (a rules file with a `scenario` declaration) and the
forces it names, as fighters ready to be put on the board.

A scenario is a rules file, usually one that extends a ruleset with what only this game needs
(a marker, a special action, a counter) and declares one `scenario`. Its sides come from warband
files (paths relative to the scenario file) or are written inline.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Sequence

from warband import catalog
from warband.diagnostics import Diagnostic, Related, Sources, Span, diag, did_you_mean
from warband.lang.classes import gear_problems
from warband.lang.compiler import load
from warband.lang.nodes import ScenarioDecl
from warband.lang.ruleset import Ruleset, constant
from warband.limits import MAX_FIGHTERS
from warband.lists.class_stats import fixed_at, fixed_words, outside_words
from warband.lists.validate import Validation
from warband.run.world import FighterSpec, Ref, World, make_world


@dataclass
class Scenario:
    ruleset: Ruleset                    # the compiled Ruleset, with its `scenario` declaration
    decl: ScenarioDecl                  # that declaration
    path: str
    side_names: list[str]
    forces: list[list[FighterSpec]]     # per side, in the scenario's order
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: Sources | None = None
    # per side, the warband file its fighters came from (a --side file, or the scenario's
    # `side ... from`), None where the scenario writes them: what `play --update` writes to
    files: list[Path | None] = field(default_factory=list)
    # campaigns: per side, the side's stats its warband file keeps (by their declared names)
    side_values: list[dict] = field(default_factory=list)
    # what every game of the scenario works out alike, made once: the World it starts from
    # (Worlds are never changed in place), the board's size and zones, ...
    kept: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def title(self) -> str:
        return self.ruleset.title

    def start(self) -> World:
        """The World before set-up: every side's fighters, off the board."""
        found = self.kept.get("start")
        if found is None:
            found = self.kept["start"] = make_world(
                self.ruleset, [s for side in self.forces for s in side],
                [dict(self.side_values[i]) if i < len(self.side_values) else {}
                 for i in range(len(self.side_names))], self.side_names)
        return found


def resolve(ref: str) -> tuple[Path | None, Diagnostic | None]:
    """A shipped scenario's id, or a scenario file (relative to the working directory)."""
    found = catalog.resolve(ref, catalog.scenarios(), existing=True)
    if found.path is not None:
        return found.path, None
    if found.tried is not None:
        return None, diag("E100", f"no such scenario file: {ref}", None)
    return None, diag("E404", f"unknown scenario '{ref}'", None,
                      hint=did_you_mean(ref, found.known)
                      or f"shipped scenarios: {', '.join(found.known)}")


@dataclass(frozen=True)
class SideFile:
    """A warband file that replaces a scenario's force for one side (`--side NAME=FILE`):
    plain data, so it travels to the simulator's workers with the request."""

    side: str                  # the scenario's side it replaces
    path: str                  # the file, absolute (workers may run in another directory)
    shown: str                 # the file as the user named it, for messages and the record
    span: Span | None = None   # where the command line (or the record) names it
    shared: bool = False       # named by a game's record, not by the user: a regular file only


class Findings(list):
    """Why a scenario cannot be played: its diagnostics, with the texts they point into (the
    scenario's rules, the warband files it names) for their excerpts."""

    def __init__(self, diagnostics: list[Diagnostic], *texts: Sources | None) -> None:
        super().__init__(diagnostics)
        self.sources = Sources({k: v for t in texts if t is not None for k, v in t.texts.items()})


def load_scenario(ref: str, side_files: Sequence[SideFile] = ()) -> Scenario | list[Diagnostic]:
    """The scenario and its forces, or every problem found on the way. `side_files` replace
    the forces of the sides they name, checked as `warband validate` checks a file."""
    path, problem = resolve(ref)
    if path is None:
        return [problem] if problem is not None else []
    compiled = load(str(path))
    if compiled.errors or compiled.ruleset is None:
        return Findings(compiled.diagnostics, compiled.sources)
    ruleset = compiled.ruleset
    decl = ruleset.scenario
    if decl is None:
        return [diag("E402", f"{catalog.display_path(path)} has no scenario", None,
                     hint="a scenario file declares one: scenario NAME { board ... }")]
    diagnostics: list[Diagnostic] = []
    names = [s.name.name for s in decl.sides]
    replaced: dict[str, SideFile] = {}
    for given in side_files:
        if given.side not in names:
            diagnostics.append(diag("E901", f"the scenario has no side '{given.side}'",
                                    given.span, hint=did_you_mean(given.side, names)
                                    or f"its sides: {', '.join(names)}"))
        elif given.side in replaced:
            diagnostics.append(diag("E901", f"side '{given.side}' is given two warband files",
                                    given.span, hint=f"keep one of "
                                    f"{replaced[given.side].shown} and {given.shown}"))
        else:
            replaced[given.side] = given
    validation = Validation()
    forces: list[list[FighterSpec]] = []
    files: list[Path | None] = []
    side_values: list[dict] = []   # campaigns: the side's stats its file keeps
    inline: list = []   # (a fighter the scenario writes, its first fighter's place, its side)
    total = 0
    for index, side in enumerate(decl.sides):
        specs: list[FighterSpec] = []
        specs_before = [f for force in forces for f in force]
        side_values.append({})
        mine = replaced.get(side.name.name)
        files.append(Path(mine.path) if mine is not None else
                     path.parent / side.file if side.file is not None else None)
        if mine is not None:   # the player's own list: checked alone, its fighters only
            fighters = _side_file(mine, ruleset, validation, diagnostics, side_values[-1])
            if fighters is None:
                continue
            total += sum(f.count for f in fighters)
            if total > MAX_FIGHTERS:
                diagnostics.append(diag("E403", f"a game holds at most {MAX_FIGHTERS} "
                                                f"fighters; {mine.shown} brings it to {total}",
                                        mine.span, hint="play with smaller warbands"))
                continue
            for fighter in fighters:
                specs += fighter.specs(index)
            forces.append(specs)
            continue
        if side.file is not None:
            found = catalog.resolve(side.file, [], path.parent, suffixes=catalog.WARBAND_SUFFIXES)
            if found.refused is not None or found.path is None and found.tried is None:
                diagnostics.append(diag("E901", f"side '{side.name.name}': '{side.file}' is not "
                                                "a warband file this scenario may name",
                                        side.span, hint=catalog.refusal_hint(found, "warband")))
                continue
            file = path.parent / side.file
            result = validation.file(str(file), shared=True)   # (a FIFO is refused, not waited on)
            if result.unusable or result.errors or result.warband is None:
                diagnostics += result.diagnostics
                diagnostics.append(diag("E901", f"side '{side.name.name}': {side.file} is not a "
                                                "valid warband file", side.span,
                                        hint=f"run: warband validate {catalog.display_path(file)}"))
                continue
            if result.ruleset is not None and not _compatible(ruleset, result.ruleset.id):
                diagnostics.append(diag(
                    "E901", f"side '{side.name.name}': {side.file} is a warband for "
                            f"'{result.ruleset.id}', and this scenario plays '{ruleset.id}'",
                    side.span, hint="use a warband of the ruleset the scenario extends"))
                continue
            total += sum(f.count for f in result.warband.fighters)
            if total > MAX_FIGHTERS:   # before a count of millions is made into fighters
                diagnostics.append(diag("E403", f"a game holds at most {MAX_FIGHTERS} fighters; "
                                                f"side '{side.name.name}' brings it to {total}",
                                        side.span, hint="play with smaller warbands"))
                continue
            for fighter in result.warband.fighters:
                specs += fighter.specs(index)
            side_values[-1].update(_kept(ruleset, result.warband))
        for spec in side.fighters:
            inline.append((spec, len(specs_before) + len(specs), index))
            diagnostics += _missing_stats(ruleset, spec) + _class_bounds(ruleset, spec) + \
                _gear(ruleset, spec) + _models(ruleset, spec)
            stats = {s.name: _constant(v) for s, v in spec.stats}
            traits = {r.name.name: (True if r.value is None else _constant(r.value))
                      for r in spec.traits}
            for n in range(spec.count):
                name = spec.name if spec.count == 1 else f"{spec.name} {n + 1}"
                specs.append(FighterSpec(name, index, spec.fighter_class.name
                                         if spec.fighter_class else None, dict(stats),
                                         dict(traits), tuple(e.name for e in spec.equipment),
                                         models=None if spec.models is None else
                                         _constant(spec.models)))
        forces.append(specs)
    if not diagnostics:
        diagnostics = _derived_given(ruleset, inline, [f for force in forces for f in force])
    if diagnostics:
        return Findings(diagnostics, compiled.sources, validation.sources)
    return Scenario(ruleset, decl, catalog.display_path(path), names, forces,
                    sources=compiled.sources, files=files, side_values=side_values)


def _kept(ruleset: Ruleset, warband) -> dict:
    """Campaigns: the side's stats a warband file keeps that the scenario's ruleset has."""
    return {name: value for name, value in (warband.values or {}).items()
            if name in ruleset.states and ruleset.states[name].owner == "side"}


def _side_file(given: SideFile, ruleset: Ruleset, validation: Validation,
               diagnostics: list[Diagnostic], values: dict) -> list | None:
    """The fighters of a `--side` warband file, or None with the reasons in `diagnostics`:
    the file's own diagnostics, then one E901 at the option that names it."""
    # named as the user named it (relative to the working directory), unless run elsewhere
    shown_here = os.path.abspath(given.shown) == given.path
    result = validation.file(given.shown if shown_here else given.path, shared=given.shared)
    what = f"side '{given.side}': {given.shown}"
    if result.unusable or result.errors or result.warband is None:
        diagnostics += result.diagnostics
        diagnostics.append(diag("E901", f"{what} is not a valid warband file", given.span,
                                hint=f"run: warband validate {given.shown}"))
        return None
    if result.ruleset is not None and not _compatible(ruleset, result.ruleset.id):
        chain = [i for i, _ in ruleset.layers if i != ruleset.id] or [ruleset.id]
        diagnostics.append(diag(
            "E901", f"{what} is a warband for '{result.ruleset.id}', and this scenario plays "
                    f"'{ruleset.id}'", given.span,
            hint=f"give a warband of {' or '.join(repr(c) for c in chain)}; `warband convert` "
                 "may make one"))
        return None
    values.update(_kept(ruleset, result.warband))   # campaigns: the side's stats it keeps
    return list(result.warband.fighters)


def _missing_stats(ruleset: Ruleset, spec) -> list[Diagnostic]:
    """E628 at a fighter the scenario writes that lacks a stat (no default, not its class's, not
    worked out for every fighter), as `validate` reports one in a warband file; else the game
    read a missing value (a TypeError, a traceback)."""
    cls = ruleset.classes.get(spec.fighter_class.name) if spec.fighter_class else None
    given = {s.name for s, _ in spec.stats} | (set(cls.given) if cls else set())
    return [diag("E628", f"fighter '{spec.name}' has no {stat.name}", spec.span,
                 hint=f"give it: stat {stat.name} = ... (or give the stat a default)")
            for stat in ruleset.stats.values()
            if stat.default is None and stat.name not in given and not stat.always_derived
            and stat.when is None]


def _models(ruleset: Ruleset, spec) -> list[Diagnostic]:
    """A unit's models a scenario writes (`models 7`), as a warband entry's `models:`: E635
    for a class that is no unit, E634 outside the class's bounds (lists/unit_entries.py)."""
    if spec.models is None:
        return []
    cls = ruleset.classes.get(spec.fighter_class.name) if spec.fighter_class else None
    unit = cls.unit if cls is not None else None
    if unit is None or unit.span is None:
        return [diag("E635", f"fighter '{spec.name}' gives models, but "
                             f"{'class ' + cls.name if cls else 'it has no class and'} is not a "
                             "unit of several models", spec.models.span,
                     hint="remove 'models ...', or give it a class with a 'models' line")]
    given, unit_class = _constant(spec.models), spec.fighter_class.name
    if not unit.allows(given):
        return [diag("E634", f"fighter '{spec.name}' fields {given} models, outside "
                             f"{unit.shown}, the models class {unit_class} allows",
                     spec.models.span, related=[Related(unit.span,
                                                        f"class {unit_class}'s models")],
                     hint=f"give models from {unit.low} to {unit.high}, or leave it out for "
                          f"the class's {unit.default}")]
    return []


def _class_bounds(ruleset: Ruleset, spec) -> list[Diagnostic]:
    """A fighter the scenario writes, as an entry of a warband file: E631 at a stat its class
    fixes, E623/E627 at a value outside its class's bounds (lists/class_stats.py)."""
    cls = ruleset.classes.get(spec.fighter_class.name) if spec.fighter_class else None
    if cls is None:
        return []
    out = []
    for name, value in spec.stats:
        stat = ruleset.stats.get(name.name)
        if stat is None:
            continue
        if cls.fixes(stat.name):
            message, hint = fixed_words(cls, stat, f"'{spec.name}'", scenario=True)
            out.append(diag("E631", message, name.span, related=fixed_at(cls, stat.name),
                            hint=hint))
        elif (choice := cls.choice(stat.name)) is not None and \
                not choice.allows(given := _constant(value)):
            code, message, hint = outside_words(cls, stat, given)
            out.append(diag(code, f"fighter '{spec.name}': {message}", value.span, hint=hint,
                            related=[Related(choice.span, f"class {cls.name}'s choice")]))
    return out


def _gear(ruleset: Ruleset, spec) -> list[Diagnostic]:
    """A fighter the scenario writes carries what its class's options allow, as an entry of a
    warband file does (E632, E633 at the piece; lang/classes.py judges)."""
    cls = ruleset.classes.get(spec.fighter_class.name) if spec.fighter_class else None
    if cls is None:
        return []
    return [diag(p.code, p.message, spec.equipment[p.index].span, hint=p.hint,
                 related=[Related(p.rule, p.rule_words)])
            for p in gear_problems(cls, spec.name, tuple(e.name for e in spec.equipment))]


def _derived_given(ruleset: Ruleset, inline: list, fighters: list[FighterSpec]) -> list:
    """E630 at a fighter the scenario writes that gives a stat the rules work out for it (one
    derived for some fighters only, `... if f is human`: the checker's E308 covers a stat
    derived for every fighter); else the given value was silently overruled in play."""
    derived = [st for st in ruleset.stats.values() if st.derived is not None]
    given = [(spec, first) for spec, first, _ in inline
             if any(st.name == d.name for st, _ in spec.stats for d in derived)]
    if not given:
        return []
    # lazily: the interpreter only for a scenario whose fighters give a derived stat
    from warband.lists.derived import derived_words
    from warband.run.interpreter import Interpreter
    interpreter, world = Interpreter(ruleset), make_world(ruleset, fighters)
    out = []
    for spec, first in given:
        for stat_name, _ in spec.stats:
            stat = ruleset.stats[stat_name.name]
            if stat.derived is not None and \
                    interpreter.works_out(stat.name, Ref("fighter", first), world):
                message, hint = derived_words(stat, f"'{spec.name}'")
                out.append(diag("E630", message, stat_name.span, hint=hint))
    return out


def _constant(expr):
    value = constant(expr)
    # (a whole number as an int; a truth too, as it always was)
    return int(value) if isinstance(value, (int, Fraction)) and value.denominator == 1 else value


def _compatible(ruleset: Ruleset, warband_ruleset: str) -> bool:
    """A warband fits a scenario whose rules are its ruleset, or extend it."""
    chain = [ruleset.id, *(layer_id for layer_id, _ in ruleset.layers)]
    return warband_ruleset in chain
