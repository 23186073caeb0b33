"""`warband play --replay LOG`: a record is a stranger's file, read and checked as data before
anything uses it. Every problem is E916 (exit 2) with its place in the file and its path in the
record; a record the replay does not reproduce (a forged result included) is E917 (exit 1);
never a traceback. (The property test that mutates records is in tests/test_robustness.py.)"""

from __future__ import annotations

import json
import os
import re

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.gamelog import offset_of, read_record
from warband.limits import MAX_RECORD_BYTES

ERROR_LINE = re.compile(r"^(\S.*:\d+:\d+: )?error\[E\d{3}\]: ")


def warband(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def record() -> dict:
    made = warband("play", "sss-standard-game", "--seed", "3", "--format", "json")
    assert made.exit_code == 0, made.output
    return json.loads(made.stdout)


def replay(tmp_path, data, *extra: str, name: str = "game.json"):
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1),
                        encoding="utf-8")
    return warband("play", "--replay", str(path), *extra)


def refused(result, code: str = "E916", exit_code: int = 2) -> str:
    assert result.exit_code == exit_code, result.output
    assert "Traceback" not in result.output
    assert f"error[{code}]" in result.stderr, result.stderr
    errors = [ln for ln in result.stderr.splitlines() if "error[" in ln]
    assert errors and all(ERROR_LINE.match(ln) for ln in errors), result.stderr
    return result.stderr


def changed(record: dict, change) -> dict:
    copy = json.loads(json.dumps(record))
    change(copy)
    return copy


# ---- the cases of the issue ----------------------------------------------------------------------

def test_a_good_record_replays(tmp_path, record):
    result = replay(tmp_path, record, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == record


def test_a_null_event_is_refused_at_its_line(tmp_path, record):
    err = refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("events", [None]))))
    assert "event 1 must be a mapping, not null (at /events/0)" in err
    assert re.search(r"game\.json:\d+:\d+: error\[E916\]", err)


def test_policies_as_a_list_are_refused(tmp_path, record):
    err = refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("policies", ["x"]))))
    assert "'policies' of the record must be a mapping" in err and "(at /policies)" in err


def test_an_unknown_policy_and_an_unknown_side_are_refused(tmp_path, record):
    err = refused(replay(tmp_path, changed(
        record, lambda r: r.__setitem__("policies", {"empire": "cheat"}))))
    assert "unknown policy 'cheat'" in err and "/policies/empire" in err
    err = refused(replay(tmp_path, changed(
        record, lambda r: r.__setitem__("policies", {"nobody": "greedy"}))))
    assert "a side its scenario does not have (at /policies/nobody)" in err
    assert "empire, family" in err


def test_a_seed_of_5000_digits_is_refused(tmp_path, record):
    text = json.dumps(record, indent=1).replace('"seed": 3', '"seed": ' + "7" * 5000)
    err = refused(replay(tmp_path, text))
    assert "a number too large to read" in err and re.search(r"game\.json:6:10:", err)


@pytest.mark.parametrize("seed", [-1, 2 ** 63, 1.5, "3", True, None])
def test_a_seed_out_of_range_or_of_another_type_is_refused(tmp_path, record, seed):
    err = refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("seed", seed))))
    assert "'seed' of the record must be a whole number from 0 to" in err


def test_100000_nested_brackets_are_refused(tmp_path):
    text = '{"format": "warband-game-log", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    err = refused(replay(tmp_path, text))
    assert "nested too deeply" in err and "game.json:1:" in err


def test_a_forged_result_is_caught(tmp_path, record):
    def forge(r):   # (the other side wins)
        other = "empire" if r["result"]["winner"] == "family" else "family"
        r["result"]["winner"] = other
        r["result"]["scores"][other] = 99.0
    err = refused(replay(tmp_path, changed(record, forge)), "E917", 1)
    assert "the record's result is not the replayed game's (at /result)" in err
    assert "winner 'empire'" in err and "winner 'family'" in err


def test_a_forged_end_event_is_caught(tmp_path, record):
    def forge(r):   # (the other side wins)
        r["events"][-1]["winner"] = "empire" if r["events"][-1]["winner"] == "family" \
            else "family"
    err = refused(replay(tmp_path, changed(record, forge)), "E917", 1)
    assert f"differs from the record at event {len(record['events'])}" in err
    assert f"(at /events/{len(record['events']) - 1})" in err


