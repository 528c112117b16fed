"""Help covers how to play and every company, officer, tile and contract."""

from __future__ import annotations

from bot.commands.help import HOW_TO_PLAY, find_topics, help_text, topics
from bot.rules.content import load_content


def test_every_piece_of_content_has_a_topic_that_fits_a_message() -> None:
    """One topic per company, officer, tile and contract, each under 2000 characters."""
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
    assert all(len(t.text) < 2000 and 1 <= len(t.name) <= 100 for t in topics().values())


def test_lookup_by_key_name_or_words() -> None:
    """Autocomplete values, names and unique fragments all find their topic."""
    assert help_text(None) == HOW_TO_PLAY
    assert "Italy" in (help_text("company:italy") or "")
    assert help_text("Company: Italy") == help_text("company:italy")
    assert help_text("no such thing at all") is None
    assert [t.key for t in find_topics("wilhelm")] == ["officer:wilhelm_adler"]
    assert len(find_topics("")) == 25
