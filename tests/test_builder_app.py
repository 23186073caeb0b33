"""The list builder's app over plain HTTP (Starlette's TestClient): every route, the session's
token, the Host and Origin checks, the bounds on requests and lists, escaping, the one folder
it reads and writes, and saving (atomic, comments kept, a file changed meanwhile refused).
What the page shows is the validator's: the same problems as `warband validate`."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from builder_client import (
    HOST,
    ROOT,
    TOKEN,
    client,
    forms_of,
    needs_build,
    post,
    session_in,
    status_of,
)

pytestmark = needs_build


@pytest.fixture
def folder(tmp_path):
    made = tmp_path / "lists"
    made.mkdir()
    for name in ("clockwork-empire.yaml", "fogbound-tallow-guild.yaml", "ashfall-ashen-host.yaml"):
        shutil.copy(ROOT / "warbands" / name, made / name)
    return made


@pytest.fixture
def opened(folder):
    session = session_in(folder)
    session.open("clockwork-empire.yaml")
    return session, client(session)


def entry_ids(session) -> list[int]:
    return list(session.document.ids)


# ---- who may ask --------------------------------------------------------------------------------

def test_every_request_needs_the_sessions_token(folder):
    session = session_in(folder)
    c = client(session, log_in=False)
    for path in ("/", "/static/builder.js", "/roster.html", "/list.yaml"):
        refused = c.get(path)
        assert refused.status_code == 403 and "warband build" in refused.text, path
    assert c.get("/?token=wrong").status_code == 403
    assert post(c, "/new", {"ruleset": "id:super-simple-skirmish"}).status_code == 403
    assert session.document is None
    entered = c.get(f"/?token={TOKEN}&x=1")
    assert entered.status_code == 303 and entered.headers["location"] == "/?x=1"   # (out of
    cookie = entered.headers["set-cookie"]                               # the address)
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN in cookie
    assert c.get("/").status_code == 200


def test_a_change_needs_the_token_in_the_form_or_a_header(opened):
    session, c = opened
    before = session.document.text()
    # the cookie alone is what a page of another site would send along: not enough
    assert c.post("/add", data={"class": "Soldier"}).status_code == 403
    assert c.post("/add", data={"class": "Soldier", "token": "x" + TOKEN}).status_code == 403
    assert c.post("/add", data={"class": "Soldier"}, headers={"X-Warband-Token": "no"}) \
        .status_code == 403
    assert session.document.text() == before
    assert c.post("/add", data={"class": "Soldier"}, headers={"X-Warband-Token": TOKEN}) \
        .status_code == 303   # (a plain form: the page again)
    assert post(c, "/add", {"class": "Soldier"}).status_code == 200
    assert len(session.document.entries) == 5


def test_another_host_or_site_is_refused(opened):
    session, c = opened
    # a site whose name now points at 127.0.0.1 (DNS rebinding) sends its own name
    assert c.get("/", headers={"Host": "evil.example:8000"}).status_code == 421
    assert c.get("/", headers={"Host": "127.0.0.1:8001"}).status_code == 421
    assert c.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    refused = c.post("/add", data={"class": "Soldier", "token": TOKEN},
                     headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    refused = c.post("/add", data={"class": "Soldier", "token": TOKEN},
                     headers={"Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403
    assert c.post("/add", data={"class": "Soldier", "token": TOKEN},
                  headers={"Origin": f"http://{HOST}", "Sec-Fetch-Site": "same-origin"}) \
        .status_code == 303
    assert len(session.document.entries) == 4


def test_every_answer_forbids_framing_scripts_of_others_and_caching(opened):
    _, c = opened
    for path in ("/", "/static/builder.css", "/roster.html", "/list.yaml"):
        answer = c.get(path)
        assert answer.status_code == 200, path
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
        assert "unsafe-inline" not in policy or path == "/roster.html"
        assert "script-src" not in policy or "script-src 'self'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["cache-control"] == "no-store"
        assert answer.headers["x-content-type-options"] == "nosniff"


# ---- bounds --------------------------------------------------------------------------------------

def test_requests_are_bounded(opened):
    from warband.limits import MAX_BUILD_FIELDS, MAX_BUILD_REQUEST_BYTES
    session, c = opened
    big = c.post("/add", content=b"class=Soldier&token=" + TOKEN.encode() + b"&x=" +
                 b"a" * MAX_BUILD_REQUEST_BYTES,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert big.status_code == 413
    many = post(c, "/add", [("class", "Soldier")] + [("x", "1")] * MAX_BUILD_FIELDS)
    assert many.status_code == 413
    other = c.post("/add", files={"class": ("a", b"Soldier")}, data={"token": TOKEN})
    assert other.status_code == 415
    bytes_ = c.post("/add", content=b"class=\xff&token=" + TOKEN.encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert bytes_.status_code == 400
    assert len(session.document.entries) == 3


def test_lists_and_values_are_bounded(opened, monkeypatch):
    from warband.builder import document
    from warband.limits import MAX_BUILD_TEXT
    session, c = opened
    monkeypatch.setattr(document, "MAX_BUILD_ENTRIES", 4)
    assert "error" not in post(c, "/add", {"class": "Soldier"}).text.split('id="notice"')[-1][:40]
    refused = post(c, "/add", {"class": "Soldier"})
    assert "at most 4 entries" in refused.text and len(session.document.entries) == 4
    assert "at most 4 entries" in post(c, f"/entry/{entry_ids(session)[0]}/duplicate").text
    long = post(c, f"/entry/{entry_ids(session)[0]}", {"name": "x" * (MAX_BUILD_TEXT + 1)})
    assert f"at most {MAX_BUILD_TEXT:,} characters" in long.text
    assert session.document.entries[0]["name"] == "Lieutenant"
    monkeypatch.setattr(document, "MAX_YAML_BYTES", len(session.document.text()) + 50)
    grown = post(c, f"/entry/{entry_ids(session)[0]}", {"notes": "n" * 200})
    assert "larger than a warband file may be" in grown.text
    assert "notes" not in session.document.entries[0]   # (the edit was undone)


# ---- the one folder ---------------------------------------------------------------------------------

def test_files_are_named_inside_the_folder_only(folder, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("name: secret\n", encoding="utf-8")
    (folder / "sub").mkdir()
    shutil.copy(folder / "clockwork-empire.yaml", folder / "sub" / "inner.yaml")
    (folder / "link.yaml").symlink_to(outside)
    (folder / "notes.txt").write_text("hello\n", encoding="utf-8")
    session = session_in(folder)
    c = client(session)
    page = c.get("/").text
    listed = forms_of(page)["/open"]
    assert "link.yaml" not in page and "secret" not in page and "notes.txt" not in page
    assert ("file", "ashfall-ashen-host.yaml") in listed
    for name in ("../secret.yaml", str(outside), "sub/inner.yaml", "link.yaml", "notes.txt",
                 ".hidden.yaml", "", "a\x00.yaml", "..", "-x.yaml"):
        c.post("/open", data={"file": name, "token": TOKEN})
        assert session.document is None, name
        assert "name: secret" not in c.get("/").text
    for choice in ("file:../x.rules", "file:/etc/passwd", "id:nosuch", "given", "x"):
        c.post("/new", data={"ruleset": choice, "token": TOKEN})
        assert session.document is None, choice
    c.post("/new", data={"ruleset": "id:super-simple-skirmish", "token": TOKEN})
    post(c, "/add", {"class": "Soldier"})
    for name in ("../out.yaml", str(tmp_path / "out.yaml"), "sub/out.yaml", "link.yaml",
                 "out.txt", "out.rules"):
        answer = post(c, "/save", {"file": name, "replace": "1"})
        assert 'class="notice error"' in answer.text, name
    assert outside.read_text(encoding="utf-8") == "name: secret\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lists", "secret.yaml"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "ashfall-ashen-host.yaml", "clockwork-empire.yaml", "fogbound-tallow-guild.yaml",
        "link.yaml", "notes.txt", "sub"]


def test_a_file_that_is_no_warband_is_refused_with_the_loaders_words(folder):
    (folder / "broken.yaml").write_text("name: [unclosed\nfighters:\n", encoding="utf-8")
    (folder / "fifo.yaml").unlink(missing_ok=True)
    os.mkfifo(folder / "fifo.yaml")
    session = session_in(folder)
    c = client(session)
    c.post("/open", data={"file": "broken.yaml", "token": TOKEN})
    assert session.document is None
    page = c.get("/").text
    assert "does not load as a warband file" in page and "error[E60" in page
    started = time.perf_counter()
    c.post("/open", data={"file": "fifo.yaml", "token": TOKEN})   # refused, not waited on
    assert session.document is None and time.perf_counter() - started < 5
    assert "not a regular file" in c.get("/").text


# ---- escaping ------------------------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script><b>x"


def test_every_name_from_a_file_is_text_on_the_page(folder):
    text = (folder / "clockwork-empire.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Lieutenant", f"name: '{HOSTILE}'") \
        .replace("name: The Clockwork Empire", "name: '\"><img src=x onerror=alert(1)>'") \
        .replace("class: Soldier", "class: '<i>Soldir</i>'") \
        .replace("notes: The Clockwork", "notes: </textarea><script>x()</script> The Clockwork") \
        .replace("name: Musketeer", 'name: "Mus\\x1b[31mket\\u202eeer"')
    (folder / "hostile.yaml").write_text(text, encoding="utf-8")
    session = session_in(folder)
    session.open("hostile.yaml")
    c = client(session)
    for path in ("/", "/roster.html"):
        page = c.get(path).text
        assert "<script>alert" not in page and "<b>x" not in page and "<img" not in page
        assert "<i>Soldir" not in page and "</textarea><script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x" in page
    page = c.get("/").text
    assert page.count("<script") == 1   # the page's own, from /static
    assert "\x1b" not in page and "\u202e" not in page and 'value="Mus\ufffd[31mket\ufffdeer"' in page
    assert "unknown class" in page and "&lt;i&gt;Soldir&lt;/i&gt; (not a class)" in page
    # what the page sends back is what the file says: nothing changes
    before = session.document.text()
    for action, fields in forms_of(page).items():
        if action.startswith("/entry/") and action.count("/") == 2:
            post(c, action, fields)
    assert session.document.text() == before and not session.document.changed


# ---- every route ----------------------------------------------------------------------------------

def test_every_route_answers(opened, folder):
    session, c = opened
    assert c.get("/").status_code == 200
    assert c.get("/static/builder.js").headers["content-type"].startswith("text/javascript")
    assert c.get("/static/builder.css").headers["content-type"].startswith("text/css")
    assert c.get("/static/../app.py").status_code == 404
    assert c.get("/static/nope.js").status_code == 404
    assert c.get("/favicon.ico").status_code == 204
    cards = c.get("/roster.html")
    assert cards.status_code == 200 and "Lieutenant" in cards.text
    assert '<span class="status">valid</span>' in cards.text
    download = c.get("/roster.html?download=1")
    assert download.headers["content-disposition"] == \
        'attachment; filename="clockwork-empire.html"'
    listed = c.get("/list.yaml")
    assert listed.content == (folder / "clockwork-empire.yaml").read_bytes()
    assert listed.headers["content-disposition"] == 'attachment; filename="clockwork-empire.yaml"'
    first, second = entry_ids(session)[:2]
    assert post(c, f"/entry/{first}", {"name": "Captain"}).status_code == 200
    assert post(c, f"/entry/{first}/duplicate").status_code == 200
    assert [e["name"] for e in session.document.entries] == [
        "Captain", "Captain 2", "Musketeer", "Grenadier"]
    assert post(c, f"/entry/{second}/up").status_code == 200
    assert post(c, f"/entry/{second}/down").status_code == 200
    assert post(c, f"/entry/{first}/remove").status_code == 200
    assert post(c, f"/entry/{first}/bogus").status_code == 200   # (said on the page)
    assert post(c, "/entry/999", {"name": "x"}).text.count("no longer in the list") == 1
    assert post(c, "/list", {"name": "Renamed", "points": "150"}).status_code == 200
    assert session.document.data["points"] == 150
    assert post(c, "/undo").status_code == 200 and session.document.data["points"] == 100
    assert post(c, "/add", {"class": "Nope"}).text.count("the rules have no class") == 1
    assert post(c, "/save", {"file": "renamed.yaml"}).status_code == 200
    assert (folder / "renamed.yaml").is_file()
    assert c.post("/new", data={"ruleset": "id:ashfall", "token": TOKEN}).status_code == 303
    assert session.document.data["ruleset"] == "ashfall"
    assert c.post("/open", data={"file": "renamed.yaml", "token": TOKEN}).status_code == 303
    assert session.document.file == folder / "renamed.yaml"
    assert c.put("/").status_code == 405
    assert c.get("/nope").status_code == 404


# ---- what the page shows: the validator's judgement ------------------------------------------------

def test_the_problems_are_validates_own(monkeypatch):
    """Every invalid example warband of the tests, opened in the builder, shows the problems
    `warband validate` gives it: the same codes, messages and hints, each at its entry."""
    from warband.builder.standing import judge
    from warband.lists.validate import validate
    examples = sorted((ROOT / "tests" / "warband_errors").glob("*.yaml"))
    assert len(examples) > 30
    from warband.builder.document import Document, Unloadable
    from warband.diagnostics import shown_text
    monkeypatch.chdir(ROOT)   # (files named as validate names them, relative to here)
    for path in examples:
        name = path.relative_to(ROOT).as_posix()
        path = Path(name)
        expected = validate([name]).files[0]
        wanted = [(d.code, shown_text(d.message), shown_text(d.hint) if d.hint else None)
                  for d in expected.diagnostics]
        try:   # as the builder opens a file: its bytes loaded first
            doc = Document.read(path.read_bytes(), name, path, path.parent)
        except Unloadable as refused:
            assert [(d.code, shown_text(d.message), shown_text(d.hint) if d.hint else None)
                    for d in refused.diagnostics] == wanted, name
            continue
        shown = judge(doc.text(), name, path.parent)
        seen = [(p.code, p.message, p.hint) for p in shown.problems] + [
            (p.code, p.message, p.hint) for e in shown.entries for p in e.problems]
        assert sorted(seen) == sorted(wanted), name
        for e in shown.entries:
            for p in e.problems:   # each at the entry the diagnostic's path names
                assert any(d.path[:2] == ("fighters", e.index) and d.message == p.message
                           for d in expected.diagnostics), (name, p)


def test_a_broken_quota_is_shown_at_the_entries_it_counts(folder):
    session = session_in(folder)
    session.open("clockwork-empire.yaml")
    c = client(session)
    soldiers = entry_ids(session)[1]
    sheet = post(c, f"/entry/{soldiers}", {"count": "1"}).text
    assert status_of(sheet) == "1 problem"
    entry = sheet.split(f'id="entry-{soldiers}"')[1].split("</li>\n</ol>")[0].split(
        'id="entry-')[0]
    assert "error[E703]</b> 1 of 4 fighters of common classes (Musketeer); at least 1/2 " \
           "needed (2 of 4)" in entry
    assert "hint: add fighters of common classes, or replace others with them" in entry
    assert '<li class="over" title="at least 1/2 of the fighters from tier common">' in sheet
    fixed = post(c, f"/entry/{soldiers}", {"count": "4"}).text
    assert status_of(fixed) == "Valid" and "E703" not in fixed


def test_totals_count_every_limit(folder):
    session = session_in(folder)
    session.open("fogbound-tallow-guild.yaml")
    page = client(session).get("/").text
    totals = re.findall(r'<span class="label">([^<]+)</span>\s*<span class="used">([^<]+)</span>'
                        r'<span class="limit"> / ([^<]+)</span>', page)
    assert totals == [("points", "235", "250"), ("favours", "1", "3"), ("fighters", "7", "12")]
    assert "Quotas and rules: 20 of 20 met" in page
    assert "one sworn hero for every 100 crowns of the game" in page
    assert "a guild is led by its Guildmaster" in page


# ---- saving ---------------------------------------------------------------------------------------

def test_saving_the_opened_file_keeps_its_comments_and_layout(opened, folder):
    session, c = opened
    path = folder / "clockwork-empire.yaml"
    before = path.read_text(encoding="utf-8")
    post(c, f"/entry/{entry_ids(session)[2]}", {"stat:might": "15"})
    saved = post(c, "/save", {"file": "clockwork-empire.yaml"}).text
    assert "saved clockwork-empire.yaml" in saved
    after = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert changed == [("    might: 20", "    might: 15")]
    assert len(before.splitlines()) == len(after.splitlines())
    again = session_in(folder)
    again.open("clockwork-empire.yaml")
    assert again.document.text() == after and again.standing().status == "valid"
    # saved again with nothing changed: the file is left alone
    mtime = path.stat().st_mtime_ns
    assert "no changes to save" in post(c, "/save", {"file": "clockwork-empire.yaml"}).text
    assert path.stat().st_mtime_ns == mtime


def test_saving_refuses_a_file_changed_meanwhile(opened, folder):
    session, c = opened
    path = folder / "clockwork-empire.yaml"
    post(c, f"/entry/{entry_ids(session)[0]}", {"name": "Captain"})
    edited = path.read_text(encoding="utf-8").replace("points: 100", "points: 120")
    path.write_text(edited, encoding="utf-8")   # an editor saved it meanwhile
    answer = post(c, "/save", {"file": "clockwork-empire.yaml"}).text
    assert "not saved: clockwork-empire.yaml changed after it was read" in answer
    assert "save the list under another name, or open the file again" in answer
    assert path.read_text(encoding="utf-8") == edited
    assert post(c, "/save", {"file": "captain.yaml"}).text.count("saved captain.yaml") == 1
    assert "name: Captain" in (folder / "captain.yaml").read_text(encoding="utf-8")


def test_saving_a_new_file_never_writes_over_another_unless_asked(folder):
    session = session_in(folder)
    c = client(session)
    c.post("/new", data={"ruleset": "id:super-simple-skirmish", "name": "Tin Men",
                         "token": TOKEN})
    post(c, "/add", {"class": "Soldier"})
    assert forms_of(c.get("/").text)["/save"][1] == ("file", "tin-men.yaml")
    existing = folder / "ashfall-ashen-host.yaml"
    before = existing.read_bytes()
    answer = post(c, "/save", {"file": "ashfall-ashen-host.yaml"}).text
    assert "not saved: ashfall-ashen-host.yaml exists" in answer and "replace" in answer
    assert existing.read_bytes() == before
    assert "saved" in post(c, "/save", {"file": "ashfall-ashen-host.yaml", "replace": "1"}).text
    assert b"Tin Men" in existing.read_bytes()
    assert [p for p in folder.iterdir() if p.name.startswith(".")] == []   # no temporary file
    from warband.lists.validate import validate
    assert validate([str(existing)]).files[0].failed() is False


# ---- any ruleset --------------------------------------------------------------------------------------

def _forms_round_trip(c, session) -> None:
    """Each entry's form, sent back as the page shows it, changes nothing."""
    before = session.document.text()
    page = c.get("/").text
    for action, fields in forms_of(page).items():
        if re.fullmatch(r"/entry/\d+", action):
            post(c, action, fields)
    assert session.document.text() == before, action