def test_a_forged_title_is_caught(tmp_path, record):
    err = refused(replay(tmp_path, changed(
        record, lambda r: r.__setitem__("scenario_title", "Mine"))), "E917", 1)
    assert "scenario's title" in err


def test_a_value_of_another_type_that_compares_equal_is_a_difference(tmp_path, record):
    # true == 1 in Python: a replay compares what JSON writes, so true is not the roll 1
    def forge(r):   # (a roll of 1, else any value 1 the record holds: a change 0 -> 1)
        event, key = next(((e, k) for e in sorted(r["events"], key=lambda e: e["type"] != "roll")
                           for k, v in e.items() if type(v) is int and v == 1 and k != "round"))
        event[key] = True
    refused(replay(tmp_path, changed(record, forge)), "E917", 1)


@pytest.mark.parametrize("version", [99, 0, "1", True, None])
def test_another_version_is_refused_with_a_hint(tmp_path, record, version):
    err = refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("version", version))))
    assert "this warband replays version 3 records (at /version)" in err
    assert "hint: it was written by another version of warband" in err


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_record_is_refused_with_how_to_play_it_anew(tmp_path, record, version):
    # version 1 (before rolls were labelled and positions were numbers) and 2 (before records
    # said who removed each fighter) are E916, not a crash
    err = refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("version", version))))
    assert f"the record is version {version}; this warband replays version 3 records" in err
    assert "the same seed plays the same game" in err


def test_a_record_without_a_version_is_refused(tmp_path, record):
    err = refused(replay(tmp_path, changed(record, lambda r: r.pop("version"))))
    assert "version 3 records" in err


def test_a_scenario_argument_must_be_the_records(tmp_path, record):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    err = refused(warband("play", "smart-dungeon", "--replay", str(path)), "E901")
    assert "the record is a game of 'sss-standard-game', not of 'smart-dungeon'" in err
    assert "leave SCENARIO out" in err
    same = warband("play", "sss-standard-game", "--replay", str(path))
    assert same.exit_code == 0, same.output


@pytest.mark.parametrize("option", [["--seed", "4"], ["--seed", "1"], ["--policy", "empire=first"],
                                    ["--max-rounds", "2"]])
def test_settings_of_the_game_cannot_be_given_with_a_replay(tmp_path, record, option):
    err = refused(replay(tmp_path, record, *option), "E901")
    assert f"{option[0]} cannot be used with --replay" in err


# ---- what a record holds -------------------------------------------------------------------------

@pytest.mark.parametrize("change, says", [
    (lambda r: r.pop("events"), "the record has no 'events'"),
    (lambda r: r.pop("result"), "the record has no 'result'"),
    (lambda r: r.__setitem__("extra", 1), "the record has an unknown key 'extra' (at /extra)"),
    (lambda r: r.__setitem__("events", {}), "'events' of the record must be a list"),
    (lambda r: r.__setitem__("scenario", ""), "is no scenario's name"),
    (lambda r: r.__setitem__("scenario", "a\x1b[2Jb"), "is no scenario's name"),
    (lambda r: r.__setitem__("max_rounds", 0), "'max_rounds' of the record must be"),
    (lambda r: r.__setitem__("max_rounds", 10 ** 9), "'max_rounds' of the record must be"),
    (lambda r: r["result"].__setitem__("rounds", "6"), "'rounds' of the result must be"),
    (lambda r: r["result"]["removed"].__setitem__("empire", [1]), "'removed' of the result"),
    (lambda r: r["result"].__setitem__("kills", {}), "the result has an unknown key 'kills'"),
    (lambda r: next(e for e in r["events"] if e["type"] == "travel").__setitem__(
        "to", "(1, 2)"), "'to' of event"),
    (lambda r: next(e for e in r["events"] if e["type"] == "roll").__setitem__(
        "side", {"side": "empire"}), "'side' of event"),
    (lambda r: next(e for e in r["events"] if e["type"] == "roll").pop("for"),
     "(a roll event) has no 'for'"),
    (lambda r: r["events"][0].__setitem__("type", "teleport"), "has no known 'type'"),
    (lambda r: r["events"][0].pop("type"), "has no known 'type'"),
    (lambda r: r["events"][0].pop("round"), "(a setup event) has no 'round'"),
    (lambda r: r["events"][0].__setitem__("round", 10 ** 6), "'round' of event 1"),
    (lambda r: r["events"][0].__setitem__("who", "me"), "has an unknown key 'who'"),
    (lambda r: next(e for e in r["events"] if e["type"] == "roll").__setitem__("value", {}),
     "'value' of event"),
    (lambda r: next(e for e in r["events"] if e["type"] == "decision")
     .__setitem__("choice", [[1, 2]]), "'choice' of event"),
    (lambda r: next(e for e in r["events"] if e["type"] == "decision")
     .__setitem__("choice", float("inf")), "'choice' of event"),
    (lambda r: r["events"][-1].__setitem__("scores", {"empire": "48"}), "'scores' of event"),
])
def test_every_field_is_checked(tmp_path, record, change, says):
    err = refused(replay(tmp_path, changed(record, change)))
    assert says in err, err
    assert "\x1b" not in err


