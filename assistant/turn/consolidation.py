"""At a session's end, the model reads the user's messages and proposes facts the rules missed.

One request, its reply constrained by a JSON schema; every proposal is then checked by
`Memory.consolidate` (memory/consolidate.py) and only grounded ones are stored, marked as the
model's. Runs after the last reply, so it never delays one; bounded by the LLM timeouts.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from memory import MULTI_VALUED, estimate_tokens, PROPOSAL_SCHEMA, SINGLE_VALUED, Message, BadProposals, Memory, Verdict, parse_proposals

from ..llm import LLM

log = logging.getLogger("glados.consolidate")

INSTRUCTION = (
    "You read what a user said to an assistant and list standing facts the user states about "
    "themself, in the first person. Use only these keys: {keys}, or favorite_<thing> (favorite_color, "
    "favorite_food, ...). The value is the user's own words, short (a few words). Cite the id of the "
    "message it comes from. Set replaces to true only when the user says the fact changed. Do not "
    "list questions, wishes, plans, the past, jokes, or facts about other people. If there are no "
    "facts, return an empty list. Reply with JSON only.")
MAX_MESSAGE_CHARS = 600


@dataclass(frozen=True)
class Consolidation:
    """What one end-of-session reading did: every proposal's verdict, or why there were none."""
    verdicts: tuple[Verdict, ...] = ()
    error: str | None = None

    @property
    def stored(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.outcome == "stored"]

    @property
    def rejected(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.outcome == "rejected"]


def requests(rows: list[Message], room: int = 100_000) -> list[list[dict]]:
    """The requests: the instruction and the user's lines, each with its id, as many lines a request as fit
    in `room` tokens (a long session is read in several requests, none cut by the server)."""
    lines = [f"[{r.id}] {' '.join(r.text.split())[:MAX_MESSAGE_CHARS]}" for r in rows if r.role == "user"]
    keys = ", ".join(sorted((SINGLE_VALUED | MULTI_VALUED) - {"note", "wake_word"}))
    system = INSTRUCTION.format(keys=keys)
    room -= estimate_tokens(system)
    batches: list[list[str]] = []
    used = 0
    for line in lines:
        cost = estimate_tokens(line)
        if not batches or used + cost > room:
            batches.append([])
            used = 0
        batches[-1].append(line)
        used += cost
    return [[{"role": "system", "content": system}, {"role": "user", "content": "\n".join(b)}] for b in batches]


def consolidate(llm: LLM, memory: Memory, user: str, session: str, rows: list[Message],
                max_tokens: int = 800, temperature: float | None = None) -> Consolidation:
    """Ask, check, store. LLMError propagates (the caller says the step was skipped); a reply
    that is not the schema's JSON stores nothing and says so."""
    room = llm.num_ctx - max_tokens - 384      # the reply, a trace that cannot be turned off, the template
    proposals = []
    for messages in requests(rows, room):
        text = "".join(chunk.text for chunk in llm.chat(messages, max_tokens=max_tokens, format=PROPOSAL_SCHEMA,
                                                             temperature=temperature))
        try:
            proposals += parse_proposals(text)
        except BadProposals as exc:
            log.warning("consolidation: %s; nothing stored", exc)
            return Consolidation(error=str(exc))
    if not proposals and not any(r.role == "user" for r in rows):
        return Consolidation()
    verdicts = memory.consolidate(user, session, proposals, llm.model)
    for v in verdicts:     # the values are the user's words: only in a verbose log
        log.info("proposal %s (message %s): %s", v.proposal.key, v.proposal.message_id, v.outcome)
        log.debug("proposal %s=%r: %s, %s", v.proposal.key, v.proposal.value, v.outcome, v.reason)  # the user's words
    return Consolidation(tuple(verdicts))
