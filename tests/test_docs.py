"""The language reference, docs/language.md, kept true to the toolkit.

- Every ```rules block compiles without errors. A block that starts with `ruleset` is a whole
  file; any other block is a piece of one, compiled after a `ruleset` line and together with the
  reference's own example declarations (the block whose header is `ruleset "examples"`), less
  those the piece declares itself.
- ```rules-error blocks must fail, with the diagnostics the following ```text block shows.
- ```rules-fragment blocks are exempt; there are few.
- The commands shown after `$` run, and print what the reference says they print.
- The table of diagnostic codes is the one in warband.diagnostics.
- The claims about when dice are rolled hold.

Diagnostics point into docs/language.md itself: a piece is padded with blank lines so that its
line numbers are those of the reference.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.diagnostics import CODES, render_text
from warband.lang.compiler import compile_text
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import make_world

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "language.md"
DOC_NAME = "docs/language.md"
PRELUDE_ID = "examples"
MAX_EXEMPT = 3

_FENCE = re.compile(r"^```([A-Za-z0-9_-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_HEADER = re.compile(r'^\s*(?:#[^\n]*\n\s*)*ruleset\s+"([^"]*)"')
_DECLARATION = re.compile(
    r"^(stat|enum|flag|counter|tier|trait|class|equipment|table|define|outcomes|procedure"
    r"|action|phase|army)\b(?:\s+([A-Za-z_][A-Za-z_0-9]*))?", re.MULTILINE)


@dataclass(frozen=True)
class Block:
    kind: str       # the fence's info word: rules, rules-error, rules-fragment, text, ...
    text: str
    line: int       # the line of the reference where the block's first line is

    @property
    def ruleset_id(self) -> str | None:
        m = _HEADER.match(self.text)
        return m.group(1) if m else None

    def __str__(self) -> str:
        return f"{DOC_NAME}:{self.line}"


def _blocks() -> list[Block]:
    text = DOC.read_text(encoding="utf-8")
    found = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start(2)) + 1
        found.append(Block(m.group(1), m.group(2), line))
    return found


BLOCKS = _blocks()
RULES = [b for b in BLOCKS if b.kind == "rules"]


def _declarations(text: str) -> list[tuple[str | None, str]]:
    """Top-level declarations (those starting in the first column) as (name, text)."""
    starts = list(_DECLARATION.finditer(text))
    out = []
    for m, following in zip(starts, starts[1:] + [None]):
        end = following.start() if following else len(text)
        out.append((m.group(2) if m.group(1) != "army" else "army", text[m.start():end]))
    return out


def _prelude() -> Block:
    matches = [b for b in RULES if b.ruleset_id == PRELUDE_ID]
    assert len(matches) == 1, f'exactly one ```rules block must be the ruleset "{PRELUDE_ID}"'
    return matches[0]


def _source(block: Block) -> str:
    """The text compiled for a block, with the block on its own lines of the reference."""
    padding = "\n" * (block.line - 1)
    if block.ruleset_id is not None:
        return padding + block.text
    declared = {name for name, _ in _declarations(block.text)}
    extra = [text for name, text in _declarations(_prelude().text) if name not in declared]
    header = f'ruleset "doc-example-{block.line}"'
    return header + padding[1:] + "\n" + block.text + "\n" + "".join(extra)


def _compile(block: Block):
    source = _source(block)
    return compile_text(source, DOC_NAME)


# ---- the blocks ---------------------------------------------------------------------------------

def test_the_reference_has_its_blocks():
    kinds = {b.kind for b in BLOCKS}
    assert kinds <= {"rules", "rules-error", "rules-fragment", "text"}, kinds
    assert len(RULES) >= 30
    exempt = [str(b) for b in BLOCKS if b.kind == "rules-fragment"]
    assert len(exempt) <= MAX_EXEMPT, f"too many exempt fragments: {exempt}"


@pytest.mark.parametrize("block", RULES, ids=[f"line{b.line}" for b in RULES])
def test_rules_block_compiles(block: Block):
    compiled = _compile(block)
    errors = compiled.errors
    assert not errors, "the example at " + str(block) + " does not compile:\n" + render_text(
        errors, compiled.sources)
    assert compiled.ruleset is not None


_DIAGNOSTIC_LINE = re.compile(r"^(\S+?):(\d+):(\d+): (error|warning)\[(\w+)\]: (.*)$",
                              re.MULTILINE)


def _following_text(block: Block) -> Block:
    i = BLOCKS.index(block)
    assert i + 1 < len(BLOCKS) and BLOCKS[i + 1].kind == "text", \
        f"the rules-error block at {block} must be followed by a ```text block of its output"
    return BLOCKS[i + 1]


ERROR_BLOCKS = [b for b in BLOCKS if b.kind == "rules-error"]


@pytest.mark.parametrize("block", ERROR_BLOCKS, ids=[f"line{b.line}" for b in ERROR_BLOCKS])
def test_error_block_reports_what_the_reference_shows(block: Block):
    shown = [(int(line), int(col), sev, code, message)
             for _, line, col, sev, code, message in
             _DIAGNOSTIC_LINE.findall(_following_text(block).text)]
    assert shown, f"no diagnostics shown after {block}"
    compiled = compile_text(block.text, "demo.rules")
    actual = [(d.span.line, d.span.column, d.severity.value, d.code, d.message)
              for d in compiled.diagnostics if d.span is not None]
    assert compiled.errors
    assert actual == shown


# ---- the commands ---------------------------------------------------------------------------------

def _files() -> dict[str, str]:
    """Files the shown commands use: a whole-file block by its ruleset id, plus demo.rules."""
    files = {f"{b.ruleset_id}.rules": b.text for b in RULES if b.ruleset_id}
    for b in ERROR_BLOCKS:
        if b.ruleset_id:
            files[f"{b.ruleset_id}.rules"] = b.text
    return files


def _sessions() -> list[tuple[Block, str, str]]:
    """(block, command, expected output) for every `$ warband ...` line of a text block."""
    out = []
    for b in BLOCKS:
        if b.kind != "text":
            continue
        parts = re.split(r"^\$ ", b.text, flags=re.MULTILINE)
        for part in parts[1:]:
            command, _, expected = part.partition("\n")
            out.append((b, command, expected))
    return out


SESSIONS = _sessions()


@pytest.mark.parametrize("block,command,expected", SESSIONS,
                         ids=[f"line{b.line}-{c.split()[1]}" for b, c, _ in SESSIONS])
def test_shown_command_prints_what_the_reference_says(block, command, expected, tmp_path,
                                                      monkeypatch):
    for name, text in _files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command)
    assert words[0] == "warband"
    result = CliRunner().invoke(app, words[1:])
    expects_errors = "error[" in expected
    assert result.exit_code == (1 if expects_errors else 0), result.output
    if expected.strip():
        actual = "\n".join(line.rstrip() for line in result.stdout.splitlines())
        wanted = "\n".join(line.rstrip() for line in expected.splitlines())
        assert actual.strip() == wanted.strip(), f"{block}: `{command}` printed:\n{result.stdout}"


# ---- the table of codes ----------------------------------------------------------------------------

def test_codes_table_is_the_toolkits():
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([EW]\d{3}) \| (error|warning|note) \| (.+?) \|$", text,
                      re.MULTILINE)
    documented = {code: (severity, meaning) for code, severity, meaning in rows}
    assert len(documented) == len(rows), "a code is listed twice"
    expected = {code: (severity.value, meaning) for code, (severity, meaning) in CODES.items()}
    missing = sorted(set(expected) - set(documented))
    stale = sorted(set(documented) - set(expected))
    assert not missing, f"codes missing from the reference's table: {missing}"
    assert not stale, f"codes in the reference that the toolkit no longer has: {stale}"
    assert documented == expected


# ---- the claims about rolls --------------------------------------------------------------------------

def _run(block_marker: str, action: str) -> "object":
    block = next(b for b in RULES if block_marker in b.text)
    ruleset = _compile(block).ruleset
    interpreter = Interpreter(ruleset, Policies())
    return interpreter.exact(action, {}, make_world(ruleset, []))


def test_let_fixes_a_roll_and_each_dice_expression_rolls_anew():
    assert dict(_run("action same_roll()", "same_roll").items()) == {0: 1}
    two = _run("action two_rolls()", "two_rolls")
    assert sorted(two) == list(range(-5, 6))
    assert two[0] == Fraction(1, 6)


def test_a_dice_parameter_is_rolled_at_each_use():
    best_minus_once = _run("procedure best_of_two(", "compare")
    # E[max of two 3d6] - E[3d6] > 0, and the difference takes both signs.
    assert best_minus_once.mean() > 0
    assert min(best_minus_once) < 0 < max(best_minus_once)


# ---- the commands in README.md and the other docs ---------------------------------------------------
#
# Every `$ warband ...` line of a fenced block in README.md and docs/*.md (docs/language.md has its
# own test, above) is run, and what the block shows after it is compared with what the command
# prints (standard output and standard error, as a terminal shows them). A `warband ...` line
# without `$` in a ```sh block is a command shown without its output: it must succeed (exit 0).
# What must vary is normalised: where the package is installed, timings. A comment on the line
# before a block marks what it shows as other than exact, minimally:
#   <!-- doc-test: excerpt -->   a line `...` stands for any lines, a trailing ` ...` for the
#                                rest of its line; every other line must be printed as shown
#   <!-- doc-test: not run: WHY -->  the command is not run (few: see MAX_NOT_RUN)
#   <!-- doc-test: file NAME -->  the block is a file the commands read: written as NAME first

SHOWN_DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md")
                                           if p.name != "language.md")
MAX_NOT_RUN = 3
DOC_COLUMNS = 150   # the docs show a terminal this wide (tables fill it; trailing spaces dropped)
_MARK = re.compile(r"<!-- doc-test: (excerpt|not run: [^>]*?|file [^ >]+) -->\s*$")
_FENCE_AT = re.compile(r"^```([A-Za-z0-9_-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SHIPPED = ("dsl", "scenarios", "warbands", "schemas", "tests")


@dataclass(frozen=True)
class Shown:
    where: str          # file:line of the command
    command: str        # without '$ ', continuation lines joined
    expected: str | None  # what the block shows after it; None: shown without output
    mark: str           # "", "excerpt" or "not run: ..."
    path: Path          # the doc
    raw: str            # the command's lines as the doc writes them, and the output after them
    raw_command: str    # the command's lines alone

    def __str__(self) -> str:
        return f"{self.where}: {self.command[:60]}"


def _shown_commands() -> list[Shown]:
    out = []
    for path in SHOWN_DOCS:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        for m in _FENCE_AT.finditer(text):
            first = text.count("\n", 0, m.start(2)) + 1
            before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            mark = _MARK.search(before)
            lines = m.group(2).splitlines()
            i = 0
            while i < len(lines):
                line = lines[i]
                if m.group(1) == "sh" and " && " in line:   # the install line's chain of commands
                    for part in line.split(" && "):
                        if part.startswith(".venv/bin/warband "):
                            command = part.removeprefix(".venv/bin/")
                            out.append(Shown(f"{name}:{first + i}", command, None,
                                             mark.group(1) if mark else "", path, part, part))
                    i += 1
                    continue
                prompt = line.startswith("$ warband ")
                if not (prompt or (m.group(1) == "sh" and line.startswith("warband "))):
                    i += 1
                    continue
                where, command, begin = f"{name}:{first + i}", line.removeprefix("$ "), i
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1].rstrip() + " " + lines[i].strip()
                i += 1
                expected, start = None, i
                if prompt:
                    while i < len(lines) and not lines[i].startswith("$ "):
                        i += 1
                    expected = "\n".join(lines[start:i])
                out.append(Shown(where, command, expected, mark.group(1) if mark else "", path,
                                 "\n".join(lines[begin:i]), "\n".join(lines[begin:start])))
    return out


SHOWN = _shown_commands()


def _shown_files() -> dict[str, str]:
    """The blocks the docs mark as files (`<!-- doc-test: file NAME -->`), by name."""
    files = {}
    for path in SHOWN_DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE_AT.finditer(text):
            before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            mark = _MARK.search(before)
            if mark and mark.group(1).startswith("file "):
                files[mark.group(1).removeprefix("file ")] = m.group(2)
    return files


def _normalised(text: str) -> str:
    """What must vary between runs and installs: where the shipped files are, timings."""
    from warband import catalog
    for folder, name in ((catalog.RULES_DIR, "dsl"), (catalog.SCENARIO_DIR, "scenarios"),
                         (catalog.RULES_DIR.parent / "warbands", "warbands")):
        for prefix in {str(folder), str(folder.resolve())}:
            text = text.replace(prefix + "/", name + "/")
    text = re.sub(r"\b\d+(\.\d+)? ?(s|ms|µs|seconds)\b", "<time>", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _matches(actual: str, shown: str, excerpt: bool) -> bool:
    if not excerpt:
        return actual == shown
    pattern = []
    for line in shown.splitlines():
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        elif line.endswith(" ..."):
            pattern.append(re.escape(line[:-4]) + r" [^\n]*\n")
        else:
            pattern.append(re.escape(line) + r"\n")
    return re.fullmatch("".join(pattern), actual + "\n") is not None


def test_the_docs_show_commands_and_few_are_not_run():
    assert len(SHOWN) >= 20
    not_run = [str(s) for s in SHOWN if s.mark.startswith("not run")]
    assert len(not_run) <= MAX_NOT_RUN, not_run


def _words(command: str, folder: Path) -> list[str]:
    """The command's words as a shell gives them: quotes removed, globs expanded."""
    out = []
    for word in shlex.split(command):
        found = sorted(p.relative_to(folder).as_posix() for p in folder.glob(word)) \
            if "*" in word else []
        out += found or [word]
    return out


