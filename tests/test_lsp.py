"""`warband lsp` driven by a real client over standard input and output (pytest-lsp): every
feature, on shipped files and on broken ones.

One server serves the module's tests (its start costs a second); each test opens documents of its
own, by URIs no other test uses. Diagnostics are published after the debounce (set to 10 ms
here, through the client's initialization options), so a test waits for them to arrive.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from warband import catalog

ROOT = Path(__file__).resolve().parents[1]
SSS = catalog.RULES_DIR / "super-simple-skirmish.rules"
SMART_FAITH = catalog.RULES_DIR / "smart-faith.rules"
SCENARIO = catalog.SCENARIO_DIR / "sss-standard-game.rules"
WARBAND = ROOT / "warbands" / "fogbound-tallow-guild.yaml"
# the server reads no compile cache and writes none (the tests' own rule, as in conftest.py)
ENV = {**os.environ, "WARBAND_NO_CACHE": "1", "NO_COLOR": "1"}
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "warband", "lsp"],
                            server_env=ENV)

pytestmark = pytest.mark.asyncio(loop_scope="module")


OFFERED: list[types.ServerCapabilities] = []   # what the server said it offers


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        initialization_options={"debounce": 10}))
    OFFERED[:] = [result.capabilities]
    yield
    await lsp_client.shutdown_session()


# ---- helpers -------------------------------------------------------------------------------------

_COUNTER = [0]


def fresh_uri(tmp: Path, name: str) -> str:
    """A URI no other test uses, of a file that need not exist."""
    _COUNTER[0] += 1
    return (tmp / f"{_COUNTER[0]}-{name}").as_uri()


async def published(client: LanguageClient, uri: str) -> Sequence[types.Diagnostic]:
    for _ in range(2000):
        if uri in client.diagnostics:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri}")


async def open_text(client: LanguageClient, uri: str, text: str,
                    language: str = "warband-rules") -> Sequence[types.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, language, 1, text)))
    return await published(client, uri)


async def change(client: LanguageClient, uri: str, version: int,
                 text: str) -> Sequence[types.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version, uri),
        [types.TextDocumentContentChangeWholeDocument(text)]))
    return await published(client, uri)


def at(text: str, needle: str, shift: int = 0) -> types.Position:
    """The position of the first `needle` in text (plus `shift` characters), 0-based."""
    i = text.index(needle) + shift
    return types.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def line_of(text: str, needle: str) -> int:
    return text.count("\n", 0, text.index(needle))


async def hover_text(client: LanguageClient, uri: str, position: types.Position) -> str:
    found = await client.text_document_hover_async(types.HoverParams(doc(uri), position))
    assert found is not None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


HOUSE = '''# My house rules: an Ogre for Super Simple Skirmish.
ruleset "my-house-rules"
  title "Super Simple Skirmish, with an Ogre"
  extends "super-simple-skirmish"

class Ogre { tier rare  traits Frenzied }
'''


# ---- the server itself ---------------------------------------------------------------------------

async def test_it_says_what_it_offers(client: LanguageClient):
    caps = OFFERED[0]
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.document_symbol_provider and caps.folding_range_provider
    assert caps.document_formatting_provider and caps.code_action_provider
    assert caps.completion_provider is not None
    assert "." in (caps.completion_provider.trigger_characters or [])
    assert caps.semantic_tokens_provider is not None
    legend = caps.semantic_tokens_provider.legend
    assert "class" in legend.token_types and "declaration" in legend.token_modifiers


# ---- diagnostics ---------------------------------------------------------------------------------

async def test_a_shipped_ruleset_and_scenario_have_no_diagnostics(client: LanguageClient):
    for path in (SSS, SMART_FAITH, SCENARIO):
        assert await open_text(client, path.as_uri(), path.read_text(encoding="utf-8")) == []


async def test_a_mistake_is_reported_with_its_code_place_and_hint(client, tmp_path):
    uri = fresh_uri(tmp_path, "my-house-rules.rules")   # never written: the text is enough
    found = await open_text(client, uri, HOUSE)
    assert [(d.code, d.severity, d.source) for d in found] == [
        ("E201", types.DiagnosticSeverity.Error, "warband")]
    d = found[0]
    assert d.message == "unknown trait 'Frenzied'"
    assert d.range == types.Range(types.Position(5, 31), types.Position(5, 39))
    hints = [r.message for r in d.related_information or []]
    assert hints == ["hint: did you mean 'Frenzy'?"]


async def test_diagnostics_follow_the_typing(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "typing.rules")
    assert [d.code for d in await open_text(client, uri, HOUSE)] == ["E201"]
    fixed = HOUSE.replace("Frenzied", "Frenzy")
    assert await change(client, uri, 2, fixed) == []
    half_typed = fixed + "\nclass Troll { tier rare  traits Cha"
    assert [d.code for d in await change(client, uri, 3, half_typed)] == ["E103"]
    assert await change(client, uri, 4, fixed + "\nclass Troll { tier rare  traits Charge }\n") \
        == []


async def test_a_syntax_error_is_reported_where_it_is(client: LanguageClient, tmp_path):
    text = SSS.read_text(encoding="utf-8")
    broken = text.replace("let result = dice", "let result = = dice")
    found = await open_text(client, fresh_uri(tmp_path, "broken.rules"), broken)
    assert [d.code for d in found] == ["E101"]
    assert found[0].range.start.line == line_of(broken, "let result = = dice")


async def test_an_unknown_base_is_reported_on_the_extends_line(client: LanguageClient, tmp_path):
    text = HOUSE.replace('extends "super-simple-skirmish"', 'extends "super-simple-skirmsh"')
    found = await open_text(client, fresh_uri(tmp_path, "base.rules"), text)
    assert [d.code for d in found] == ["E404"]
    assert found[0].range.start.line == 3
    assert "did you mean 'super-simple-skirmish'" in found[0].related_information[0].message


async def test_a_problem_in_the_base_is_shown_on_the_extends_line(client, tmp_path):
    # removing a trait the base's classes still carry: the compiler reports it in the base
    text = HOUSE.replace("class Ogre { tier rare  traits Frenzied }", "remove trait Frenzy")
    found = await open_text(client, fresh_uri(tmp_path, "removes.rules"), text)
    assert found and all(d.range.start.line == 3 for d in found)
    assert all(d.message.startswith("dsl/super-simple-skirmish.rules:") for d in found)
    places = [r.location.uri for d in found for r in d.related_information or []]
    assert SSS.resolve().as_uri() in places


async def test_a_warband_file_gets_validation_with_army_rules(client, tmp_path):
    text = WARBAND.read_text(encoding="utf-8")
    assert await open_text(client, WARBAND.as_uri(), text, "yaml") == []
    # the army rules (what a JSON Schema cannot say): one fighter per 50 crowns of the game
    path = WARBAND.parent / "never-written-guild.yaml"   # beside the shipped ones: `ruleset:`
    over = text.replace("points: 250", "points: 1000")
    found = await open_text(client, path.as_uri(), over, "yaml")
    assert "E706" in [d.code for d in found]


async def test_other_yaml_is_left_alone(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "compose.yaml")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, "yaml", 1, "services:\n  web: {image: nginx}\n")))
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri)))
    await asyncio.sleep(0.2)
    assert uri not in client.diagnostics and not symbols


async def test_a_burst_of_keystrokes_is_answered_for_the_last(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "burst.rules")
    fixed = HOUSE.replace("Frenzied", "Frenzy")
    assert await open_text(client, uri, fixed) == []
    client.diagnostics.pop(uri, None)
    for version in range(2, 30):   # typed faster than the debounce: one compile, of the last
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version, uri),
            [types.TextDocumentContentChangeWholeDocument(fixed + "#" * version)]))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(30, uri),
        [types.TextDocumentContentChangeWholeDocument(HOUSE)]))
    assert [d.code for d in await published(client, uri)] == ["E201"]


# ---- files from strangers ---------------------------------------------------------------------

async def test_a_file_may_not_extend_what_the_command_line_would_not_read(client, tmp_path):
    for base, refused in (("/etc/passwd", "never an absolute path"),
                          ("../notes.txt", "only rules files")):
        text = HOUSE.replace('"super-simple-skirmish"', f'"{base}"')
        found = await open_text(client, fresh_uri(tmp_path, "hostile.rules"), text)
        assert [d.code for d in found] == ["E435"], found
        assert refused in found[0].related_information[0].message


async def test_a_file_over_the_size_limit_is_refused_not_compiled(client, tmp_path):
    from warband.limits import MAX_RULES_BYTES
    text = HOUSE + "#" * MAX_RULES_BYTES
    found = await open_text(client, fresh_uri(tmp_path, "huge.rules"), text)
    assert [d.code for d in found] == ["E403"]


async def test_a_strangers_words_are_shown_as_text(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "words.rules")
    text = ('ruleset "words"\nstat Might: 1..10 "<img src=x onerror=alert(1)> \u202eevil"\n'
            'define m(f: fighter) = f.Might\n')
    await open_text(client, uri, text)
    shown = await hover_text(client, uri, at(text, "f.Might", 3))
    outside = "".join(shown.split("```")[::2])   # what is not in a code block is markdown
    assert "<" not in outside and "\u202e" not in shown and "\\u202e" in shown
    yaml = WARBAND.read_text(encoding="utf-8").replace(
        "Master Ambrose Wick", "<b>Master</b> **Wick**")
    uri = (WARBAND.parent / "never-written-words.yaml").as_uri()
    await open_text(client, uri, yaml, "yaml")
    shown = await hover_text(client, uri, at(yaml, "class: Guildmaster", 8))
    assert "&lt;b&gt;Master&lt;/b&gt; \\*\\*Wick\\*\\*" in shown


async def test_a_yaml_file_that_stops_being_a_warband_loses_its_diagnostics(client, tmp_path):
    uri = (WARBAND.parent / "never-written-stops.yaml").as_uri()
    text = WARBAND.read_text(encoding="utf-8").replace("class: Duelist", "class: Duellist")
    assert [d.code for d in await open_text(client, uri, text, "yaml")] == ["E624"]
    assert await change(client, uri, 2, "services: {}\n") == []


# ---- hover ---------------------------------------------------------------------------------------

async def test_hover_shows_the_declaration_and_its_description(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    shown = await hover_text(client, SSS.as_uri(), at(text, "f.Might *", 3))
    assert "`Might`: a stat" in shown
    assert "stat Might: 1..100" in shown and "The one stat" in shown
    shown = await hover_text(client, SSS.as_uri(), at(text, "let result = dice", 14))
    assert "`dice`: a parameter of `fated_roll`: `dice`" in shown


async def test_hover_in_house_rules_shows_what_the_base_declares(client: LanguageClient):
    text = SMART_FAITH.read_text(encoding="utf-8")
    await open_text(client, SMART_FAITH.as_uri(), text)
    shown = await hover_text(client, SMART_FAITH.as_uri(), at(text, "tier human", 6))
    assert "`human`: a tier" in shown and "from `dsl/smart.rules`" in shown
    shown = await hover_text(client, SMART_FAITH.as_uri(), at(text, "override class Knight", 16))
    assert "overrides the base's" in shown


async def test_hover_on_a_word_of_the_language_and_on_nothing(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    assert "a type of the language" in await hover_text(client, SSS.as_uri(),
                                                          at(text, "(f: fighter)", 4))
    nothing = await client.text_document_hover_async(
        types.HoverParams(doc(SSS.as_uri()), types.Position(0, 3)))   # a comment
    assert nothing is None


async def test_hover_on_a_fighters_class_shows_its_card(client: LanguageClient):
    text = WARBAND.read_text(encoding="utf-8")
    await open_text(client, WARBAND.as_uri(), text, "yaml")
    shown = await hover_text(client, WARBAND.as_uri(), at(text, "class: Guildmaster", 8))
    assert "**Master Ambrose Wick** · Guildmaster (leader) · 90 points" in shown
    assert "| Skill | Grit | Renown | Purse |" in shown and "actions: fight" in shown


# ---- definition, references, highlights ----------------------------------------------------------

async def test_definition_leads_into_the_base_a_house_file_extends(client: LanguageClient):
    text = SMART_FAITH.read_text(encoding="utf-8")
    await open_text(client, SMART_FAITH.as_uri(), text)
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(SMART_FAITH.as_uri()), at(text, "tier human", 6)))
    smart = catalog.RULES_DIR / "smart.rules"
    assert [loc.uri for loc in found] == [smart.resolve().as_uri()]
    base = smart.read_text(encoding="utf-8")
    assert found[0].range.start.line == line_of(base, "tier human")
    # the extends line leads to the base's file; an override's name to what it overrides
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(SMART_FAITH.as_uri()), at(text, 'extends "smart"', 10)))
    assert [loc.uri for loc in found] == [smart.resolve().as_uri()]
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(SMART_FAITH.as_uri()), at(text, "override class Knight", 16)))
    assert found[0].range.start.line == line_of(base, "class Knight")


async def test_definition_of_a_parameter_and_of_a_warband_fighters_class(client):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(SSS.as_uri()), at(text, "let result = dice", 14)))
    assert found[0].range.start == at(text, "dice: dice")
    yaml = WARBAND.read_text(encoding="utf-8")
    await open_text(client, WARBAND.as_uri(), yaml, "yaml")
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(WARBAND.as_uri()), at(yaml, "class: Guildmaster", 8)))
    fogbound = (catalog.RULES_DIR / "fogbound.rules")
    assert [loc.uri for loc in found] == [fogbound.resolve().as_uri()]
    assert found[0].range.start.line == line_of(fogbound.read_text(encoding="utf-8"),
                                                "class Guildmaster")


async def test_references_across_the_base_and_open_house_rules(client: LanguageClient, tmp_path):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    house_uri = fresh_uri(tmp_path, "refs.rules")
    await open_text(client, house_uri, HOUSE.replace("Frenzied", "Frenzy"))
    found = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=True), text_document=doc(SSS.as_uri()),
        position=at(text, "trait Frenzy", 7)))
    where = sorted((loc.uri, loc.range.start.line) for loc in found)
    sss = SSS.resolve().as_uri()
    assert (sss, line_of(text, "trait Frenzy")) in where            # the declaration
    assert (sss, line_of(text, "class Berserker")) in where        # a use in the base
    assert (house_uri, 5) in where                                  # a use in the open house file
    without = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=False),
        text_document=doc(SSS.as_uri()), position=at(text, "trait Frenzy", 7)))
    assert len(without) == len(found) - 1


async def test_highlights_mark_writes_and_reads(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    found = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        doc(SSS.as_uri()), at(text, "let result = dice", 4)))
    writes = [h.range.start.line for h in found if h.kind == types.DocumentHighlightKind.Write]
    first = line_of(text, "let result = dice")
    sets = [i for i, line in enumerate(text.split("\n")) if "set result " in line
            and i < line_of(text, "procedure attack")]
    assert writes == [first, *sets] and len(sets) == 3
    assert len(found) > len(writes)


async def test_hover_and_definition_on_the_extends_line(client: LanguageClient):
    text = SMART_FAITH.read_text(encoding="utf-8")
    await open_text(client, SMART_FAITH.as_uri(), text)
    shown = await hover_text(client, SMART_FAITH.as_uri(), at(text, 'extends "smart"', 10))
    assert shown.startswith("extends `smart`: SMART") and "`dsl/smart.rules`" in shown


async def test_definition_of_a_warbands_ruleset_is_its_rules_file(client: LanguageClient):
    yaml = WARBAND.read_text(encoding="utf-8")
    await open_text(client, WARBAND.as_uri(), yaml, "yaml")
    found = await client.text_document_definition_async(types.DefinitionParams(
        doc(WARBAND.as_uri()), at(yaml, "ruleset: fogbound", 11)))
    assert [loc.uri for loc in found] == [(catalog.RULES_DIR / "fogbound.rules").resolve()
                                          .as_uri()]


# ---- quick fixes ---------------------------------------------------------------------------------

async def test_a_did_you_mean_is_a_quick_fix(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "fix.rules")
    found = await open_text(client, uri, HOUSE)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        doc(uri), found[0].range, types.CodeActionContext(list(found))))
    (fix,) = actions
    assert fix.title == "Change 'Frenzied' to 'Frenzy'" and fix.is_preferred
    assert list(fix.edit.changes[uri]) == [types.TextEdit(found[0].range, "Frenzy")]
    yaml = WARBAND.read_text(encoding="utf-8").replace("class: Duelist", "class: Duellist")
    uri = (WARBAND.parent / "never-written-duellist.yaml").as_uri()
    found = await open_text(client, uri, yaml, "yaml")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        doc(uri), found[0].range, types.CodeActionContext(list(found))))
    assert [a.title for a in actions] == ["Change 'Duellist' to 'Duelist'"]


# ---- completion ----------------------------------------------------------------------------------

PROCEDURE = '''ruleset "completion"
stat Might: 1..10 "how strong"
counter Fate on side "tokens"
trait Brave "never runs"
procedure test(f: fighter, bonus: number) -> number {
  let total = f.Might + bonus
  return total
}
'''


async def complete(client: LanguageClient, uri: str, position: types.Position,
                   ) -> list[types.CompletionItem]:
    found = await client.text_document_completion_async(types.CompletionParams(
        doc(uri), position))
    assert isinstance(found, types.CompletionList)
    return found.items


async def test_completion_of_statements_and_names_in_scope(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "complete.rules")
    text = PROCEDURE.replace("  return total", "  re\n  return total")
    await open_text(client, uri, text)
    items = await complete(client, uri, at(text, "  re\n", 4))
    labels = {i.label: i for i in items}
    assert {"return", "let", "if", "set", "choose"} <= set(labels)
    assert "stat" not in labels   # a declaration cannot start inside a procedure
    assert {"total", "bonus", "f", "Might"} <= set(labels)
    assert labels["Might"].detail == "a stat"


async def test_completion_of_fields_after_a_dot(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "fields.rules")
    text = PROCEDURE.replace("f.Might + bonus", "f. + bonus")
    await open_text(client, uri, text)
    items = {i.label: i for i in await complete(client, uri, at(text, "f. + bonus", 2))}
    assert {"Might", "Brave", "side", "name"} <= set(items)
    assert "Fate" not in items                       # a side's, not a fighter's
    assert items["Might"].documentation.value == "how strong"
    text = PROCEDURE.replace("let total = f.Might + bonus", "set f.side.")
    await change(client, uri, 2, text)
    items = {i.label: i for i in await complete(client, uri, at(text, "set f.side.", 11))}
    assert "Fate" in items and "Might" not in items


async def test_completion_where_a_declaration_starts(client: LanguageClient, tmp_path):
    uri = fresh_uri(tmp_path, "top.rules")
    text = PROCEDURE + "\ncl"
    await open_text(client, uri, text)
    labels = {i.label for i in await complete(client, uri, types.Position(9, 2))}
    assert {"class", "stat", "procedure", "army"} <= labels and "let" not in labels
    text = 'ruleset "x"\n  extends "sm'
    await change(client, uri, 2, text)
    labels = {i.label for i in await complete(client, uri, types.Position(1, 13))}
    assert {"smart", "super-simple-skirmish"} <= labels
    text = PROCEDURE + "\n# cl"
    await change(client, uri, 3, text)
    assert not await complete(client, uri, types.Position(9, 4))   # in a comment


# ---- outline, folding, colours, formatting -------------------------------------------------------

async def test_document_symbols_outline_the_file(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        doc(SSS.as_uri())))
    by_name = {s.name: s for s in found}
    assert by_name["Might"].kind == types.SymbolKind.Property
    assert by_name["Soldier"].kind == types.SymbolKind.Class
    assert by_name["army"].kind == types.SymbolKind.Namespace
    assert [c.name for c in by_name["attack_result"].children or []] == ["kill", "stun", "none"]
    # a house file's outline is its own declarations, not its base's
    house = SMART_FAITH.read_text(encoding="utf-8")
    await open_text(client, SMART_FAITH.as_uri(), house)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        doc(SMART_FAITH.as_uri())))
    assert [s.name for s in found][:2] == ["Faithful", "Infantry"]


async def test_folding_ranges_cover_blocks_declarations_and_comments(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    found = await client.text_document_folding_range_async(types.FoldingRangeParams(
        doc(SSS.as_uri())))
    starts = {r.start_line: r for r in found}
    assert starts[0].kind == types.FoldingRangeKind.Comment
    army = line_of(text, "\narmy ") + 1
    assert army in starts and starts[army].end_line > army


async def test_semantic_tokens_colour_names_by_what_they_name(client: LanguageClient):
    text = SSS.read_text(encoding="utf-8")
    await open_text(client, SSS.as_uri(), text)
    legend = OFFERED[0].semantic_tokens_provider.legend
    found = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        doc(SSS.as_uri())))
    tokens = {}
    line = column = 0
    data = found.data
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[i:i + 5]
        line, column = line + delta_line, (column + delta_start if delta_line == 0
                                           else delta_start)
        word = text.split("\n")[line][column:column + length]
        mods = {m for b, m in enumerate(legend.token_modifiers) if bits & (1 << b)}
        tokens[(line, column)] = (word, legend.token_types[kind], mods)
    might = at(text, "f.Might *", 2)
    assert tokens[(might.line, might.character)] == ("Might", "property", set())
    soldier = at(text, "class Soldier", 6)
    assert tokens[(soldier.line, soldier.character)] == ("Soldier", "class", {"declaration"})
    fighter = at(text, "(f: fighter)", 4)
    assert tokens[(fighter.line, fighter.character)] == ("fighter", "type", {"defaultLibrary"})


async def test_formatting_a_warband_file_and_not_a_rules_file(client, tmp_path):
    text = WARBAND.read_text(encoding="utf-8")
    shuffled = text.replace("  - name: Isolde Thorne\n    class: Duelist",
                            "  - class: Duelist\n    name: Isolde Thorne")
    uri = (WARBAND.parent / "never-written-shuffled.yaml").as_uri()
    await open_text(client, uri, shuffled, "yaml")
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        doc(uri), types.FormattingOptions(2, True)))
    assert len(edits) == 1 and edits[0].new_text == text
    await open_text(client, SSS.as_uri(), SSS.read_text(encoding="utf-8"))
    assert not await client.text_document_formatting_async(types.DocumentFormattingParams(
        doc(SSS.as_uri()), types.FormattingOptions(2, True)))


# ---- a client that shows no related information --------------------------------------------------

PLAIN = ClientServerConfig(server_command=[sys.executable, "-m", "warband", "lsp"],
                           server_env=ENV)


@pytest_lsp.fixture(scope="module", config=PLAIN)
async def plain_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), initialization_options={"debounce": 0}))
    yield
    await lsp_client.shutdown_session()


async def test_without_related_information_the_hint_is_in_the_message(plain_client, tmp_path):
    found = await open_text(plain_client, fresh_uri(tmp_path, "plain.rules"), HOUSE)
    assert found[0].message == "unknown trait 'Frenzied'\nhint: did you mean 'Frenzy'?"
    assert not found[0].related_information


# ---- a client that counts in UTF-8 -------------------------------------------------------------

UTF8 = ClientServerConfig(server_command=[sys.executable, "-m", "warband", "lsp"],
                          server_env=ENV)
ENCODING: list[str] = []


@pytest_lsp.fixture(scope="module", config=UTF8)
async def utf8_client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf8])),
        initialization_options={"debounce": 0}))
    ENCODING[:] = [result.capabilities.position_encoding]
    yield
    await lsp_client.shutdown_session()


async def test_places_are_counted_in_the_units_the_client_chose(utf8_client, tmp_path):
    assert ENCODING == [types.PositionEncodingKind.Utf8]
    text = HOUSE.replace("class Ogre {", 'class Ogre "Ogré 😀" {')
    found = await open_text(utf8_client, fresh_uri(tmp_path, "utf8.rules"), text)
    line = text.split("\n")[5]
    start = len(line[:line.index("Frenzied")].encode("utf-8"))
    assert found[0].range == types.Range(types.Position(5, start), types.Position(5, start + 8))
