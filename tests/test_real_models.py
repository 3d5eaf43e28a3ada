"""`glados chat` against a stand-in that behaves as Ollama does (tests/ollama_model.py, from Ollama's source):
thinking models, one loaded runner whose `num_ctx` is fixed at load, prompts counted in tokens and cut past
`num_ctx`, models that call tools unasked. What each request carries, how big it is, how many loads a session
causes, and what she says, prints and stores."""
from __future__ import annotations

import json

import pytest

from tests.conftest import glados
from tests.ollama_model import Profile
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, session_end

PERSONA = "You are GLaDOS"


def exported(user: str = "ada") -> dict:
    return json.loads(glados("memory", "export", "--user", user).stdout)


def said_by_her(user: str = "ada") -> list[str]:
    return [m["text"] for m in exported(user)["messages"] if m["role"] == "assistant"]


def ending(served) -> bool:
    return served.kind == "chat" and session_end(served.body)


def turns_of(stub: StubOllama) -> list:
    return [s for s in stub.served if s.kind == "chat" and s.path != "/api/generate" and not ending(s)]


@pytest.mark.parametrize("model", ["qwen3", "deepseek-r1", "deepseek-r1:old", "gpt-oss", "llama3.2"])
def test_every_model_answers_every_turn_and_no_thinking_is_shown_spoken_or_stored(model):
    lines = ["My name is Ada and I live in Leeds", "what should I cook tonight?", "and tomorrow?"]
    with StubOllama(models=(f"{model}:latest" if ":" not in model else model,)) as stub:
        if model == "deepseek-r1:old":      # its first trace (in the text) uses the reply's room: asked once more
            stub.enqueue("Answer 1, delivered with contempt.")
        for n in range(1, len(lines) + 1):
            stub.enqueue(f"Answer {n}, delivered with contempt.")
        stub.enqueue('{"facts": []}').enqueue("The user said their name is Ada and they live in Leeds.")
        result = chat(stub.url, "ada", *lines, env={"OLLAMA_MODEL": model})
    assert result.returncode == 0, result.stderr
    for n in range(1, len(lines) + 1):
        assert f"Answer {n}, delivered with contempt." in result.stdout
    assert "hmm" not in result.stdout and "think>" not in result.stdout
    replies = said_by_her()
    assert replies == [f"Answer {n}, delivered with contempt." for n in range(1, len(lines) + 1)]
    assert [s["text"] for s in exported()["summaries"]] == ["The user said their name is Ada and they live in Leeds."]
    asked = {json.dumps(b.get("think")) for path, b in stub.requests if path == "/api/chat" and b.get("messages")}
    expected = {"qwen3": "false", "deepseek-r1": "false", "gpt-oss": '"low"'}.get(model, "null")
    assert asked == {expected}          # every request, the summary and the session's reading included


def test_a_reply_the_thinking_used_up_is_said_in_one_line_never_silence(tmp_path):
    """gpt-oss cannot stop thinking: with a small reply budget its trace can use all of `num_predict`."""
    config = tmp_path / "config.yaml"
    config.write_text("budget:\n  reply: 30\n  think: 0\n")
    with StubOllama(models=("gpt-oss:latest",)) as stub:
        stub.enqueue("Never heard.")
        result = chat(stub.url, "ada", "tell me a story", env={"OLLAMA_MODEL": "gpt-oss", "GLADOS_CONFIG": str(config)})
    assert result.returncode == 0, result.stderr
    assert "Never heard." not in result.stdout
    said = [line for line in result.stdout.splitlines() if "reply tokens" in line]
    assert len(said) == 1 and "budget.think" in said[0], result.stdout
    assert "Start Ollama" not in result.stdout and "hmm" not in result.stdout
    assert not [t for t in said_by_her() if "hmm" in t or "Never heard" in t]


