"""Pin and expire: what a long-lived memory does with time. The user's pins stay in the memory block
whatever the cap and carry over when the fact changes; passing states leave recall after a day; two
years on, the allergy and the pins are still there."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from memory import Memory, RecallSettings, StaysPinned
from tests.conftest import glados

LONG_AGO = datetime(2024, 11, 20, 9, 0, tzinfo=timezone.utc)      # two years before this session's tests


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_always_remember_pins_a_note_that_stays_in_the_block_whatever_the_cap(tmp_path):
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        said = mem.observe("ada", "always remember that my daughter's name is Ivy", session="s")
        assert [(c.kind, c.key) for c in said.changes] == [("added", "note"), ("pinned", "note")]
        for i in range(12):
            mem.observe("ada", f"I love hobby number {i} a lot", session="s")
        block = mem.load_context("ada", max_facts=3)
        assert "Ivy" in block and "(pinned)" in block
        plain = mem.observe("ada", "remember that the bins go out on Tuesday", session="s")
        assert all(c.kind != "pinned" for c in plain.changes)             # an ordinary note is not pinned


def test_pin_that_pins_what_was_just_said_and_the_pin_follows_the_fact_as_it_changes(tmp_path):
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        mem.observe("ada", "I live in Leeds", session="s")
        pinned = mem.observe("ada", "pin that", session="s")
        assert [(c.kind, c.key, c.value) for c in pinned.changes] == [("pinned", "location", "Leeds")]
        mem.observe("ada", "I've moved to York", session="s")
        now = {f.key: f for f in mem.facts("ada")}
        assert now["location"].value == "York" and now["location"].user_pinned
        assert mem.observe("ada", "pin that", session="other").changes == []      # nothing said before it there
        assert [f.value for f in mem.unpin("ada", "location")] == ["York"]
        assert not mem.facts("ada")[0].pinned


def test_safety_pins_cannot_be_unpinned_and_pins_that_outgrow_the_block_say_so(tmp_path):
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        mem.observe("ada", "I'm allergic to peanuts")
        with pytest.raises(StaysPinned, match="keeps you safe"):
            mem.unpin("ada", "allergy")
        for i in range(8):
            mem.observe("ada", f"always remember that locker number {i} holds my spare kit for the gym")
        block = mem.block("ada", max_tokens=90)
        assert "peanuts" in block.text and "locker number 0" in block.text    # the allergy, then the oldest pins
        assert "locker number 7" not in block.text
        assert block.notice and "did not fit" in block.notice


def test_two_years_on_the_allergy_and_pins_remain_and_a_passing_state_is_gone(tmp_path):
    """An aged store, read two years later through the CLI (whose clock is today's)."""
    db = tmp_path / "m.db"
    clock = Clock(LONG_AGO)
    with Memory(db, clock=clock, embedder=None) as mem:
        mem.observe("ada", "I'm allergic to peanuts", session="s1")
        mem.observe("ada", "always remember that my daughter's name is Ivy", session="s1")
        mem.observe("ada", "I'm so tired today", session="s1")
        assert [r.text for r in mem.recall("ada", "tired")] == ["I'm so tired today"]     # that day it was true
        clock.now = LONG_AGO + timedelta(days=2)
        assert mem.recall("ada", "tired") == []                                           # a day later it is not
    context = glados("memory", "context", "--user", "ada", "--db", str(db)).stdout
    assert "peanuts" in context and "Ivy" in context
    recalled = lambda q: [r["text"] for r in json.loads(glados("memory", "recall", q, "--json", "--user", "ada",  # noqa: E731
                                                                "--db", str(db)).stdout)]
    assert "I'm so tired today" not in recalled("tired")
    assert recalled("peanuts")[0] == "I'm allergic to peanuts"
    assert any("Ivy" in text for text in recalled("daughter"))
    exported = json.loads(glados("memory", "export", "--user", "ada", "--db", str(db)).stdout)
    assert "I'm so tired today" in [m["text"] for m in exported["messages"]]          # history keeps it


def test_expired_facts_leave_the_block_and_list_all_marks_them(tmp_path):
    settings = RecallSettings(expire_days={"state": 1.0, "likes": 30.0})
    clock = Clock(LONG_AGO)
    with Memory(tmp_path / "m.db", clock=clock, embedder=None, recall_settings=settings) as mem:
        mem.observe("ada", "I love hiking and I live in Leeds")
        clock.now = LONG_AGO + timedelta(days=60)
        block = mem.load_context("ada")
        assert "Leeds" in block and "hiking" not in block                       # identity never expires
        assert {f.key for f in mem.facts("ada") if mem.is_expired(f)} == {"likes"}
    with Memory(tmp_path / "many.db", clock=clock, embedder=None, recall_settings=settings) as mem:
        mem.observe("ada", "I live in Leeds")
        for i in range(70):       # the newest facts, far more than the block holds, all expired by then
            mem.remember("ada", f"favorite_thing{i}", f"thing {i}")
        clock.now += timedelta(days=60)
        assert "Leeds" in mem.load_context("ada", max_facts=10)
    config = tmp_path / "config.yaml"
    config.write_text("recall:\n  expire_days:\n    likes: 30\n")
    listed = glados("memory", "list", "--all", "--user", "ada", "--db", str(tmp_path / "m.db"), "--config", str(config))
    assert any("hiking" in line and "expired" in line for line in listed.stdout.splitlines()), listed.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("recall:\n  expire_days:\n    health: 30\n")
    refused = glados("memory", "list", "--config", str(bad))
    assert refused.returncode == 1 and "never expire" in refused.stderr


def test_pin_and_unpin_from_the_command_line_and_the_chat(tmp_path):
    db = str(tmp_path / "m.db")
    glados("memory", "observe", "I live in Leeds and I'm allergic to cashews", "--user", "ada", "--db", db)
    assert glados("memory", "pin", "location", "--user", "ada", "--db", db).stdout.strip() == "pinned location: Leeds"
    listed = glados("memory", "list", "--user", "ada", "--db", db).stdout
    assert "location *" in listed
    refused = glados("memory", "unpin", "allergy", "--user", "ada", "--db", db)
    assert refused.returncode == 1 and "keeps you safe" in refused.stderr and len(refused.stderr.splitlines()) == 1
    chat = glados("chat", "--user", "ada", "--db", db, input="/memory unpin location\n/quit\n",
                  env={"OLLAMA_HOST": "http://127.0.0.1:9"})
    assert "unpinned location: Leeds" in chat.stdout
    said = glados("chat", "--user", "ada", "--db", db, input="always remember that the spare key is under the mat\n/quit\n",
                  env={"OLLAMA_HOST": "http://127.0.0.1:9"})
    assert "Pinned:" in said.stdout


def test_the_model_can_pin_with_its_tool(tmp_path):
    from assistant.config import load_config
    from assistant.llm import ToolCall
    from assistant.turn.brain import Brain
    from tests.fakes import ScriptedLLM
    llm = ScriptedLLM(tools=True)
    llm.enqueue("", tool_calls=[ToolCall("memory_pin", {"key": "location"})]).enqueue("Pinned. Like a butterfly.")
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        mem.observe("ada", "I live in Leeds")
        brain = Brain(mem, llm, load_config(), "ada")
        brain.connect()
        assert brain.turn("please don't ever lose track of where I live").text == "Pinned. Like a butterfly."
        assert [f.user_pinned for f in mem.facts("ada")] == [True]
