"""`glados chat` and the real `ollama` client against a stand-in Ollama server on loopback."""
import io
import json
import socket
from dataclasses import replace

from rich.console import Console

from assistant.turn.brain import Brain
from assistant.turn.prompt import ASKED
from assistant.cli.chat import ChatUI
from assistant.cli.lineedit import PipedLines
from assistant.llm import make_llm
from assistant.config import load_config
from memory import Memory
from tests.conftest import glados
from tests.ollama_stub import StubOllama


def chat(stub_url: str, user: str, *lines: str, env: dict | None = None):
    return glados("chat", "--user", user, input="\n".join(lines) + "\n",
                  env={"OLLAMA_HOST": stub_url, **(env or {})})


def session_end(request: dict) -> bool:
    """A request made when the session ends: the model's reading of it, or the summary."""
    system = request["messages"][0]["content"]
    return "Summarize" in system or ("standing facts" in system and "format" in request)


def unmarked(request: dict, value: str) -> list[str]:
    """The lines of a request that state `value` without saying it has changed since."""
    return [line for m in request["messages"] for line in m["content"].splitlines()
            if value.casefold() in line.casefold() and f'not "{value}"' not in line and 'no longer true' not in line]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_facts_from_one_process_reach_the_prompt_of_the_next():
    with StubOllama() as stub:
        stub.enqueue("How dreadful for you.")
        first = chat(stub.url, "ada", "I'm vegetarian and I'm allergic to peanuts", "/quit")
        assert first.returncode == 0, first.stderr
        assert "How dreadful for you." in first.stdout
        stub.enqueue("Fish it is.").enqueue("Try the salmon.")
        second = chat(stub.url, "ada", "actually I've started eating fish again", "what should I have for dinner?")
        assert second.returncode == 0, second.stderr
    request = next(r for r in stub.chats() if not session_end(r) and
                   r["messages"][-1]["content"] == "what should I have for dinner?")
    system = request["messages"][0]["content"]
    assert '"peanuts"' in system and '"pescatarian"' in system
    assert unmarked(request, "vegetarian") == []     # said before, and marked as changed wherever it is
    assert request["messages"][-1] == {"role": "user", "content": "what should I have for dinner?"}
    assert request["stream"] is True and request["model"] == "llama3.2"
    assert request["options"]["num_predict"] == 400 and request["options"]["num_ctx"] > 400


def test_another_user_gets_nothing_of_ada():
    with StubOllama() as stub:
        chat(stub.url, "ada", "my name is Ada and I live in Reykjavik")
        chat(stub.url, "bob", "where do I live?")
    bob_request = [r for r in stub.chats() if r["messages"][-1]["content"] == "where do I live?"][0]
    assert "Reykjavik" not in json.dumps(bob_request) and "Ada" not in json.dumps(bob_request)
    assert "remember about the user" not in bob_request["messages"][0]["content"]


def test_ollama_down_at_start_degrades_and_still_remembers():
    down = f"http://127.0.0.1:{free_port()}"
    result = chat(down, "ada", "I live in Lisbon", "tell me a joke", "what do you remember about me")
    assert result.returncode == 0
    assert "ollama serve" in result.stdout and "memory commands still work" in result.stdout
    assert "location: Lisbon" in result.stdout
    assert "2 turn(s) answered without the model" in result.stdout
    facts = json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)
    assert [(f["key"], f["value"]) for f in facts] == [("location", "Lisbon")]


def test_missing_model_says_how_to_pull_it():
    with StubOllama(models=()) as stub:
        result = chat(stub.url, "ada", "hello")
    assert "ollama pull llama3.2" in result.stdout
    assert "1 turn(s) answered without the model" in result.stdout


def test_model_from_the_environment():
    with StubOllama(models=("mistral:latest",)) as stub:
        chat(stub.url, "ada", "hello", env={"OLLAMA_MODEL": "mistral"})
    assert stub.chats()[0]["model"] == "mistral"


