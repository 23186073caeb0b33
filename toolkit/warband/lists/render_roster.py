"""Rendering a roster model (warband.lists.roster) as terminal text, markdown, HTML or PDF.

Markdown and HTML come from Jinja2 templates shipped in warband/lists/templates/ (roster.md.j2,
roster.html.j2); a user's own template (`--template PATH`) gets the same model instead. The
built-in templates are also reachable from a user's template as "warband/roster.html.j2", so a
template can `{% extends "warband/roster.html.j2" %}` and override only some blocks. Every
template, built-in or not, runs in template_sandbox's bounded Jinja2 sandbox, and whatever goes
wrong in one is a RenderError carrying a diagnostic at the template's line. The terminal
format is built with rich directly. PDF is the HTML printed by WeasyPrint (the optional `pdf`
extra). Every function returns the output; nothing here prints or writes files.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any, cast

from warband.diagnostics import Diagnostic, Sources, Span, diag, lone_surrogate
from warband.limits import MAX_TEMPLATE_OUTPUT

FORMATS = ("text", "markdown", "html", "pdf")
TEMPLATES = {"markdown": "roster.md.j2", "html": "roster.html.j2", "pdf": "roster.html.j2"}
PDF_MISSING = ("PDF output needs WeasyPrint: pip install 'warband-toolkit[pdf]' (it also needs "
               "the Pango libraries); or write HTML with --format html and print it to PDF from "
               "a browser")


class RenderError(Exception):
    """A roster cannot be rendered: a broken template, or PDF support missing. The message is
    for the user; a template's problem also comes as a diagnostic (E660 the file cannot be
    used, E661 the template fails) with the sources its excerpt needs."""

    def __init__(self, message: str, diagnostic: Diagnostic | None = None,
                 sources: Sources | None = None) -> None:
        super().__init__(message)
        self.diagnostic, self.sources = diagnostic, sources


def render(model: dict, fmt: str, *, template: str | None = None, width: int = 100,
           colour: bool = False) -> str | bytes:
    """The roster in `fmt`; with `template` (a path), that Jinja2 template instead of the
    built-in one. PDF is bytes; everything else is text."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown roster format {fmt!r}")
    if fmt == "pdf":
        return pdf(render_template(model, "html", template))
    if template is not None or fmt != "text":
        return render_template(model, fmt, template)
    return terminal(model, width=width, colour=colour)


# ---- templates ----------------------------------------------------------------------------------

MD_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "\\": "\\\\",
                            "`": "\\`", "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]"})


def md_cell(value) -> str:
    """A value as markdown text, safe anywhere on a line and in a table cell: one line, HTML's
    `& < >` as entities (markdown renderers pass raw HTML through), and the characters that make
    markup (`| \\ ` * _ [ ]`) escaped with a backslash."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).translate(MD_SPECIAL)


def md_code(value) -> str:
    """A value as a markdown code span, whatever backticks it holds: one line, fenced by more
    backticks than it has in a row (inside a code span nothing is markup, not even HTML)."""
    text = " ".join(("" if value is None else str(value)).split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# C0 but tab and newline, DEL, C1, and what reorders text (bidi controls, line separators): the
# characters diagnostics.printable escapes
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069\u2028\u2029]")


def printable(value):
    """The model with every control character in its text (an escape sequence, a carriage
    return) shown as U+FFFD: a warband file's names must not drive the terminal a roster is
    printed on, whatever the format."""
    if isinstance(value, str):
        return CONTROL.sub("\ufffd", value)
    if isinstance(value, dict):
        return {key: printable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(printable(item) for item in value)
    return value


def is_html(fmt: str, name: str | None) -> bool:
    return fmt in ("html", "pdf") or (name or "").endswith((".html", ".htm", ".html.j2",
                                                            ".htm.j2"))


def template_sandbox_for(fmt: str, user_file: str | None, seen: dict[str, tuple[str, str]]):
    """A sandbox for rosters: the built-in templates as "warband/NAME", and the folder of the
    user's template (read through read_template: regular files, bounded). Every template
    loaded is recorded in `seen`: its compiled code's file name -> (the name to show, text).
    render_template keeps the built-in templates' sandboxes (_builtin_environment)."""
    # lazily: a roster for the terminal needs no Jinja2
    from importlib import resources

    from jinja2 import FunctionLoader, StrictUndefined
    from jinja2.loaders import split_template_path

    from warband.lists.template_sandbox import RosterSandbox, TemplateUnreadable, read_template

    builtin = resources.files("warband.lists") / "templates"
    folder = os.path.dirname(user_file) if user_file is not None else None
    real_folder = os.path.realpath(folder or ".")

    def load(name: str):
        if folder is not None:
            path = os.path.join(folder, *split_template_path(name))   # no '..'
            top = name == os.path.basename(user_file or "")
            if os.path.lexists(path) or top:
                if not top and os.path.commonpath([os.path.realpath(path), real_folder]) != \
                        real_folder:   # a link out of the folder: to a secret, say
                    raise TemplateUnreadable(
                        path, f"the template {path} leads out of the folder of {user_file}",
                        "a template can include or extend only the files in its own folder")
                text = read_template(path)   # TemplateUnreadable: shown as E660
                seen[os.path.abspath(path)] = (path, text)
                return text, os.path.abspath(path), lambda: True
        if name.startswith("warband/") and name.removeprefix("warband/") in TEMPLATES.values():
            source = builtin / name.removeprefix("warband/")
            text = source.read_text(encoding="utf-8")
            seen[str(source)] = (name, text)
            return text, str(source), lambda: True
        return None

    env = RosterSandbox(loader=FunctionLoader(load), autoescape=is_html(fmt, user_file),
                        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                        keep_trailing_newline=True)
    env.filters["md"] = md_cell
    env.filters["md_code"] = md_code
    return env


