"""Benchmark: a keystroke's diagnostics in the language server (`warband lsp`), per shipped file.

Run by hand (not a test):  python benchmarks/bench_lsp.py [--repeat N] [--stdio]

For each shipped rules file (rulesets, house rules, scenarios), three keystrokes, each timed from
the document's new text to the diagnostics the editor is sent (compile, index, conversion; the
debounce and the pipe left out):
  - `ok`: a keystroke that leaves the file valid (a letter in a comment);
  - `typo`: a letter that makes a name unknown (E201, with its did-you-mean);
  - `half`: a statement half typed (a syntax error: the parser reads the file again in pieces).
The reference, measured in the same run, is what `warband rules check` pays for the file when it
has changed (no compiled-ruleset cache): the ratio is the keystroke's / the reference's. The goal
is 100 ms a keystroke (docs/editors.md). Also timed: completion at the half-typed place (it
compiles the text again with a placeholder), and hover (the index only).

With --stdio, a server is started and each `half` keystroke is sent over its standard input, to
the diagnostics read back on its standard output (debounce 0): the whole round trip.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL_MS = 100.0


def best_of(fn, repeat: int) -> float:
    """The least CPU time of `repeat` runs: the work is single-threaded, and what other
    processes on a shared machine take does not count (the pipe's round trip, below, is wall
    time)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def keystrokes(text: str) -> dict[str, tuple[str, int]]:
    """The three edited texts, and the offset typed at."""
    comment = text.index("#") + 1
    # a name in a rule: the last `f.` or `(` followed by a name, in the file's second half
    half = len(text) // 2
    brace = text.index("{", half) + 1 if "{" in text[half:] else len(text)
    line_end = text.index("\n", brace) if "\n" in text[brace:] else len(text)
    word = text.find("(", half)
    word = word + 1 if word >= 0 else half
    return {
        "ok": (text[:comment] + "x" + text[comment:], comment + 1),
        "typo": (text[:word] + "q" + text[word:], word + 1),
        "half": (text[:line_end] + "\n  let x = f." + text[line_end:],
                 line_end + len("\n  let x = f.")),
    }


def bench_file(path: Path, repeat: int) -> dict[str, float]:
    """One file's times, in seconds: the reference, each keystroke, completion, hover."""
    from lsprotocol import types

    from warband import catalog
    from warband.lang.compiler import compile_text
    from warband.lsp import completion, navigation
    from warband.lsp.analysis import analyse
    from warband.lsp.problems import Places, to_editor
    from warband.lsp.server import uri_of

    def diagnostics(text: str) -> None:
        a = analyse(text, path.as_uri(), path, 1)
        to_editor(a.diagnostics, Places(a.name, a.uri, a.lines, a.compiled.sources.texts,
                                        uri_of), navigation.anchor(a.stages.module))

    text = path.read_text(encoding="utf-8")
    name = catalog.display_path(path)
    compile_text(text, name)   # Lark's tables loaded, the grammar's first use paid
    times = {"ref": best_of(lambda: compile_text(text, name), repeat)}
    edits = keystrokes(text)
    for kind, (edited, _) in edits.items():
        times[kind] = best_of(functools.partial(diagnostics, edited), repeat)
    edited, offset = edits["half"]
    typed = analyse(edited, path.as_uri(), path, 1)
    clean = analyse(text, path.as_uri(), path, 1)
    times["complete"] = best_of(functools.partial(
        completion.complete, typed, typed.lines.position(offset), clean), max(1, repeat // 3))
    names = clean.index.in_file(clean.name)
    target = clean.lines.span_range(names[len(names) // 2].span).start if names \
        else types.Position(0, 0)
    times["hover"] = best_of(functools.partial(navigation.hover, clean, target), repeat)
    return times


def bench_in_process(files: list[Path], repeat: int) -> list[float]:
    from warband import catalog
    print(f"a keystroke's diagnostics, best of {repeat} (ms; ratio: / the reference, "
          "`rules check` of the changed file)")
    print(f"{'file':42} {'lines':>5} {'ref':>7} {'ok':>7} {'typo':>7} {'half':>7} {'ratio':>6}"
          f" {'complete':>9} {'hover':>6}")
    worst = []
    for path in files:
        t = {k: v * 1000 for k, v in bench_file(path, repeat).items()}
        slowest = max(t["ok"], t["typo"], t["half"])
        worst.append(slowest)
        lines = path.read_text(encoding="utf-8").count("\n")
        print(f"{catalog.display_path(path):42} {lines:5} {t['ref']:7.1f} {t['ok']:7.1f} "
              f"{t['typo']:7.1f} {t['half']:7.1f} {slowest / t['ref']:6.2f} "
              f"{t['complete']:9.1f} {t['hover']:6.2f}")
    print(f"slowest keystroke: {max(worst):.1f} ms (goal {GOAL_MS:.0f} ms)")
    return worst


# ---- over the pipe ----------------------------------------------------------------------------------

class Pipe:
    """A server started as an editor starts it, spoken to in the protocol's own framing."""

    def __init__(self) -> None:
        env = {**os.environ, "WARBAND_NO_CACHE": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "warband", "lsp"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next_id = 0

    def send(self, method: str, params: dict, request: bool = False) -> None:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        assert self.process.stdout is not None
        length = 0
        while (line := self.process.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def until(self, method: str) -> dict:
        while True:
            message = self.receive()
            if message.get("method") == method:
                return message

    def close(self) -> None:
        self.send("shutdown", {}, request=True)
        self.send("exit", {})
        self.process.wait(timeout=30)


def bench_stdio(files: list[Path], repeat: int) -> None:
    pipe = Pipe()
    pipe.send("initialize", {"capabilities": {}, "initializationOptions": {"debounce": 0}},
              request=True)
    pipe.receive()
    pipe.send("initialized", {})
    print(f"\nover the pipe: a half-typed statement to its diagnostics, median of {repeat} (ms)")
    for path in files:
        text = path.read_text(encoding="utf-8")
        uri = path.resolve().as_uri()
        pipe.send("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "warband-rules", "version": 1, "text": text}})
        pipe.until("textDocument/publishDiagnostics")
        times = []
        edited = keystrokes(text)["half"][0]
        for version in range(2, repeat + 2):
            now = edited if version % 2 == 0 else text
            start = time.perf_counter()
            pipe.send("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": now}]})
            pipe.until("textDocument/publishDiagnostics")
            if now is edited:
                times.append(time.perf_counter() - start)
        print(f"  {path.name:40} {statistics.median(times) * 1000:7.1f}")
    pipe.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--stdio", action="store_true", help="also time the round trip")
    args = parser.parse_args()
    os.environ.setdefault("WARBAND_NO_CACHE", "1")
    from warband import catalog
    files = sorted(catalog.RULES_DIR.glob("*.rules")) + sorted(catalog.SCENARIO_DIR.glob("*.rules"))
    bench_in_process(files, args.repeat)
    if args.stdio:
        bench_stdio(files, args.repeat)


if __name__ == "__main__":
    main()
