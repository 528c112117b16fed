"""The text check: what a player reads must be words, not ids, and fit Discord.

`check_text` reads one text and returns its findings: internal ids (snake_case tokens,
`kind:id` sources, lower-case company or officer ids, automa card numbers, Python reprs), a
number without its unit or reason, a doubled refusal, a wrong plural. `check_message` also
checks a Discord message's limits (content, embeds, buttons, selects, choices) and reads every
text in it. Code spans (`` `…` ``) hold what a player types (commands, notation) and the
player's own words come back quoted ('…'): neither is read for ids. Used by
tests/texts/test_texts.py and bench/texts.py.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.rules.catalogue import CATALOGUE

MAX_CONTENT = 2000
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBEDS_TEXT = 6000
MAX_BUTTON_LABEL = 80
MAX_SELECT_TEXT = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100

#: Every kind of finding, in report order.
KINDS = (
    "snake_case id",
    "kind:id source",
    "company or officer id",
    "card number",
    "python repr",
    "number without unit",
    "doubled refusal",
    "wrong plural",
    "cut text",
    "over a limit",
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one text: its kind, the offending part, where it was read."""

    kind: str
    what: str
    where: str
    text: str

    def __str__(self) -> str:
        excerpt = self.text if len(self.text) < 300 else self.text[:300] + "…"
        return f"[{self.kind}] {self.what!r} in {self.where}: {excerpt!r}"


# What players type and what they typed: not read for ids.
_CODE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"(?<![\w'])'[^'\n]{1,80}'(?![\w'])")
# A web address, a custom emoji or mention, a Discord timestamp (each reader sees a date in
# their own time zone), a file's path.
_SKIPPED = re.compile(
    r"https?://\S+|<a?:\w+:\d+>|<[@#][!&]?\d+>|<t:\d+(?::[tTdDfFR])?>|(?<!\S)/[\w./-]+/[\w.-]+"
)

_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_KIND_ID = re.compile(r"\b([a-z][a-z-]*):([A-Za-z0-9_][\w-]*)")
# An automa card's number, told as what it played (the pictures show "next card 7").
_CARD = re.compile(r"\b(?:played|placing by|by) cards? (\d+)\b")
_REPRS = (
    re.compile(r"[\[{(]'[^']*'[,:)\]]"),  # ['a', …], {'a': …}, ('a',)
    re.compile(r"<[A-Za-z_.]+ object at 0x"),
    re.compile(r"\b[A-Z][A-Za-z]+\((?:[a-z_]+=|\))"),  # Config(path=…), Foo()
    re.compile(r"\b(?:None|True|False)\b"),
    re.compile(r"\{[a-z_]*\}"),  # an unfilled placeholder
)
# A signed number must say what it counts; a VP change must say why.
_SIGNED = re.compile(r"(?<![\w/.])(?:(\w+) )?([+\-−]\d+)(?!\d)(?:\s*([A-Za-z]+|⚡))?")
_VP_ALONE = re.compile(r"(?:^|[•:]\s*)[+\-−]\d+ VP\s*$", re.MULTILINE)
#: A signed number after these words is a bonus of theirs ("produce +2").
BONUS_OF = {"produce", "production", "with", "bonus"}
_REFUSED_TWICE = re.compile(r"(['`“])(.+?)\1 was refused: \1\2\1")
_PLURAL_S = re.compile(r"\(s\)|\(es\)")
#: Words whose count must agree: "1 credit", "2 credits".
COUNTED = (
    "credit", "contract", "excavator", "mixer", "engineer", "drop", "player", "turn", "round",
    "game", "automa", "structure", "dam", "conduit", "powerhouse", "base",
    "elevation", "tile", "option", "company", "companies", "seat", "move", "choice", "card",
    "point", "frame", "section", "segment", "win", "record", "reminder", "hour", "day",
    "minute", "second", "page",
)  # fmt: skip
_ONE_PLURAL = re.compile(r"(?<![\d.,/+-])\b1 (" + "|".join(COUNTED) + r")(s|es)\b")
_MANY_SINGULAR = re.compile(
    r"(?<![\d.,/+-])\b(0|[2-9]|[1-9]\d+) ("
    + "|".join(c for c in COUNTED if c != "companies")
    + r")\b(?![-'’])"
)
#: What a signed number may count (a word after it); VP and energy and the rest.
UNITS = {
    "vp", "credit", "credits", "energy", "excavator", "excavators", "mixer", "mixers",
    "engineer", "engineers", "drop", "drops", "exc", "mix", "cr", "c", "e", "m", "x",
    "machinery", "machineries", "steps", "step", "section", "sections", "space", "spaces",
    "segment", "segments", "eng", "round", "rounds", "point", "points", "to", "⚡",
    "irrigation", "irrig",  # "+2 irrigation points", the short "+2 irrig."
}  # fmt: skip
_CUT = re.compile(r"\w…$|\w\.\.\.$")