def _update(shown: Shown, actual: str) -> None:
    """--update-goldens: the doc shows what the command printed (review the diff)."""
    text = shown.path.read_text(encoding="utf-8")
    assert shown.raw in text
    shown_now = shown.raw_command + ("\n" + actual if actual else "")
    shown.path.write_text(text.replace(shown.raw, shown_now, 1), encoding="utf-8")


def _excerpt_now(actual: str, shown: str) -> str | None:
    """An excerpt's lines as the command prints them now, with the same parts left out: each
    run of shown lines between two `...` lines is found in the output by its first line (or
    kept where it follows the run before) and replaced by as many lines from there. None when
    a run cannot be placed (then the excerpt must be edited by hand)."""
    lines, out, at = actual.splitlines(), [], 0
    runs: list[list[str]] = [[]]
    gaps: list[str] = []   # the `...` lines as written (indented as the doc has them)
    for line in shown.splitlines():
        if line.strip() == "...":
            runs.append([])
            gaps.append(line)
        else:
            runs[-1].append(line)
    for n, run in enumerate(runs):
        if n:
            out.append(gaps[n - 1])
        if not run:
            continue
        head = run[0][:-4] if run[0].endswith(" ...") else run[0]
        found = next((i for i in range(at, len(lines)) if lines[i].startswith(head)), None) \
            if n else 0
        if found is None or found + len(run) > len(lines):
            return None
        out += lines[found:found + len(run)]
        at = found + len(run)
    return "\n".join(out)


