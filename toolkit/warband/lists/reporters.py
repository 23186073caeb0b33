"""Renderers of a validation Report: text, JSON, GitHub workflow commands, SARIF 2.1.0.

Each takes the Report and returns the whole output as a string; none prints, and none decides an
exit code. Paths are written as the user gave them (relative stays relative), with '/' in URIs.

Text from the files (names, values, paths) is shown with its control characters escaped
(`diagnostics.printable`) wherever people read it: the text report, GitHub's annotations and
SARIF's message texts, which viewers show as they are. The text and GitHub reports show at most
MAX_SHOWN_PER_FILE diagnostics a file (MAX_SHOWN_RELATED related places each) and count the
rest; JSON and SARIF, data for programs, keep every diagnostic (their summaries count them all).
"""

from __future__ import annotations

import json

from warband import __version__
from warband.diagnostics import (
    CODES,
    Diagnostic,
    Severity,
    printable,
    render_text,
    shown,
    shown_text,
    summary,
)
from warband.limits import MAX_SHOWN_RELATED
from warband.lists.validate import Report

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def render(report: Report, fmt: str, *, colour: bool = False) -> str:
    """The report in one of FORMATS; `colour` (text only): for a terminal."""
    if fmt == "text":
        return text(report, colour=colour)
    return {"json": as_json, "github": github, "sarif": sarif}[fmt](report)


# ---- text ---------------------------------------------------------------------------------------

def text(report: Report, *, colour: bool = False) -> str:
    """Compiler-style diagnostics with excerpts (coloured, with `colour`), then one summary
    line."""
    out = render_text(report.diagnostics, report.sources, colour=colour)
    n = len(report.files)
    invalid = sum(f.failed() for f in report.files)
    verdict = f", {invalid} invalid" if invalid else ""
    return out + f"{n} file{'' if n == 1 else 's'} checked{verdict}: " \
                 f"{summary(report.diagnostics)}\n"


# ---- JSON ---------------------------------------------------------------------------------------

def as_json(report: Report) -> str:
    files = []
    for f in report.files:
        entry: dict = {"file": f.file, "valid": not f.failed(), "unusable": f.unusable}
        if f.ruleset is not None:
            entry["ruleset"] = f.ruleset.id
        for key, value in (("points", f.total), ("points_limit", f.limit),
                           ("fighters", f.size)):
            if value is not None:
                entry[key] = value if isinstance(value, int) else str(value)
        if f.costs:   # the named costs: {"crowns": {"total": 430, "limit": 500}}
            entry["costs"] = {name: {key: value if isinstance(value, int) else str(value)
                                     for key, value in (("total", c.total), ("limit", c.limit))
                                     if value is not None}
                              for name, c in f.costs.items()}
        entry["diagnostics"] = [d.to_json() for d in f.diagnostics]
        files.append(entry)
    errors = sum(len(f.errors) for f in report.files)
    warnings = sum(len(f.warnings) for f in report.files)
    return json.dumps({"valid": not report.failed(), "files": files,
                       "summary": {"files": len(files), "errors": errors,
                                   "warnings": warnings}}, indent=2) + "\n"


# ---- GitHub Actions workflow commands -----------------------------------------------------------

def _escape_data(s: str) -> str:
    """GitHub's escapes for a command's message (its own newlines become %0A)."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(printable(s)).replace(":", "%3A").replace(",", "%2C")


def _github_line(d: Diagnostic) -> str:
    level = "error" if d.severity is Severity.ERROR else (
        "warning" if d.severity is Severity.WARNING else "notice")
    props = []
    if d.span is not None:
        s = d.span
        props += [f"file={_escape_property(s.file)}", f"line={s.line}", f"col={s.column}"]
        if s.end_line != s.line:
            props.append(f"endLine={s.end_line}")
        elif s.end_column > s.column + 1:
            props.append(f"endColumn={s.end_column}")
    props.append(f"title={_escape_property(f'{d.code} {CODES[d.code][1]}')}")
    parts = [f"{shown_text(d.message)} [{d.code}]"]
    if d.hint:
        parts.append(f"hint: {shown_text(d.hint)}")
    parts += [f"{printable(str(r.span))}: {shown_text(r.message)}"
              for r in d.related[:MAX_SHOWN_RELATED]]
    if len(d.related) > MAX_SHOWN_RELATED:
        parts.append(f"... and {len(d.related) - MAX_SHOWN_RELATED:,} more places")
    message = "\n".join(parts)
    return f"::{level} {','.join(props)}::{_escape_data(message)}"


def github(report: Report) -> str:
    """One workflow command per diagnostic: GitHub shows each as an annotation on its line; at
    most MAX_SHOWN_PER_FILE a file, then one notice counting the rest."""
    lines = []
    for d in shown(report.diagnostics, lambda file, more: f"... and {more:,} more in {file}"):
        lines.append(_github_line(d) if isinstance(d, Diagnostic) else
                     f"::notice::{_escape_data(printable(d))}")
    return "".join(line + "\n" for line in lines)


# ---- SARIF 2.1.0 --------------------------------------------------------------------------------

def _uri(path: str) -> str:
    return path.replace("\\", "/")


def _location(span, message: str | None = None, id: int | None = None) -> dict:
    region = {"startLine": span.line, "startColumn": span.column}
    if span.end_line != span.line:
        region["endLine"] = span.end_line
    region["endColumn"] = span.end_column
    out: dict = {"physicalLocation": {"artifactLocation": {"uri": _uri(span.file)},
                                      "region": region}}
    if id is not None:
        out["id"] = id
    if message:
        out["message"] = {"text": message}
    return out


def _rule_name(meaning: str) -> str:
    """SARIF's rule name is an identifier: 'quota not met' -> 'QuotaNotMet'."""
    return "".join(word[:1].upper() + word[1:] for word in meaning.replace("'", "").replace(
        "-", " ").split())


def sarif(report: Report) -> str:
    """A SARIF 2.1.0 log: the codes that occur as rules, every diagnostic as a result."""
    diagnostics = report.diagnostics
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    rules = [{"id": code, "name": _rule_name(CODES[code][1]),
              "shortDescription": {"text": CODES[code][1]},
              "defaultConfiguration": {"level": _LEVEL[CODES[code][0]]}} for code in codes]
    results = []
    for d in diagnostics:
        # viewers show a message's text as it is: the file's control characters made visible
        text = printable(d.message) + (f"\nhint: {printable(d.hint)}" if d.hint else "")
        result: dict = {"ruleId": d.code, "ruleIndex": index[d.code], "level": _LEVEL[d.severity],
                        "message": {"text": text}}
        if d.span is not None:
            result["locations"] = [_location(d.span)]
        else:
            file = next((f.file for f in report.files if d in f.diagnostics), None)
            if file is not None:
                result["locations"] = [{"physicalLocation": {
                    "artifactLocation": {"uri": _uri(file)}}}]
        if d.related:
            result["relatedLocations"] = [_location(r.span, printable(r.message), i)
                                          for i, r in enumerate(d.related)]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "warband", "version": __version__, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + "\n"