@pytest.mark.parametrize("ruleset", [
    "ashfall", "fogbound", "smart", "smart-faith", "smart-range-per-inch", "sss-sentinel",
    "super-simple-skirmish", "swords-against-sorcery", "swords-against-sorcery-points"])
def test_every_shipped_ruleset_builds_a_list(folder, ruleset):
    from warband import catalog
    assert ruleset in {s.id for s in catalog.rulesets()}   # (every one is listed here)
    session = session_in(folder)
    c = client(session)
    c.post("/new", data={"ruleset": f"id:{ruleset}", "token": TOKEN})
    page = c.get("/").text
    adds = [dict(fields)["class"] for action, fields in _all_forms(page) if action == "/add"]
    assert adds, ruleset
    for cls in adds:
        assert post(c, "/add", {"class": cls}).status_code == 200
    assert len(session.document.entries) == len(adds)
    standing = session.standing()
    assert not standing.unusable
    for entry in standing.entries:   # each class's entry as added is a fighter of its own
        assert entry.card is not None, (ruleset, entry.problems)
        assert not [p for p in entry.problems if p.code in ("E628", "E622", "E623", "E627")]
    _forms_round_trip(c, session)
    post(c, "/save", {"file": f"{ruleset}.yaml"})
    assert (folder / f"{ruleset}.yaml").is_file()