# The built-in templates' sandboxes, one per escaping, kept for the process: compiling a
# template costs about 80 ms, far more than rendering it (a directory of warbands, the worker
# and the language server render many rosters). Only built-in templates are kept: a user's
# template is read anew each time, as it may have changed. The `seen` of a kept sandbox fills
# as its templates are first compiled, and those are the only files it can ever load.
_BUILTIN: dict[bool, tuple[Any, dict[str, tuple[str, str]]]] = {}


def _builtin_environment(html: bool):
    """The kept sandbox of the built-in templates (HTML-escaped or not) and its `seen`."""
    if html not in _BUILTIN:
        seen: dict[str, tuple[str, str]] = {}
        _BUILTIN[html] = (template_sandbox_for("html" if html else "markdown", None, seen), seen)
    return _BUILTIN[html]


def render_template(model: dict, fmt: str, template: str | None = None) -> str:
    """The model through the built-in template of `fmt`, or through the user's template file.
    Any failure is a RenderError with its diagnostic."""
    # lazily, as in sandbox
    from warband.lists.template_sandbox import (
        StepBudget,
        TemplateLimit,
        TemplateUnreadable,
        checked,
        read_template,
    )
    model = printable(model)
    seen: dict[str, tuple[str, str]] = {}
    if template is not None:
        name = os.path.basename(template)
        try:
            read_template(template)   # before anything else: a missing file, a FIFO, ...
        except TemplateUnreadable as error:
            raise unreadable(error) from None
    else:
        name = f"warband/{TEMPLATES[fmt]}"
    if template is None:
        env, seen = _builtin_environment(is_html(fmt, None))
    else:
        env = template_sandbox_for(fmt, template, seen)
    budget = StepBudget(seen)
    try:
        with budget:
            out: list[str] = []
            size = 0
            for chunk in env.get_template(name).generate(**model, roster=model):
                size += len(chunk)
                if size > MAX_TEMPLATE_OUTPUT:
                    raise TemplateLimit(f"the roster would be longer than "
                                        f"{MAX_TEMPLATE_OUTPUT:,} characters",
                                        "a roster is a few pages; look for a loop that "
                                        "prints too much")
                out.append(chunk)
            text = checked("".join(out))
            half = lone_surrogate(text)
            if half is not None:   # (the model's text is whole: the template's own escapes)
                raise TemplateLimit(f"the roster would hold \\u{ord(text[half]):04x}, half of "
                                    "a character (a lone surrogate), which no file or terminal "
                                    "can hold", "write the character itself in the template")
            return text
    except TemplateUnreadable as error:   # a template it includes or extends
        raise unreadable(error) from None
    except Exception as error:  # noqa: BLE001  # any error of a template is the template's
        raise failed(error, model, template or name, seen, budget.where()) from None


