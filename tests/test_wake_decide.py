"""The wake gate's decision as a table: hand-made evidence in, a call, not hers or someone else's
name out, and which evidence the decision asked for on the way (assistant/wake/decide.py)."""
from dataclasses import replace

import numpy as np
import pytest

from assistant.events import Transcript, Utterance
from assistant.wake import Decision, Evidence, Policy, decide
from assistant.wake.base import WakeMatch
from assistant.wake.decide import Fit, Look, Need
from assistant.wake.name_model import Sounded

UTTERANCE = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
# every check on, as config.yaml has them
ALL = Policy(threshold=0.78, second_look_s=2.0, plain_check=True, name_check=14.0, pause_look_s=0.2, name_floor=0.3,
             name_sure=0.93, name_place=18.0, beam_look=5, name_alone=0.9995, name_alone_unsure=0.5)


def heard(text: str, first: tuple[str, float] | None = None, **fields) -> Evidence:
    """Evidence of an utterance heard as `text`, the closest call in it `first` (request, score)."""
    return Evidence(Transcript(text, UTTERANCE), WakeMatch(*first) if first else None, **fields)


def settle(evidence: Evidence, policy: Policy, stages: dict[str, dict]) -> tuple[Decision, list[str]]:
    """Decide, handing over each stage from `stages` as it is asked for; the decision and the stages
    asked, in order. A stage asked for and not in `stages` fails the test (the decision needed
    evidence the table says it should not)."""
    asked: list[str] = []
    while isinstance(step := decide(evidence, policy), Need):
        name = step.what if step.pause is None else f"{step.what} {step.pause}"
        asked.append(name)
        assert name in stages, f"asked for {name} (after {asked[:-1]})"
        if step.pause is None:
            evidence = evidence.with_stage(step.what, **stages[name])
        else:
            looks = list(evidence.looks)
            looks[step.pause] = replace(looks[step.pause], **stages[name])
            evidence = replace(evidence, looks=tuple(looks))
    return step, asked


NOBODY = {"plain": {"plain": "what time is it"}, "sound": {"sound": None}}


def test_a_call_in_the_words_needs_only_the_name_model_and_the_plain_check():
    decision, asked = settle(heard("hey glados what time is it", ("what time is it", 0.95)), ALL, NOBODY)
    assert decision == Decision("call", "what time is it", 0.95, "words") and asked == ["sound", "plain"]
    words_only = Policy(threshold=0.78)
    assert settle(heard("hey glados what time is it", ("what time is it", 0.95)), replace(words_only, plain_check=False), {})[1] == []


@pytest.mark.parametrize("stages, kind", [
    ({"plain": {"plain": "Hey Gladys, what time is it?", "someone_else": True}, "sound": {"sound": Sounded(0.5)}}, "someone_else"),
    # said GLAD-oss, her name is written "Gladys" without the hotword: the name model sure of her name overrules
    ({"plain": {"plain": "Hey Gladys, what time is it?", "someone_else": True}, "sound": {"sound": Sounded(0.99)}}, "call"),
    ({"plain": {"plain": "The last day, it's good.", "invented": True}, "sound": {"sound": None}}, "someone_else"),
    ({"plain": {"plain": "hey glados what time is it"}, "sound": {"sound": Sounded(0.4)}}, "call"),
])
def test_a_call_in_the_words_stands_unless_the_checks_say_it_was_not_her_name(stages, kind):
    evidence = heard("hey glados what time is it", ("what time is it", 0.9), looks=())
    stages = stages | {"pauses": {"looks": ()}}
    assert settle(evidence, ALL, stages)[0].kind == kind