def _all_forms(html: str):
    from builder_client import Forms
    parser = Forms()
    parser.feed(html)
    return parser.forms


def test_a_designers_own_rules_with_house_rules(folder, tmp_path):
    rules = tmp_path / "designs" / "ogre.rules"
    rules.parent.mkdir()
    rules.write_text('ruleset "ogre-house"\n  title "SSS with an Ogre"\n'
                     '  extends "super-simple-skirmish"\n\n'
                     'class Ogre "a big one" { tier rare  traits Charge, Frenzy }\n'
                     'override army {\n  points 120\n}\n', encoding="utf-8")
    session = session_in(folder, rules)
    session.new("given", "Ogres")
    c = client(session)
    page = c.get("/").text
    assert "SSS with an Ogre" in page and '<h4>Ogre</h4>' in page
    assert session.document.data["ruleset"] == "../designs/ogre.rules"
    post(c, "/add", {"class": "Ogre"})
    post(c, f"/entry/{entry_ids(session)[0]}", {"stat:might": "100"})
    sheet = post(c, "/add", {"class": "Soldier"}).text
    assert '<span class="used">101</span><span class="limit"> / 120</span>' in sheet
    assert status_of(sheet) == "Valid"
    post(c, "/save", {"file": "ogres.yaml"})
    from warband.lists.validate import validate
    found = validate([str(folder / "ogres.yaml")]).files[0]
    assert found.total == 101 and found.limit == 120 and found.diagnostics == []
    # the designer changes the rules: the page follows at the next change
    rules.write_text(rules.read_text(encoding="utf-8").replace("points 120", "points 100"),
                     encoding="utf-8")
    sheet = post(c, "/list", {"name": "Ogres!"}).text
    assert '<span class="limit"> / 100</span>' in sheet and status_of(sheet) == "1 problem"
    assert "the warband costs 101 points; at most 100 allowed" in sheet