def test_json_syntax_errors_are_placed(tmp_path, record):
    text = json.dumps(record, indent=1)
    err = refused(replay(tmp_path, text[:len(text) // 2]))
    assert "the record is not valid JSON" in err and re.search(r"game\.json:\d+:\d+:", err)
    err = refused(replay(tmp_path, text.replace('"seed": 3,', '"seed": 3,,')))
    assert "game.json:6:12:" in err
    err = refused(replay(tmp_path, text.replace('"seed": 3,', '"seed": 3,\n "seed": 4,')))
    assert "the key 'seed' is given twice" in err and "game.json:7:2:" in err


def test_bytes_that_are_not_utf8_are_placed(tmp_path, record):
    raw = json.dumps(record, indent=1).encode().replace(b'"seed": 3', b'"seed": \xff3')
    err = refused(replay(tmp_path, raw))
    assert "not UTF-8" in err and "game.json:6:10:" in err


@pytest.mark.parametrize("text", ["", "{}", "[1, 2]", "not json", '{"format": "x"}', "null",
                                  "\ufeff{}", '"warband-game-log"'])
def test_what_is_no_record_at_all(tmp_path, text):
    refused(replay(tmp_path, text))


def test_a_record_too_large_is_refused_unread(tmp_path, record):
    path = tmp_path / "big.json"
    with open(path, "wb") as stream:
        stream.truncate(MAX_RECORD_BYTES + 1)   # sparse: no disk used
    err = refused(warband("play", "--replay", str(path)))
    assert "is larger than a record may be" in err


def test_a_folder_a_device_and_a_missing_file(tmp_path):
    assert "is a folder" in refused(warband("play", "--replay", str(tmp_path)))
    if os.path.exists("/dev/zero"):
        assert "is not a regular file" in refused(warband("play", "--replay", "/dev/zero"))
    assert "cannot read" in refused(warband("play", "--replay", str(tmp_path / "none.json")))
    assert "cannot read" in refused(warband("play", "--replay", "a\x00b"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "is not a regular file" in refused(warband("play", "--replay", str(fifo)))


def test_a_huge_line_is_not_shown_under_its_diagnostic(tmp_path, record):
    def forge(r):
        r["events"][3]["type"] = "nothing"
    err = refused(replay(tmp_path, json.dumps(changed(record, forge))))   # one line of ~40 kB
    assert re.search(r"game\.json:1:\d+: error\[E916\]", err)
    assert len(err) < 1000


def test_a_line_with_control_characters_is_not_shown(tmp_path, record):
    text = json.dumps(record, indent=1).replace('"seed": 3,', '"seed": 3, "\x1b[2J": 1\x07,')
    err = refused(replay(tmp_path, text))
    assert "game.json:6:" in err and "\x1b" not in err and "\x07" not in err


def test_a_bad_placement_in_a_record_is_a_mismatch_not_a_crash(tmp_path, record):
    def forge(r):
        next(e for e in r["events"] if e.get("decision") == "placement")["choice"] = 5
    err = refused(replay(tmp_path, changed(record, forge)), "E917", 1)
    assert "the log places at 5, where nothing may be placed now" in err


def test_a_choice_of_a_number_that_int_cannot_read_is_a_mismatch_not_a_crash(tmp_path):
    made = warband("play", "greedy-dudes-vs-menace", "--seed", "1", "--format", "json")
    assert made.exit_code == 0, made.output
    record = json.loads(made.stdout)
    for choice in ("\u00b2", "9" * 5000):   # '²'.isdigit() is True, and int('²') raises
        def forge(r, choice=choice):
            next(e for e in r["events"] if e.get("decision") == "a_hand")["choice"] = choice
        refused(replay(tmp_path, changed(record, forge)), "E917", 1)


def test_control_characters_from_a_record_are_escaped_in_messages(tmp_path, record):
    def forge(r):
        next(e for e in r["events"] if e.get("decision") == "action")["choice"] = "\x1b[2Jboo"
    err = refused(replay(tmp_path, changed(record, forge)), "E917", 1)
    assert "\x1b" not in err and "\\u001b[2Jboo" in err


# ---- where a path is in the text -----------------------------------------------------------------

def test_offset_of_finds_keys_items_and_the_nearest_place():
    text = '{"a": [1, {"b": 2, "c": [3, 4]}], "d": {}}'
    assert text[offset_of(text, ("a",)):].startswith('"a"')
    assert text[offset_of(text, ("a", 1)):].startswith('{"b"')
    assert text[offset_of(text, ("a", 1, "c")):].startswith('"c"')
    assert text[offset_of(text, ("a", 1, "c", 1)):].startswith("4]")
    assert text[offset_of(text, ("a", 1, "zz")):].startswith('{"b"')   # missing: its mapping
    assert text[offset_of(text, ("d", "x")):].startswith('"d"')
    assert offset_of(text, ()) == 0


def test_read_record_adds_the_text_for_the_excerpt(tmp_path, record):
    from warband.diagnostics import Sources
    path = tmp_path / "game.json"
    path.write_text(json.dumps(changed(record, lambda r: r.__setitem__("seed", -3)), indent=1))
    sources = Sources()
    got, problem = read_record(str(path), sources)
    assert got is None and problem is not None and problem.span is not None
    assert problem.span.line == 6 and str(path) in sources.texts


def test_the_largest_seed_replays_and_one_more_is_refused(tmp_path, record):
    played = warband("play", "sss-standard-game", "--seed", str(2 ** 63 - 1), "--max-rounds",
                     "1", "--format", "json")
    assert played.exit_code == 0, played.output
    assert replay(tmp_path, json.loads(played.stdout)).exit_code == 0
    refused(replay(tmp_path, changed(record, lambda r: r.__setitem__("seed", 2 ** 63))))


@pytest.mark.parametrize("policy", ["\u00b2", "9" * 5000, "-\u00b3", "3"])
def test_generated_code_reads_a_number_choice_only_when_int_can(policy):
    # the same check as the interpreter's (run/decisions.py), in the generated code's runtime:
    # a policy naming a number is read only if it is a plain whole number of a sane length
    from types import SimpleNamespace

    from warband.run.codegen.runtime import number_choice
    from warband.run.decisions import Policies
    interp = SimpleNamespace(policies=Policies("first", {"pick": policy}))
    stmt = SimpleNamespace(name=SimpleNamespace(name="pick"), span=None)
    assert number_choice(interp, stmt, 0, 5) == (3 if policy == "3" else None)


@pytest.mark.parametrize("scenario", ["/etc/passwd", "../secret.txt", "/proc/self/environ",
                                      "notes.txt"])
def test_a_record_names_only_a_scenario_a_shared_file_may_name(tmp_path, record, scenario,
                                                                  monkeypatch):
    # (a record from a stranger naming any file would have it compiled, and a syntax error would
    # show its first line)
    (tmp_path / "notes.txt").write_text("secret notes\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)   # (a bare name in the working folder is no scenario either)
    text = refused(replay(tmp_path, changed(record, lambda r: r.update(scenario=scenario))))
    assert "is not a rules file a record may name" in text or \
        "is not a shipped scenario" in text
    assert "secret notes" not in text
    assert "root:" not in text and "PATH=" not in text