def unreadable(error) -> RenderError:
    """E660 for a template file that cannot be used (a TemplateUnreadable)."""
    span = Span(error.path, error.line, error.column) if error.line else None
    return RenderError(error.message, diag("E660", error.message, span, hint=error.hint),
                       Sources())


def failed(error: Exception, model: dict, shown: str, seen: dict[str, tuple[str, str]],
           last: tuple[str, int] | None = None) -> RenderError:
    """E661 for a template that fails, at the template line where it failed: a syntax error's
    own line, or the innermost frame of compiled template code in the traceback (Jinja rewrites
    those frames to the template's file and line); else the line that ran `last`, as when the
    output grew too long."""
    # lazily, as in sandbox
    import jinja2

    from warband.lists.template_sandbox import TemplateLimit
    sources = Sources({shown: text for shown, text in seen.values()})
    file, line = None, 0
    if isinstance(error, jinja2.TemplateSyntaxError) and error.lineno:
        file, line = error.filename, error.lineno
    else:
        tb = error.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename in seen:
                file, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
            tb = tb.tb_next
        if file is None and last is not None:
            file, line = last
    hint = ("templates run in a sandbox: they can read the roster's data (see the docs of "
            "`warband roster`), not Python's internals, files or programs")
    if isinstance(error, TemplateLimit):
        message, hint = str(error), error.hint
    elif isinstance(error, jinja2.TemplateSyntaxError):
        message = f"template syntax error: {error.message or 'cannot be read'}"
        hint = "see Jinja2's template syntax: https://jinja.palletsprojects.com/templates/"
    elif isinstance(error, jinja2.UndefinedError):
        message = f"template error: {error.message or 'an undefined value'}"
        hint = f"the roster model has: {', '.join(model)}"
    elif isinstance(error, jinja2.exceptions.SecurityError):
        message = f"the template did something a template may not: {error}"
    elif isinstance(error, jinja2.TemplateNotFound):
        message = f"template error: no template '{error.name}' to include or extend"
        hint = ("a template can include or extend the files next to it and "
                "\"warband/roster.html.j2\" or \"warband/roster.md.j2\"")
    elif isinstance(error, jinja2.TemplateError):
        message = f"template error: {error}"
    elif isinstance(error, OverflowError) and "MAX_RANGE" in str(error):
        message = "template error: a range() of more than 100,000 numbers"
        hint = "a roster needs no such range"
    elif isinstance(error, RecursionError):
        message = "template error: nested too deeply (a macro that calls itself, or brackets in " \
                  "brackets)"
        hint = "a macro that calls itself needs a way to stop; brackets and blocks nest a " \
               "few hundred deep at most"
    else:
        message = f"template error: {type(error).__name__}: {error}"
        hint = "the template failed while it ran: this is a mistake in the template"
    span = None
    if file is not None and file in seen:
        shown_file, text = seen[file]
        span = place(shown_file, text, line, message)
    elif file is not None:
        span = Span(file, line, 1)
    else:   # nowhere in particular (the template did not compile): name the file at least
        message = f"{shown}: {message}"
    return RenderError(f"{span or shown}: {message}", diag("E661", message, span, hint=hint),
                       sources)


def place(file: str, text: str, line: int, message: str) -> Span:
    """Where on its line an error is: at the name it quotes if the line has it ('x' is
    undefined, has no attribute 'x'), else the whole line but its indentation."""
    lines = text.split("\n")
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    for quoted in reversed(re.findall(r"'([^'\s]+)'", message)):
        found = re.search(rf"(?<![\w.]){re.escape(quoted)}(?!\w)", source) or re.search(
            rf"\.{re.escape(quoted)}(?!\w)", source)
        if found:
            start = found.start() + (1 if found.group().startswith(".") else 0)
            return Span(file, line, start + 1, line, found.end() + 1)
    start = len(source) - len(source.lstrip())
    return Span(file, line, start + 1, line, max(len(source.rstrip()), start + 1) + 1)


# ---- PDF ----------------------------------------------------------------------------------------

def pdf(html: str) -> bytes:
    """The HTML printed to PDF by WeasyPrint (the page size is the HTML's @page rule's)."""
    try:
        import weasyprint  # lazily: optional, and only a PDF needs it
    except (ImportError, OSError):  # not installed, or its system libraries are missing
        raise RenderError(PDF_MISSING) from None
    return weasyprint.HTML(string=html, url_fetcher=data_only(weasyprint)).write_pdf()


