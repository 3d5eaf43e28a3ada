"""The turn logic with a scripted model: prompt contents, budget, sessions, commands, tools, faults."""

import pytest

from assistant.turn.brain import Brain
from assistant.config import BudgetConfig, Config, MemoryConfig, load_config
from assistant.llm import StreamBroken, ToolCall
from assistant.turn.events import Degraded, RecalledNote, ToolUsed
from memory import estimate_tokens
from tests.fakes import ScriptedLLM


@pytest.fixture
def config():
    return load_config()


def brain_for(mem, llm, config, user="ada", clock=None):
    brain = Brain(mem, llm, config, user, **({"clock": clock} if clock else {}))
    brain.connect()
    return brain


def system_prompt(request):
    return request[0]["content"]


def test_prompt_has_current_facts_not_superseded_ones(mem, config):
    mem.observe("ada", "I'm vegetarian and I'm allergic to peanuts")
    mem.observe("ada", "actually I've started eating fish again")
    llm = ScriptedLLM().enqueue("Noted, meatbag.")
    reply = brain_for(mem, llm, config).turn("what should I cook tonight")
    assert reply.text == "Noted, meatbag." and reply.source == "model"
    system = system_prompt(llm.requests[0])
    assert '"peanuts"' in system and '"pescatarian"' in system and "vegetarian" not in system
    assert llm.requests[0][-1] == {"role": "user", "content": "what should I cook tonight"}


def test_new_user_gets_the_bare_persona(mem, config):
    llm = ScriptedLLM()
    brain_for(mem, llm, config, user="newbie").turn("hello")
    system = system_prompt(llm.requests[0])
    assert "remember about the user" not in system and "Earlier" not in system
    assert system.startswith(config.persona.system_prompt.strip()[:40])


def test_one_users_facts_never_reach_another_users_prompt(mem, config):
    mem.observe("ada", "I'm allergic to peanuts and my name is Ada")
    mem.add_summary("ada", "s0", "Ada talked about peanuts.")
    llm = ScriptedLLM()
    brain_for(mem, llm, config, user="bob").turn("tell me about peanuts and Ada")
    assert "peanuts" not in str(llm.requests[0][:-1]) and "Ada" not in str(llm.requests[0][:-1])


