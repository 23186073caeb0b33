"""Benchmark: `warband validate` against check-jsonschema with the generated schema.

Run by hand (not a test), from the repository, with check-jsonschema installed beside the
toolkit (it is not a dependency of the project):

    pip install check-jsonschema
    python benchmarks/bench_validate.py [--rounds N] [--files N]

Both tools run as whole processes, as a user runs them, timed by wall clock in the same run,
interleaved (ours, theirs, theirs, ours, ...) so that a slower moment of the machine hits both:

1. one warband file (The Family, from warbands/);
2. N generated warband files (default 1,000) in one invocation;
3. one file with a schema error (an unknown class): `warband validate` then loads jsonschema too;
4. N files that the fast YAML reader leaves to ruamel.yaml (each has a folded `notes: >` block),
   the slowest path: every file is read by ruamel's pure-Python round-trip loader.

check-jsonschema only checks the shape (the schema); `warband validate` also loads the ruleset
and checks costs, points, size and quotas, so it does more work per file. Both start with
bytecode caches and the compiled-ruleset cache warm, as on a user's machine after the first run
(bytecode goes to a temporary PYTHONPYCACHEPREFIX, so nothing is written into the repository).
The ratio is ours / theirs, by the median: below 1.0 means `warband validate` is faster.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "super-simple-skirmish.warband.schema.json"
ONE = ROOT / "warbands" / "the-family.yaml"
CLASSES = {"common": ["Soldier", "Warrior", "Beast", "Drone"],
           "special": ["Gunner", "Berserker", "Sniper", "Gunslinger"],
           "rare": ["Monster", "Mech"]}


def tool(name: str) -> str:
    found = Path(sys.executable).with_name(name)
    if found.exists():
        return str(found)
    path = shutil.which(name)
    if path is None:
        sys.exit(f"{name} not found; install it beside the toolkit (pip install {name})")
    return path


def warband_text(rng: random.Random, i: int) -> str:
    """A legal Super Simple Skirmish warband of 100 points or less, in the shipped style."""
    lines = ["# yaml-language-server: $schema=../schemas/super-simple-skirmish.warband.schema.json",
             f"name: Warband {i}", "ruleset: super-simple-skirmish", "points: 100", "fighters:"]
    budget, fighters = 100, []
    entries = rng.randint(3, 8)
    for n in range(entries):
        tier = "common" if n % 2 == 0 else rng.choice(["special", "common", "rare"][: 2 + (n == 1)])
        count = rng.choice([1, 1, 1, 2]) if tier == "common" else 1
        might = rng.randint(1, max(1, min(25, budget // (count * (entries - n)))))
        if might * count > budget:
            break
        budget -= might * count
        fighters.append((f"Fighter {n + 1}", rng.choice(CLASSES[tier]), might, count))
    for name, cls, might, count in fighters:
        lines += [f"  - name: {name}", f"    class: {cls}", f"    might: {might}"]
        if count > 1:
            lines.append(f"    count: {count}")
    return "\n".join(lines) + "\n"


def with_folded_notes(text: str) -> str:
    return text + "notes: >\n  Written up\n  after the game.\n"


def timed(command: list[str], env: dict) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start, done.returncode


def compare(label: str, ours: list[str], theirs: list[str], env: dict, rounds: int,
            expect: int = 0) -> float:
    for command in (ours, theirs):  # warm-up: bytecode, the compiled ruleset, the disk cache
        elapsed, code = timed(command, env)
        if code != expect:
            sys.exit(f"{command[0]} exited {code}, not {expect}, on the benchmark's own files")
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    for r in range(rounds):
        order = [("ours", ours), ("theirs", theirs)]
        for name, command in order if r % 2 == 0 else reversed(order):
            times[name].append(timed(command, env)[0])
    ours_median = statistics.median(times["ours"])
    theirs_median = statistics.median(times["theirs"])
    ratio = ours_median / theirs_median
    print(f"{label:34} {ours_median * 1000:10.0f} {theirs_median * 1000:14.0f} {ratio:8.2f}"
          f"   (min {min(times['ours']) * 1000:.0f} / {min(times['theirs']) * 1000:.0f} ms)")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="timed runs of each tool")
    parser.add_argument("--files", type=int, default=1000, help="files in the batch case")
    args = parser.parse_args()
    warband, checker = tool("warband"), tool("check-jsonschema")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(work / "pycache"), WARBAND_CACHE_DIR=str(work / "cache"),
                   NO_COLOR="1")
        schema = work / "schemas" / SCHEMA.name
        schema.parent.mkdir()
        shutil.copy(SCHEMA, schema)
        files = work / "warbands"
        files.mkdir()
        one = files / ONE.name
        shutil.copy(ONE, one)
        bad = files / "bad.yaml"
        bad.write_text(ONE.read_text(encoding="utf-8").replace("class: Beast", "class: Beats"),
                       encoding="utf-8")
        rng = random.Random(4)
        many, slow = [], []
        for i in range(args.files):
            path = files / f"w{i:04d}.yaml"
            text = warband_text(rng, i)
            path.write_text(text, encoding="utf-8")
            many.append(str(path))
            path = files / f"n{i:04d}.yaml"
            path.write_text(with_folded_notes(text), encoding="utf-8")
            slow.append(str(path))
        print(f"median wall time of {args.rounds} interleaved runs, whole processes")
        print(f"{'case':34} {'warband (ms)':>10} {'check-jsonschema':>14} {'ratio':>8}")
        compare("1 file", [warband, "validate", str(one)],
                [checker, "--schemafile", str(schema), str(one)], env, args.rounds)
        compare(f"{args.files:,} files, one invocation", [warband, "validate", *many],
                [checker, "--schemafile", str(schema), *many], env, max(3, args.rounds // 3))
        compare("1 file with a schema error", [warband, "validate", str(bad)],
                [checker, "--schemafile", str(schema), str(bad)], env, args.rounds, expect=1)
        compare(f"{args.files:,} files, ruamel.yaml path", [warband, "validate", *slow],
                [checker, "--schemafile", str(schema), *slow], env, max(3, args.rounds // 3))
    print("ratio = warband / check-jsonschema; below 1.0 means warband validate is faster")


if __name__ == "__main__":
    main()
