"""The game page as a person sees it: opened in a real headless Chromium (the system's package;
`.ci/run` installs it where it can), stepped to its end as the forward button steps it, its
drawn bases checked against the record, no script error, and screenshots saved.

No Python dependency: Chromium runs the page and prints its DOM (--dump-dom) once the page's
script has run. The page's own test hook `#autoplay` clicks the forward button until the last
step; `window.onerror` writes any script error into the page (<pre id="errors">), where the
dumped DOM shows it. Without a Chromium the tests skip, saying so.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

from headless import chromium, needs_chromium

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ("sss-standard-game", "greedy-dudes-vs-menace")   # inches, squares


pytestmark = needs_chromium


class Drawn(HTMLParser):
    """The bases in a dumped DOM: fighter id -> (cx, cy, class); the board's geometry; the
    page's error box and step."""

    def __init__(self) -> None:
        super().__init__()
        self.fighters: dict[int, dict] = {}
        self.board: dict = {}
        self.body: dict = {}
        self.errors: str | None = None
        self._in: int | None = None
        self._errors = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "board" in (a.get("class") or ""):
            self.board = a
        elif tag == "body":
            self.body = a
        elif tag == "g" and (a.get("id") or "").startswith("f") and a["id"][1:].isdigit():
            self._in = int(a["id"][1:])
            self.fighters[self._in] = {"class": a.get("class", "")}
        elif tag == "circle" and self._in is not None:
            self.fighters[self._in].update(cx=float(a["cx"]), cy=float(a["cy"]))
        elif tag == "pre" and a.get("id") == "errors":
            self._errors, self.errors = True, ""

    def handle_endtag(self, tag):
        if tag == "g" and self._in is not None:
            self._in = None
        if tag == "pre":
            self._errors = False

    def handle_data(self, data):
        if self._errors:
            self.errors = (self.errors or "") + data


def final_positions(record: dict) -> tuple[dict[str, tuple[float, float]], set[str]]:
    """Where the record's moves left each fighter that moved, and who was removed."""
    ends, removed = {}, set()
    for e in record["events"]:
        if e["type"] == "travel":
            x, y = e["to"]   # (a record of version 2 holds places as [x, y] numbers)
            ends[e["fighter"]] = (float(x), float(y))
        elif e["type"] == "removed":
            removed.add(e["fighter"])
    return ends, removed


def on_board(board: dict, at: tuple[float, float]) -> tuple[float, float]:
    """A board point as the page draws it (game/svg.py's geometry, from the drawing's own
    attributes)."""
    scale, margin = float(board["data-scale"]), float(board["data-margin"])
    height, squares = float(board["data-height"]), board["data-squares"] == "1"
    x, y = at
    if squares:
        x, y = x - 0.5, y - 0.5
    return margin + x * scale, margin + (height - y) * scale


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_page_steps_to_the_end_and_draws_the_records_positions(scenario, tmp_path):
    record_file, page = tmp_path / "game.json", tmp_path / "game.html"
    runner = CliRunner()
    made = runner.invoke(app, ["play", scenario, "--format", "json", "-o", str(record_file)])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["play", "--replay", str(record_file), "--format", "html",
                                "-o", str(page)])
    assert shown.exit_code == 0, shown.output
    record = json.loads(record_file.read_text(encoding="utf-8"))

    run = chromium(tmp_path, "--dump-dom", page.as_uri() + "#autoplay")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Uncaught" not in run.stderr, run.stderr[-2000:]   # (console errors, logged)
    dom = Drawn()
    dom.feed(run.stdout)
    assert dom.body.get("data-ready") == "1", "the page's script did not run to its end"
    assert dom.errors == "", dom.errors
    data = json.loads(run.stdout.split('id="game-data">', 1)[1].split("</script>", 1)[0])
    assert int(dom.body["data-step"]) == len(data["steps"]) - 1   # stepped to the last step

    names = [f["name"] for f in data["fighters"]]
    ends, removed = final_positions(record)
    assert ends and len(dom.fighters) == len(names)
    for name, at in ends.items():
        drawn = dom.fighters[names.index(name)]
        x, y = on_board(dom.board, at)
        assert abs(drawn["cx"] - x) <= 0.2 and abs(drawn["cy"] - y) <= 0.2, (name, drawn, at)
    for name in removed:
        assert {"removed", "withdrawn"} & set(dom.fighters[names.index(name)]["class"].split())

    shots = tmp_path / "screenshots"
    shots.mkdir()
    for moment in ("", "#end"):
        shot = shots / f"{scenario}{'-end' if moment else '-setup'}.png"
        taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,900",
                         "--hide-scrollbars", page.as_uri() + moment)
        assert taken.returncode == 0 and shot.stat().st_size > 10_000, taken.stderr[-2000:]


