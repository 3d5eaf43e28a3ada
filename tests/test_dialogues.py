"""What she learns is what was said: corrections bind to the fact whose kind fits the value, time words
and the talk around a value are not part of it, every reader marks what has changed, and a forget reply
names only what she had been told."""
from __future__ import annotations

import pytest

from bench.dialogue_bench import tell, verdict
from bench.dialogue_set import DIALOGUES
from memory import Memory
from tests.conftest import glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, unmarked
from tests.test_compaction import run
from tests.test_understanding import current, facts


def told(tmp_path, *said: str) -> set[tuple[str, str]]:
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        for text in said:
            mem.observe("ada", text, session="s")
        return {(f.key, f.value) for f in mem.facts("ada")}


def test_the_dialogue_set_ends_right_and_never_dangerous():
    results = [verdict({tuple(p) for p in got}, d.facts) for got, d in zip(tell([list(d.said) for d in DIALOGUES]), DIALOGUES)]
    assert "dangerous" not in results
    for held in (False, True):
        part = [r for r, d in zip(results, DIALOGUES) if d.held == held]
        assert part.count("right") >= 0.95 * len(part)


def test_a_correction_changes_the_place_and_leaves_the_diet_alone():
    with StubOllama() as stub:
        chat(stub.url, "ada", "I live in Bath", "I'm vegetarian", "actually I've started eating fish again",
             "no wait, I meant Bristol")
    assert current("ada") == {("location", "Bristol"), ("diet", "pescatarian")}
    assert [f["pinned"] for f in facts("ada") if f["key"] == "diet"] == [True]


@pytest.mark.parametrize("said, want", [
    (["I'm vegan", "I live in Hull", "no wait, I meant vegetarian"], {("diet", "vegetarian"), ("location", "Hull")}),
    (["my favourite colour is blue", "I live in Oxford", "oops, I meant green"],
     {("favorite_color", "green"), ("location", "Oxford")}),
    (["My name is Ana", "I live in Porto", "sorry, Lisbon"], {("name", "Ana"), ("location", "Lisbon")}),
    (["I'm allergic to peanuts", "no wait, I meant Bristol"], {("allergy", "peanuts")}),     # nothing fits: kept as words
    (["I'm vegan", "oops, I meant 35"], {("diet", "vegan")}),
    (["I'm allergic to peanuts", "I live in Leeds", "sorry, I meant cashews"], {("allergy", "cashews"), ("location", "Leeds")}),
])
def test_a_bare_value_corrects_only_a_fact_of_its_kind(tmp_path, said, want):
    assert told(tmp_path, *said) == want


@pytest.mark.parametrize("text, want", [
    ("I moved to Leeds last year, it's lovely", ("location", "Leeds")),
    ("I've lived in Bristol for 10 years", ("location", "Bristol")),
    ("I started at Google last month", ("employer", "Google")),
    ("I've been vegan for three years now", ("diet", "vegan")),
    ("I've worked as a plumber for twenty years", ("job", "plumber")),
    ("honestly I'm a software engineer, lol", ("job", "software engineer")),
    ("I live in Zürich 🇨🇭", ("location", "Zürich")),
    ("Since 2019 I've lived in Leeds", ("location", "Leeds")),
])
def test_time_words_laughter_and_emoji_are_not_part_of_a_value(tmp_path, text, want):
    assert told(tmp_path, text) == {want}


@pytest.mark.parametrize("text", ["I'm moving to Lisbon next year", "I lived in Leeds two years ago",
                                  "I might go vegan next year", "I'm allergic to mornings lol"])
def test_plans_the_past_and_jokes_are_not_present_facts(tmp_path, text):
    assert told(tmp_path, text) == set()


def test_observe_from_standard_input_stores_the_line_without_its_end():
    done = glados("memory", "observe", "--user", "ada", "-", input="I live in Leeds\n")
    assert done.returncode == 0, done.stderr
    assert [f["source"] for f in facts("ada")] == ["I live in Leeds"]


def test_the_running_note_marks_what_has_changed_since(tmp_path):
    request = {"messages": run(tmp_path, 150, ["My name is Alex and I live in Bath.", "ok", "I moved to Bristol today."])}
    notes = [m["content"] for m in request["messages"] if "Earlier in this conversation" in m["content"]]
    assert notes and "I live in Bath" in notes[0]
    assert unmarked(request, "Bath") == []      # '(changed since ...: location "Bristol", not "Bath")'


def test_a_forget_reply_names_what_she_was_told_not_the_questions_asked():
    with StubOllama() as stub:
        out = chat(stub.url, "ada", "remember that my locker code is 4512", "what's my locker code?",
                   "forget my locker code").stdout
    deleted = out[out.index("Deleted"):]
    assert "locker code is 4512" in deleted and "code?" not in deleted      # not "what's your locker code?"
    assert "4512" not in glados("memory", "history", "--user", "ada").stdout
