"""Lab 10: intent before facts. The same words can be a command, a question or a statement;
`memory.parse` reads each sentence once and says which, so the assistant branches on a typed
result instead of matching strings again. A question about the world goes to the model even
when it holds "remember", "forget" or "why do you think".

    .venv/bin/python labs/10_intent.py
"""
from memory import Memory, parse

GROUPS = {
    "remember": ["Remember that my locker code is 4512.",         # a command: store a note
                 "Can you remember the name of the Portal song?",  # a question for the model
                 "I remember my first bike."],                     # a statement with no fact in it
    "where I live": ["Forget where I live.",                      # a command: delete
                     "Where do I live?",                          # a question about the user
                     "I live in Bath."],                          # a statement: a fact
    "why do you think": ["Why do you think I'm vegetarian?",       # about the user: answered from memory
                         "Why do you think the sky is blue?"],     # about the world: the model
}


def toy_intent(text: str) -> str:
    """Keyword rules, checked in order: the way most assistants start, and where they go wrong."""
    lowered = text.lower()
    if "remember" in lowered:
        return "command remember"
    if "forget" in lowered:
        return "command forget"
    if lowered.startswith("why do you think"):
        return "command why"
    return "question" if text.endswith("?") else "statement"


def describe(text: str) -> str:
    parsed = parse(text)
    changes = "; ".join(f"{c.op} {c.key} = {c.value}" for c in parsed.changes)
    if parsed.command:
        targets = ", ".join(t.key or repr(t.value) for t in parsed.command.targets)
        return f"command {parsed.command.kind}" + (f" -> {targets}" if targets else "") + (f" [{changes}]" if changes else "")
    if changes:
        return f"statement: {changes}"
    return "for the model (nothing about the user)"


for words, texts in GROUPS.items():
    print(f"--- {words!r}")
    for text in texts:
        print(f"  {text:48} toy: {toy_intent(text):17} project: {describe(text)}")

# A correction needs what was just said: the parse names the new value, memory finds the old one.
print("--- a correction")
with Memory(":memory:") as mem:
    for text in ["I live in Bath.", "No wait, I meant Bristol."]:
        observed = mem.observe("ada", text)
        print(f"  {text:48} {[(c.kind, c.key, c.value, c.old_value) for c in observed.changes]}")
    print(f"  {'history of location:':48} {[(f.value, f.ended_by) for f in mem.facts('ada', history=True)]}")
print("notice: keywords make commands of a question about a song, a memory of a bike and the sky; the project reads")
print("        each sentence's form once: only statements change facts, and a correction supersedes.")
