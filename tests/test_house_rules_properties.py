"""Property tests for house rules: however declarations are added, overridden and removed, over
however many layers, compiling never raises, never hangs, and every diagnostic points into a
file whose text the result holds (so `rules check` can show its excerpt)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.lang.compiler import compile_text

NAMES = ["Soldier", "Warrior", "Fast", "Blast", "Might", "common", "rare", "attack",
         "attack_band", "effective_might", "attack_result", "Stunned", "Fate", "shoot",
         "morale", "Lucky", "Veteran", "Nope"]

DECLARATIONS = {
    "class": lambda n: f"class {n} {{ tier common traits Ranged }}",
    "trait": lambda n: f'trait {n} "a trait"',
    "tier": lambda n: f"tier {n}",
    "stat": lambda n: f"stat {n}: 1..100",
    "flag": lambda n: f"flag {n} on fighter",
    "counter": lambda n: f"counter {n} on side",
    "define": lambda n: f"define {n}(x) = x + 1",
    "table": lambda n: f"table {n}(a, b) -> (kill, stun) {{ otherwise => 15, 13 }}",
    "outcomes": lambda n: f"outcomes {n} {{ kill = 2 stun = 1 none = 0 }}",
    "procedure": lambda n: f"procedure {n}(a: fighter) {{ set a.Stunned = true }}",
    "action": lambda n: f"action {n}(a: fighter) {{ remove a }}",
    "enum": lambda n: f"enum {n} {{ One Two }}",
}
ARMY = ["points 150", "remove size", "remove points", "remove cost", "cost(f) = f.Might * 2",
        "quota tier rare at most 1", "remove quota tier rare", "remove quota class Nope",
        "size at most 12"]


@st.composite
def house_lines(draw):
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(sorted(DECLARATIONS)))
        name = draw(st.sampled_from(NAMES))
        how = draw(st.sampled_from(["add", "override", "remove"]))
        if how == "remove":
            lines.append(f"remove {kind} {name}")
        else:
            lines.append(("override " if how == "override" else "") + DECLARATIONS[kind](name))
    if draw(st.booleans()):
        entries = draw(st.lists(st.sampled_from(ARMY), max_size=4))
        word = draw(st.sampled_from(["override army", "army", "remove army"]))
        lines.append(word if word == "remove army" else f"{word} {{ {' '.join(entries)} }}")
    return lines


def check(compiled, top: str) -> None:
    for d in compiled.diagnostics:
        assert d.span is not None, d
        assert d.span.file in compiled.sources.texts, d
        for r in d.related:
            assert r.span.file in compiled.sources.texts, r
    if compiled.ruleset is not None:
        assert compiled.ruleset.file == top
        for origin in compiled.ruleset.origins.values():
            assert origin.file in compiled.sources.texts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_lines())
def test_a_house_file_on_a_builtin_never_raises(lines):
    text = 'ruleset "fuzz"\n  extends "super-simple-skirmish"\n' + "\n".join(lines) + "\n"
    check(compile_text(text, "fuzz.rules"), "fuzz.rules")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(house_lines(), min_size=1, max_size=3),
       st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_random_stacks_of_layers_never_raise(layers, targets):
    """Layer i extends layer targets[i] (which may make a cycle) or the built-in."""
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder) / f"layer{i}.rules" for i in range(len(layers))]
        for i, (path, lines) in enumerate(zip(paths, layers)):
            target = targets[i % len(targets)]   # itself or an earlier layer: a cycle
            base = f"layer{target}.rules" if target < len(layers) else "super-simple-skirmish"
            path.write_text(f'ruleset "layer-{i}"\n  extends "{base}"\n' + "\n".join(lines)
                            + "\n")
        top = str(paths[0])
        check(compile_text(paths[0].read_text(), top), top)
