"""Validating warband files, one stage after another:

    read -> load YAML (positions kept) -> find the ruleset -> schema made from the ruleset
         -> the ruleset's army rules (costs, points, size, quotas) -> diagnostics

Every problem of every file is collected; nothing here prints. A `Validation` is one run: it
compiles each ruleset once and keeps one schema validator and one interpreter per ruleset, so a
thousand files cost a thousand loads, not a thousand compilations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterable

from warband import catalog
from warband.diagnostics import (
    Diagnostic,
    Related,
    Severity,
    Sources,
    diag,
    did_you_mean,
)
from warband.lang.compiler import Compiled, load
from warband.lang.ruleset import Ruleset
from warband.lists import army, schema, yamlfast
from warband.lists.class_stats import check_class_stats
from warband.lists.derived import check_derived
from warband.lists.equipment_options import check_equipment
from warband.lists.unit_entries import check_models
from warband.lists.warband_file import (
    FIGHTERS,
    Source,
    Warband,
    read_source,
    ruleset_ref,
    span_at,
    warband_from,
)

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

    from warband.run.interpreter import Interpreter

@dataclass
class FileResult:
    """What validating one warband file found."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unusable: bool = False          # the file or its ruleset could not be read at all
    ruleset: Ruleset | None = None  # the compiled Ruleset, when found
    warband: Warband | None = None  # the fighters that are well-formed
    total: int | Fraction | None = None  # points the warband costs
    limit: int | None = None        # points it may cost
    size: int | None = None         # fighters, counting `count`
    costs: dict[str, army.CostTotal] = field(default_factory=dict)   # the named costs, by name

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def failed(self, strict: bool = False) -> bool:
        return self.unusable or bool(self.errors) or (strict and bool(self.warnings))


@dataclass
class Report:
    """Every file of a validation, with what was found in each."""

    files: list[FileResult]
    sources: Sources

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    @property
    def unusable(self) -> bool:
        return any(f.unusable for f in self.files)

    def failed(self, strict: bool = False) -> bool:
        return any(f.failed(strict) for f in self.files)


@dataclass
class _Rules:
    """A compiled ruleset with what checking its warbands needs, made once per run."""

    compiled: Compiled
    schema: dict | None = None
    validator: object | None = None           # a jsonschema validator, made when first needed
    interpreter: Interpreter | None = None    # made for a ruleset with army rules


