"""Where things land on the pages of a printed roster, for the tests that print one (Chromium's
print in test_pages_browser.py, WeasyPrint's in test_roster_print.py).

No PDF library: before printing, the test puts a tiny link ("probe") at the top and at the foot
of each card, in each heading and at the start of what follows each heading. Both Chromium and
WeasyPrint turn a link into a link annotation on the page where it is drawn, so reading which
page's annotations name which probe says on which page each of those places landed: a card
whose top and foot are on different pages was split, a heading on another page than what
follows it was left at the foot of a page. The PDF is read with the standard library only:
objects (also those packed in compressed object streams), the page tree in order, and each
page's annotations.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

PROBE = "https://probe.invalid/"


def _link(name: str) -> str:
    return f'<a class="probe" href="{PROBE}{name}">.</a>'


def with_probes(html: str) -> tuple[str, list[str], list[str]]:
    """The page with its probes, the names of the cards and the names of the headings."""
    cards: list[str] = []
    heads: list[str] = []

    def card(m: re.Match) -> str:
        cards.append(f"card{len(cards)}")
        return m.group(0) + _link(f"{cards[-1]}/top")

    html = re.sub(r'<article class="card[^"]*">', card, html)
    count = iter(range(len(cards)))
    html = re.sub(r"</article>", lambda m: _link(f"card{next(count)}/foot") + m.group(0), html)

    def heading(m: re.Match) -> str:
        heads.append(f"head{len(heads)}")
        name = heads[-1]
        # the probe of what follows goes inside its first cell, paragraph, entry or item (a
        # link between blocks would make a line of its own; one in a table, before its cells)
        return (m.group(1) + _link(f"{name}/at") + m.group(2) + m.group(3) + m.group(4)
                + _link(f"{name}/next"))

    # (what follows a heading: up to the next heading, so "Rules used" and its first
    # section's heading are two)
    html = re.sub(r"(<h[23](?! class=\"name\")[^>]*>.*?)(</h[23]>)((?:(?!<h[23]).)*?)"
                  r"(<(?:td|th|dt|p|li)\b[^>]*>)", heading, html, flags=re.S)
    style = ".probe { color: transparent; text-decoration: none; font-size: 6pt; }"
    return html.replace("</style>", style + "\n</style>", 1), cards, heads


def _objects(pdf: bytes) -> dict[int, bytes]:
    objects = {int(m.group(1)): m.group(2)
               for m in re.finditer(rb"(\d+) 0 obj\b(.*?)endobj", pdf, re.S)}
    for body in list(objects.values()):   # compressed object streams (WeasyPrint writes them)
        if b"/ObjStm" not in body:
            continue
        head, _, rest = body.partition(b"stream")
        data = rest.lstrip(b"\r\n").rsplit(b"endstream", 1)[0]
        if b"/FlateDecode" in head:
            data = zlib.decompressobj().decompress(data)
        n = int(re.search(rb"/N (\d+)", head)[1])
        first = int(re.search(rb"/First (\d+)", head)[1])
        numbers = [int(x) for x in data[:first].split()]
        offsets = list(zip(numbers[0::2], numbers[1::2]))[:n]
        for i, (number, offset) in enumerate(offsets):
            end = offsets[i + 1][1] if i + 1 < len(offsets) else len(data) - first
            objects[number] = data[first + offset:first + end]
    return objects


def _pages(objects: dict[int, bytes]) -> list[int]:
    """The page objects in order, through the page tree from its root."""
    catalog = next(body for body in objects.values() if re.search(rb"/Type\s*/Catalog", body))
    root = int(re.search(rb"/Pages (\d+) 0 R", catalog)[1])
    out: list[int] = []

    def walk(number: int) -> None:
        body = objects[number]
        if re.search(rb"/Type\s*/Pages\b", body):
            kids = re.search(rb"/Kids\s*\[([^\]]*)\]", body)[1]
            for kid in re.findall(rb"(\d+) 0 R", kids):
                walk(int(kid))
        else:
            out.append(number)

    walk(root)
    return out


def probe_pages(pdf: bytes) -> dict[str, int]:
    """Each probe's page (counted from 1)."""
    objects = _objects(pdf)
    found: dict[str, int] = {}
    for page_number, page in enumerate(_pages(objects), 1):
        body = objects[page]
        annots = re.search(rb"/Annots\s*(\[[^\]]*\]|\d+ 0 R)", body)
        if annots is None:
            continue
        refs = annots[1]
        if not refs.startswith(b"["):   # an array kept as an object of its own
            refs = objects[int(refs.split()[0])]
        for ref in re.findall(rb"(\d+) 0 R", refs):
            uri = re.search(rb"/URI\s*\((" + re.escape(PROBE.encode()) + rb"[^)]*)\)",
                            objects.get(int(ref), b""))
            if uri:
                found.setdefault(uri[1].decode()[len(PROBE):], page_number)
    return found


def split_on_pages(pdf: bytes, cards: list[str], heads: list[str]) -> list[str]:
    """What the print split: each card whose top and foot are on different pages, each heading
    on another page than what follows it, and each probe that is missing from the PDF."""
    pages = probe_pages(pdf)
    problems = []
    for name, (first, last) in [*((c, ("top", "foot")) for c in cards),
                                *((h, ("at", "next")) for h in heads)]:
        a, b = pages.get(f"{name}/{first}"), pages.get(f"{name}/{last}")
        if a is None or b is None:
            problems.append(f"{name}: a probe is missing ({first} on {a}, {last} on {b})")
        elif a != b:
            problems.append(f"{name}: {first} on page {a}, {last} on page {b}")
    return problems


def page_count(pdf: bytes) -> int:
    return len(_pages(_objects(pdf)))


def long_warband(folder) -> str:
    """A warband file of many SMART entries whose cards differ in height (notes of every
    length, units of several models, three kinds of card): some page break falls near every
    kind of card and heading. Its path."""
    kinds = [("Knight", "equipment: [Lance, Sword, ChainMail, Shield]"),
             ("Archer", "equipment: [Dagger, Padding]"),
             ("Infantry", "equipment: [Spear, Shield]")]
    lines = ["name: The Long Column", "ruleset: smart", "fighters:"]
    for i in range(36):
        cls, gear = kinds[i % 3]
        note = " ".join(["A long note to make the card taller."] * (i % 7))
        lines += [f"  - name: Unit {i + 1}", f"    class: {cls}", f"    xp: {(i * 13) % 90}",
                  f"    {gear}"]
        if note:
            lines.append(f"    notes: \"{note}\"")
    path = folder / "long-column.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def probed_roster(warband: str, paper: str, tmp_path) -> tuple[str, list[str], list[str]]:
    """The HTML roster of `warband` ("long" for long_warband's), with probes and the paper size
    set: (page, card probes, heading probes), for a print test of any printer."""
    from typer.testing import CliRunner

    from warband.cli import app
    file = long_warband(tmp_path) if warband == "long" else \
        str(Path(__file__).resolve().parents[1] / "warbands" / warband)
    page = tmp_path / "roster.html"
    made = CliRunner().invoke(app, ["roster", file, "--format", "html", "-o", str(page)])
    assert made.exit_code in (0, 1), made.output
    probed, cards, heads = with_probes(page.read_text(encoding="utf-8"))
    return probed.replace("</style>", f"@page {{ size: {paper}; }}\n</style>", 1), cards, heads
