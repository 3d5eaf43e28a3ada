"""What reaches the model is true now: through `glados chat` processes and the stand-in Ollama server,
no request states a superseded value without saying it changed, and a forgotten value leaves no copy."""
import json
import os

from tests.conftest import glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, session_end, unmarked


def turn_requests(stub: StubOllama) -> list[dict]:
    return [r for r in stub.chats() if not session_end(r)]


def test_no_request_states_a_superseded_value_as_current():
    with StubOllama() as stub:
        for _ in range(12):
            stub.enqueue("Fascinating.")
        chat(stub.url, "chell", "I'm vegetarian, and I'm allergic to peanuts.", "I live in Bath")
        chat(stub.url, "chell", "actually I've started eating fish again", "no wait, I live in Bristol now")
        chat(stub.url, "chell", "suggest a quick lunch", "what should I do in town this weekend?",
             "what did I tell you about my diet?")
    later = turn_requests(stub)[4:]
    assert len(later) == 3
    for request in later:
        system = request["messages"][0]["content"]
        assert 'diet: "pescatarian"' in system and 'location: "Bristol"' in system and '"peanuts"' in system
        assert unmarked(request, "vegetarian") == [] and unmarked(request, "Bath") == []
    # the old values are still there, marked: what she was told before is history, not forgotten
    said = json.dumps([m["content"] for r in later for m in r["messages"]])
    assert 'diet \\"pescatarian\\", not \\"vegetarian\\"' in said


def test_a_forgotten_code_leaves_no_copy_anywhere(tmp_path):
    with StubOllama() as stub:
        stub.enqueue("Fine.").enqueue('{"facts": []}')
        # the model's summary words the code its own way; it is grounded in the session, so it is kept
        stub.enqueue("The user asked me to remember the locker code 4512 and asked what I know.")
        result = chat(stub.url, "chell", "remember that my locker code is 4512", "I'm allergic to peanuts",
                      "what do you know about me?")
        assert "Your locker code is 4512" in result.stdout
    assert "4512" in glados("memory", "summaries", "--user", "chell").stdout
    forgot = glados("memory", "forget", "locker code", "--yes", "--user", "chell")
    assert forgot.returncode == 0, forgot.stderr
    for args in (["export"], ["summaries"], ["context"], ["list", "--all", "--json"],
                 ["recall", "locker code", "--json"], ["recall", "what do you know about me", "--json"]):
        out = glados("memory", *args, "--user", "chell")
        assert out.returncode == 0 and "4512" not in out.stdout, args
    for name in os.listdir(tmp_path):
        if name.startswith("memory.db"):
            assert b"4512" not in (tmp_path / name).read_bytes(), name
    assert "peanuts" in glados("memory", "context", "--user", "chell").stdout     # the rest stays


def test_every_reader_of_stored_text_says_what_changed(mem, clock):
    """The CLI's recall and summaries, recall's JSON, the model's recall tool and the MCP server all carry
    the mark, not only the prompt."""
    from assistant.serve.mcp import _glados_recalled, _glados_summary
    mem.observe("ada", "I'm vegetarian and I live in Bath", session="s1")
    mem.add_summary("ada", "s1", "The user said they are vegetarian.")
    clock.advance(days=2)
    mem.observe("ada", "actually I've started eating fish again", session="s2")
    (found,) = [r for r in mem.recall("ada", "am I vegetarian?", k=3) if "vegetarian" in r.text]
    assert [(c.key, c.old, c.now) for c in found.since] == [("diet", "vegetarian", "pescatarian")]
    (summary,) = mem.summaries("ada")
    assert "pescatarian" in _glados_summary(summary)["content"]
    assert 'not "vegetarian"' in _glados_recalled(found)["content"]
    mem.close()
    shown = glados("memory", "recall", "am I vegetarian?", "--user", "ada", "--db", str(mem.path))
    assert 'since 3 January 2026: diet "pescatarian", not "vegetarian"' in shown.stdout
    as_json = json.loads(glados("memory", "recall", "am I vegetarian?", "--json", "--user", "ada", "--db",
                                str(mem.path)).stdout)
    assert as_json[0]["since"][0]["now"] == "pescatarian"
    listed = glados("memory", "summaries", "--user", "ada", "--db", str(mem.path)).stdout
    assert 'diet "pescatarian"' in listed


def test_what_changed_is_found_in_any_saying_and_a_place_only_as_a_name(mem, clock):
    mem.observe("ada", "I live in Bath and I'm allergic to peanuts", session="s1")
    mem.observe("ada", "remember that my locker code is 4512", session="s1")
    clock.advance(days=1)
    mem.observe("ada", "I live in Bristol now", session="s2")
    mem.observe("ada", "I'm not allergic to peanuts anymore", session="s2")
    mem.observe("ada", "my locker code changed, remember that my locker code is 7781", session="s2")
    changes = mem.views.changes("ada")
    said = {(c.key, c.old, c.now) for c in changes.of("They live in Bath. Their allergy: peanuts.")}
    assert said == {("location", "Bath", "Bristol"), ("allergy", "peanuts", None)}
    assert changes.of("I took a bath after the gym") == ()                   # a bath is not Bath
    assert changes.of("Your locker code is 7781.") == ()                     # the note still held is not stale
    assert ("allergy", "peanuts") in {(c.key, c.old) for c in changes.of("PEANUTS, again")}