def test_the_keys_the_slider_and_the_buttons_step_the_page(tmp_path):
    page = tmp_path / "game.html"
    made = CliRunner().invoke(app, ["play", "fogbound-drowned-market", "--format", "html",
                                    "-o", str(page)])
    assert made.exit_code == 0, made.output
    run = chromium(tmp_path, "--dump-dom", page.as_uri() + "#controls")
    dom = Drawn()
    dom.feed(run.stdout)
    assert dom.errors == "", dom.errors
    steps = len(json.loads(run.stdout.split('id="game-data">', 1)[1]
                           .split("</script>", 1)[0])["steps"])
    last, middle = steps - 1, (steps - 1) // 2
    assert dom.body.get("data-controls") == (
        f"End={last} ArrowLeft={last - 1} ArrowRight={last} Home=0 ArrowRight=1 "
        f"slider={middle} back={middle - 1} last={last} first=0 forward=1")


class Texts(HTMLParser):
    """The elements of a dumped DOM, and the text of each fighter's tooltip."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.tips: list[str] = []
        self._tip = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._tip = tag == "title" and len(self.tags) > 2

    def handle_endtag(self, tag):
        self._tip = False

    def handle_data(self, data):
        if self._tip:
            self.tips.append(data)


def test_names_like_markup_stay_text_in_the_browser(tmp_path):
    mine = tmp_path / "mine.yaml"
    text = (ROOT / "warbands" / "clockwork-empire.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Lieutenant", "name: '<script>alert(1)</script><b>x'") \
        .replace("name: Musketeer", "name: '\"onload=alert(1)'")
    mine.write_text(text.replace("$schema=../schemas/", f"$schema={ROOT}/schemas/"),
                    encoding="utf-8")
    page = tmp_path / "game.html"
    made = CliRunner().invoke(app, ["play", "sss-standard-game", "--side", f"empire={mine}",
                                    "--format", "html", "-o", str(page)])
    assert made.exit_code == 0, made.output
    run = chromium(tmp_path, "--dump-dom", page.as_uri() + "#autoplay")
    dom, texts = Drawn(), Texts()
    dom.feed(run.stdout)
    texts.feed(run.stdout)
    assert dom.errors == "" and dom.body.get("data-ready") == "1"
    assert texts.tags.count("script") == 2 and "b" not in texts.tags   # nothing injected
    assert any(t.startswith("<script>alert(1)</script><b>x (empire)") for t in texts.tips)
    assert any(t.startswith('"onload=alert(1) 1 (empire)') for t in texts.tips)


def test_a_script_error_would_be_seen(tmp_path):
    """The check above can fail: a page whose script throws shows the error in its DOM."""
    page = tmp_path / "broken.html"
    result = CliRunner().invoke(app, ["play", "sss-standard-game", "--format", "html"])
    assert result.exit_code == 0
    broken = result.stdout.replace("var data = JSON.parse", "nosuch(); var data = JSON.parse", 1)
    assert broken != result.stdout
    page.write_text(broken, encoding="utf-8")
    run = chromium(tmp_path, "--dump-dom", page.as_uri())
    dom = Drawn()
    dom.feed(run.stdout)
    assert dom.errors and "nosuch" in dom.errors
    assert dom.body.get("data-ready") != "1"
