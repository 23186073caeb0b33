"""The builder's HTML: Jinja2 templates (templates/*.html.j2) with every value escaped, the
page's script and its styles (served as files: the page allows no inline script or style).

What the templates get is the session's own view of the list (session.py): the list's data,
its standing (standing.py), each entry's form (forms.py) and the ruleset's offer (offer.py).
Every name in it comes from a file, and may be anything: Jinja2's autoescape writes each as
text, in an element or an attribute, its control characters shown as U+FFFD; the script never writes HTML of its own, it puts in place
what the server sent. The print view is the roster's own HTML page (lists/render_roster.py).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from warband import __version__
from warband.builder.session import Session
from warband.lists import render_roster

STATIC = {"builder.css": "text/css; charset=utf-8",
          "builder.js": "text/javascript; charset=utf-8"}


def shown(value):
    """A value as the page writes it: text without control characters; what a template made
    (a macro's output, already escaped and shown) as it is."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return render_roster.printable(value)
    return value


@cache
def environment() -> Environment:
    # every value written is escaped (autoescape) and shown without its control characters
    # (an escape sequence, a bidi override that would reorder what the page shows): U+FFFD,
    # as the roster shows them; the forms compare what comes back the same way (forms.py)
    env = Environment(loader=PackageLoader("warband.builder", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      finalize=shown)
    env.globals["version"] = __version__
    return env


def context(session: Session, token: str) -> dict:
    doc = session.document
    standing = session.standing()
    return {
        "session": session, "doc": doc, "token": token, "standing": standing,
        "forms": session.forms() if doc is not None else [],
        "offer": session.offer() if doc is not None else None,
        "notice": session.notice, "focus": session.focus,
        "save_name": session.save_name(), "file": session.name if doc and doc.file else None,
        "folder": str(session.folder.root), "choices": session.choices(),
        "files": session.files(),
        "title": (doc.data.get("name") if doc is not None and isinstance(doc.data.get("name"), str)
                  else None) or "new list",
    }


def page(session: Session, token: str) -> str:
    """The whole page: the start (no list yet) or the builder."""
    html = environment().get_template("page.html.j2").render(context(session, token))
    session.focus = None
    return html


def sheet(session: Session, token: str) -> str:
    """The part of the page a change replaces: the list, its totals and its problems."""
    html = environment().get_template("sheet.html.j2").render(context(session, token))
    session.focus = None
    return html


def static(name: str) -> tuple[bytes, str] | None:
    kind = STATIC.get(name)
    if kind is None:
        return None
    return resources.files("warband.builder").joinpath("static", name).read_bytes(), kind


def roster_page(session: Session) -> str | None:
    """The roster cards of the list as `warband roster --format html` prints them."""
    standing = session.standing()
    if standing is None or standing.model is None:
        return None
    return render_roster.render_template(standing.model, "html")


__all__ = ["page", "roster_page", "sheet", "static"]
