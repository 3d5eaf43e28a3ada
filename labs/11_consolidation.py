"""Lab 11: the model as a second reader, checked. At a session's end a model reads the user's
messages and proposes facts the rules missed. Nothing it says is trusted: each proposal must cite
one of the session's user messages, use a fact key, say only what the user said, come from a
first-person statement, and never take a pinned fact away. Here the "model" is a scripted reply,
with the mistakes real models make.

    .venv/bin/python labs/11_consolidation.py
"""
import json

from memory import Memory, parse_proposals

SESSION = ["I've been nursing for twelve years",          # the rules miss this; a model won't
           "we adopted a greyhound called Pip",           # the rules catch this one
           "my doctor put me on metformin",
           "my brother lives in Oslo",
           "I'm allergic to peanuts"]



def toy_grounded(value: str, said: str) -> bool:
    """The first check, by hand: every word of the proposed value was said by the user in that message."""
    heard = set(said.lower().replace(",", " ").split())
    return all(word in heard for word in value.lower().split())


with Memory(":memory:") as mem:
    ids = [mem.observe("ada", line, session="s1").message_id for line in SESSION]
    reply_id = mem.log("ada", "s1", "assistant", "A greyhound. How fast it will run from you.")
    print("the session (the rules stored what they could):")
    for i, line in zip(ids, SESSION):
        print(f"  [{i}] {line}")
    print(f"  rules: {[(f.key, f.value) for f in mem.facts('ada')]}")

    # What a model might answer, constrained to the proposal schema (memory.PROPOSAL_SCHEMA).
    reply = json.dumps({"facts": [
        {"key": "job", "value": "nurse", "message_id": ids[0], "replaces": False},        # grounded
        {"key": "medical", "value": "metformin", "message_id": ids[2], "replaces": False},  # grounded
        {"key": "pet", "value": "dog named Pip", "message_id": ids[1], "replaces": False},  # known already
        {"key": "location", "value": "Oslo", "message_id": ids[3], "replaces": False},     # the brother's
        {"key": "likes", "value": "running", "message_id": ids[0], "replaces": False},     # invented
        {"key": "pet", "value": "fast dog", "message_id": reply_id, "replaces": False},    # her own words
        {"key": "allergy", "value": "peanuts", "message_id": ids[4], "replaces": False,
         "op": "retract"},                                                                  # only adding
        {"key": "age", "value": "12", "message_id": ids[0], "replaces": False},            # a number, no age
    ]})
    print("\nthe model's proposals, and what the checks made of them:")
    said_in = dict(zip(ids, SESSION))
    for verdict in mem.consolidate("ada", "s1", parse_proposals(reply), "a-model"):
        p = verdict.proposal
        toy = "words said" if toy_grounded(p.value, said_in.get(p.message_id, "")) else "words not said"
        print(f"  toy: {toy:15} project: {verdict.outcome:8} {f'{p.key}={p.value!r} [{p.message_id}]':32} {verdict.reason}")
    print(f"\nstored, with origin: {[(f.key, f.value, f.origin) for f in mem.facts('ada')]}")
print("notice: word grounding alone would keep Oslo (the brother's) and miss 'nurse' (said 'nursing'); the project adds")
print("        stems, whose statement it is, and whether the key fits, and stores what passes as the model's.")