def test_audio_the_name_model_scores_under_its_floor_is_decided_after_one_transcription():
    """Most room talk: nothing but the words and the name model is asked; a call in the words is then not
    her name. Without a name model for the phrase (or with the floor off), the checks go on."""
    for text, first, kind in (("did you feed the cat", None, "not"), ("hey glados what time is it", ("what time is it", 0.9), "someone_else")):
        assert settle(heard(text, first), ALL, {"sound": {"sound": Sounded(0.1)}}) == (Decision(kind), ["sound"])
    stages = {"sound": {"sound": None}, "opening": {"opening": None}, "plain": {"plain": "did you feed the cat"},
              "named": {"named": None}, "pauses": {"looks": ()}}
    assert settle(heard("did you feed the cat"), ALL, stages)[1] == ["sound", "opening", "plain", "named", "pauses"]
    off = {"opening": {"opening": None}, "plain": {"plain": "did you feed the cat"}, "named": {"named": None},
           "sound": {"sound": Sounded(0.1)}, "pauses": {"looks": ()}}
    assert settle(heard("did you feed the cat"), replace(ALL, name_floor=0.0), off)[0].kind == "not"


def test_a_vetoed_call_still_has_the_speech_after_its_pauses_looked_at():
    evidence = heard("Gladys, the kettle's on. Hey glottos, what time is it?", ("the kettle's on", 0.8))
    rest = heard("hey glados what time is it", ("what time is it", 0.95))
    stages = {"plain": {"plain": "Gladys, the kettle's on. Hey glottos, what time is it?", "someone_else": True},
              "sound": {"sound": None}, "pauses": {"looks": (Look(24_000),)},
              "look 0": {"looked": True, "call": 0.9}, "words 0": {"rest": rest},
              "plain 0": {"rest": rest.with_stage("plain", plain="Hey glottos, what time is it?")},
              "sound 0": {}, "named 0": {}}
    # the rest must pass the name check too
    named = {"rest": rest.with_stage("plain", plain="Hey glottos, what time is it?").with_stage("sound", sound=None)
                         .with_stage("named", named=Fit(WakeMatch("what time is it", 0.95), -9.0))}
    decision, asked = settle(evidence, ALL, stages | {"plain 0": named, "sound 0": named, "named 0": named})
    assert decision == Decision("call", "what time is it", 0.95, "words", after_s=1.5)
    assert asked[:4] == ["sound", "plain", "pauses", "look 0"]
    far = {"rest": replace(named["rest"], named=Fit(WakeMatch("what time is it", 0.95), -20.0))}
    assert settle(evidence, ALL, stages | {"plain 0": far, "sound 0": far, "named 0": far})[0].kind == "someone_else"


def test_in_the_follow_up_window_no_call_is_looked_for_beyond_the_words():
    decision, asked = settle(heard("and tomorrow", None, in_window=True), ALL, {})
    assert decision.kind == "not" and asked == []


def test_no_call_in_the_words_the_cheap_looks_come_first():
    """An ordinary sentence the name model heard something like her name in: the opening heard again, the
    plain transcript, the name check; her name is placed, the beam searched and the pauses looked after
    only as the evidence asks."""
    stages = {"opening": {"opening": None}, "plain": {"plain": "did you feed the cat"}, "sound": {"sound": Sounded(0.5)},
              "named": {"named": Fit(WakeMatch("you feed the cat", 0.0), -25.0)}, "pauses": {"looks": ()}}
    decision, asked = settle(heard("did you feed the cat"), ALL, stages)
    assert decision == Decision("not") and asked == ["sound", "opening", "plain", "named", "pauses"]


@pytest.mark.parametrize("margin, kind", [(-7.0, "call"), (-14.0, "call"), (-14.5, "not")])
def test_the_name_check_calls_her_within_its_margin(margin, kind):
    stages = {"opening": {"opening": None}, "plain": {"plain": "Waddles, I live in Bristol now."}, "sound": {"sound": None},
              "named": {"named": Fit(WakeMatch("I live in Bristol now", 0.0), margin)}, "pauses": {"looks": ()}}
    decision, _ = settle(heard("Waddles, I live in Bristol now."), ALL, stages)
    assert decision.kind == kind and (kind == "not" or (decision.request, decision.by) == ("I live in Bristol now", "name check"))