def test_500_earlier_turns_stay_within_budget_trimmed_by_pairs(mem):
    config = Config(budget=BudgetConfig(system=300, memory=200, recall=100, history=600, reply=200),
                    memory=MemoryConfig(recent_window=2000))
    llm = ScriptedLLM()
    brain = brain_for(mem, llm, config)
    for i in range(500):
        llm.enqueue(f"Reply number {i} to your tedious message, with some filler words.")
        brain.turn(f"message number {i} about nothing in particular")
    for request in llm.requests[-50:]:
        rest = request[1:]                      # the one system message holds persona, memory and earlier note
        assert rest[0]["role"] == "user"
        # the recalled note rides with the user's message; it has the room the memory block leaves
        note, _, said = rest[-1]["content"].rpartition("The user's message:\n")
        history_tokens = sum(estimate_tokens(m["content"]) for m in rest[:-1]) + estimate_tokens(said)
        assert history_tokens <= config.budget.history + 2 * len(rest)
        assert estimate_tokens(note) <= config.budget.memory + config.budget.recall
        roles = [m["role"] for m in rest[:-1]]
        assert roles == ["user", "assistant"] * (len(roles) // 2)    # whole pairs only
    last = llm.requests[-1]
    assert "message number 499" in last[-1]["content"] and "message number 498" in str(last)
    assert "message number 0 " not in str(last[2:])           # left the window: at most in the note leading it
    assert estimate_tokens(last[0]["content"]) <= config.budget.system + config.budget.memory + config.budget.history


def test_token_counts_are_stored_with_messages(mem, config):
    brain = brain_for(mem, ScriptedLLM().enqueue("A reply."), config)
    brain.turn("a message of some length")
    rows = mem.messages("ada", brain.session)
    assert [r.tokens for r in rows] == [estimate_tokens(r.text) for r in rows]


def test_memory_commands_are_answered_without_the_model(mem, config):
    llm = ScriptedLLM()
    brain = brain_for(mem, llm, config)
    mem.observe("ada", "I'm vegetarian")
    assert "locker code is 4512" in brain.turn("remember that my locker code is 4512").text
    listing = brain.turn("what do you know about me").text
    assert "4512" in listing and "vegetarian" in listing
    why = brain.turn("why do you think I'm vegetarian?").text
    assert "I'm vegetarian" in why
    gone = brain.turn("forget that I'm vegetarian").text
    assert "vegetarian" in gone
    assert llm.requests == []
    assert "vegetarian" not in str(mem.export("ada"))      # the confirmation is stored redacted


def test_recalled_messages_show_and_reach_the_prompt(mem, config):
    old = Brain(mem, ScriptedLLM().enqueue("Fine."), config, "ada")
    old.connect()
    old.turn("my locksmith is called Bartholomew Quince")
    old.end_session()
    events = []
    llm = ScriptedLLM()
    brain = Brain(mem, llm, config, "ada", on_event=events.append)
    brain.connect()
    brain.turn("what was the name of my locksmith, Quince something?")
    assert any(isinstance(e, RecalledNote) and e.session == old_session(mem, brain) for e in events)
    asked = llm.requests[0][-1]                  # recalled items change every turn: they come last, with the message
    assert asked["role"] == "user" and "Bartholomew" in asked["content"]
    assert asked["content"].endswith("what was the name of my locksmith, Quince something?")


def old_session(mem, brain):
    return [s.session for s in mem.sessions("ada") if s.session != brain.session][0]


def test_offline_turns_still_store_facts_and_are_counted(mem, config):
    brain = brain_for(mem, ScriptedLLM(up=False), config)
    reply = brain.turn("I live in Lisbon and I love sardines")
    assert reply.source == "offline" and "You live in Lisbon" in reply.text and "sardines" in reply.text
    assert {(f.key, f.value) for f in mem.facts("ada")} == {("location", "Lisbon"), ("likes", "sardines")}
    assert brain.turn("what do you remember about me").source == "memory"
    assert brain.stats.degraded_turns == 1
    summary = brain.end_session()
    assert summary == "The user said they live in Lisbon. The user said they like sardines."
    assert mem.summaries("ada")[0].text == summary


def test_model_down_in_the_middle_then_back(mem, config):
    llm = ScriptedLLM().enqueue("First answer.")
    brain = brain_for(mem, llm, config)
    assert brain.turn("hello").source == "model"
    llm.up = False
    assert brain.turn("still there?").source == "offline"
    llm.up = True
    llm.enqueue("I'm back. Sadly.")
    assert brain.turn("and now?").text == "I'm back. Sadly."


def test_a_stream_that_breaks_keeps_what_was_said(mem, config):
    llm = ScriptedLLM().enqueue("one two three four", fail_after=2, error=StreamBroken("broke off"))
    brain = brain_for(mem, llm, config)
    reply = brain.turn("count for me")
    assert reply.interrupted and reply.text == "one two " and reply.error == "broke off"
    stored = mem.messages("ada", brain.session)[-1]
    assert stored.role == "assistant" and stored.text == "one two" and stored.interrupted


def test_ctrl_c_mid_reply_keeps_the_partial_reply(mem, config):
    llm = ScriptedLLM().enqueue("I was saying something important", fail_after=3)
    brain = brain_for(mem, llm, config)
    with pytest.raises(KeyboardInterrupt):
        brain.turn("go on")
    stored = mem.messages("ada", brain.session)[-1]
    assert stored.text == "I was saying" and stored.interrupted


def test_idle_timeout_ends_the_session_with_one_model_summary(mem, config, clock):
    llm = ScriptedLLM().enqueue("Hi.").enqueue('{"facts": []}').enqueue("The user said hello.")
    llm.enqueue("Again?")
    brain = brain_for(mem, llm, config, clock=clock)
    brain.turn("hello")
    first = brain.session
    clock.advance(minutes=31)
    brain.turn("hello again")
    assert brain.session != first
    assert [r.text for r in mem.summaries("ada")] == ["The user said hello."]
    assert "standing facts" in llm.requests[1][0]["content"] and llm.formats[1]["required"] == ["facts"]
    assert "Summarize" in llm.requests[2][0]["content"]


def test_tool_call_round_trip(mem, config):
    llm = ScriptedLLM(tools=True)
    llm.enqueue("", tool_calls=[ToolCall("memory_remember", {"key": "note", "value": "likes tea at 4pm"})])
    llm.enqueue("", tool_calls=[ToolCall("memory_remember", {"key": "bogus key!", "value": "x"})])
    llm.enqueue("Stored. Like everything else about you.")
    events = []
    brain = Brain(mem, llm, config, "ada", on_event=events.append)
    brain.connect()
    reply = brain.turn("I always have tea at 4pm, keep that somewhere")
    assert reply.text == "Stored. Like everything else about you."
    note = next(f for f in mem.facts("ada") if f.key == "note")
    assert note.value == "likes tea at 4pm" and note.source == "I always have tea at 4pm, keep that somewhere"
    assert note.source_message_id is not None and note.origin == "model" and not note.pinned
    tool_results = [m for m in llm.requests[2] if m["role"] == "tool"]
    assert '"stored": true' in tool_results[0]["content"] and '"stored": false' in tool_results[1]["content"]
    assert sum(isinstance(e, ToolUsed) for e in events) == 2 and brain.stats.tool_calls == 2


def test_a_value_said_in_passing_at_the_end_of_a_long_message_reaches_the_request(mem, config, clock):
    """A long message is cut for the prompt; when the sentence that answers lies past the cut, the request
    (and the recall tool's result) carries that sentence and what fits around it (issue 70: the excerpt is the
    sentence that answers, not the message's start)."""
    told = ("That's a great list, thank you! I think we'll go with the group hike on the coast path, since everyone "
            "liked the idea of a picnic at the top and the weather looks kind for Saturday. Do you know whether the "
            "car park there fills up early at weekends, and whether dogs are allowed on the trail in summer? We might "
            "bring two, both of them very muddy by the end of any walk. I've been enjoying my role as lead engineer lately, especially the part where I now manage "
            "a team of seven engineers, and I'm excited to see how they grow.")
    assert len(told) > 500
    mem.log("ada", "earlier", "user", told)
    mem.log("ada", "earlier", "assistant", "Go early.")
    mem.index_pending("ada")
    clock.advance(minutes=60)
    llm = ScriptedLLM().enqueue("Seven. Try not to lose any.")
    brain_for(mem, llm, config).turn("How many engineers do I manage?")
    carried = "\n".join(m["content"] for m in llm.requests[0])
    assert "seven engineers" in carried and "… " in carried and "That's a great list" not in carried
    tools = ScriptedLLM(tools=True)
    tools.enqueue("", tool_calls=[ToolCall("memory_recall", {"query": "how many engineers do I manage"})]).enqueue("Seven.")
    brain_for(mem, tools, config).turn("search my memories: how many engineers do I manage?")
    assert "seven engineers" in [m for m in tools.requests[1] if m["role"] == "tool"][0]["content"]

def test_tools_see_only_their_user(mem, config):
    mem.observe("bob", "remember that bob's secret is swordfish")
    llm = ScriptedLLM(tools=True)
    llm.enqueue("", tool_calls=[ToolCall("memory_recall", {"query": "secret swordfish"})]).enqueue("Nothing.")
    brain_for(mem, llm, config).turn("search my memories for the secret")
    assert "swordfish" not in [m for m in llm.requests[1] if m["role"] == "tool"][0]["content"]


def test_ctrl_c_while_the_summary_is_written_keeps_the_short_summary(mem, config):
    llm = ScriptedLLM().enqueue("Hi.").enqueue('{"facts": []}').enqueue("The user said", fail_after=2)
    events = []
    brain = Brain(mem, llm, config, "ada", on_event=events.append)
    brain.connect()
    brain.turn("my name is Ada")
    summary = brain.end_session()
    assert summary == "The user said their name is Ada."
    assert [r.text for r in mem.summaries("ada")] == [summary]
    assert any(isinstance(e, Degraded) and "interrupted" in e.why for e in events)


def test_a_secret_is_said_only_when_asked_for_and_a_models_note_in_her_words(mem, config):
    """Issue 71: "can you help me with my locker?" is not a request for the code; the model, which never holds
    the code, answers it. "What's my locker code?" is, and memory answers it, without a model call."""
    llm = ScriptedLLM().enqueue("Kick it. Gently.").enqueue("Turn it off and on again.")
    brain = brain_for(mem, llm, config)
    brain.turn("remember that my locker code is 5521")
    mem.remember("ada", "note", "User's wifi password is hunter2")     # as the MCP store_fact keeps it
    helped = brain.turn("can you help me with my locker? it's stuck").text
    online = brain.turn("I can't get online, can you help me with the wifi?").text
    assert "5521" not in helped and "hunter2" not in online
    assert len(llm.requests) == 2 and "5521" not in str(llm.requests) and "hunter2" not in str(llm.requests)
    asked = brain.turn("what's my locker code?").text
    password = brain.turn("what's my wifi password?").text
    assert "5521" in asked and "hunter2" in password and "User" not in password
    assert len(llm.requests) == 2


def test_a_question_never_becomes_a_note_whoever_proposes_it(mem, config):
    """Issue 71: asked "do you remember who was the first man on the moon?", a model calls memory_remember with
    the question; nothing is stored, so it never reaches the block, "what do you remember" or a summary."""
    question = "do you remember who was the first man on the moon?"
    llm = ScriptedLLM(tools=True)
    llm.enqueue("", tool_calls=[ToolCall("memory_remember", {"key": "note", "value": question})])
    llm.enqueue("Neil Armstrong. Try to keep up.")
    brain = Brain(mem, llm, config, "ada")
    brain.connect()
    assert brain.turn(question).text == "Neil Armstrong. Try to keep up."
    assert not [f for f in mem.facts("ada") if f.key == "note"]
    result = next(m for m in llm.requests[1] if m["role"] == "tool")["content"]
    assert '"stored": false' in result and "question" in result


def test_a_tool_call_written_after_a_few_words_is_run_not_said(mem, config):
    """Issue 71: "Fine. {"name": "memory_remember", "parameters": ...}" was printed and stored as her reply."""
    written = 'Fine. {"name": "memory_remember", "parameters": {"key": "note", "value": "tea at 4pm"}}'
    llm = ScriptedLLM(tools=True).enqueue(written).enqueue("Stored. Thrilling.")
    spoken = []
    brain = brain_for(mem, llm, config)
    reply = brain.turn("I always have tea at 4pm, note it somewhere", on_text=spoken.append)
    assert "{" not in "".join(spoken) and "memory_remember" not in "".join(spoken)
    assert "Fine." in "".join(spoken) and "Stored. Thrilling." in reply.text
    said = [m.text for m in mem.messages("ada", brain.session) if m.role == "assistant"]
    assert not any("memory_remember" in t for t in said)
    assert len(llm.requests) == 2 and llm.requests[1][-1]["role"] == "tool"


def test_a_bare_closing_think_tag_is_never_said():
    from assistant.llm.think import ThinkStripper

    def through(*chunks: str) -> str:
        strip = ThinkStripper()
        return "".join(strip.feed(c) for c in chunks) + strip.flush()
    assert through("</think>\n\nHello.") == "Hello."                  # the template opened the block in the prompt
    split = through("the user wants", " a greeting\n</th", "ink>\n\nHello.")    # a tag split across chunks
    assert "</" not in split and "think>" not in split and split.endswith("Hello.")
    assert through("a < b, and </p> stays") == "a < b, and </p> stays"
