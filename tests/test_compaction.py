"""A long session keeps its beginning: what the user said that left the history window comes back as one
running note, inside the history budget, while the window itself is unchanged."""
from __future__ import annotations

import re
from dataclasses import replace

from assistant.config import load_config
from assistant.turn.brain import Brain
from assistant.turn.prompt import ASKED
from memory import Memory
from tests.fakes import ScriptedLLM


PLAN = ["I'm meeting Sarah at the station at 5pm on Friday.", "ok", "thanks"]


def run(tmp_path, compact_tokens: int, start: list[str] = PLAN) -> list[dict]:
    """The last prompt of a 20-turn session (`start`, then grey weather) with a running note of compact_tokens."""
    config = load_config(None)
    config = replace(config, session=replace(config.session, compact_tokens=compact_tokens, consolidate=False))
    llm = ScriptedLLM()
    with Memory(tmp_path / f"m{compact_tokens}.db", embedder=None) as memory:
        brain = Brain(memory, llm, config, "ada")
        brain.connect()
        said = start + [f"the weather is grey again, day {i}" for i in range(17)]
        for text in said:
            llm.enqueue("Fascinating.")
            brain.turn(text)
        return brain.stats.last_prompt


def test_turn_twenty_still_carries_the_plan_of_turn_one_and_the_window_is_unchanged(tmp_path):
    folded, plain = run(tmp_path, 150), run(tmp_path, 0)
    notes = [m["content"] for m in folded if "Earlier in this conversation" in m["content"]]
    assert len(notes) == 1 and "Sarah at the station at 5pm on Friday" in notes[0]
    assert "thanks" not in notes[0].split("Earlier in this conversation")[1]               # nothing to keep in "ok", "thanks"
    assert not any("Sarah" in m["content"] for m in plain)
    said = lambda prompt: [m["content"].split(ASKED + "\n")[-1] for m in prompt if m["role"] != "system"]  # noqa: E731
    assert said(folded) == said(plain) and len(said(plain)) <= 13   # the window (12 at most) and this message


def test_the_model_rewrites_the_note_in_its_own_words_and_only_grounded_lines_stay(tmp_path):
    config = load_config(None)
    config = replace(config, session=replace(config.session, consolidate=False))
    llm = ScriptedLLM()
    # Message ids in a fresh file: turn n's message is 2n - 1. The window holds up to 12 messages and then
    # keeps its newest quarter: after turn 8 six of the user's messages have left it and the model is asked for
    # the note; again each time the window moves on (four or more have left).
    llm.enqueue_note('{"lines": [{"text": "The user is meeting Sarah at the station at 5pm on Friday.", "ids": [1]},'
                     ' {"text": "The user is flying to Paris with Sarah.", "ids": [1]},'
                     ' {"text": "The user has a sister called Ivy.", "ids": [99]}]}')
    with Memory(tmp_path / "m.db", embedder=None) as memory:
        brain = Brain(memory, llm, config, "ada")
        brain.connect()
        said = PLAN + [f"the weather is grey again, day {i}" for i in range(17)]
        for n, text in enumerate(said, start=1):
            llm.enqueue("Fascinating.")
            brain.turn(text)
            if n == 10:
                assert len(llm.note_requests) == 1
        prompt = brain.stats.last_prompt
    assert len(llm.note_requests) == 3                     # after turns 8, 14 and 20
    sent = [re.findall(r"^\[(\d+)\]", r[-1]["content"], re.M) for r in llm.note_requests]
    assert all(ids for ids in sent) and len(sum(sent, [])) == len(set(sum(sent, [])))   # no message sent twice
    first = llm.note_requests[0][-1]["content"]
    assert "[1] I'm meeting Sarah" in first and "[7] the weather is grey again, day 0" in first
    assert "(empty)" in first and "day 4" not in first     # only what had left the window
    note = next(m["content"] for m in prompt if "Earlier in this conversation" in m["content"])
    assert "The user is meeting Sarah at the station at 5pm on Friday." in note
    assert "Paris" not in note and "Ivy" not in note       # not said, or cited from no message of the session
    assert len([m for m in prompt if m["role"] in ("user", "assistant")]) <= 13     # the window is unchanged
    assert "The user is meeting Sarah" in llm.note_requests[1][-1]["content"]      # the note is rewritten, not restarted


def test_the_note_keeps_a_title_and_a_decimal_inside_their_sentence():
    """Issue 71: the running note cut "My boss is called Dr. Okafor" at "Dr."."""
    from assistant.turn.compaction import fold
    from memory import Message
    text = "My boss is called Dr. Okafor. He wants the report by Friday, in 3.5 pages."
    said = Message(1, "s1", "user", text, 20, "2026-12-01T10:00:00+00:00", False, "other")
    note = fold([said], 200)
    assert '"My boss is called Dr. Okafor."' in note and '"He wants the report by Friday, in 3.5 pages."' in note


def test_the_line_next_to_the_window_is_carried_every_time_when_the_note_cannot_be_rewritten(tmp_path):
    """Issue 71: with the note's rewrite failing, after the window moved a second time the lines that left it were
    in neither the window nor the note (the first fallback had filled the note, and its oldest lines stayed). Now
    the note's oldest lines give way, and of lines alike the newest is kept: the newest line that left the window is
    in the request every time (recall off, so only the window and the note can carry it)."""
    config = load_config(None)
    config = replace(config, session=replace(config.session, consolidate=False),
                     memory=replace(config.memory, recall_k=0))
    llm = ScriptedLLM()
    for _ in range(10):
        llm.enqueue_note("this is not the note's JSON")
    said = [f"Item {n}: the folder for project {n * 7} is in drawer {n} of the Leeds office, behind the old printer "
            "that Sarah said she would fix on Friday at 5pm." for n in range(1, 17)]
    with Memory(tmp_path / "m.db", embedder=None) as memory:
        brain = Brain(memory, llm, config, "ada")
        brain.connect()
        missing = []
        for n, text in enumerate(said, start=1):
            llm.enqueue("Fascinating.")
            brain.turn(text)
            prompt = brain.stats.last_prompt[1:]
            window = [i for i in range(1, n) if any(m["content"].endswith(said[i - 1]) for m in prompt)]
            noted = [i for i in range(1, n) if any(f'"Item {i}:' in m["content"] for m in prompt)]
            left = [i for i in range(1, n) if window and i < min(window)]
            if left and left[-1] not in noted:
                missing.append((n, left[-1]))
    assert len(llm.note_requests) >= 2                       # the window moved twice, each rewrite failed
    assert missing == []
