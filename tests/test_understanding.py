"""What she makes of a sentence, through `glados chat` and the stand-in Ollama server: questions
about the world reach the model, memory commands about the user do not, corrections correct,
medical facts are pinned, hedges and jokes are not facts."""
import json

import pytest

from memory import Memory, parse
from tests.conftest import glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, free_port


def facts(user: str, *flags: str) -> list[dict]:
    result = glados("memory", "list", "--json", "--user", user, *flags)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def current(user: str) -> set[tuple[str, str]]:
    return {(f["key"], f["value"]) for f in facts(user)}


def asked_model(stub: StubOllama) -> list[str]:
    return [r["messages"][-1]["content"] for r in stub.chats()]


WORLD_QUESTIONS = [
    "why do you think the sky is blue?",
    "what do you remember about the Apollo 11 landing?",
    "how do you know so much about science?",
    "can you remember the name of the song at the end of Portal?",
    "can you forget things?",
    "do you remember the war?",
    "what do you remember about our last chat?",
    "why do you think people like jazz?",
    "what do you know about black holes?",
]


def test_questions_about_the_world_reach_the_model_and_change_nothing():
    with StubOllama() as stub:
        result = chat(stub.url, "ada", "I live in Leeds", *WORLD_QUESTIONS)
    assert result.returncode == 0, result.stderr
    assert all(q in asked_model(stub) for q in WORLD_QUESTIONS), asked_model(stub)
    assert current("ada") == {("location", "Leeds")}


def test_memory_commands_about_the_user_are_answered_without_the_model():
    commands = ["what do you remember about me", "why do you think I'm allergic to peanuts",
                "remember that my locker code is 4512", "forget where I live"]
    with StubOllama() as stub:
        result = chat(stub.url, "ada", "I live in Leeds and I'm allergic to peanuts", *commands)
    assert result.returncode == 0, result.stderr
    assert asked_model(stub)[:1] == ["I live in Leeds and I'm allergic to peanuts"]
    assert not set(commands) & set(asked_model(stub))
    assert "location: Leeds" in result.stdout and "I'm allergic to peanuts" in result.stdout
    assert current("ada") == {("allergy", "peanuts"), ("note", "my locker code is 4512")}


QUESTIONS_ABOUT_ME = {
    "what's my name?": "Ada", "where do I live?": "Leeds", "where am I from?": "Cork",
    "what do I do for work?": "work as a nurse", "who do I work for?": "St Mary's",
    "am I allergic to anything?": "peanuts", "what's my diet?": "vegetarian",
    "do I have any pets?": "You have a dog named Rex", "what do I like?": "chess", "how old am I?": "34",
    "when is my birthday?": "march 3", "who is my wife?": "Mia", "do you know what I'm called?": "Ada",
    "what's the name of my dog?": "Rex", "do you remember where I live?": "Leeds", "how old do you think I am?": "34",
}


def test_questions_about_the_user_are_answered_from_facts_when_the_model_is_down():
    down = f"http://127.0.0.1:{free_port()}"
    result = chat(down, "ada", "My name is Ada. I live in Leeds. I grew up in Cork.",
                  "I work as a nurse at St Mary's. I'm allergic to peanuts and I'm vegetarian.",
                  "I have a dog named Rex. I love chess. I'm 34. My birthday is march 3. My wife's name is Mia.",
                  *QUESTIONS_ABOUT_ME)
    assert result.returncode == 0, result.stderr
    answers = result.stdout.split("you> ")[4:]
    for (question, expected), answer in zip(QUESTIONS_ABOUT_ME.items(), answers):
        assert expected in answer and "offline" not in answer, (question, answer)
    assert "3 turn(s) answered without the model" in result.stdout   # the three statements


def test_an_unknown_answer_says_so_and_the_model_gets_questions_when_up():
    down = f"http://127.0.0.1:{free_port()}"
    offline = chat(down, "bob", "where do I live?")
    assert "You never told me where you live" in offline.stdout
    with StubOllama() as stub:
        chat(stub.url, "bob", "what's my name?")
    assert "what's my name?" in asked_model(stub)


@pytest.mark.parametrize("correction", ["no wait, I meant Bristol", "sorry, Bristol, not Bath", "I said Bristol",
                                        "no, not Bath, Bristol", "sorry, I meant I live in Bristol"])
def test_a_correction_supersedes_what_was_just_said(correction):
    with StubOllama() as stub:
        chat(stub.url, "ada", "I'm allergic to peanuts", "I live in Bath", correction)
    assert current("ada") == {("allergy", "peanuts"), ("location", "Bristol")}
    history = [(f["key"], f["value"], f["valid_to"] is None) for f in facts("ada", "--all")]
    assert ("location", "Bath", False) in history


