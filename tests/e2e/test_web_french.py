"""The web client speaks French wherever it speaks English: every string a module hands to
`t()` (clients/web/i18n.js) has its French, and the French dictionary holds no entry that
no module uses any longer. (The pages in French are checked in a browser by
test_web_pages.py and test_web_social.py.)"""

from __future__ import annotations

import re

from tests.conftest import ROOT

WEB = ROOT / "clients" / "web"
#: t("…") with a literal: the words of the page (a JS string, escapes kept as written)
CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
#: account.js's field("id", "Label", …): a label it hands to t()
FIELD = re.compile(r'\bfield\(\s*"[^"]*",\s*"((?:[^"\\]|\\.)*)"')
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":', re.M)


def french_entries() -> set[str]:
    source = (WEB / "i18n.js").read_text()
    french = source[source.index("const FR = {"):source.index("const DICTIONARIES")]
    return set(ENTRY.findall(french)) | set(re.findall(r'[{,]\s*"((?:[^"\\]|\\.)*)":', french))


def test_every_string_a_page_translates_has_its_french():
    entries = french_entries()
    missing = {}
    for module in sorted(WEB.glob("*.js")):
        for words in CALL.findall(module.read_text()) + FIELD.findall(module.read_text()):
            if words not in entries:
                missing.setdefault(module.name, []).append(words)
    assert not missing, f"no French for: {missing}"


def test_the_pages_use_t_for_their_headings_and_buttons():
    """A heading, a button or a label written as a bare English literal is not translated:
    each goes through t()."""
    bare = re.compile(r'el\("(?:h2|h3|button|legend|summary|label)", \{[^{}]*\}, "([A-Z][^"]+)"\)')
    found = {module.name: bare.findall(module.read_text()) for module in sorted(WEB.glob("*.js"))}
    assert not {name: words for name, words in found.items() if words}, found


def test_every_option_a_title_describes_has_its_french_help():
    """The new-game form shows each option's help (the server's options_schema, in English);
    in French, clients/web/i18n.js's OPTION_HELP_FR says it, for every option of every title."""
    from domain.registry import titles

    source = (WEB / "i18n.js").read_text()
    table = source[source.index("const OPTION_HELP_FR = {"):]
    french = dict(re.findall(r'^\s*"(\w+\.\w+)": "((?:[^"\\]|\\.)+)",', table, re.M))
    described = {f"{title_id}.{key}" for title_id, game in titles().items()
                 for key, prop in game.options_schema().get("properties", {}).items() if prop.get("description")}
    assert described and described <= set(french), sorted(described - set(french))
    assert set(french) <= described, sorted(set(french) - described)  # none left for a removed option


def _humanized(type_name: str) -> str:
    """words.js's humanize(): "CardPlaced" is "Card placed"."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", type_name.split(".")[-1]).lower()
    return words[0].upper() + words[1:]


def test_every_field_and_every_event_of_the_move_log_has_its_french():
    """The move log says each event by its type and its fields (words.js's describeEvent),
    and a move with no template of its own by its type and fields: in French, every field
    of every title's commands and events has its word (words.js's FIELDS_FR), and every
    type its French (i18n.js) — "x 3, y 2" is "colonne 3, rangée 2"."""
    import dataclasses

    from domain.common.table import TABLE_EVENTS
    from domain.registry import titles

    words = (WEB / "words.js").read_text()
    table = words[words.index("export const FIELDS_FR = {"):words.index("function fieldName")]
    fields_fr = set(re.findall(r"(\w+): \"", table))
    french_templates = words[words.index("const FR = {"):words.index("function frList")]
    entries = french_entries()
    missing_fields, missing_types = set(), set()
    for game in titles().values():
        for kind in (*game.event_types, *TABLE_EVENTS, *game.command_types):
            missing_fields |= {f.name for f in dataclasses.fields(kind)} - fields_fr
        for kind in (*game.event_types, *TABLE_EVENTS):
            if _humanized(kind.TYPE) not in entries:
                missing_types.add(_humanized(kind.TYPE))
        for kind in game.command_types:
            if f"{kind.__name__}:" not in french_templates and _humanized(kind.__name__) not in entries:
                missing_types.add(_humanized(kind.__name__))
    assert not missing_fields, sorted(missing_fields)
    assert not missing_types, sorted(missing_types)


def test_every_option_name_and_value_of_the_new_game_form_has_its_french():
    """The new-game form names each option of options_schema and its values (home.js's
    optionFields: t() of the name or value, underscores as spaces): each has its French."""
    from domain.registry import titles

    entries = french_entries()
    missing = set()
    for title_id, game in titles().items():
        for key, prop in game.options_schema().get("properties", {}).items():
            values = prop.get("enum") or (prop.get("items") or {}).get("enum") or []
            for words in [key, *values]:
                said = str(words).replace("_", " ")
                if said not in entries and not said.isdigit():
                    missing.add(f"{title_id}: {said}")
    assert not missing, sorted(missing)
