"""Rendering a roster model (warband.lists.roster) as terminal text, markdown, HTML or PDF.

Markdown and HTML come from Jinja2 templates shipped in warband/lists/templates/ (roster.md.j2,
roster.html.j2); a user's own template (`--template PATH`) gets the same model instead. The
built-in templates are also reachable from a user's template as "warband/roster.html.j2", so a
template can `{% extends "warband/roster.html.j2" %}` and override only some blocks. The terminal
format is built with rich directly. PDF is the HTML printed by WeasyPrint (the optional `pdf`
extra). Every function returns the output; nothing here prints or writes files.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import cast

FORMATS = ("text", "markdown", "html", "pdf")
TEMPLATES = {"markdown": "roster.md.j2", "html": "roster.html.j2", "pdf": "roster.html.j2"}
PDF_MISSING = ("PDF output needs WeasyPrint: pip install 'warband-toolkit[pdf]' (it also needs "
               "the Pango libraries); or write HTML with --format html and print it to PDF from "
               "a browser")


class RenderError(Exception):
    """A roster cannot be rendered: a broken template, or PDF support missing. The message is
    for the user."""


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

def md_cell(value) -> str:
    """A value for a markdown table cell: no line breaks, pipes escaped."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def _environment(fmt: str, user_dir: Path | None, user_name: str | None):
    # lazily: a roster for the terminal needs no Jinja2
    from jinja2 import (
        BaseLoader,
        ChoiceLoader,
        Environment,
        FileSystemLoader,
        PackageLoader,
        PrefixLoader,
        StrictUndefined,
    )
    builtin = PackageLoader("warband.lists", "templates")
    loaders: list[BaseLoader] = [PrefixLoader({"warband": builtin})]
    if user_dir is not None:
        loaders.insert(0, FileSystemLoader(str(user_dir)))
    html = fmt in ("html", "pdf") or (user_name or "").endswith((".html", ".htm", ".html.j2",
                                                                    ".htm.j2"))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=html, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = md_cell
    return env


def render_template(model: dict, fmt: str, template: str | None = None) -> str:
    """The model through the built-in template of `fmt`, or through the user's template file."""
    import jinja2  # lazily, as in _environment
    if template is not None:
        path = Path(template)
        if not os.path.isfile(path):   # not Path.is_file: it raises for a name too long
            raise RenderError(f"no such template: {template}")
        env = _environment(fmt, path.parent, path.name)
        name, shown = path.name, template
    else:
        env = _environment(fmt, None, None)
        name = f"warband/{TEMPLATES[fmt]}"
        shown = name
    try:
        return env.get_template(name).render(**model, roster=model)
    except jinja2.TemplateSyntaxError as error:
        where = f"{error.filename or shown}:{error.lineno}" if error.lineno else shown
        raise RenderError(f"{where}: template error: {error.message}") from None
    except jinja2.UndefinedError as error:
        raise RenderError(f"{shown}: template error: {error.message} (the roster model has: "
                          f"{', '.join(model)})") from None
    except jinja2.TemplateError as error:
        raise RenderError(f"{shown}: template error: {error}") from None
    except UnicodeDecodeError:
        raise RenderError(f"{shown}: a template must be UTF-8 text") from None


# ---- PDF ----------------------------------------------------------------------------------------

def pdf(html: str) -> bytes:
    """The HTML printed to PDF by WeasyPrint (the page size is the HTML's @page rule's)."""
    try:
        import weasyprint  # lazily: optional, and only a PDF needs it
    except (ImportError, OSError):  # not installed, or its system libraries are missing
        raise RenderError(PDF_MISSING) from None
    return weasyprint.HTML(string=html).write_pdf()


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
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=colour, no_color=not colour,
                      color_system="standard" if colour else None, highlight=False, emoji=False,
                      legacy_windows=False)
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
    rows: list[list[Text | str]] = []
    for f in fighters:
        row: list[Text | str] = [Text(f["name"]), str(f["count"])]
        if model["has_classes"]:
            cls = f["class"] or ""
            row.append(Text(cls + (f" ({f['tier']})" if f["tier"] else "")))
        row += [Text(s["value"]) for s in f["stats"]]
        if model["has_traits"]:
            row.append(Text(", ".join(t["text"] for t in f["traits"])))
        if model["has_equipment"]:
            row.append(Text(", ".join(e["name"] for e in f["equipment"])))
        if model["has_points"]:
            row.append(Text(f["points_text"] or "?"))
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
    notes = [f for f in model["fighters"] if f["notes"]]
    if notes:
        console.print()
        for f in notes:
            text = Text(f"{f['name']}: ", style="bold")
            text.append(" ".join(str(f["notes"]).split()))
            console.print(text)

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
    console.print(head)
    console.print(Text("  " + " · ".join(f"{s['name']} {s['value']}" for s in f["stats"])))
    if f["traits"]:
        console.print(Text("  traits: " + ", ".join(t["text"] for t in f["traits"])))
    if f["equipment"]:
        console.print(Text("  equipment: " + ", ".join(e["name"] for e in f["equipment"])))


__all__ = ["FORMATS", "RenderError", "render", "render_template", "terminal", "pdf",
           "pdf_available", "md_cell", "PDF_MISSING"]
