"""Benchmark: rendering roster sheets, the built-in templates kept against compiled afresh.

Run by hand (not a test), from the repository:

    PYTHONPATH=toolkit python benchmarks/bench_roster.py [--rounds N]

Each round builds the roster of every shipped warband (warbands/*.yaml) once, then renders it
as Markdown and HTML two ways, interleaved so that a slower moment of the machine hits both:

- kept: `render_roster.render`, as the command runs it; the built-in templates' sandboxes are
  kept for the process, so each template is compiled once;
- afresh (the reference): the same templates through a sandbox made for each roster, as every
  roster was rendered before the sandboxes were kept (each compiles its templates again).

Terminal text is timed on its own (rich, no template). Building a roster's model (validation
from the compile cache, costs, cards) is timed the same two ways: the card rules worked out from
the ruleset alone (the actions play offers, the counters' bounds) kept per ruleset
(lang/per_ruleset.py), as the command runs, against worked out again for each roster. Times are
CPU seconds per roster, the median of the rounds; a ratio is kept / afresh (below 1.0: keeping
is faster).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from warband.lists import card_rules, render_roster
from warband.lists.roster import roster
from warband.lists.template_sandbox import StepBudget

ROOT = Path(__file__).resolve().parents[1]


def afresh(model: dict, fmt: str) -> str:
    """The template rendered through a sandbox of its own, compiled for this roster alone."""
    seen: dict[str, tuple[str, str]] = {}
    env = render_roster.template_sandbox_for(fmt, None, seen)
    model = render_roster.printable(model)
    with StepBudget(seen):
        return "".join(env.get_template(f"warband/{render_roster.TEMPLATES[fmt]}")
                       .generate(**model, roster=model))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    paths = sorted(str(path) for path in (ROOT / "warbands").glob("*.yaml"))
    models = []
    for path in paths:
        found = roster(path)
        if found.model is not None:
            models.append(found.model)
    kept_times, fresh_times, text_times = [], [], []
    built_kept, built_fresh = [], []
    offered, bounds = card_rules.offered_actions, card_rules.counter_bounds
    for _ in range(rounds):
        for runs, forget in ((built_kept, False), (built_fresh, True)):
            if forget:   # as before the card rules were kept: worked out for each roster
                card_rules.offered_actions = offered.__wrapped__   # type: ignore[attr-defined]
                card_rules.counter_bounds = bounds.__wrapped__     # type: ignore[attr-defined]
            start = time.process_time()
            for path in paths:
                roster(path)
            runs.append((time.process_time() - start) / len(paths))
            card_rules.offered_actions, card_rules.counter_bounds = offered, bounds
        for runs, render in ((kept_times, render_roster.render), (fresh_times, afresh)):
            start = time.process_time()
            for model in models:
                for fmt in ("markdown", "html"):
                    render(model, fmt)
            runs.append((time.process_time() - start) / len(models))
        start = time.process_time()
        for model in models:
            render_roster.render(model, "text")
        text_times.append((time.process_time() - start) / len(models))
    kept, fresh = statistics.median(kept_times), statistics.median(fresh_times)
    print(f"{len(models)} rosters, {rounds} rounds, CPU seconds per roster (Markdown + HTML)")
    print(f"  kept sandboxes     {kept * 1000:8.1f} ms")
    print(f"  afresh (reference) {fresh * 1000:8.1f} ms")
    print(f"  ratio kept/afresh  {kept / fresh:8.2f}")
    print(f"  terminal text      {statistics.median(text_times) * 1000:8.1f} ms a roster")
    kept, fresh = statistics.median(built_kept), statistics.median(built_fresh)
    print(f"{len(paths)} warbands, CPU seconds per roster model built")
    print(f"  card rules kept    {kept * 1000:8.1f} ms")
    print(f"  afresh (reference) {fresh * 1000:8.1f} ms")
    print(f"  ratio kept/afresh  {kept / fresh:8.2f}")


if __name__ == "__main__":
    main()