def test_a_twenty_turn_session_loads_the_model_once_and_every_request_shares_its_context():
    lines = [f"tell me something about the number {n}, I'm planning a quiz for Friday" for n in range(20)]
    with StubOllama() as stub:
        for n in range(len(lines)):
            stub.enqueue(f"Number {n} is as unremarkable as you.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    kinds = {s.kind for s in stub.served}
    assert stub.loads == 1 and "preload" in kinds and "note" in kinds   # the running note was rewritten too
    assert len({s.num_ctx for s in stub.served}) == 1
    assert any(ending(s) for s in stub.served)                 # the summary shares it as well
    assert not [s for s in stub.served if s.cut]
    assert {b.get("keep_alive") for path, b in stub.requests if path == "/api/chat"} == {"30m"}


JAPANESE = ("今日は駅の近くの小さな喫茶店で友達と会って、来月の京都旅行の計画を立てました。新幹線の切符はもう予約してあって、"
            "お寺を三つと庭園を二つ見に行くつもりです。天気が良ければ嵐山で竹林を散歩したいし、夜は先斗町で食事をしたいと"
            "思っています。友達は写真が好きなので、朝早く出かけて人の少ない時間に撮影したいそうです。どう思いますか。"
            "ほかにおすすめの場所があれば教えてください。")


def paste(n: int) -> str:
    letter = ("Dear Ada, thank you for your letter of the fourteenth, which reached me after a long detour through "
              "the sorting office in Leeds. ")
    return (letter * (n // len(letter) + 1))[:n]


@pytest.mark.parametrize("kind", ["english", "japanese", "paste"])
def test_no_request_of_any_kind_is_cut_and_each_keeps_the_persona_and_memory(kind):
    if kind == "english":
        lines = [f"my cousin Margaret from Whitby rang about the allotment, row {n}, and the beans again" for n in range(12)]
    elif kind == "japanese":
        lines = [f"{JAPANESE}（{n}日目）" for n in range(10)]
    else:
        lines = ["hello", paste(2700), "what did the letter say?", "thanks"]
    with StubOllama() as stub:
        stub.enqueue("Noted.")
        setup = chat(stub.url, "ada", "I'm allergic to peanuts", "/quit")
        assert setup.returncode == 0, setup.stderr
        stub.served.clear()
        for n in range(len(lines)):
            stub.enqueue(f"Reply {n}.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    cut = [(s.kind, s.prompt_tokens, s.num_ctx) for s in stub.served if s.cut]
    assert cut == []
    assert len(turns_of(stub)) == len(lines)
    for s in turns_of(stub):
        system = s.body["messages"][0]
        assert system["role"] == "system" and system["content"].startswith(PERSONA) and "peanuts" in system["content"]
    assert {s.num_ctx for s in stub.served} == {stub.served[0].num_ctx}


def test_a_hundred_turn_session_ended_normally_cuts_no_request():
    lines = [f"turn {n}: I walked the dog past the old mill in Hebden Bridge and counted {n * 7} sheep" for n in range(100)]
    with StubOllama() as stub:
        for n in range(len(lines)):
            stub.enqueue(f"Reply {n}, shorter than your walk.")
        result = glados("chat", "--user", "ada", input="\n".join(lines) + "\n/quit\n",
                        env={"OLLAMA_HOST": stub.url}, timeout=240)
    assert result.returncode == 0, result.stderr
    assert len(turns_of(stub)) == 100 and stub.loads == 1
    assert [(s.kind, s.prompt_tokens) for s in stub.served if s.cut] == []
    background = [s for s in stub.served if s.kind == "note" or ending(s)]
    assert background and all(s.prompt_tokens < s.num_ctx for s in background)


def test_reprocessed_share_of_a_steady_english_conversation_stays_small():
    """The server reuses the longest prefix of the last prompt: what is stable comes first and stays put."""
    lines = [f"what would you pair with a {dish} for a dinner on Saturday?" for dish in
             ("risotto", "lamb stew", "fish pie", "lentil curry", "roast chicken", "mushroom tart", "paella",
              "goulash", "ramen", "moussaka", "pad thai", "shepherd's pie", "tagine", "lasagne", "chilli")]
    with StubOllama() as stub:
        stub.enqueue("Noted.")
        assert chat(stub.url, "ada", "I'm vegetarian and I live in York", "/quit").returncode == 0
        stub.served.clear()
        for n in range(len(lines)):
            stub.enqueue(f"A dry white, number {n}. You'll spill it.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    shares = [round(s.reprocessed, 2) for s in turns_of(stub)[1:]]
    assert max(shares) <= 0.30, shares


def eager(**kwargs) -> dict[str, Profile]:
    return {"llama3.2": Profile("llama3.2", ("completion", "tools"), "llama", eager_tools=True, **kwargs)}


def test_a_model_that_calls_a_tool_on_every_round_still_answers_every_turn():
    lines = ["Hello there.", "I'm learning the cello, note that", "I'm allergic to peanuts, note that",
             "what did I tell you about the cello?", "thanks"]
    with StubOllama(profiles=eager()) as stub:
        for n in range(len(lines)):
            stub.enqueue(f"Reply {n}.")
        result = chat(stub.url, "ada", *lines)
    assert result.returncode == 0, result.stderr
    for n in range(len(lines)):
        assert f"Reply {n}." in result.stdout
    assert said_by_her() == [f"Reply {n}." for n in range(len(lines))]
    facts = {(f["key"], f["value"]) for f in exported()["facts"] if f["valid_to"] is None}
    assert ("allergy", "peanuts") in facts and not [v for k, v in facts if "Hello" in v or "search" in v]
    offered = [bool(b.get("tools")) for path, b in stub.requests
               if path == "/api/chat" and not b.get("format") and b.get("messages") and not session_end(b)]
    assert offered.count(True) >= 3 and offered.count(False) >= len(lines)   # each turn's last round offers none


def test_tools_are_offered_only_with_a_message_about_memory():
    """Everything else the tools do happens every turn without them; an offer invites an eager model's calls
    and, in llama3.2's template, puts ~500 tokens into the part of the prompt the server cannot cache."""
    lines = ["what's the capital of Peru?", "I'm learning the cello, note that", "how tall is Everest?"]
    with StubOllama() as stub:
        for n in range(len(lines)):
            stub.enqueue(f"Reply {n}.")
        assert chat(stub.url, "ada", *lines).returncode == 0
    offered = [bool(s.body.get("tools")) for s in turns_of(stub)]
    assert offered == [False, True, False]


def test_a_made_up_tool_fact_never_becomes_the_users_or_a_pinned_one():
    call = {"name": "memory_remember", "arguments": {"key": "allergy", "value": "shellfish"}}
    with StubOllama(profiles=eager(made_up_call=call)) as stub:
        stub.enqueue("Pasta. Even you can boil water.")
        result = chat(stub.url, "ada", "remember I'm cooking for six tonight: what should I make?")
    assert result.returncode == 0, result.stderr
    assert "Pasta." in result.stdout
    data = exported()
    assert not [f for f in data["facts"] if "shellfish" in f["value"]]
    assert "shellfish" not in " ".join(s["text"] for s in data["summaries"])
    assert "shellfish" not in glados("memory", "list", "--user", "ada").stdout


def test_a_grounded_tool_fact_is_stored_as_the_models_and_not_pinned():
    call = {"name": "memory_remember", "arguments": {"key": "note", "value": "the spare key is under the blue pot"}}
    with StubOllama(profiles=eager(made_up_call=call)) as stub:
        stub.enqueue("Under a pot. How original.")
        result = chat(stub.url, "ada", "keep this in mind: the spare key is under the blue pot by the door")
    assert result.returncode == 0, result.stderr
    notes = [f for f in exported()["facts"] if f["value"] == "the spare key is under the blue pot"]
    assert len(notes) == 1 and notes[0]["origin"] == "model" and not notes[0]["pinned"]


def test_a_tool_call_written_as_text_is_neither_spoken_nor_stored():
    call = {"name": "memory_remember", "arguments": {"key": "likes", "value": "jazz"}}
    with StubOllama(profiles=eager(made_up_call=call, call_as_text=True)) as stub:
        stub.enqueue("Jazz. Of course.")
        result = chat(stub.url, "ada", "I like jazz, remember that")
    assert result.returncode == 0, result.stderr
    spoken = [line for line in result.stdout.splitlines() if line.startswith("GLaDOS:")]
    assert spoken == ["GLaDOS: Jazz. Of course."], result.stdout
    assert said_by_her() == ["Jazz. Of course."]


def test_a_busy_server_is_called_busy_and_a_cold_load_is_waited_for():
    with StubOllama(profiles={"llama3.2": Profile("llama3.2", load_s=1.5)}) as stub:
        stub.enqueue(status=503, error="server busy, please try again.  maximum pending requests exceeded")
        stub.enqueue("Loaded, and unimpressed.")
        result = chat(stub.url, "ada", "hello", "hello again")
    assert result.returncode == 0, result.stderr
    assert "Start Ollama" not in result.stdout and "busy" in result.stdout.lower()
    assert "Loaded, and unimpressed." in result.stdout


def test_each_fact_is_carried_once_per_request():
    """From the second session on a fact is in the memory block; the summary that restates it and the message
    that told it, recalled, do not carry it again."""
    with StubOllama() as stub:
        stub.enqueue("A folding bike. How compact of you.")
        stub.enqueue('{"facts": []}').enqueue("The user said their bike is a red Brompton.")
        first = chat(stub.url, "ada", "remember that my bike is a red Brompton", "/quit")
        assert first.returncode == 0, first.stderr
        stub.enqueue("Patch it. Or cry.")
        second = chat(stub.url, "ada", "my bike has a flat tyre, what should I do about the bike?")
    assert second.returncode == 0, second.stderr
    request = [s.body for s in turns_of(stub)][-1]
    carried = "\n".join(m["content"] for m in request["messages"])
    assert carried.count("Brompton") == 1, carried


def test_a_cold_load_past_the_first_token_limit_is_called_loading_not_offline(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("llm:\n  first_token_timeout_s: 1\n")
    with StubOllama(profiles={"llama3.2": Profile("llama3.2", load_s=4)}) as stub:
        stub.enqueue("Finally awake.").enqueue("Still here.")
        result = chat(stub.url, "ada", "hello", env={"GLADOS_CONFIG": str(config)})
    assert result.returncode == 0, result.stderr
    assert "still loading llama3.2" in result.stdout and "Start Ollama" not in result.stdout, result.stdout