def test_a_correction_of_a_list_value_replaces_only_that_value(mem):
    mem.observe("ada", "I'm allergic to peanuts")
    mem.observe("ada", "I'm allergic to shellfish")
    mem.observe("ada", "oops, I meant cashews")
    assert {(f.key, f.value) for f in mem.facts("ada")} == {("allergy", "peanuts"), ("allergy", "cashews")}


def test_no_correction_without_a_fact_of_this_conversation_it_fits(mem):
    mem.observe("ada", "I live in Bath", session="monday")
    mem.observe("ada", "no wait, I meant Bristol", session="tuesday")    # another conversation: nothing to correct
    mem.observe("ada", "I'm allergic to peanuts", session="wednesday")
    mem.observe("ada", "what's the weather like?", session="wednesday")
    mem.observe("ada", "no wait, I meant Bristol", session="wednesday")  # a place is no allergen
    mem.observe("ada", "it's raining", session="wednesday")
    assert {(f.key, f.value) for f in mem.facts("ada")} == {("location", "Bath"), ("allergy", "peanuts")}


def test_a_correction_reaches_past_a_question_to_the_fact_it_fits(mem):
    mem.observe("ada", "I live in Bath", session="s")
    mem.observe("ada", "what's the weather like?", session="s")
    mem.observe("ada", "no wait, I meant Bristol", session="s")
    assert [(f.key, f.value) for f in mem.facts("ada")] == [("location", "Bristol")]


def test_medical_facts_are_pinned_and_can_be_retracted():
    with StubOllama() as stub:
        chat(stub.url, "ada", "I have type 1 diabetes", "I can't eat gluten, I'm coeliac", "I have asthma",
             "I take warfarin", "I'm lactose intolerant", "I don't have asthma anymore")
    rows = facts("ada")
    assert {(f["key"], f["value"]) for f in rows} == {
        ("medical", "type 1 diabetes"), ("medical", "gluten intolerance"), ("medical", "coeliac disease"),
        ("medical", "warfarin"), ("medical", "lactose intolerance")}
    assert all(f["pinned"] for f in rows)
    context = glados("memory", "context", "--user", "ada").stdout
    assert "warfarin" in context and "asthma" not in context.split("Earlier conversations")[0]
    # the session's summary says it was taken back, and the block marks it as no longer true
    assert all("no longer true" in line for line in context.splitlines() if "asthma" in line)


@pytest.mark.parametrize("text", [
    "I'm kind of allergic to mornings haha", "oh great, I just love Mondays", "I am married to a doctor",
    "I grew up in the industry", "I sort of live in the office lol", "my brother lives in Oslo",
    "if I had diabetes I would know", "my mom has asthma", "I wish I had a dog",
])
def test_hedges_jokes_and_other_people_store_nothing(mem, text):
    mem.observe("ada", text)
    assert mem.facts("ada") == []


def test_not_a_teacher_anymore_leaves_no_negated_row(mem):
    mem.observe("ada", "I'm a teacher")
    mem.observe("ada", "I'm not a teacher anymore, I'm retired")
    assert [(f.key, f.value) for f in mem.facts("ada")] == [("job", "retired")]


@pytest.mark.parametrize("text, kind, key", [
    ("who am I?", "list", None), ("tell me about myself", "list", None),
    ("how do you know where I live?", "why", "location"), ("why do you think I like jazz?", "why", "likes"),
    ("could you forget where I live?", "forget", "location"), ("stop remembering my address", "forget", "location"),
    ("can you remember that I'm vegan?", "remember", None),
])
def test_commands_in_other_words(text, kind, key):
    command = parse(text).command
    assert command is not None and command.kind == kind
    assert key is None or [t.key for t in command.targets] == [key]


@pytest.mark.parametrize("text", ["I meant to say hi", "I said no", "not now", "no wait", "it's raining",
                                  "I mean, the weather is nice", "no, I meant the other one"])
def test_not_corrections(text):
    assert not any(c.op == "correct" for c in parse(text).changes)


def test_one_parse_gives_the_command_and_its_target():
    parsed = parse("forget where I live")
    assert parsed.command is not None and parsed.command.kind == "forget"
    assert [(t.key, t.value) for t in parsed.command.targets] == [("location", None)]
    assert [(c.op, c.key) for c in parsed.changes] == [("forget", "location")]
    assert parse("what's my favourite colour?").command.targets[0].key == "favorite_color"
    assert parse("why do you think the sky is blue?").command is None


def test_observe_parses_once_and_returns_the_command(tmp_path):
    with Memory(tmp_path / "m.db") as mem:
        observed = mem.observe("ada", "why do you think I'm vegan?")
    assert observed.parsed.command is not None and observed.parsed.command.kind == "why"
    assert observed.changes == []