@pytest.mark.parametrize("shown", SHOWN, ids=[s.where for s in SHOWN])
def test_a_shown_command_prints_what_the_docs_show(shown: Shown, tmp_path, monkeypatch, request):
    if shown.mark.startswith("not run"):
        pytest.skip(shown.mark)
    from warband import catalog
    # the checkout's files, seen from a folder the command may write; the built-in rules and
    # scenarios (in the package when it is installed) seen there too, so that they are shown
    # as dsl/... and scenarios/... wherever the package is, and tables are laid out alike
    # (the warbands too: a shipped scenario names its own, `../warbands/x.yaml` beside it, and
    # messages name that file; installed, it is the package's copy, not the checkout's)
    installed_warbands = catalog.RULES_DIR.parent / "warbands"
    shipped = {name: ROOT / name for name in _SHIPPED} | {
        "dsl": catalog.RULES_DIR, "scenarios": catalog.SCENARIO_DIR,
        "warbands": installed_warbands if installed_warbands.is_dir() else ROOT / "warbands"}
    for name, folder in shipped.items():
        (tmp_path / name).symlink_to(folder, target_is_directory=True)
    monkeypatch.setattr(catalog, "RULES_DIR", tmp_path / "dsl")
    monkeypatch.setattr(catalog, "SCENARIO_DIR", tmp_path / "scenarios")
    monkeypatch.setattr(catalog, "CONVERSIONS_DIR", tmp_path / "dsl" / "conversions")
    monkeypatch.setattr(catalog, "SCHEMAS_DIR", tmp_path / "schemas")   # modelines name them
    for name, text in _shown_files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", str(DOC_COLUMNS))
    words = _words(shown.command, tmp_path)
    assert words[0] == "warband"
    result = CliRunner().invoke(app, words[1:])
    assert "Traceback" not in result.output, result.output
    if shown.expected is None:
        assert result.exit_code == 0, f"{shown}: exit {result.exit_code}\n{result.output}"
        return
    actual, expected = _normalised(result.output), _normalised(shown.expected)
    excerpt = shown.mark == "excerpt"
    if not _matches(actual, expected, excerpt) and (
            request.config.getoption("--update-goldens")
            or os.environ.get("WARBAND_UPDATE_GOLDENS") == "1"):
        now = _excerpt_now(actual, expected) if excerpt else actual
        if now is not None and _matches(actual, now, excerpt):
            _update(shown, now)
            return
    assert _matches(actual, expected, shown.mark == "excerpt"), (
        f"{shown} (exit {result.exit_code}) printed:\n{actual}\n\nthe docs show:\n{expected}")


