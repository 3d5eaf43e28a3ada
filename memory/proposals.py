"""A language model's proposals of facts: the JSON schema it answers in, and the typed result.

Light on purpose (no rules, no regexes): an assistant can build the request and read the reply
without loading the checks, which live in `memory.consolidate`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from .facts import FactChange

MAX_VALUE_WORDS = 8
MAX_PROPOSALS = 40

SCHEMA: dict = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": "a key from the fact vocabulary"},
                    "value": {"type": "string", "description": "the value, in the user's own words"},
                    "message_id": {"type": "integer", "description": "the id of the user message it comes from"},
                    "replaces": {"type": "boolean", "description": "true only when the user says it changed"},
                },
                "required": ["key", "value", "message_id", "replaces"],
            },
        },
    },
    "required": ["facts"],
}


class BadProposals(ValueError):
    """The model's reply is not the JSON the schema asks for (malformed, truncated, wrong shape)."""


@dataclass(frozen=True)
class Proposal:
    key: str
    value: str
    message_id: int
    replaces: bool = False
    op: str = "add"          # a model may only add; anything else is rejected


Outcome = Literal["stored", "known", "rejected"]


@dataclass(frozen=True)
class Verdict:
    """What became of one proposal, and why."""
    proposal: Proposal
    outcome: Outcome
    reason: str
    changes: tuple[FactChange, ...] = ()


def parse_proposals(text: str) -> list[Proposal]:
    """The proposals in a model reply; raises BadProposals when it is not the schema's JSON."""
    text = (text or "").strip()
    if text.startswith("```"):            # a model that wraps its JSON in a code fence anyway
        text = text.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise BadProposals("the model did not answer with the JSON it was asked for") from exc
    items = data.get("facts") if isinstance(data, dict) else data if isinstance(data, list) else None
    if not isinstance(items, list):
        raise BadProposals("the model's reply has no 'facts' list")
    out = []
    for item in items[:MAX_PROPOSALS]:
        if not isinstance(item, dict):
            raise BadProposals(f"a proposal is not an object: {item!r}"[:200])
        try:
            message_id = item["message_id"]
            if isinstance(message_id, bool) or not isinstance(message_id, (int, str)):
                raise TypeError("message_id")
            out.append(Proposal(key=str(item["key"]).strip().lower(), value=str(item["value"]).strip(),
                                message_id=int(message_id), replaces=item.get("replaces") is True,
                                op=str(item.get("op") or item.get("action") or "add").strip().lower()))
        except (KeyError, TypeError, ValueError) as exc:
            raise BadProposals(f"a proposal lacks a usable {exc}: {item!r}"[:200]) from exc
    return out
