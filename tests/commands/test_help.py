"""Help covers how to play and every company, officer, tile and contract."""

from __future__ import annotations

from bot.commands.help import HOW_TO_PLAY, find_topics, help_text, topics
from bot.commands.replies import split_message
from bot.rules.catalogue import CATALOGUE
from bot.rules.content import load_content
from bot.rules.expansions.leeghwater import tables as lw_tables


def test_every_piece_of_content_has_a_topic_that_fits_a_message() -> None:
    """One topic per company, officer, tile and contract; a text over 2,000 characters goes out
    as whole messages of whole lines (never cut)."""
    content = load_content()
    keys = set(topics())
    for company in content.companies:
        assert f"company:{company}" in keys
    for officer in content.officers:
        assert f"officer:{officer}" in keys
    for tile in content.tiles:
        assert f"tile:{tile}" in keys
    for contract in content.contracts:
        assert f"contract:{contract}" in keys
    assert all(1 <= len(t.name) <= 100 for t in topics().values())
    for topic in topics().values():
        parts = split_message(topic.text)
        assert all(len(p) <= 2000 for p in parts) and "\n".join(parts) == topic.text


def test_how_to_play_is_sent_whole() -> None:
    """How to play is over 2,000 characters: two messages, its last line in the second."""
    parts = split_message(HOW_TO_PLAY)
    assert len(HOW_TO_PLAY) > 2000 and len(parts) == 2
    assert parts[1].endswith(HOW_TO_PLAY.splitlines()[-1])


def test_a_line_over_the_limit_is_split_between_words() -> None:
    words = " ".join(f"word{i}" for i in range(600))
    parts = split_message(words)
    assert all(len(p) <= 2000 for p in parts) and " ".join(parts).split() == words.split()


def test_lookup_by_key_name_or_words() -> None:
    """Autocomplete values, names and unique fragments all find their topic."""
    assert help_text(None) == HOW_TO_PLAY
    assert "Italy" in (help_text("company:italy") or "")
    assert help_text("Company: Italy") == help_text("company:italy")
    assert help_text("no such thing at all") is None
    assert [t.key for t in find_topics("wilhelm")] == ["officer:wilhelm_adler"]
    assert len(find_topics("")) == 25


def test_the_leeghwater_project_has_topics_that_autocomplete_finds() -> None:
    """The expansion, each External Work and Private Building, its company, officers, tiles."""
    content = CATALOGUE.content()
    keys = set(topics())
    assert {f"work:{w}" for w in lw_tables.WORKS.of(content)} <= keys
    assert {f"building:{b}" for b in lw_tables.BUILDINGS.of(content)} <= keys
    assert {f"bonus:{b}" for b in content.bonus_tiles} <= keys
    lwp = content.of("leeghwater")["setup"]
    assert "The Leeghwater Project" in (help_text("leeghwater") or "")
    assert "expansions:leeghwater" in (help_text("leeghwater") or "")
    new_pieces = [
        f"company:{lwp['company_added']}",
        *(f"officer:{o}" for o in lwp["officers_added"]),
        *(f"tile:{t.id}" for t in content.tiles.values() if t.set == "leeghwater"),
        *(f"bonus:{b}" for b in lwp["bonus_tiles_added"]),
    ]
    for key in new_pieces:
        assert "The Leeghwater Project" in topics()[key].text, key
    assert "The Leeghwater Project" not in topics()["company:usa"].text
    # What people type finds the topic.
    assert [t.key for t in find_topics("netherlands")] == ["company:netherlands"]
    assert [t.key for t in find_topics("leslie")][:1] == ["officer:leslie_spencer"]
    assert "building:loan_agency" in [t.key for t in find_topics("loan agency")]
    assert [t.key for t in find_topics("external work c3")] == ["work:C3"]
    assert "tile:basic_building" in [t.key for t in find_topics("basic_building")]
    cofferdam = help_text("Private Building: Cofferdam") or ""
    assert "2 excavators + 1 mixer" in cofferdam and "3 VP" in cofferdam
    assert "1 excavator" in (help_text("work:A1") or "")


def test_colorado_and_nile_have_topics_that_autocomplete_finds() -> None:
    """Overviews, every Bridge and settlement tile, irrigation, tokens, sources, buildings."""
    content = load_content()
    keys = set(topics())
    assert {f"bridge:{r['id']}" for r in content.of("colorado")["bridge_tile"]} <= keys
    assert {f"settlement:{r['id']}" for r in content.of("colorado")["settlement_tile"]} <= keys
    assert {"settlements:A", "settlements:B", "settlements:C"} <= keys
    assert {f"token:{r['id']}" for r in content.of("nile")["irrigation_token"]} <= keys
    types = {r["id"] for r in content.of("nile")["irrigation_effect_type"]}
    assert {f"tokens:{t}" for t in types} <= keys
    assert {"colorado", "nile", "irrigation", "irrigation_scoring", "river_sources"} <= keys
    # The pieces other expansions add to a game's content have topics too.
    for key in ("building:heliport", "building:pumping_station", "work:C7", "contract:416"):
        assert key in keys, key
    assert "The Nile Affair" in topics()["contract:416"].text
    assert "or 7 VP" in topics()["contract:416"].text  # a choice, in words
    assert "The Colorado Connection" in topics()["building:heliport"].text
    assert "3 credits to the bank" in (help_text("colorado") or "")
    assert "RS8: 2, 0, 1, 0" in (help_text("river_sources") or "")
    assert "SA1" in (help_text("settlements:A") or "")
    # What people type finds the topic.
    assert [t.key for t in find_topics("bridge tile br10")] == ["bridge:BR10"]
    assert "building:pumping_station" in [t.key for t in find_topics("pumping")]
    assert [t.key for t in find_topics("river source")] == ["river_sources"]
    assert "tokens:water" in [t.key for t in find_topics("irrigation tokens water")]
    assert "settlement:SC8" in [t.key for t in find_topics("sc8")]
    assert "The Colorado Connection" in HOW_TO_PLAY and "The Nile Affair" in HOW_TO_PLAY


def test_the_automa_topic_says_which_expansions_take_automas() -> None:
    """Asked of each expansion's own refusal: the topic follows the packages, never a list."""
    text = help_text("automa") or ""
    assert text.startswith("**Automa opponents**")
    assert "also with The Leeghwater Project;" in text
    assert "The Colorado Connection and The Nile Affair are played by people only." in text
    assert len(text) < 2000