def test_rules_check_with_playouts_twice_in_one_process_reports_each_finding_once(tmp_path):
    # (found by the test above: `rules check --playouts` added its findings to the compiled
    # ruleset load() keeps, so the second run in one process reported W902 twice)
    text = (ROOT / "scenarios" / "sss-standard-game.rules").read_text().replace(
        "score empire \"points of enemy fighters killed\" =\n    total(f.Might for f in "
        "family.casualties if f.removed_by_side == empire)",
        "score empire \"never\" = 0")   # W903 in every playout
    assert "score empire \"never\"" in text
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "warbands").mkdir()
    for name in ("clockwork-empire.yaml", "the-family.yaml"):
        (tmp_path / "warbands" / name).write_text((ROOT / "warbands" / name).read_text())
    (tmp_path / "scenarios" / "g.rules").write_text(text)
    for _ in range(2):
        result = CliRunner().invoke(app, ["rules", "check", str(tmp_path / "scenarios" /
                                                                 "g.rules"), "--playouts", "5"])
        assert result.stdout.count("warning[W903]") == 1, result.stdout


# ---- what the docs say the program does ---------------------------------------------------------

ALL_DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def _paragraphs():
    for path in ALL_DOCS:
        for paragraph in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            yield path.relative_to(ROOT).as_posix(), paragraph


