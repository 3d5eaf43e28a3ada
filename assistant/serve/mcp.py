"""`glados memory mcp` (or `glados-memory mcp`): the memory as an MCP server over stdio, or over HTTP
(`--http`: streamable HTTP and SSE, for GLaDOS's `transport: http` and Home Assistant's MCP integration).

Native tools (remember, recall, facts, forget, context) and dnhkng/GLaDOS's memory tools with its names,
arguments and JSON shapes (store_fact, search_memory, list_facts, store_summary, get_summaries,
memory_stats), and the memory block as the resource memory://context. What the storing tools are sent goes
through the brain's memory path (`Brain.note`, as a tool's words: third person read as the user, and only
stored). Each tool returns JSON text; a failure is {"error": "..."}, never a crash.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any, Callable

from pydantic import Field     # an argument's description, in the tool's input schema a client's model reads

from memory import (Fact, Memory, MemoryStoreError, NotFound, Recalled, Summary, UnknownKey, clean, describe_changes,
                    hide)

from ..config import Config
from ..turn.brain import Brain
from ..turn.commands import say
from .mcp_transport import NAME, Http, quiet_logs, run_http, run_stdio, version
from .stop import until_stopped

PERIODS = ("session", "daily", "weekly")
CONTEXT_URI = "memory://context"     # the memory block as a resource: GLaDOS puts it in its prompt
GLADOS_SOURCES = ("user", "conversation", "system")
PINNED, UNPINNED = 1.0, 0.5     # GLaDOS's importance, read from ours: pinned facts always reach the prompt


class Tools:
    """The tools, as plain methods over one user's memory (the MCP server wraps each; tests may call them)."""

    def __init__(self, memory: Memory, config: Config, user: str):
        self.memory, self.config, self.user = memory, config, user
        self.brain = Brain(memory, None, config, user)      # no model: the memory path only

    # -- native ----------------------------------------------------------------------------------
    def remember(self, text: Annotated[str, Field(description="What the user said about themselves, in their words or yours about them (\"User lives in York\")")]) -> dict:
        """Take in what the user said (or a model's words about them: "User lives in York"): facts mined, a
        changed one superseding the old, the rest kept. It only stores: deleting is `forget` alone."""
        noted = self.brain.note(text, tool=True)
        if (refused := _refused(noted)) is not None:
            return refused
        if noted.answer is not None:
            self.brain.record_answer(noted.session, noted.answer)
            changes = noted.answer.changes
            return {"reply": _stored(changes) or noted.answer.text, "changes": [_change(c) for c in changes]}
        changes = noted.observation.changes
        if not changes:
            return {"reply": "Stored the message; no fact in it.", "changes": []}
        return {"reply": _stored(changes) or "Noted.", "changes": [_change(c) for c in changes]}

    def recall(self, query: Annotated[str, Field(description="What to look for, in words (\"the user's trip to Rome\")")],
               k: Annotated[int, Field(description="How many results, best first (1 to 50)")] = 5) -> dict:
        """Earlier messages and notes of this user matching the query by words and meaning, best first."""
        return {"results": [_recalled(r) for r in self.memory.recall(self.user, query, k=max(1, min(k, 50)))]}

    def facts(self) -> dict:
        """What is believed now about the user."""
        return {"facts": [_fact(f) for f in self.memory.facts(self.user)]}

    def forget(self, target: Annotated[str, Field(description="The fact to delete: its id (or the start of it, from facts) or its key (\"location\", \"allergy\")")],
               confirm: Annotated[bool, Field(description="true only when the user has confirmed deleting a safety fact (allergy, diet, medical)")] = False) -> dict:
        """Forget a fact everywhere, by id prefix or key ("location"); pinned facts need confirm."""
        pinned = {(f.key, f.value): f for f in self.memory.would_forget(self.user, target) if f.pinned}
        if pinned and not confirm:      # a refusal, so the client sees isError: true
            one = len(pinned) == 1
            raise Refused(f"{', '.join(f'{k}: {v}' for k, v in pinned)} {'keeps' if one else 'keep'} the user safe "
                          f"(pinned); call forget again with confirm: true to delete {'it' if one else 'them'}")
        gone = self.memory.forget(self.user, target)
        return {"forgotten": [_change(c) for c in gone]}

    def context(self) -> dict:
        """The memory block an assistant puts in its system prompt ("" when nothing is known)."""
        m = self.config.memory
        return {"context": self.memory.load_context(self.user, m.max_facts, m.max_summaries,
                                                    min(m.context_tokens, self.config.budget.memory))}

    # -- dnhkng/GLaDOS's tools -------------------------------------------------------------------
    def store_fact(self, fact: Annotated[str, Field(description="The fact, about the user (\"User's name is David\")")],
                   source: Annotated[str, Field(description="Where it came from: \"user\", \"conversation\" or \"system\"")] = "user",
                   importance: Annotated[float, Field(description="How much it matters, 0 to 1; 1 keeps it always in mind")] = 0.5) -> dict:
        """Read as the user's own words (or a model's about them: "User's name is David"); when no fact is
        mined from it, kept as a note. It only stores: "forget where I live" is a note, not a deletion."""
        noted = self.brain.note(fact, tool=True)
        if (refused := _refused(noted)) is not None:
            return refused
        changes = noted.observation.changes
        if not changes and noted.answer is None:
            changes = self.memory.remember(self.user, "note", fact, source=fact,
                                           message_id=noted.observation.message_id)
        ids = [c.fact_id for c in changes if c.fact_id]
        held = [c.fact_id for c in changes if c.fact_id and c.kind in ("added", "superseded", "reconfirmed")]
        self.memory.set_importance(self.user, held, max(0.0, min(1.0, float(importance))),
                                   source if source in GLADOS_SOURCES else None)
        return {"status": "stored", "id": ids[0] if ids else f"message_{noted.observation.message_id}", "fact": fact}

    def search_memory(self, query: Annotated[str, Field(description="What to look for, in words")],
                      limit: Annotated[int, Field(description="How many results, best first (1 to 50)")] = 5) -> dict:
        """Facts whose words match, then what recall finds by words and meaning; a fact stands for the
        message it came from (and a note for itself), so one statement is one entry."""
        limit = max(1, min(limit, 50))
        facts = self.memory.facts(self.user)
        words = {w for w in query.casefold().split() if len(w) > 2}
        stated: dict[str, list[Fact]] = {}
        for f in facts:
            if f.source_message_id is not None:
                stated.setdefault(str(f.source_message_id), []).append(f)
        chosen = [f for f in facts if words & set(f"{f.key.replace('_', ' ')} {f.value}".casefold().split())]
        found, seen = [], set()
        for r in self.memory.recall(self.user, query, k=limit):
            standing = stated.get(r.id, []) if r.kind == "message" else [f for f in facts if f.id == r.id]
            chosen += standing
            if not standing:
                found.append((f"{r.kind}_{r.id}", _glados_recalled(r)))
        entries = [(f.id, _glados_fact(f)) for f in chosen] + found
        unique = [entry for key, entry in entries if not (key in seen or seen.add(key))]
        if not unique and not facts:
            return {"facts": [], "message": "No facts stored yet"}
        return {"facts": unique[:limit], "total_stored": len(facts)}

    def list_facts(self, limit: Annotated[int, Field(description="How many facts at most")] = 20,
                   min_importance: Annotated[float, Field(description="Only facts at least this important, 0 to 1")] = 0.0) -> dict:
        facts = self.memory.facts(self.user)
        chosen = sorted((f for f in facts if _importance(f) >= min_importance),
                        key=lambda f: (_importance(f), f.asserted_at), reverse=True)
        return {"facts": [_glados_fact(f) for f in chosen[:max(0, limit)]], "total_stored": len(facts)}

    def store_summary(self, summary: Annotated[str, Field(description="The summary of the conversation")],
                      period: Annotated[str, Field(description="\"session\", \"daily\" or \"weekly\"")],
                      start_time: Annotated[str, Field(description="When the period began, ISO 8601")],
                      end_time: Annotated[str, Field(description="When the period ended, ISO 8601")]) -> dict:
        if period not in PERIODS:
            return {"error": "period must be 'session', 'daily', or 'weekly'"}
        key = f"{period}|{start_time}|{end_time}"        # the summary's session: its period and span
        if not self.memory.add_summary(self.user, key, summary):
            held = next((s for s in self.memory.summaries(self.user) if s.session == key), None)
            if held is None or held.text != clean(summary):
                return {"error": f"a different {period} summary from {start_time} to {end_time} is already stored"}
            return {"status": "stored", "id": _summary_id(held), "period": period, "already": True}    # sent twice
        stored = next(s for s in self.memory.summaries(self.user) if s.session == key)
        return {"status": "stored", "id": _summary_id(stored), "period": period}

    def get_summaries(self, period: Annotated[str, Field(description="\"session\", \"daily\", \"weekly\" or \"all\"")] = "all",
                      limit: Annotated[int, Field(description="How many, newest first")] = 5) -> dict:
        every = [_glados_summary(s) for s in self.memory.summaries(self.user)]
        chosen = [s for s in every if period == "all" or s["period"] == period]
        chosen.sort(key=lambda s: s["created_at"], reverse=True)
        return {"summaries": chosen[:max(0, limit)], "total_stored": len(every)}

    def memory_stats(self) -> dict:
        facts, summaries = self.memory.facts(self.user), [_glados_summary(s) for s in self.memory.summaries(self.user)]
        by_source: dict[str, int] = {}
        for f in facts:
            by_source[_source(f)] = by_source.get(_source(f), 0) + 1
        by_period: dict[str, int] = {}
        for s in summaries:
            by_period[s["period"]] = by_period.get(s["period"], 0) + 1
        average = sum(_importance(f) for f in facts) / len(facts) if facts else 0
        return {"total_facts": len(facts), "total_summaries": len(summaries), "facts_by_source": by_source,
                "summaries_by_period": by_period, "average_importance": round(average, 2)}


