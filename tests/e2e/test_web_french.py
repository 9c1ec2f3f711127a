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
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":', re.M)


def french_entries() -> set[str]:
    source = (WEB / "i18n.js").read_text()
    french = source[source.index("const FR = {"):source.index("const DICTIONARIES")]
    return set(ENTRY.findall(french)) | set(re.findall(r'[{,]\s*"((?:[^"\\]|\\.)*)":', french))


def test_every_string_a_page_translates_has_its_french():
    entries = french_entries()
    missing = {}
    for module in sorted(WEB.glob("*.js")):
        for words in CALL.findall(module.read_text()):
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
