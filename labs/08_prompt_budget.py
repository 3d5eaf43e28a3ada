"""Lab 8: a request inside a token budget. History is trimmed by whole user+assistant pairs from
the oldest, and the first message after the system part is always a user message. Token counts
are stored with each message, so trimming never re-counts the history. Each message also costs the
template's few tokens around it (role header, end marker): PER_MESSAGE, counted as Ollama counts it.

    .venv/bin/python labs/08_prompt_budget.py
"""
from assistant.config import BudgetConfig, PersonaConfig
from assistant.turn.prompt import PER_MESSAGE, Turn, assemble
from memory import estimate_tokens

history = []
for i in range(1, 31):
    for role, text in (("user", f"question {i}: " + "blah " * 10), ("assistant", f"answer {i}: " + "meh " * 20)):
        history.append(Turn(role, text, estimate_tokens(text)))
budget = BudgetConfig(system=100, memory=50, recall=50, history=300, reply=100)


def toy_trim(turns: list[Turn], room: int) -> list[Turn]:
    """Pair each user message with the reply after it; keep whole pairs from the newest while they fit."""
    pairs = [turns[i:i + 2] for i in range(0, len(turns), 2)]
    kept: list[Turn] = []
    for pair in reversed(pairs):
        cost = sum(t.tokens + PER_MESSAGE for t in pair)
        if cost > room:
            break
        kept[:0], room = pair, room - cost
    return kept


question = "question 31?"
toy = toy_trim(history, budget.history - estimate_tokens(question) - PER_MESSAGE)
print(f"the toy keeps {len(toy)} messages, from {toy[0].text[:12]!r}")
messages, _, _ = assemble(PersonaConfig(system_prompt="You are GLaDOS.", examples=[]), budget, "", [], history, question)
print(f"{len(history)} stored messages, history budget {budget.history} tokens")
for m in messages:
    print(f"    {m['role']:9} {estimate_tokens(m['content']):3} tokens  {m['content'][:24]!r}")
print(f"sent: {sum(estimate_tokens(m['content']) + PER_MESSAGE for m in messages[1:])} tokens after the system part, "
      f"template overhead included")
print(f"the toy and the project keep the same turns: {[t.text for t in toy] == [m['content'] for m in messages[1:-1]]}")
print("notice: whole pairs were dropped from the oldest, and the first message kept after the system part is the user's.")