# Descriptions written for a model choosing a tool.
DESCRIPTIONS = {
    "remember": "Tell the memory what the user said about themselves (\"I'm vegetarian\", \"I moved to Leeds\", "
                "\"User is allergic to peanuts\"). Facts are read from it and update what was known; returns what "
                "changed. It only stores: to delete, use forget.",
    "recall": "Search the user's earlier messages and notes by words and meaning; returns the best k, best first.",
    "facts": "What is known about the user now: name, home, diet, allergies, likes, notes, each with its id.",
    "forget": "Delete a fact about the user everywhere, by its id prefix or its key (e.g. 'location'). "
              "Allergies, diet and medical facts need confirm: true.",
    "context": "The memory block to put in a system prompt: what is known about the user, newest summaries.",
    "store_fact": "Store a fact about the user in long-term memory (e.g. \"User's name is David\").",
    "search_memory": "Search long-term memory for facts and earlier messages relevant to the query.",
    "list_facts": "List stored facts, most important first; importance 1.0 marks facts always kept in mind.",
    "store_summary": "Store a conversation summary for a period ('session', 'daily' or 'weekly') with ISO times.",
    "get_summaries": "Retrieve stored conversation summaries, most recent first; period 'all' for every kind.",
    "memory_stats": "Counts of stored facts and summaries.",
}