def test_the_docs_give_the_exact_work_limit_the_program_has():
    # (docs/language.md said five million outcomes, the program stops at 250,000 steps and
    # outcomes together)
    from warband.limits import MAX_BRANCHES
    said = []
    for name, paragraph in _paragraphs():
        if not re.search(r"E504|exact odds|MAX_BRANCHES", paragraph, re.IGNORECASE):
            continue
        for line in paragraph.splitlines():
            if "MAX_BRANCHES" in line:
                assert f"{MAX_BRANCHES:,}" in line, (name, line)
        flat = " ".join(paragraph.split())
        for number in re.findall(r"(?:more than|after|past the) (\d[\d,]*|\w+ million)[ -]"
                                 r"(?:steps?|outcomes)\b", flat):
            said.append(number)
            assert number == f"{MAX_BRANCHES:,}", f"{name}: '{number}' in: {flat[:200]}"
    assert said, "no doc states the exact-work limit"


def test_an_interrupt_exits_130_as_the_docs_say():
    """Any command, not only simulate: typer turns KeyboardInterrupt into exit 130, silently."""
    import subprocess
    import sys
    code = ("import sys, warband.cli.rules as r\n"
            "def stop(*a, **k): raise KeyboardInterrupt\n"
            "r.rules_list = stop\n"
            "sys.argv = ['warband', 'rules', 'list']\n"
            "from warband.cli import main\nmain()\n")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=60, check=False)
    assert child.returncode == 130, child.stderr
    assert "Aborted" not in child.stderr
    for name, paragraph in _paragraphs():
        assert "Aborted!" not in paragraph, name
    commands = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    row = next(line for line in commands.splitlines() if line.startswith("| 130 |"))
    assert "any command" in row


def test_every_way_a_game_ends_is_documented():
    """`simulate` counts games by how they ended: each ending the engine gives is explained."""
    from warband.game import engine
    from warband.game.tally import ENDINGS
    source = Path(engine.__file__).read_text(encoding="utf-8")
    endings = set(ENDINGS) | set(re.findall(r'GameOver\(world, "(\w+)"\)', source))
    assert "eliminated" in endings
    commands = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    bullet = commands[commands.index("- **how games ended**"):]
    bullet = bullet[:bullet.index("\n- **")]
    assert all(f"`{how}`" in bullet for how in endings), (sorted(endings), bullet)


def _written(value: int) -> set[str]:
    """The ways the docs write a limit: 250,000; 250000; 256 kB; 32 MB; 64 MB (10^6)."""
    out = {f"{value:,}", str(value)}
    for unit, name in ((1024, "kB"), (1024 * 1024, "MB"), (1000, "kB"), (1_000_000, "MB")):
        if value % unit == 0:
            out.add(f"{value // unit} {name}")
    return out


def test_the_limits_tables_give_the_values_limits_py_has():
    """docs/robustness.md lists every bound with the constant that holds it: each row shows
    that constant's value, and every constant is listed."""
    from warband import limits
    text = (ROOT / "docs" / "robustness.md").read_text(encoding="utf-8")
    listed = set()
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        shown = " ".join(cells[:-1])          # the last column names where it is enforced
        for name in re.findall(r"\b(MAX_[A-Z_]+)\b", line):
            if hasattr(limits, name):
                listed.add(name)
                value = getattr(limits, name)
                assert any(w in shown for w in _written(value)), (name, value, line)
    constants = {n for n in vars(limits) if n.startswith("MAX_")}
    assert constants - listed == set(), "limits missing from docs/robustness.md"
