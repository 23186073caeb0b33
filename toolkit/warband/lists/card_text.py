"""The parts of a terminal roster that are a card's own beyond the fighters' table: each
fighter's problems, actions, models and tick boxes, then the side's boxes and the tables the
rules mark `for reference`, once. Text already made printable (render_roster.printable) goes
into rich Text objects, never into markup, so a name like "[bold]" prints as written."""

from __future__ import annotations


def cards(console, model: dict) -> None:
    """A block for each fighter with something to tick, do or fix."""
    from rich.text import Text  # lazily: only a terminal roster needs rich
    blocks = [f for f in model["fighters"]
              if f["problems"] or f["actions"] or f["ticks"] or f.get("models")]
    if not blocks:
        return
    console.print()
    console.print(Text("Cards", style="bold underline"))
    for f in blocks:
        console.print()
        head = Text(f["name"], style="bold")
        if f["count"] > 1:
            head.append(f" × {f['count']}")
        if not f["valid"]:
            head.append("  invalid", style="bold red")
        console.print(head)
        for p in f["problems"]:
            where = f"{p['where']}: " if p["where"] else ""
            console.print(Text(f"  {where}{p['text']}",
                               style="red" if p["severity"] == "error" else "yellow"))
            if p.get("hint"):
                console.print(Text(f"    = hint: {p['hint']}", style="dim"))
        if f["actions"]:
            console.print(Text("  actions:"))
            grid = _grid()   # a long condition wraps under itself, not under the name
            for a in f["actions"]:
                grid.add_row(Text(a["label"], style="bold"),
                             Text(f"if {a['when']}" if a["when"] else "", style="dim"))
            console.print(_indented(grid))
        models = f.get("models")
        if models:
            console.print(Text(f"  models ({models['wounds']} wound"
                               f"{'' if models['wounds'] == 1 else 's'} each):"))
            for i, (row, carries) in enumerate(zip(models["rows"], models["carries"]), 1):
                console.print(Text(f"    {i:>2}. {row}" + (f"  {carries}" if carries else "")))
        if f["ticks"]:
            line = " · ".join(f"{t['name']} {t['row']}" for t in f["ticks"])
            if f["copies"] > 1:   # a card for several fighters: a line each
                console.print(Text("  track, one line each:"))
                for i in range(f["copies"]):
                    console.print(Text(f"    {i + 1:>2}. {line}"))
            else:
                console.print(Text(f"  track: {line}"))


def _grid():
    """Two columns, to print four spaces in: a name, and text that wraps in its own column."""
    from rich.table import Table  # lazily, as in cards
    grid = Table.grid(padding=(0, 2, 0, 0), pad_edge=False)
    grid.add_column(no_wrap=True)
    grid.add_column()
    return grid


def _indented(grid):
    from rich.padding import Padding  # lazily, as in cards
    return Padding(grid, (0, 0, 0, 4))


def sheet(console, model: dict) -> None:
    """The side's flags and counters, and each table for reference, once."""
    from rich import box  # lazily, as in cards
    from rich.table import Table
    from rich.text import Text
    if model["side"]:
        console.print()
        console.print(Text("The side", style="bold underline"))
        grid = _grid()
        for t in model["side"]:
            line = Text(t["row"])
            if t["doc"]:
                line.append(f"  {t['doc']}", style="dim")
            grid.add_row(Text(t["name"], style="bold"), line)
        console.print(_indented(grid))
    for ref in model["reference"]:
        console.print()
        console.print(Text(f"{ref['name']}({ref['params']})", style="bold underline"))
        if ref["doc"]:
            console.print(Text(ref["doc"]))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
        table.add_column("")
        for column in ref["columns"]:
            table.add_column(column, justify="right", no_wrap=True)
        table.add_column("")
        for row in ref["rows"]:
            table.add_row(Text(row["key"]), *(Text(v) for v in row["values"]),
                          Text(row["doc"] or ""))
        console.print(table)


__all__ = ["cards", "sheet"]
