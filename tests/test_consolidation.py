"""The model as a second reader at a session's end, through `glados chat`, the real `ollama` client
and the stand-in server with scripted proposals: only facts grounded in the user's own words of
that session are stored, marked as the model's."""
import json

import pytest

from memory import Memory, Proposal
from tests.conftest import glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, free_port

# In a fresh database the user's lines get ids 1, 3, 5, ... (her replies take 2, 4, 6, ...).
SESSION = ["I've been nursing for twelve years", "we adopted a greyhound called Pip",
           "my doctor put me on metformin", "my brother lives in Oslo", "I'm allergic to peanuts"]


def proposals(*facts: tuple) -> str:
    return json.dumps({"facts": [{"key": k, "value": v, "message_id": i, "replaces": r, **extra}
                                 for k, v, i, r, *more in facts for extra in (more[0] if more else {},)]})


def session_with(reply: str, lines=SESSION) -> tuple:
    with StubOllama() as stub:
        for _ in lines:
            stub.enqueue("Noted.")
        stub.enqueue(reply).enqueue("A summary.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    return result, stub


def facts(*flags: str) -> list[dict]:
    return json.loads(glados("memory", "list", "--json", "--user", "ada", *flags).stdout)


def model_facts() -> set[tuple[str, str]]:
    return {(f["key"], f["value"]) for f in facts() if f["origin"] == "model"}


def test_grounded_facts_are_stored_as_the_models():
    result, stub = session_with(proposals(("job", "nurse", 1, False), ("medical", "metformin", 5, False)))
    request = next(r for r in stub.chats() if "format" in r)
    assert request["format"]["required"] == ["facts"]
    assert "[1] I've been nursing for twelve years" in request["messages"][1]["content"]
    assert "Noted." not in request["messages"][1]["content"]           # only the user's words are read
    assert model_facts() == {("job", "nurse"), ("medical", "metformin")}
    metformin = next(f for f in facts() if f["value"] == "metformin")
    assert metformin["origin_model"] == "llama3.2" and metformin["pinned"]
    assert "kept job: nurse; medical: metformin" in result.stdout
    listed = glados("memory", "list", "--user", "ada", "--origin", "model").stdout
    assert "nurse" in listed and "model (llama3.2)" in listed and "peanuts" not in listed


REJECTED = [
    (("likes", "skydiving", 1, False), "never said"),                 # invented value
    (("location", "Oslo", 7, False), "someone else"),                 # a third party
    (("likes", "noted", 2, False), "her own words"),                  # the assistant's words
    (("hobby", "nursing", 1, False), "not a fact key"),               # an unknown key
    (("allergy", "peanuts", 9, True, {"op": "retract"}), "only add"),  # taking an allergy away
    (("allergy", "tree nuts", 9, True), "never said"),
    (("allergy", "peanuts", 9, True), "pinned"),                      # "replacing" a known allergy
    (("allergy", "peanuts", 9, False, {"op": "delete"}), "only add"),
    (("age", "12", 1, False), "does not speak of"),                   # a number that is no age
    (("pet", "cat", 99, False), "not one of this session's"),         # a message that is not there
]


@pytest.mark.parametrize("proposal, why", REJECTED, ids=[p[0][0] + "-" + p[1].split()[-1] for p in REJECTED])
def test_ungrounded_proposals_are_rejected_with_a_reason(proposal, why):
    result, _ = session_with(proposals(proposal))
    assert model_facts() == set()
    assert "rejected" in result.stdout and why in result.stdout


def test_everything_rejected_at_once_stores_nothing():
    result, _ = session_with(proposals(*(p for p, _ in REJECTED)))
    assert model_facts() == set()
    assert {(f["key"], f["value"]) for f in facts()} == {("allergy", "peanuts"), ("pet", "greyhound named Pip")}


@pytest.mark.parametrize("reply", ['{"facts": [{"key": "job", "value": "nurse", "message_id": 1, "repl',
                                   "Sure! The user is a nurse.", '{"facts": "nurse"}',
                                   '{"facts": [{"key": "job", "value": "nurse"}]}'])
def test_a_malformed_or_truncated_reply_stores_nothing(reply):
    result, _ = session_with(reply)
    assert model_facts() == set()
    assert "unusable" in result.stdout and "nothing from it stored" in result.stdout


def test_facts_the_rules_found_are_not_duplicated():
    session_with(proposals(("allergy", "peanuts", 9, False), ("pet", "dog named Pip", 3, False),
                           ("job", "nurse", 1, False)))
    assert model_facts() == {("job", "nurse")}
    assert sum(1 for f in facts() if f["key"] == "pet") == 1


def test_a_single_value_changes_only_when_the_message_says_so():
    lines = ["I live in Leeds", "I work at the hospital", "I moved to York last month"]
    session_with(proposals(("employer", "Leeds General", 3, True), ("location", "York", 5, True)), lines)
    # the rules caught "moved to York"; the model may not swap the employer unprompted
    assert {(f["key"], f["value"]) for f in facts()} == {("location", "York"), ("employer", "Hospital")}


def test_why_and_forget_work_on_model_facts():
    session_with(proposals(("job", "nurse", 1, False)))
    down = f"http://127.0.0.1:{free_port()}"
    why = chat(down, "ada", "why do you think I'm a nurse?")
    assert "llama3.2 read it" in why.stdout and "nursing for twelve years" in why.stdout
    nurse = next(f for f in facts() if f["value"] == "nurse")
    assert glados("memory", "forget", nurse["id"][:8], "--user", "ada").returncode == 0
    assert model_facts() == set()


def test_a_slow_model_is_skipped_with_one_line(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("llm:\n  first_token_timeout_s: 1\n")
    with StubOllama() as stub:
        stub.enqueue("Noted.").enqueue(stall=True)
        result = chat(stub.url, "ada", "I've been nursing for twelve years", env={"GLADOS_CONFIG": str(cfg)})
        asked = len(stub.chats())
    assert result.returncode == 0
    assert result.stdout.count("skipped reading the session with the model") == 1
    assert asked == 2       # the turn and the stalled reading: the summary is not asked for (no second wait)
    assert "session saved" not in result.stdout      # and nothing was learned: no summary at all
    assert model_facts() == set()


def test_consolidation_can_be_turned_off(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("session:\n  consolidate: false\n")
    with StubOllama() as stub:
        chat(stub.url, "ada", "I've been nursing for twelve years", env={"GLADOS_CONFIG": str(cfg)})
    assert not any("format" in r for r in stub.chats())


def test_memory_consolidate_checks_the_session_and_the_user(tmp_path):
    with Memory(tmp_path / "m.db") as mem:
        mine = mem.observe("ada", "I've been nursing for twelve years", session="s1").message_id
        other = mem.observe("bob", "I've been nursing for twelve years", session="s1").message_id
        earlier = mem.observe("ada", "I'm a keen gardener", session="s0").message_id
        verdicts = mem.consolidate("ada", "s1", [Proposal("job", "nurse", other), Proposal("likes", "gardening", earlier),
                                                 Proposal("job", "nurse", mine)], "m")
        assert [v.outcome for v in verdicts] == ["rejected", "rejected", "stored"]
        assert [(f.key, f.value, f.origin) for f in mem.facts("bob")] == []
