"""Facts: supersession, reconfirmation, accumulation, retraction, point in time, isolation."""
from memory import UnknownKey
import pytest


def current(mem, user="ada"):
    return {(f.key, f.value) for f in mem.facts(user)}


def test_diet_change_supersedes_and_keeps_the_allergy(mem, clock):
    mem.observe("ada", "I'm vegetarian, and I'm allergic to peanuts.")
    clock.advance(days=3)
    obs = mem.observe("ada", "actually I've started eating fish again")
    assert [(c.kind, c.old_value, c.value) for c in obs.changes] == [("superseded", "vegetarian", "pescatarian")]
    assert current(mem) == {("diet", "pescatarian"), ("allergy", "peanuts")}
    old = [f for f in mem.facts("ada", history=True) if f.value == "vegetarian"][0]
    assert old.valid_to is not None and old.ended_by == "superseded"


def test_same_value_again_only_reconfirms(mem, clock):
    mem.observe("ada", "I live in Paris")
    clock.advance(hours=1)
    obs = mem.observe("ada", "i live in paris")
    assert [c.kind for c in obs.changes] == ["reconfirmed"]
    rows = mem.facts("ada", history=True)
    assert len(rows) == 1 and rows[0].confirmations == 2


def test_multi_valued_accumulate_without_duplicates_and_retract_alone(mem):
    mem.observe("ada", "I'm allergic to peanuts and cashews")
    mem.observe("ada", "i am allergic to peanuts")
    mem.observe("ada", "I'm allergic to shellfish")
    assert {v for k, v in current(mem) if k == "allergy"} == {"peanuts", "cashews", "shellfish"}
    mem.observe("ada", "I'm not allergic to cashews anymore")
    assert {v for k, v in current(mem) if k == "allergy"} == {"peanuts", "shellfish"}
    retracted = [f for f in mem.facts("ada", history=True) if f.value == "cashews"][0]
    assert retracted.ended_by == "retracted"


def test_retractions_of_likes_location_and_diet(mem):
    mem.observe("ada", "I like olives. I live in Paris. I'm vegan.")
    mem.observe("ada", "I don't like olives anymore")
    mem.observe("ada", "I no longer live in Paris")
    mem.observe("ada", "I'm no longer vegan")
    assert current(mem) == set()


def test_liking_something_ends_disliking_it(mem):
    mem.observe("ada", "I hate mushrooms")
    mem.observe("ada", "I love mushrooms now")
    assert current(mem) == {("likes", "mushrooms")}


def test_every_current_fact_points_to_its_message(mem):
    obs = mem.observe("ada", "My name is Ada and I live in London")
    for fact in mem.facts("ada"):
        assert fact.source_message_id == obs.message_id
        assert fact.source == "My name is Ada and I live in London"


def test_point_in_time(mem, clock):
    t0 = clock.now
    mem.observe("ada", "I live in Paris")
    t1 = clock.advance(days=10)
    mem.observe("ada", "I've moved to Berlin")
    clock.advance(days=10)
    assert {f.value for f in mem.facts("ada", at=t0.replace(second=1))} == {"Paris"}
    assert {f.value for f in mem.facts("ada", at=t1)} == {"Berlin"}
    before = t0.replace(year=2025)
    assert mem.facts("ada", at=before) == []


def test_users_never_see_each_other(mem):
    mem.observe("ada", "I'm allergic to peanuts and I live in London")
    mem.observe("bob", "remember that the vault code is 1234")
    assert current(mem, "bob") == {("note", "the vault code is 1234")}
    assert "peanuts" not in mem.load_context("bob")
    assert mem.recall("bob", "peanuts london") == []
    assert mem.recall("ada", "vault code") == []
    # Bob's secret by its words: "1234" alone can turn up inside a random hex id of Ada's own rows.
    assert "vault" not in str(mem.export("ada")).lower()
    mem.clear("bob")
    assert ("allergy", "peanuts") in current(mem, "ada")


def test_direct_remember_checks_the_key(mem):
    mem.remember("ada", "favorite_tea", "earl grey")
    assert ("favorite_tea", "earl grey") in current(mem)
    with pytest.raises(UnknownKey):
        mem.remember("ada", "password'; DROP TABLE facts; --", "x")
