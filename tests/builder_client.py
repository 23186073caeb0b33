"""The list builder (`warband build`) for the tests: a session in a folder of the test's own,
Starlette's TestClient on its app (with the session's cookie), and the page's forms read as a
browser sends them. Without the extra `build` (Starlette, uvicorn, httpx2) the tests skip and
say what to install."""

from __future__ import annotations

import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "test-token-0123456789"
HOST = "127.0.0.1:8000"
MISSING = [m for m in ("starlette", "uvicorn", "httpx2") if importlib.util.find_spec(m) is None]
needs_build = pytest.mark.skipif(
    bool(MISSING), reason=f"the list builder's tests need {', '.join(MISSING)}: install the "
                          "test extra (pip install -e '.[test]'), which holds them")


def session_in(folder: Path, rules: Path | None = None):
    from warband.builder.files import Folder
    from warband.builder.session import Session
    from warband.cli.build import AtomicWriter
    return Session(Folder.at(folder), AtomicWriter(), rules)


def client(session, *, log_in: bool = True):
    """A TestClient on the session's app, as the browser the command opens (cookie set)."""
    from starlette.testclient import TestClient

    from warband.builder.app import create_app
    from warband.builder.server import hosts_for
    app = create_app(session, TOKEN, cookie="warband-build-8000",
                     hosts=hosts_for("127.0.0.1", 8000))
    made = TestClient(app, base_url=f"http://{HOST}", follow_redirects=False)
    if log_in:
        made.get(f"/?token={TOKEN}")
    return made


def post(c, url: str, data: dict | list | None = None, *, token: bool = True):
    """A change, as the page's script sends it: the sheet comes back."""
    fields = list(data.items()) if isinstance(data, dict) else list(data or [])
    if token:
        fields.append(("token", TOKEN))
    return c.post(url, content=urlencode(_flat(fields)).encode(),
                  headers={"X-Warband-Part": "sheet",
                           "Content-Type": "application/x-www-form-urlencoded"})


def _flat(fields: list) -> list:
    out = []
    for key, value in fields:
        for one in (value if isinstance(value, list) else [value]):
            out.append((key, one))
    return out


class Forms(HTMLParser):
    """The forms of a page: each form's action and the fields a browser would send for it as
    the page shows it (text values, checked boxes, selected options, textareas)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append((a.get("action", ""), []))
        elif not self.forms:
            return
        fields = self.forms[-1][1]
        if tag == "input" and a.get("name") and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    fields.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button"):
                fields.append((a["name"], a.get("value", "")))
        elif tag == "select" and a.get("name"):
            self._select = (a["name"], [])
        elif tag == "option" and self._select is not None:
            self._select[1].append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and a.get("name"):
            self._textarea, self._text = a["name"], ""

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            name, options = self._select
            chosen = next((v for v, s in options if s), options[0][0] if options else None)
            if chosen is not None:
                self.forms[-1][1].append((name, chosen))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.forms[-1][1].append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None

    def handle_data(self, data):
        if self._textarea is not None:
            self._text += data


def forms_of(html: str) -> dict[str, list[tuple[str, str]]]:
    """action -> fields, for every form of the page (the last of each action)."""
    parser = Forms()
    parser.feed(html)
    parser.close()
    return dict(parser.forms)


def status_of(html: str) -> str:
    found = re.search(r'id="status">([^<]*)<', html)
    return found.group(1) if found else ""