class Validation:
    """One validation run over any number of files.

    default_ruleset: used for files without a `ruleset:` key (a built-in id or a rules path).
    """

    def __init__(self, default_ruleset: str | None = None,
                 stdin: BinaryIO | None = None) -> None:
        self.default_ruleset = default_ruleset
        self.stdin = stdin
        self.sources = Sources()
        self._rules: dict[str, _Rules] = {}
        self._generic = None
        self._shipped: list[catalog.Shipped] | None = None

    # ---- entry points ---------------------------------------------------------------------------
    def run(self, args: Iterable[str]) -> Report:
        return Report([self.file(arg) for arg in args], self.sources)

    def file(self, arg: str, *, shared: bool = False) -> FileResult:
        """Validate one path, or standard input for '-'; `shared`: a file another file names
        (a regular file only: read_source)."""
        source = read_source(arg, self.stdin, shared=shared)
        if source.problem is not None:
            return FileResult(source.name, [source.problem], unusable=True)
        return self.source(source)

    def text(self, text: str, name: str, base: Path = Path(".")) -> FileResult:
        return self.source(Source(name, text.encode("utf-8"), base))

    # ---- the pipeline ---------------------------------------------------------------------------
    def source(self, source: Source) -> FileResult:
        name = source.name
        assert source.raw is not None  # only a Source with a problem has no bytes
        loaded = yamlfast.load(source.raw, name)
        if loaded is None:   # lazily: ruamel.yaml reads only what the fast reader leaves to it
            from warband.lists.yamlload import load_yaml
            loaded = load_yaml(source.raw, name)
        if loaded.text is not None:
            self.sources.add(name, loaded.text)
        result = FileResult(name, list(loaded.diagnostics))
        data = loaded.data
        if data is None:
            return result
        ref, base, shared = ruleset_ref(data), source.base, True
        if ref is None and "ruleset" not in data and self.default_ruleset:
            # named on the command line: the user's own choice, not the file's
            ref, base, shared = self.default_ruleset, Path("."), False
        rules = self.rules(ref, base, data, name, loaded.text, shared=shared) if ref else None
        if not isinstance(rules, _Rules):
            # no usable ruleset: the generic schema still finds what is wrong with the shape
            result.diagnostics += self._generic_check(data, name, loaded.text)
            if rules is not None:
                result.diagnostics.append(rules)
                result.unusable = True
            return self._sorted(result)
        ruleset = rules.compiled.ruleset
        assert ruleset is not None  # rules() gives a _Rules only for a compiled ruleset
        result.ruleset = ruleset
        if rules.schema is None:
            rules.schema = schema.ruleset_schema(ruleset, groups=False, classes=False)
        if schema.conforms(rules.schema, data):  # valid: no need to load jsonschema
            found = schema.SchemaResult()
        else:
            if rules.validator is None:
                rules.validator = schema.validator_for(rules.schema)
            found = schema.check(rules.validator, data, name, loaded.text, ruleset,
                                 missing_ok=frozenset({"ruleset"} - set(data)))
        result.diagnostics += found.diagnostics
        entries = data.get(FIGHTERS)
        count = len(entries) if isinstance(entries, list) else 0
        usable = set() if FIGHTERS in found.bad_keys else set(range(count)) - found.bad_fighters
        # what a class fixes or bounds: a fixed stat given is reported and left out (the entry
        # is still a fighter, of the class's value); a value outside the class's bounds is not
        classed, outside = check_class_stats(data, name, loaded.text, ruleset)
        result.diagnostics += classed
        usable -= outside
        units, outside = check_models(data, name, loaded.text, ruleset)   # a unit's models
        result.diagnostics += units
        usable -= outside
        result.warband = warband_from(data, name, ruleset, usable)
        if "points" in found.bad_keys:  # a bad limit is reported once, not checked against
            result.warband = replace(result.warband, points=None)
        derived = check_derived(result.warband, ruleset, data, name, loaded.text)
        result.diagnostics += derived
        result.diagnostics += check_equipment(data, name, loaded.text, ruleset)
        # an entry without a stat the rules need has no cost: the army rules leave it out, as
        # they leave out every malformed entry, and check what the others settle (army.check)
        lacking = {d.path[1] for d in derived if d.code == "E628" and len(d.path) > 1}
        complete = len(usable) == count and FIGHTERS not in found.bad_keys and not lacking
        checkable = replace(result.warband, fighters=tuple(
            f for f in result.warband.fighters if f.index not in lacking))
        if rules.interpreter is None and ruleset.army is not None:
            # lazily: the interpreter (and the code generator under it) only for army rules
            from warband.run.interpreter import Interpreter
            rules.interpreter = Interpreter(ruleset)
        held = ruleset   # campaigns: a warband that has played a game is past its founding
        if ruleset.army is not None and ruleset.army.founding and result.warband.games > 0:
            held = replace(ruleset, army=ruleset.army.grown())
        checked = army.check(checkable, held, rules.interpreter, data, name,
                             loaded.text, self.sources, complete=complete,
                             points_known="points" not in found.bad_keys)
        result.diagnostics += checked.diagnostics
        result.total, result.limit, result.size = checked.total, checked.limit, checked.size
        result.costs = checked.named
        return self._sorted(result)

    @staticmethod
    def _sorted(result: FileResult) -> FileResult:
        result.diagnostics.sort(key=lambda d: (d.span is None or d.span.file != result.file,
                                               d.sort_key()))
        return result

    def _generic_check(self, data: CommentedMap, name: str, text: str | None) -> list[Diagnostic]:
        if self._generic is None:
            self._generic = schema.validator_for(schema.generic_schema())
        return schema.check(self._generic, data, name, text).diagnostics

    # ---- finding the ruleset --------------------------------------------------------------------
    def rules(self, ref: str, base: Path, data: CommentedMap, name: str,
              text: str | None, *, shared: bool = True) -> _Rules | Diagnostic:
        """The compiled ruleset a file names, or the diagnostic that makes the file unusable.
        `shared`: the file names it (a file may name only rules files, relative to itself)."""
        span = span_at(data, ("ruleset",), name, text) if "ruleset" in data else None
        if self._shipped is None:
            self._shipped = catalog.rulesets()
        found = catalog.resolve(ref, self._shipped, base,
                                suffixes=catalog.RULES_SUFFIXES if shared else None)
        if found.refused is not None:
            return diag("E100", f"'{ref}' is not a rules file this warband may name", span,
                        hint=catalog.refusal_hint(found, "rules"))
        if found.path is None and found.tried is not None:
            where = "" if base == Path(".") else f" (relative to {base.as_posix()}/)"
            return diag("E100", f"no such rules file: {ref}{where}", span,
                        hint="a path in 'ruleset:' is relative to the warband file")
        if found.path is None:
            return diag("E404", f"unknown ruleset '{ref}'", span,
                        hint=did_you_mean(ref, found.known) or
                        f"built-in rulesets: {', '.join(found.known)}; "
                        "or give the path to a .rules file")
        key = str(found.path) if catalog.looks_like_path(ref) else ref
        if key not in self._rules:
            compiled = load(key)
            self.sources.texts.update(compiled.sources.texts)
            self._rules[key] = _Rules(compiled)
        rules = self._rules[key]
        if rules.compiled.ruleset is not None:
            return rules
        errors = rules.compiled.errors
        if errors and errors[0].code in ("E100", "E404"):  # unreadable after all
            return diag(errors[0].code, errors[0].message, span, hint=errors[0].hint)
        shown = errors[:3]
        more = f" ({len(errors) - len(shown)} more not shown)" if len(errors) > len(shown) else ""
        return diag("E629", f"the rules in '{ref}' have errors{more}", span,
                    related=[Related(d.span, d.message) for d in shown if d.span],
                    hint=f"run: warband rules check {key}")


def validate(args: Iterable[str], *, default_ruleset: str | None = None,
             stdin: BinaryIO | None = None) -> Report:
    """Validate warband files (paths, or '-' for standard input)."""
    return Validation(default_ruleset, stdin).run(args)


def validate_text(text: str, name: str = "warband.yaml", *,
                  default_ruleset: str | None = None) -> FileResult:
    return Validation(default_ruleset).text(text, name)


__all__ = ["Validation", "FileResult", "Report", "validate", "validate_text"]