def test_someone_else_named_is_never_tried_with_her_name():
    stages = {"opening": {"opening": None}, "plain": {"plain": "Hey Gladys, are you coming?", "someone_else": True},
              "sound": {"sound": Sounded(0.5)}, "pauses": {"looks": ()}}
    decision, asked = settle(heard("Hey Gladys, are you coming?"), ALL, stages)
    assert decision.kind == "not" and "named" not in asked


def test_the_opening_heard_again_makes_the_whole_transcript_the_request():
    stages = {"opening": {"opening": WakeMatch("", 0.9)}, "plain": {"plain": "Hey G, led to us. My name is Bob."},
              "sound": {"sound": None}}
    decision, _ = settle(heard("My name is Bob."), ALL, stages)
    assert decision == Decision("call", "My name is Bob.", 0.9, "opening")


def _sure(score: float = 0.999, at_s: float = 1.4, **more) -> dict:
    return {"opening": {"opening": None}, "plain": {"plain": "Right then Guado, let's begin."}, "sound": {"sound": Sounded(score, at_s)},
            "named": {"named": None}, "pauses": {"looks": ()}, "elsewhere": {"elsewhere": False}} | more


def test_her_name_where_the_name_model_heard_it():
    placed = {"placed": {"placed": Fit(WakeMatch("let's begin", 0.0), -11.0)}}
    decision, asked = settle(heard("Right then Guado, let's begin."), ALL, _sure(**placed))
    assert (decision.kind, decision.request, decision.by) == ("call", "let's begin", "placed")
    assert asked[-2:] == ["elsewhere", "placed"]
    unsure = settle(heard("Right then Guado, let's begin."), ALL, _sure(0.9, **placed))     # the model not sure
    assert unsure[0].kind == "not" and "placed" not in unsure[1]
    named = _sure(elsewhere={"elsewhere": True}, **placed)                              # someone else named anywhere
    assert settle(heard("Right then Guado, let's begin."), replace(ALL, beam_look=0), named)[0].kind == "not"


def test_the_beam_look_and_the_model_alone_come_last():
    far = {"placed": {"placed": Fit(WakeMatch("You are going to get that", 0.0), -30.0)}}
    beam = {"beam": {"beam": WakeMatch("I move to man", 0.9)}}
    decision, asked = settle(heard("I move to man."), ALL, _sure(**far, **beam))
    assert (decision.by, decision.request) == ("beam", "I move to man") and asked[-1] == "beam"
    nothing = {"beam": {"beam": None}}
    alone = {"alone": {"unsure": -0.8, "said_after": True, "near_miss": False}}
    decision, asked = settle(heard("You are going to get that."), ALL, _sure(0.9999, 0.9, **far, **nothing, **alone))
    assert decision.by == "alone" and asked.index("alone") < asked.index("beam")     # the beam look still has its say
    for unlike in ({"unsure": -0.2, "said_after": True, "near_miss": False},        # whisper sure of its words there
                   {"unsure": -0.8, "said_after": False, "near_miss": False},       # nothing said after it
                   {"unsure": -0.8, "said_after": True, "near_miss": True}):        # "glad", "Gladys"
        assert settle(heard("You are going to get that."), ALL, _sure(0.9999, 0.9, **far, **nothing, alone=unlike))[0].kind == "not"
    late = _sure(0.9999, 2.4, **far, **nothing)                                      # not in the opening: never asked
    assert settle(heard("You are going to get that."), ALL, late)[0].kind == "not"


def test_an_acoustic_engine_decides_on_its_score():
    called = Evidence(Transcript("hey jarvis lights on", UTTERANCE), WakeMatch("lights on", 0.7), acoustic=True)
    assert settle(called, Policy(threshold=0.5), {})[0] == Decision("call", "lights on", 0.7, "acoustic")
    assert settle(called, Policy(threshold=0.8), {})[0].kind == "not"
