"""Memory tools offered to models that support Ollama tool calling.

Each runs against the same Memory and the same user as the turn. A failing call returns an
error result to the model; it never raises to the user.
"""
from __future__ import annotations

import json

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


def run(memory: Memory, user: str, call: ToolCall, recall_k: int = 3, message_id: int | None = None) -> str:
    """Execute one tool call; the result (or the error) as JSON text for the model. A remembered
    fact points to `message_id`, the user's message that led to the call."""
    args = call.arguments if isinstance(call.arguments, dict) else {}
    try:
        if call.name == "memory_remember":
            changes = memory.remember(user, str(args.get("key") or "note"), str(args.get("value") or ""),
                                      source="(saved by the assistant)", message_id=message_id)
            return json.dumps({"ok": True, "changes": [c.__dict__ for c in changes]})
        if call.name == "memory_recall":
            found = memory.recall(user, str(args.get("query") or ""), k=recall_k)
            return json.dumps({"results": [{"when": r.created_at[:10], "role": r.role, "text": r.excerpt(500),
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
