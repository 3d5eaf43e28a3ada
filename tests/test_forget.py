"""Forget means gone: facts, history, FTS index, recall, context, export and the file's bytes."""
import json

import pytest

from memory import Ambiguous, NotFound


def raw_bytes(mem) -> bytes:
    """Everything on disk for this database: the file and any WAL or journal beside it."""
    data = b""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path = mem.path.with_name(mem.path.name + suffix)
        if path.exists():
            data += path.read_bytes()
    return data


def assert_gone(mem, user, word):
    lowered = word.lower()
    assert all(lowered not in f.value.lower() for f in mem.facts(user, history=True))
    assert all(lowered not in f.source.lower() for f in mem.facts(user, history=True))
    assert mem.recall(user, word) == []
    assert lowered not in mem.load_context(user).lower()
    assert lowered not in json.dumps(mem.export(user)).lower()
    fts = mem.db.execute("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", (f'"{word}"',)).fetchone()[0]
    assert fts == 0
    notes = mem.db.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (f'"{word}"',)).fetchone()[0]
    assert notes == 0
    assert word.encode() not in raw_bytes(mem) and lowered.encode() not in raw_bytes(mem)


def assert_there(mem, user, word, recalled: bool = True):
    """The other half of assert_gone: before the forget, the word was stored where it will be looked for,
    so its absence afterwards means it was deleted, not that it never arrived."""
    lowered = word.lower()
    assert any(lowered in f.value.lower() for f in mem.facts(user, history=True))
    assert (mem.recall(user, word) != []) is recalled
    fts = mem.db.execute("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", (f'"{word}"',)).fetchone()[0]
    assert fts > 0
    assert word.encode() in raw_bytes(mem) or lowered.encode() in raw_bytes(mem)


def test_forget_by_voice_removes_the_fact_everywhere_and_keeps_the_rest(mem, clock):
    mem.observe("ada", "I'm vegetarian, and I'm allergic to Pistachios.")
    mem.add_summary("ada", "s1", "Talked about Pistachios and baking.")
    mem.add_summary("ada", "s2", "The user is baking a cake for Sunday. They are allergic to pistachios.")
    clock.advance(hours=1)
    mem.observe("ada", "remember that pistachios make me sneeze")
    assert_there(mem, "ada", "Pistachios")
    mem.observe("ada", "Forget that I'm allergic to pistachios.")
    assert_gone(mem, "ada", "Pistachios")
    assert {(f.key, f.value) for f in mem.facts("ada")} == {("diet", "vegetarian")}
    # a summary loses the sentences that stated it, and goes when nothing is left
    assert [s.text for s in mem.summaries("ada")] == ["The user is baking a cake for Sunday."]


def test_forget_a_key_with_its_history(mem, clock):
    mem.observe("ada", "I live in Reykjavik")
    clock.advance(days=1)
    mem.observe("ada", "I've moved to Trondheim")
    assert_there(mem, "ada", "Reykjavik", recalled=False)      # in the history, superseded: never recalled
    assert_there(mem, "ada", "Trondheim")
    mem.observe("ada", "forget where I live")
    assert_gone(mem, "ada", "Reykjavik")
    assert_gone(mem, "ada", "Trondheim")


def test_forget_by_id_prefix_and_by_key(mem):
    mem.observe("ada", "My favorite color is vermilion and I live in Quito")
    fact = next(f for f in mem.facts("ada") if f.key == "favorite_color")
    assert_there(mem, "ada", "vermilion")
    assert_there(mem, "ada", "Quito")
    assert [c.value for c in mem.forget("ada", fact.id[:8])] == ["vermilion"]
    assert_gone(mem, "ada", "vermilion")
    mem.forget("ada", "location")
    assert_gone(mem, "ada", "Quito")
    with pytest.raises(NotFound):
        mem.forget("ada", "location")


def test_ambiguous_prefix_is_refused(mem):
    def fact(fact_id: str, value: str) -> dict:
        return {"id": fact_id, "key": "note", "value": value, "source": value, "asserted_at": mem.now(),
                "valid_from": mem.now(), "valid_to": None}
    # Two facts whose ids share a prefix, made so on purpose (an import keeps ids).
    mem.import_("ada", {"format": "glados-memory/1", "facts": [fact("abcd1111" + "0" * 24, "first note"),
                                                              fact("abcd2222" + "0" * 24, "second note")]})
    with pytest.raises(Ambiguous):
        mem.forget("ada", "abcd")
    with pytest.raises(NotFound):
        mem.forget("ada", "ffff")
    assert [f.value for f in mem.forget("ada", "abcd2")] == ["second note"]
    assert [f.value for f in mem.facts("ada")] == ["first note"]


def test_clear_removes_the_user_and_only_that_user(mem):
    mem.observe("ada", "I'm allergic to Quinoa. remember that my locker is Zanzibar")
    mem.add_summary("ada", "s1", "Quinoa talk")
    mem.observe("bob", "I'm allergic to peanuts")
    assert_there(mem, "ada", "Quinoa")
    assert_there(mem, "ada", "Zanzibar")
    counts = mem.clear("ada")
    assert counts["facts"] == 2 and counts["messages"] == 1 and counts["summaries"] == 1
    assert_gone(mem, "ada", "Quinoa")
    assert_gone(mem, "ada", "Zanzibar")
    assert mem.facts("ada") == [] and mem.summaries("ada") == [] and mem.sessions("ada") == []
    assert {f.value for f in mem.facts("bob")} == {"peanuts"}
