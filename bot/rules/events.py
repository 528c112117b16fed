"""Structured events: what happened and why. Every VP, credit and energy change names its source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Kinds whose `amount` changes a company's counter of the same name.
RESOURCE_KINDS = ("vp", "credits", "energy", "excavators", "mixers", "engineers")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a resource change (kind in RESOURCE_KINDS) or a fact."""

    kind: str
    company: str | None = None
    amount: int = 0
    source: str = ""  # e.g. "income:base:2", "contract:201", "scoring:first-place"
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-able dict."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.company is not None:
            out["company"] = self.company
        if self.amount:
            out["amount"] = self.amount
        if self.source:
            out["source"] = self.source
        if self.text:
            out["text"] = self.text
        if self.data:
            out["data"] = self.data
        return out
