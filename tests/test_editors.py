"""The editor files (editors/): the TextMate grammar is valid and knows the grammar's keywords,
all of them and no others, so that highlighting cannot drift from the language; the VS Code
extension declares the language, carries the grammar and starts `warband lsp`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lark.lexer import PatternStr

from warband.lang.grammar import grammar

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
TM = VSCODE / "syntaxes" / "warband-rules.tmLanguage.json"


def tm_grammar() -> dict:
    return json.loads(TM.read_text(encoding="utf-8"))


def grammar_keywords() -> set[str]:
    """The words dsl/warband.lark writes in quotes, as Lark reads them (its terminals)."""
    return {t.pattern.value for t in grammar().terminals
            if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}


def keyword_groups() -> dict[str, list[str]]:
    """The words of each of the grammar's keyword-* patterns: \\b(?:word|word|...)\\b each."""
    found: dict[str, list[str]] = {}
    for name, rule in tm_grammar()["repository"].items():
        if name.startswith("keyword-"):
            m = re.fullmatch(r"\\b\(\?:([a-z|]+)\)\\b", rule["match"])
            assert m is not None, f"{name}: a keyword pattern is an alternation of words"
            found[name] = m.group(1).split("|")
    return found


def test_the_textmate_grammar_is_json_with_a_scope():
    tm = tm_grammar()
    assert tm["scopeName"] == "source.warband-rules" and "rules" in tm["fileTypes"]
    repository = tm["repository"]
    for include in tm["patterns"]:
        assert include["include"].removeprefix("#") in repository


def test_every_pattern_is_a_regular_expression():
    def patterns(rule: dict):
        for key in ("match", "begin", "end"):
            if key in rule:
                yield rule[key]
        for inner in rule.get("patterns", []):
            yield from patterns(inner)
    for rule in tm_grammar()["repository"].values():
        for pattern in patterns(rule):
            re.compile(pattern)   # TextMate's Oniguruma reads these as Python does


def test_the_keywords_are_the_grammars():
    language = grammar_keywords()
    highlighted = {word for words in keyword_groups().values() for word in words}
    assert highlighted == language, (f"missing from the TextMate grammar: "
                                     f"{sorted(language - highlighted)}; not keywords of the "
                                     f"language: {sorted(highlighted - language)}")


def test_a_keyword_is_in_one_group_only():
    seen: dict[str, str] = {}
    for name, words in keyword_groups().items():
        for word in words:
            assert word not in seen, f"{word}: in {seen[word]} and {name}"
            seen[word] = name


def test_the_vscode_extension_declares_the_language_and_starts_the_server():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "warband-rules" and language["extensions"] == [".rules"]
    assert (VSCODE / language["configuration"]).is_file()
    json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    (highlighting,) = package["contributes"]["grammars"]
    assert (VSCODE / highlighting["path"]).resolve() == TM.resolve()
    assert highlighting["scopeName"] == tm_grammar()["scopeName"]
    settings = package["contributes"]["configuration"]["properties"]
    assert settings["warband.server.command"]["default"] == "warband"
    assert settings["warband.server.args"]["default"] == ["lsp"]
    script = (VSCODE / package["main"]).read_text(encoding="utf-8")
    assert "server.command" in script and "server.args" in script
    assert "onLanguage:warband-rules" in package["activationEvents"]