def data_only(weasyprint):
    """WeasyPrint's URL fetcher for rosters: only data: URLs. A template from a stranger could
    otherwise put a local file (file:///...) into the PDF, as an image or an attachment, or
    reach the network; the built-in templates need nothing. WeasyPrint 70 takes a URLFetcher
    (a class with `fetch`; a plain function fails with AttributeError: '_fail_on_errors'),
    60 to 69 a function; the `pdf` extra allows both, so both are given what they take."""
    fetcher: Any = getattr(weasyprint, "URLFetcher", None)
    if fetcher is None:   # WeasyPrint before 70
        return fetch_nothing

    class DataOnly(fetcher):
        def fetch(self, url, headers=None):
            if not url.startswith("data:"):
                raise ValueError(f"a roster loads nothing from outside: {url}")
            return super().fetch(url, headers)
    return DataOnly(allowed_protocols=("data",), allow_redirects=False)


def fetch_nothing(url: str, *args, **kwargs):
    """The URL fetcher of WeasyPrint 60 to 69 (a function): data: URLs only (see data_only)."""
    if url.startswith("data:"):
        import weasyprint  # lazily, as in pdf
        return weasyprint.default_url_fetcher(url, *args, **kwargs)
    raise ValueError(f"a roster loads nothing from outside: {url}")


def pdf_available() -> bool:
    try:
        import weasyprint  # noqa: F401  # lazily: optional
    except (ImportError, OSError):
        return False
    return True


# ---- the terminal -------------------------------------------------------------------------------

def terminal(model: dict, *, width: int = 100, colour: bool = False) -> str:
    """Rich tables: the fighters, the totals and validity, then the glossary."""
    # lazily: markdown, HTML and PDF rosters need no rich
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from warband import terminal
    from warband.lists import card_text
    model = printable(model)
    out = io.StringIO()
    console = terminal.console(out, colour=colour, width=width, soft_wrap=False,
                               color_system="standard" if colour else None, highlight=False,
                               emoji=False, legacy_windows=False)   # names never cut
    console.print(Text(model["title"], style="bold"))
    ruleset = model["ruleset"]
    console.print(Text(f"{ruleset['title']} ({ruleset['id']}) · {model['file']}", style="dim"))
    if model["notes"]:
        console.print(Text(" ".join(str(model["notes"]).split()), style="italic"))
    console.print()

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    fighters = model["fighters"]

    def widest(key: str, field: str) -> int:  # a column is never narrower than its longest item
        return max((len(item[field]) + 1 for f in fighters for item in f[key]), default=1)

    table.add_column("fighter", style="bold")
    table.add_column("n", justify="right", no_wrap=True)
    if model["has_classes"]:
        table.add_column("class")
    for stat in model["stats"]:
        table.add_column(stat["name"], justify="right" if stat["numeric"] else "left",
                         no_wrap=True)
    if model["has_traits"]:
        table.add_column("traits", min_width=widest("traits", "text"))
    if model["has_equipment"]:
        table.add_column("equipment", min_width=widest("equipment", "name"))
    if model["has_points"]:
        table.add_column("points", justify="right", no_wrap=True)
    for cost in model["costs"]:   # each named cost (gold crowns, say), after the points
        table.add_column(cost["title"], justify="right", no_wrap=True)
    rows: list[list[Text | str]] = []
    for f in fighters:
        row: list[Text | str] = [Text(f["name"]), str(f["count"])]
        if model["has_classes"]:
            cls = f["class"] or ""
            units = (f" × {f['models']['count']} model{'' if f['models']['count'] == 1 else 's'}"
                     if f.get("models") else "")
            row.append(Text(cls + (f" ({f['tier']})" if f["tier"] else "") + units))
        row += [Text(s["value"]) for s in f["stats"]]
        if model["has_traits"]:
            row.append(Text(", ".join(t["text"] for t in f["traits"])))
        if model["has_equipment"]:
            row.append(Text(", ".join(e["text"] for e in f["equipment"])))
        if model["has_points"]:
            row.append(Text(f["points_text"] or "?"))
        row += [Text(c["text"] or "?") for c in f["costs"]]
        table.add_row(*row)
        rows.append(row)
    words = [max((len(w) for row in rows for w in str(row[i]).split()), default=0)
             for i in range(len(table.columns))]
    needed = sum(max(w, len(cast(str, c.header)), c.min_width or 0)  # headers added as str
                 for w, c in zip(words, table.columns))
    if needed + 3 * (len(table.columns) - 1) <= width:
        console.print(table)
    else:  # too narrow for a table: one block a fighter
        for f in fighters:
            _fighter_block(console, model, f)
    for stat in model["stats"]:   # a stat the rules work out: say how
        if stat.get("derived"):
            console.print(Text(f"{stat['name']} is worked out by the rules: {stat['derived']}",
                               style="dim"))
    _weapon_table(console, fighters)

    line = Text()
    for total in model["totals"]:
        style = "red" if total["ok"] is False else ""
        line.append(f"{total['name']} ", style="bold")
        line.append(total["text"], style=style)
        line.append("   ")
    line.append(model["status"], style="green" if model["valid"] else "bold red")
    console.print(line)
    for p in model["problems"]:
        where = f"{p['where']}: " if p["where"] else ""
        console.print(Text(f"  {where}{p['text']}",
                           style="red" if p["severity"] == "error" else "yellow"))
        if p.get("hint"):   # as validate shows it
            console.print(Text(f"    = hint: {p['hint']}", style="dim"))
    notes = [f for f in model["fighters"] if f["notes"]]
    if notes:
        console.print()
        for f in notes:
            text = Text(f"{f['name']}: ", style="bold")
            text.append(" ".join(str(f["notes"]).split()))
            console.print(text)
    card_text.cards(console, model)
    card_text.sheet(console, model)

    console.print()
    console.print(Text("Rules used", style="bold underline"))
    for section in model["glossary"]:
        console.print()
        console.print(Text(section["title"], style="bold"))
        gloss = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
        gloss.add_column("name", style="bold", no_wrap=True)
        gloss.add_column("text")
        for entry in section["entries"]:
            parts = [p for p in (entry["detail"] and f"({entry['detail']})", entry["doc"]) if p]
            gloss.add_row(Text(entry["name"]), Text(" ".join(parts)))
        console.print(gloss)
    rendered = out.getvalue()
    if not colour:  # rich pads the last column to its width
        rendered = "\n".join(each.rstrip() for each in rendered.split("\n"))
    return rendered