def serve(memory: Memory, config: Config, user: str, verbose: bool = False, http: Http | None = None,
          say: Callable[[str], None] = print) -> None:
    """Run the server on stdin/stdout until the client leaves (or over HTTP until interrupted); the session's
    summary is written then. The MCP library logs each request at INFO: only with `verbose`."""
    from mcp.server.fastmcp import FastMCP

    tools = Tools(memory, config, user)
    where = {"host": http.host, "port": http.port} if http else {}
    quiet_logs(verbose)        # before FastMCP, whose own set-up then leaves the root logger alone
    server = FastMCP(NAME, instructions=f"Long-term memory of the user {user!r}: facts with history, "
                                          "earlier messages, summaries. All of it stays on this machine.",
                     log_level="INFO" if verbose else "WARNING", **where)
    server._mcp_server.version = version()     # serverInfo: ours, not the SDK's (FastMCP takes no version)
    for name, description in DESCRIPTIONS.items():
        server.add_tool(_as_text(getattr(tools, name), lambda: memory.private(user)), name=name, description=description)

    @server.resource(CONTEXT_URI, name="memory", mime_type="text/plain",
                     description="What is known about the user now: the memory block for a system prompt, read "
                                 "fresh each time (list it in GLaDOS's context_resources)")
    def memory_block() -> str:
        return tools.context()["context"] or "Nothing is known about the user yet."
    try:
        with until_stopped():      # Ctrl-C or SIGTERM: the session still ends, with its summary, and exit 0
            if http is None:
                run_stdio(server)
            else:
                run_http(server, http, user, say)
    finally:
        tools.brain.end_session()


class Refused(Exception):
    """A tool that will not do what it was asked until the user confirms: the client gets isError true."""