def test_a_stalled_server_hits_the_timeout_and_the_chat_goes_on(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("llm:\n  first_token_timeout_s: 1\n  between_tokens_timeout_s: 1\n")
    with StubOllama() as stub:
        stub.enqueue(stall=True).enqueue("Still here.")
        result = chat(stub.url, "ada", "hello?", "hello again", env={"GLADOS_CONFIG": str(cfg)})
    assert "no reply from Ollama within 1 s" in result.stdout
    assert "Still here." in result.stdout and result.returncode == 0


def test_memory_commands_make_no_model_call():
    with StubOllama() as stub:
        result = chat(stub.url, "ada", "remember that the spare key is in the blue vase",
                      "what do you remember about me", "/recall vase", "/memory")
        assert all(session_end(r) for r in stub.chats())
    assert result.stdout.count("spare key is in the blue vase") >= 3


def test_down_in_the_middle_then_offline_line(tmp_path):
    config = load_config()
    with Memory(tmp_path / "m.db") as mem:
        stub = StubOllama()
        with stub:
            brain = Brain(mem, make_llm(replace(config.llm, host=stub.url), 4096),
                          config, "ada")
            assert brain.connect() is None
            stub.enqueue("First.")
            assert brain.turn("one").text == "First."
        reply = brain.turn("I live in Oslo")            # the server is gone now
        # as when it was down from the start: she says what she stored; the error says how to start Ollama
        assert reply.source == "offline" and "Oslo" in reply.text and "ollama serve" in reply.error
        assert {(f.key, f.value) for f in mem.facts("ada")} == {("location", "Oslo")}
        assert "Start Ollama" in brain.turn("how far is the moon?").text


def test_agreeing_to_pull_downloads_with_progress(tmp_path):
    config = load_config()
    out = io.StringIO()
    with Memory(tmp_path / "m.db") as mem, StubOllama(models=("other:latest",)) as stub:
        llm = make_llm(replace(config.llm, host=stub.url), 4096)
        brain = Brain(mem, llm, config, "ada")
        stub.enqueue("Pulled and ready to judge you.")
        console = Console(file=out, width=100)
        ui = ChatUI(brain, console, PipedLines(io.StringIO("y\nhello\n"), console), interactive=True)
        assert ui.run() == 0
    text = out.getvalue()
    assert "Pull it now" in text and "Pulled and ready to judge you." in text
    assert any(path == "/api/pull" for path, _ in stub.requests)


def test_tool_calls_through_the_real_client(tmp_path):
    config = load_config()
    with Memory(tmp_path / "m.db") as mem, StubOllama(capabilities=("completion", "tools")) as stub:
        llm = make_llm(replace(config.llm, host=stub.url), 4096)
        brain = Brain(mem, llm, config, "ada")
        brain.connect()
        stub.enqueue("", tool_calls=[{"name": "memory_remember", "arguments": {"key": "favorite_tea", "value": "lapsang"}}])
        stub.enqueue("Smoky. Like the ruins of your ambitions.")
        reply = brain.turn("I adore lapsang souchong, note it as my favourite tea")
        facts = {(f.key, f.value) for f in mem.facts("ada")}
    assert reply.text == "Smoky. Like the ruins of your ambitions."
    assert ("favorite_tea", "lapsang") in facts
    first, second = stub.chats()[:2]
    assert [t["function"]["name"] for t in first["tools"]] == ["memory_remember", "memory_recall", "memory_pin",
                                                            "memory_forget"]
    assert second["messages"][-1]["role"] == "tool" and '"stored": true' in second["messages"][-1]["content"]


def test_errors_in_the_middle_of_a_stream_keep_what_was_said(tmp_path):
    with StubOllama() as stub:
        stub.enqueue("one two three four five", break_after=2)
        stub.enqueue("six seven eight nine", error_after=2, error="model runner crashed")
        stub.enqueue("Recovered.")
        result = chat(stub.url, "ada", "count", "count again", "and now?")
    assert result.returncode == 0
    assert "ended before it was finished" in result.stdout and "model runner crashed" in result.stdout
    assert "Recovered." in result.stdout
    history = json.loads(glados("memory", "export", "--user", "ada").stdout)["messages"]
    partial = [m for m in history if m["role"] == "assistant" and m["interrupted"]]
    assert [m["text"] for m in partial] == ["one two", "six seven"]


def test_each_turn_carries_a_stable_window_of_recent_history_and_older_turns_can_be_recalled():
    """Each turn sends the newest messages of the session, in order, in whole pairs, never more than the
    window and never fewer than half of it; the window's first message stays put from turn to turn (the
    prompt's prefix, cached by the server, stays the same) and moves on by three quarters at once, the
    running note at its head. A message that has
    left the window is recalled instead of lost."""
    lines = ["my sister Greta plays the cello in an orchestra"]
    lines += [f"tell me a fact about the number {n}" for n in range(2, 16)]
    lines.append("which instrument does my sister Greta play in the orchestra?")
    with StubOllama() as stub:
        for n in range(1, len(lines) + 1):
            stub.enqueue(f"Reply {n}.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    turns = [r for r in stub.chats() if not session_end(r)]
    assert len(turns) == len(lines)
    said = [m for line, n in zip(lines, range(1, 17)) for m in
            ({"role": "user", "content": line}, {"role": "assistant", "content": f"Reply {n}."})]
    window = load_config().memory.recent_window
    starts = []
    for n, request in enumerate(turns, start=1):
        history = [m for m in request["messages"] if m["role"] in ("user", "assistant")][:-1]
        if history and "Earlier in this conversation" in history[0]["content"]:     # the running note leads
            history[0] = {**history[0], "content": history[0]["content"].split(ASKED + "\n", 1)[1]}
        earlier = said[:2 * (n - 1)]
        assert len(history) % 2 == 0 and history == earlier[len(earlier) - len(history):]
        assert min(len(earlier), 2) <= len(history) <= window, f"turn {n} carried {len(history)}"
        starts.append(len(earlier) - len(history))
    moves = len(set(starts)) - 1          # sliding one pair a turn would move it on every turn past the window
    assert starts == sorted(starts) and 0 < moves <= len(turns) // (window // 2 - 1)
    carried = "\n".join(m["content"] for m in turns[-1]["messages"])      # in the running note, or recalled
    assert carried.count("Greta plays the cello") == 1 and turns[-1]["messages"][-1]["content"].endswith(lines[-1])