def _fighter_block(console, model: dict, f: dict) -> None:
    from rich.text import Text  # lazily, as in terminal
    head = Text(f["name"], style="bold")
    if f["count"] > 1:
        head.append(f" × {f['count']}")
    if f["class"]:
        head.append(f" · {f['class']}" + (f" ({f['tier']})" if f["tier"] else ""))
    if model["has_points"]:
        head.append(f" · {f['points_text'] or '?'} pts")
    for c in f["costs"]:
        head.append(f" · {c['text'] or '?'} {c['name']}")
    console.print(head)
    console.print(Text("  " + " · ".join(f"{s['name']} {s['value']}" for s in f["stats"])))
    if f["traits"]:
        console.print(Text("  traits: " + ", ".join(t["text"] for t in f["traits"])))
    if f["equipment"]:
        console.print(Text("  equipment: " + ", ".join(e["text"] for e in f["equipment"])))


# weapon profiles: each fighter's pieces with their values, in rules that declare any
def _weapon_table(console, fighters: list[dict]) -> None:
    from rich import box  # lazily, as in terminal
    from rich.table import Table
    from rich.text import Text
    armed = [f for f in fighters if f.get("weapons")]
    if not armed:
        return
    heads = [v["name"] for v in armed[0]["weapons"][0]["values"]]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False,
                  title="weapons", title_justify="left", title_style="bold")
    table.add_column("fighter", style="bold")
    table.add_column("weapon")
    for head in heads:
        table.add_column(head, justify="right", no_wrap=True)
    table.add_column("traits")
    for f in armed:
        for i, w in enumerate(f["weapons"]):
            table.add_row(Text(f["name"] if i == 0 else ""), Text(w["name"]),
                          *(Text(v["value"]) for v in w["values"]), Text(w["traits"]))
    console.print()
    console.print(table)


__all__ = ["FORMATS", "PDF_MISSING", "RenderError", "md_cell", "md_code", "pdf",
           "pdf_available", "printable", "render", "render_template", "template_sandbox_for",
           "terminal"]