@cache
def _ids() -> tuple[frozenset[str], frozenset[str]]:
    """Company ids and officer ids of every content set, and the source keys."""
    content = CATALOGUE.game_content(CATALOGUE.content(), tuple(CATALOGUE.expansions))
    return frozenset(content.companies), frozenset(content.sources)


@cache
def _company_id() -> re.Pattern[str]:
    companies, _ = _ids()
    return re.compile(r"\b(" + "|".join(sorted(companies)) + r")\b")


def readable(text: str) -> str:
    """The text without what a player types or typed (code spans, quoted input), web
    addresses and mentions."""
    return _SKIPPED.sub(" ", _QUOTED.sub(" ", _CODE.sub(" ", text)))


def check_text(text: str, where: str) -> list[Finding]:
    """Every finding in one text a player reads."""
    found: list[Finding] = []

    def add(kind: str, what: str) -> None:
        found.append(Finding(kind, what, where, text))

    words = readable(text)
    for m in _SNAKE.finditer(words):
        add("snake_case id", m.group(0))
    _, sources = _ids()
    for m in _KIND_ID.finditer(words):
        add("kind:id source", m.group(0))
    for token in re.findall(r"\b[a-z]+(?:-[a-z]+)+\b", words):
        if token in sources:
            add("kind:id source", token)
    for m in _company_id().finditer(words):
        add("company or officer id", m.group(0))
    for m in _CARD.finditer(words):
        add("card number", m.group(0))
    for pattern in _REPRS:
        for m in pattern.finditer(words):
            add("python repr", m.group(0))
    for m in _SIGNED.finditer(words):
        before, unit = (m.group(1) or "").lower(), (m.group(3) or "").lower()
        # "34 (+34)": the change of the number before it, in its unit (a rating).
        of_number = re.search(r"\d \($", words[: m.start(2)]) is not None
        # "−33 (−33)": a value (a rating below zero) with its change.
        of_number |= re.match(r" \([+\-−]\d+\)", words[m.end(2) :]) is not None
        if unit not in UNITS and before not in BONUS_OF and not of_number:
            add("number without unit", m.group(2) + (f" {unit}" if unit else ""))
    for m in _VP_ALONE.finditer(words):
        add("number without unit", m.group(0).strip() + " (no reason)")
    for m in _REFUSED_TWICE.finditer(text):
        add("doubled refusal", m.group(0))
    for line in text.splitlines():
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", line) if len(s.strip()) > 12]
        for s, count in Counter(sentences).items():
            if count > 1:
                add("doubled refusal", s)
    for m in _PLURAL_S.finditer(words):
        add("wrong plural", m.group(0))
    for m in _ONE_PLURAL.finditer(words):
        add("wrong plural", m.group(0))
    for m in _MANY_SINGULAR.finditer(words):
        add("wrong plural", m.group(0))
    return found


#: Lengths a text is cut at ("text[:2000]", "[:1990]", "[:1900]") rather than split.
CUT_AT = (MAX_CONTENT, 1990, 1900)
#: A line that stands for left-out lines ("…"): the text lost its middle to fit.
_ELIDED = re.compile(r"^\s*(?:…|\.\.\.)\s*$", re.MULTILINE)


