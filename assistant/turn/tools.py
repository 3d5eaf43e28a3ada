"""Memory tools offered to models that support Ollama tool calling.

Each runs against the same Memory and the same user as the turn. A failing call returns an
error result to the model; it never raises to the user.

They are offered only on a message that speaks of memory (`wanted`): everything else the tools could do
happens every turn without them (the miner stores what is said, recall runs before the model is asked), and
an offer costs on every turn: some models call a tool whatever the message (llama3.2), and llama3.2's
template writes the ~500 tokens of tool definitions into the last user message, where the server's prompt
cache cannot keep them.
"""
from __future__ import annotations

import json
import re

from memory import Memory, MemoryStoreError, UnknownKey, describe_changes

from ..llm import ToolCall

TOOLS = [
    {"type": "function", "function": {
        "name": "memory_remember",
        "description": "Store a fact the user wants remembered. key: one of name, location, diet, allergy, "
                       "likes, dislikes, pet, language, job, employer, birthday, favorite_<thing>, or note.",
        "parameters": {"type": "object", "required": ["value"], "properties": {
            "key": {"type": "string", "description": "fact key; 'note' when unsure"},
            "value": {"type": "string", "description": "the value, short"}}}}},
    {"type": "function", "function": {
        "name": "memory_recall",
        "description": "Search earlier conversations and saved notes with this user.",
        "parameters": {"type": "object", "required": ["query"], "properties": {
            "query": {"type": "string", "description": "words to look for"}}}}},
    {"type": "function", "function": {
        "name": "memory_pin",
        "description": "Keep a stored fact about the user in mind always, whatever else is forgotten, when the user "
                       "asks for it (\"always remember that\", \"don't ever forget my ...\").",
        "parameters": {"type": "object", "required": ["key"], "properties": {
            "key": {"type": "string", "description": "fact key, e.g. location, or note"},
            "value": {"type": "string", "description": "which value, when the key holds several"}}}}},
    {"type": "function", "function": {
        "name": "memory_forget",
        "description": "Delete a stored fact about the user, everywhere.",
        "parameters": {"type": "object", "properties": {
            "key": {"type": "string", "description": "fact key, e.g. location"},
            "value": {"type": "string", "description": "the value to forget; omit to forget every value of key"}}}}},
]


NAMES = {t["function"]["name"] for t in TOOLS}
# A message about her memory: keep, note, save, forget, delete, pin, look up or search it, or what was said.
MEMORY_TALK = re.compile(
    r"\b(?:remember|recall|memor(?:y|ies|ise|ize)|forget|forgot|note|notes|noted|save|store|keep (?:that|this|it|in mind)|"
    r"write (?:that|this|it) down|delete|erase|remove|pin|unpin|look (?:it |that )?up|search|"
    r"(?:did|have) i (?:ever )?(?:say|said|tell|told|mention(?:ed)?)|what did i)\b", re.IGNORECASE)


def wanted(text: str) -> bool:
    """Whether the tools are offered with this message: it speaks of memory."""
    return bool(MEMORY_TALK.search(text))
# what a model writes around a call it puts in its text: a code fence, qwen's tags, llama3's python tag
WRAPPING = re.compile(r"^\s*(?:```(?:json)?|<tool_call>|<\|python_tag\|>)?\s*|\s*(?:```|</tool_call>|<\|eom_id\|>)?\s*$")


def might_be_call(text: str) -> bool:
    """Whether a reply that starts so could be a tool call written as text (held back until it is whole)."""
    lead = text.lstrip()
    return bool(lead) and (lead[0] in "{[" or any(w.startswith(lead[:len(w)]) or lead.startswith(w)
                                                  for w in ("```", "<tool_call>", "<|python_tag|>")))


def call_start(text: str) -> int | None:
    """Where a tool call written as text may start after some words ("Fine. {"name": ...}"): the first '{', code
    fence or call tag; None when there is none."""
    found = [i for i in (text.find("{"), text.find("```"), text.find("<tool_call>"), text.find("<|python_tag|>"))
             if i >= 0]
    return min(found) if found else None


def calls_in_text(text: str) -> list[ToolCall] | None:
    """The tool calls in a reply written as JSON text ({"name": ..., "arguments"/"parameters": {...}}, a list
    of them, or a bare {"key": ..., "value": ...}); None when the text is not one."""
    try:
        data = json.loads(WRAPPING.sub("", text))
    except ValueError:
        return None
    items = data if isinstance(data, list) else [data]
    calls = []
    for item in items:
        if not isinstance(item, dict):
            return None
        if "function" in item and isinstance(item["function"], dict):
            item = item["function"]
        args = item.get("arguments", item.get("parameters"))
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                return None
        if isinstance(item.get("name"), str) and isinstance(args or {}, dict):
            calls.append(ToolCall(item["name"], dict(args or {})))
        elif "value" in item and set(item) <= {"key", "value"}:
            calls.append(ToolCall("memory_remember", dict(item)))
        else:
            return None
    return calls or None


def run(memory: Memory, user: str, call: ToolCall, recall_k: int = 3, message_id: int | None = None,
        session: str | None = None, model: str = "model", room: int = 2000) -> str:
    """Execute one tool call; the result (or the error) as JSON text for the model, recalled messages shortened
    to fit `room` characters together. What the model asks to remember is the model's: stored only when the
    user's words in `session` ground it (consolidation's checks, starting from `message_id`, the message that
    led to the call), and never pinned as the user's."""
    args = call.arguments if isinstance(call.arguments, dict) else {}
    try:
        if call.name == "memory_remember":
            if session is None:
                raise ValueError("nothing can be stored outside a conversation")
            verdict = memory.remember_for_model(user, session, str(args.get("key") or "note"),
                                                str(args.get("value") or ""), model, message_id)
            if verdict.outcome == "rejected":
                return json.dumps({"stored": False, "why": verdict.reason})
            return json.dumps({"stored": True, "changes": [f"{c.key}: {c.value} ({c.kind})" for c in verdict.changes]})
        if call.name == "memory_recall":
            found = memory.recall(user, str(args.get("query") or ""), k=recall_k)
            each = min(500, max(120, room // max(1, len(found)) - 60))      # 60: the JSON around each text
            return json.dumps({"results": [{"when": r.created_at[:10], "role": r.role, "text": r.excerpt(each),
                                            **({"changed": describe_changes(r.since)} if r.since else {})}
                                           for r in found]})
        if call.name == "memory_pin":
            key, value = str(args.get("key") or ""), str(args.get("value") or "")
            chosen = [f for f in memory.facts(user) if f.key == key and (not value or value.lower() in f.value.lower())]
            pinned = [p for f in chosen for p in memory.pin(user, f.id)]
            return json.dumps({"pinned": [f"{f.key}: {f.value}" for f in chosen],
                               "newly": len(pinned)} if chosen else {"error": f"nothing stored under {key!r}"})
        if call.name == "memory_forget":
            key, value = args.get("key") or None, args.get("value") or None
            if key is None and value is None:
                raise ValueError("give a key, a value, or both")
            gone = memory.forget_change(user, key, value)
            return json.dumps({"forgotten": [f"{c.key}: {c.value}" for c in gone]})
        return json.dumps({"error": f"unknown tool {call.name!r}"})
    except (UnknownKey, ValueError, MemoryStoreError, TypeError) as exc:
        return json.dumps({"error": str(exc)})