def test_a_change_takes_little_time(opened):
    """What a change costs: the round trip of one field, judged and drawn again."""
    session, c = opened
    soldiers = entry_ids(session)[1]
    started = time.perf_counter()
    for n in range(20):
        post(c, f"/entry/{soldiers}", {"stat:might": str(10 + n % 2)})
    each = (time.perf_counter() - started) / 20
    assert each < 0.5, f"{each * 1000:.0f} ms a change"


def test_notes_of_several_lines_are_a_yaml_block(opened):
    session, c = opened
    post(c, "/list", {"notes": "Line one.\r\nLine two."})
    post(c, f"/entry/{entry_ids(session)[0]}", {"notes": "Leads from the back.\nAlways."})
    text = session.document.text()
    assert "notes: |-\n  Line one.\n  Line two.\n" in text
    assert "    notes: |-\n      Leads from the back.\n      Always.\n" in text
    post(c, "/list", {"notes": ""})
    assert "Line one" not in session.document.text()
    page = c.get("/").text
    assert forms_of(page)["/list"][-1] == ("notes", "")
    assert ("notes", "Leads from the back.\nAlways.") in forms_of(page)[
        f"/entry/{entry_ids(session)[0]}"]


def test_a_failure_of_the_builder_is_said_on_the_page(opened, monkeypatch):
    session, c = opened

    def broken(cls_name):
        raise RuntimeError("no such luck")
    monkeypatch.setattr(session, "add", broken)
    answer = post(c, "/add", {"class": "Soldier"})
    assert answer.status_code == 200
    assert "the builder failed (RuntimeError: no such luck); this is a bug" in answer.text