def _as_text(method: Callable[..., dict], private: Callable[[], tuple[str, ...]] = tuple) -> Callable[..., str]:
    """The tool as MCP clients expect it: JSON text, and an error as {"error": ...} rather than a failure. What
    comes back goes to another assistant's model: a secret the user noted (`Memory.private`: a locker code, a
    password) is "(private)" in every result, as in the memory block; asked by voice, she says it herself."""
    import functools

    @functools.wraps(method)
    def tool(*args: Any, **kwargs: Any) -> str:
        try:
            result = method(*args, **kwargs)
        except (NotFound, UnknownKey, MemoryStoreError, ValueError) as exc:
            result = {"error": str(exc)}
        return hide(json.dumps(result, ensure_ascii=False), private())
    return tool


def _refused(noted) -> dict | None:
    """A storing tool was sent a command ("forget where I live", "what do you know about me"): nothing is
    deleted or answered, and the model is told which tool does that."""
    command = noted.observation.parsed.refused
    if command is None:
        return None
    instead = "the forget tool (pinned facts with confirm: true)" if command.kind == "forget" else \
        "search_memory, recall or facts"
    return {"error": f"this tool only stores what is true of the user; for {command.kind!r} use {instead}"}


def _change(c) -> dict:
    return {"kind": c.kind, "key": c.key, "value": c.value, "old_value": c.old_value, "id": c.fact_id}


def _fact(f: Fact) -> dict:
    return {"id": f.id, "key": f.key, "value": f.value, "pinned": f.pinned, "since": f.valid_from,
            "source": f.source, "origin": f.origin}


def _recalled(r: Recalled) -> dict:
    return {"kind": r.kind, "id": r.id, "text": r.text, "said_at": r.created_at, "reply": r.reply,
            "score": round(r.score, 3), **({"changed": describe_changes(r.since)} if r.since else {})}


def _importance(f: Fact) -> float:
    """As the client said it; a pinned fact (an allergy, the user's choice) always counts as 1."""
    return PINNED if f.pinned else f.importance if f.importance is not None else UNPINNED


def _source(f: Fact) -> str:
    """As the client said it; else "conversation" for what a model read, "user" for the user's words."""
    return f.client_source or ("conversation" if f.origin == "model" else "user")


def _iso(stamp: str) -> str:
    """Our UTC stamps as GLaDOS writes its own: local time, ISO, without the zone."""
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().replace(tzinfo=None).isoformat()
    except ValueError:
        return stamp


PAST = {"told", "said", "had", "was", "went", "made", "got", "took", "gave", "came", "left", "met"}


def about_user(sentence: str) -> str:
    """A fact as GLaDOS's memory words it, about "the user": "They live in Leeds" -> "The user lives in Leeds",
    "Their name is David" -> "The user's name is David" (a model reading "Your name is David" in its prompt
    may take it as its own)."""
    if sentence.startswith("Their "):
        return "The user's " + sentence[len("Their "):]
    if not sentence.startswith("They "):
        return sentence
    verb, _, rest = sentence[len("They "):].partition(" ")
    third = {"are": "is", "have": "has", "were": "was", "do": "does", "don't": "doesn't"}.get(verb)
    if third is None and (verb.endswith("ed") or verb in PAST):
        third = verb                  # "They told me about asthma": the past has one form
    if third is None:
        third = verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z", "o")) else "s")
    return f"The user {third} {rest}".rstrip()


def _stored(changes) -> str:
    """What a tool stored, about "the user" (to the model reading the result, "you" is itself): "The user
    lives in York. The user's name is Ada."; "" when nothing was stored."""
    said = say([(c.key, c.value) for c in changes if c.kind in ("added", "superseded", "reconfirmed")], them=True)
    return ". ".join(about_user(s) for s in said.split(". ")) + "." if said else ""


def _glados_fact(f: Fact) -> dict:
    return {"id": f.id, "content": f"{about_user(say([(f.key, f.value)], them=True))}.", "source": _source(f),
            "importance": _importance(f), "created_at": _iso(f.asserted_at)}


def _glados_recalled(r: Recalled) -> dict:
    content = f"{r.text} {describe_changes(r.since)}" if r.since else r.text     # her model reads only content
    return {"id": f"{r.kind}_{r.id}", "content": content, "source": "conversation", "importance": UNPINNED,
            "created_at": _iso(r.created_at)}


def _summary_id(s: Summary) -> str:
    return f"summary_{s.session}"


def _glados_summary(s: Summary) -> dict:
    period, start, end = (s.session.split("|", 2) if s.session.count("|") == 2
                          else ("session", s.created_at, s.created_at))   # one of this assistant's own sessions
    content = f"{s.text} {describe_changes(s.since)}" if s.since else s.text
    return {"id": _summary_id(s), "content": content, "period": period, "start_time": start, "end_time": end,
            "created_at": _iso(s.created_at)}