def check_cut(text: str, where: str, cut_at: Iterable[int] = ()) -> list[Finding]:
    """A text that was cut, not split or paged: it ends in a cut word ("… 10. S…"), lost
    lines from its middle ("…" alone on a line), or is exactly as long as a limit it was cut
    to (one of `cut_at`)."""
    found = []
    if len(text) > 1000 and _CUT.search(text.rstrip()):
        found.append(Finding("cut text", text[-30:], where, text))
    if _ELIDED.search(text):
        found.append(Finding("cut text", "a line '…' for left-out lines", where, text))
    if len(text) in tuple(cut_at):
        found.append(Finding("cut text", f"exactly {len(text)} characters", where, text))
    return found


def check_limit(length: int, limit: int, what: str, where: str, text: str) -> list[Finding]:
    """A Discord limit kept, or one finding."""
    if length > limit:
        return [Finding("over a limit", f"{what} is {length} > {limit}", where, text)]
    return []


def check_message(payload: Mapping[str, Any], where: str) -> list[Finding]:
    """A Discord message (as sent: content, embeds, components, attachments): its limits and
    every text in it."""
    found: list[Finding] = []
    content = payload.get("content") or ""
    found += check_limit(len(content), MAX_CONTENT, "content", where, content)
    found += check_text(content, where)
    found += check_cut(content, where, CUT_AT)
    embeds_total = 0
    for embed in payload.get("embeds") or []:
        for key in ("title", "description"):
            text = embed.get(key) or ""
            embeds_total += len(text)
            found += check_text(text, f"{where} embed {key}")
        description = embed.get("description") or ""
        found += check_limit(
            len(description), MAX_EMBED_DESCRIPTION, "embed description", where, description
        )
        found += check_cut(description, f"{where} embed")
        for field in embed.get("fields") or []:
            for key in ("name", "value"):
                text = field.get(key) or ""
                embeds_total += len(text)
                found += check_text(text, f"{where} embed field")
        for key, sub in (("footer", "text"), ("author", "name")):
            text = (embed.get(key) or {}).get(sub, "")
            embeds_total += len(text)
            found += check_text(text, f"{where} embed {key}")
    found += check_limit(embeds_total, MAX_EMBEDS_TEXT, "embeds", where, content)
    for row in payload.get("components") or []:
        for item in row.get("components") or []:
            found += check_component(item, where)
    for attachment in payload.get("attachments") or []:
        description = attachment.get("description") or ""
        found += check_text(description, f"{where} alt text")
        found += check_limit(len(description), 1024, "alt text", where, description)
    return found


def check_component(item: Mapping[str, Any], where: str) -> list[Finding]:
    """A button or a select: its labels, descriptions and option count."""
    found: list[Finding] = []
    label = item.get("label") or ""
    if item.get("type") == 2:
        found += check_limit(len(label), MAX_BUTTON_LABEL, "button label", where, label)
        found += check_text(label, f"{where} button")
        return found
    placeholder = item.get("placeholder") or ""
    found += check_text(placeholder, f"{where} select placeholder")
    options = item.get("options") or []
    found += check_limit(len(options), MAX_CHOICES, "select options", where, placeholder)
    for option in options:
        for key in ("label", "description"):
            text = option.get(key) or ""
            found += check_limit(len(text), MAX_SELECT_TEXT, f"select {key}", where, text)
            found += check_text(text, f"{where} select {key}")
    return found


def check_choices(choices: Iterable[Mapping[str, Any]], where: str) -> list[Finding]:
    """Autocomplete choices: at most 25, names of at most 100 characters, read."""
    listed = list(choices)
    found = check_limit(len(listed), MAX_CHOICES, "choices", where, "")
    for choice in listed:
        text = str(choice.get("name", ""))
        found += check_limit(len(text), MAX_CHOICE_NAME, "choice name", where, text)
        found += check_text(text, f"{where} choice")
    return found


def count_by_kind(findings: Iterable[Finding]) -> Counter[str]:
    """How many findings of each kind."""
    return Counter(f.kind for f in findings)