def test_a_file_under_the_folder_named_on_the_command_line_is_saved_in_place(folder):
    (folder / "club").mkdir()
    inner = folder / "club" / "empire.yaml"
    shutil.copy(folder / "clockwork-empire.yaml", inner)
    session = session_in(folder)
    session.open_path(inner)   # (as `warband build lists/club/empire.yaml --dir lists`)
    c = client(session)
    assert forms_of(c.get("/").text)["/save"][1] == ("file", "club/empire.yaml")
    post(c, f"/entry/{entry_ids(session)[0]}", {"name": "Captain"})
    assert "saved club/empire.yaml" in post(c, "/save", {"file": "club/empire.yaml"}).text
    assert "name: Captain" in inner.read_text(encoding="utf-8")
    assert "not a plain file name" in post(c, "/save", {"file": "club/other.yaml"}).text


def test_a_list_keeps_the_style_the_file_gave_it(folder):
    text = (folder / "fogbound-tallow-guild.yaml").read_text(encoding="utf-8").replace(
        "    equipment: [Sword, Pistol]\n", "    equipment:   # what he carries\n"
                                           "      - Sword\n      - Pistol\n")
    (folder / "blocks.yaml").write_text(text, encoding="utf-8")
    session = session_in(folder)
    session.open("blocks.yaml")
    c = client(session)
    master, duelist = entry_ids(session)[:2]
    fields = dict(forms_of(c.get("/").text)[f"/entry/{master}"])
    post(c, f"/entry/{master}", [("marks", "equipment"), ("equipment", "Sword"),
                                 ("equipment", "Buckler"), ("equipment", "Pistol")])
    post(c, f"/entry/{duelist}", [("marks", "equipment"), ("equipment", "Sword"),
                                  ("equipment", "Buckler"), ("equipment", "Lantern")])
    after = session.document.text()
    assert "    equipment:   # what he carries\n      - Sword\n      - Pistol\n      - Buckler\n" \
        in after
    assert "    equipment: [Sword, Buckler, Lantern]\n" in after
    assert fields["name"] == "Master Ambrose Wick"


def test_a_file_with_crlf_line_ends_keeps_them(folder):
    text = (folder / "clockwork-empire.yaml").read_text(encoding="utf-8")
    (folder / "crlf.yaml").write_bytes(text.replace("\n", "\r\n").encode())
    session = session_in(folder)
    session.open("crlf.yaml")
    c = client(session)
    post(c, f"/entry/{entry_ids(session)[0]}", {"name": "Captain"})
    post(c, "/save", {"file": "crlf.yaml"})
    saved = (folder / "crlf.yaml").read_bytes()
    assert saved == text.replace("name: Lieutenant", "name: Captain").replace(
        "\n", "\r\n").encode()


def test_the_key_in_the_address_never_leads_elsewhere(folder):
    c = client(session_in(folder), log_in=False)
    moved = c.get(f"http://{HOST}//evil.example/?token={TOKEN}")
    assert moved.status_code == 303 and moved.headers["location"] == "/evil.example/"
