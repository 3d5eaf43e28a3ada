"""Short conversations and the facts each must end with: corrections, time words, the past, other
people, plans, retractions, talk around a value, several facts in one breath.

Each dialogue is told, line by line, to a fresh user in one session through `Memory.observe`; the
user's current facts must then be exactly `facts` (keys of DESIGN.md's vocabulary; values compared
case-folded, a plural 's' ignored). Written for this project, not taken from any corpus.

`held`: kept aside for the number reported; nothing is chosen or tuned on those (bench/dialogue_bench.py
prints their count only, never which of them failed, unless asked with --show-held).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Topic = Literal["correction", "time", "past", "others", "plans", "retraction", "talk", "several"]


@dataclass(frozen=True)
class Dialogue:
    topic: Topic
    said: tuple[str, ...]
    facts: frozenset[tuple[str, str]]
    held: bool = False


def d(topic: Topic, said: list[str], facts: dict[str, str | list[str]], held: bool = False) -> Dialogue:
    pairs = {(k, v) for k, vs in facts.items() for v in ([vs] if isinstance(vs, str) else vs)}
    return Dialogue(topic, tuple(said), frozenset(pairs), held)


DIALOGUES: tuple[Dialogue, ...] = (
    # ---- corrections: a bare value binds to the latest fact whose kind fits it -------------------------
    d("correction", ["I live in Bath", "I'm vegetarian", "actually I've started eating fish again",
                     "no wait, I meant Bristol"], {"location": "Bristol", "diet": "pescatarian"}),
    d("correction", ["I'm vegan", "I live in Hull", "no wait, I meant vegetarian"],
      {"diet": "vegetarian", "location": "Hull"}),
    d("correction", ["my favourite colour is blue", "I live in Oxford", "oops, I meant green"],
      {"favorite_color": "green", "location": "Oxford"}),
    d("correction", ["My name is Ana", "I live in Porto", "sorry, Lisbon"], {"name": "Ana", "location": "Lisbon"}),
    d("correction", ["I work at Google", "I'm allergic to peanuts", "no, I meant Amazon"],
      {"employer": "Amazon", "allergy": "peanuts"}),
    d("correction", ["I'm allergic to peanuts", "I live in Leeds", "sorry, I meant cashews"],
      {"allergy": "cashews", "location": "Leeds"}),
    d("correction", ["I'm 34", "I live in York", "no wait, 43"], {"age": "43", "location": "York"}),
    d("correction", ["I'm a teacher", "my name is Sam", "oops, I meant nurse"], {"job": "nurse", "name": "Sam"}),
    d("correction", ["I have a dog", "I live in Cardiff", "sorry, I meant a cat"], {"pet": "cat", "location": "Cardiff"}),
    d("correction", ["I speak French", "I live in Lyon", "no wait, I meant Spanish"],
      {"language": "Spanish", "location": "Lyon"}),
    d("correction", ["My name is Tom", "I'm vegetarian", "sorry, I meant Tim"], {"name": "Tim", "diet": "vegetarian"}),
    d("correction", ["I live in Paris", "I'm allergic to shellfish", "no wait, I meant Lyon"],
      {"location": "Lyon", "allergy": "shellfish"}),
    d("correction", ["I'm allergic to peanuts", "no wait, I meant Bristol"], {"allergy": "peanuts"}),
    d("correction", ["I'm vegan", "oops, I meant 35"], {"diet": "vegan"}),
    d("correction", ["I live in Bath", "I'm vegetarian", "no, Bristol, not Bath"],
      {"location": "Bristol", "diet": "vegetarian"}),
    d("correction", ["I live in Bath", "my favourite food is pizza", "I like hiking", "no wait, I meant Bristol"],
      {"location": "Bristol", "favorite_food": "pizza", "likes": "hiking"}),
    d("correction", ["I like hiking", "no wait, I meant swimming"], {"likes": "swimming"}),
    d("correction", ["I live in Bath", "what's the time?", "oh sorry, Bristol"], {"location": "Bristol"}),
    d("correction", ["My name is Ana", "I work at Siemens", "I live in Munich", "sorry, I meant Berlin"],
      {"name": "Ana", "employer": "Siemens", "location": "Berlin"}),
    d("correction", ["I'm a nurse", "I'm allergic to penicillin", "oops, I meant a doctor"],
      {"job": "doctor", "allergy": "penicillin"}),
    d("correction", ["I live in Leeds", "I'm 29", "my name is Jo", "no wait, I meant 30"],
      {"location": "Leeds", "age": "30", "name": "Jo"}, held=True),
    d("correction", ["I'm vegetarian", "my favourite colour is red", "sorry, I meant vegan"],
      {"diet": "vegan", "favorite_color": "red"}, held=True),
    d("correction", ["I live in Glasgow", "I'm a plumber", "no wait, I meant Edinburgh"],
      {"location": "Edinburgh", "job": "plumber"}, held=True),
    d("correction", ["I'm allergic to milk", "my name is Priya", "sorry, I meant eggs"],
      {"allergy": "eggs", "name": "Priya"}, held=True),
    d("correction", ["my favourite colour is purple", "I have a cat", "oops, I meant orange"],
      {"favorite_color": "orange", "pet": "cat"}, held=True),
    d("correction", ["I speak German", "I'm vegan", "no wait, I meant Italian"],
      {"language": "Italian", "diet": "vegan"}, held=True),
    d("correction", ["I'm allergic to peanuts", "I'm 40", "no wait, I meant Cork"],
      {"allergy": "peanuts", "age": "40"}, held=True),
    d("correction", ["I work at Tesco", "I live in Derby", "sorry, I meant Asda, not Tesco"],
      {"employer": "Asda", "location": "Derby"}, held=True),

    # ---- time words and durations: never part of the value ------------------------------------------
    d("time", ["I moved to Leeds last year, it's lovely"], {"location": "Leeds"}),
    d("time", ["I've lived in Bristol for 10 years"], {"location": "Bristol"}),
    d("time", ["I started at Google last month"], {"employer": "Google"}),
    d("time", ["I've been vegan for three years now"], {"diet": "vegan"}),
    d("time", ["I've worked as a plumber for twenty years"], {"job": "plumber"}),
    d("time", ["I live in Manchester since 2019"], {"location": "Manchester"}),
    d("time", ["I've been vegetarian since 2015"], {"diet": "vegetarian"}),
    d("time", ["I work at the BBC now"], {"employer": "BBC"}),
    d("time", ["I moved to Cardiff two years ago"], {"location": "Cardiff"}),
    d("time", ["I've been a nurse for five years"], {"job": "nurse"}),
    d("time", ["I've lived in Oslo for a while now"], {"location": "Oslo"}),
    d("time", ["Since 2019 I've lived in Leeds"], {"location": "Leeds"}),
    d("time", ["I moved to Dublin last month"], {"location": "Dublin"}, held=True),
    d("time", ["I've worked at Siemens since 2010"], {"employer": "Siemens"}, held=True),
    d("time", ["I've been vegan for a couple of years"], {"diet": "vegan"}, held=True),
    d("time", ["I've lived in Madrid for six months"], {"location": "Madrid"}, held=True),
    d("time", ["I've been a teacher for a decade"], {"job": "teacher"}, held=True),

    # ---- the past, other people, plans: not the user's present facts --------------------------------
    d("past", ["I used to live in London"], {}),
    d("past", ["I was vegetarian for a while in college"], {}),
    d("others", ["My brother lives in Oslo"], {}),
    d("others", ["My sister is allergic to peanuts"], {}),
    d("plans", ["I'm thinking of moving to Spain"], {}),
    d("plans", ["I might go vegan next year"], {}),
    d("others", ["My wife works at Google"], {}, held=True),
    d("plans", ["I'm planning to move to Lisbon next year"], {}, held=True),

    # ---- retractions ------------------------------------------------------------------------------
    d("retraction", ["I'm vegetarian", "I'm not vegetarian anymore"], {}),
    d("retraction", ["I live in Paris", "I don't live in Paris anymore"], {}),
    d("retraction", ["I'm allergic to peanuts", "actually I'm not allergic to peanuts"], {}),
    d("retraction", ["I'm allergic to cats", "I'm allergic to peanuts", "I'm not allergic to cats anymore"],
      {"allergy": "peanuts"}),
    d("retraction", ["I work at Google", "I no longer work at Google"], {}, held=True),

    # ---- talk around the value: discourse words and emoji are not content -------------------------------
    d("talk", ["honestly I'm a software engineer, lol"], {"job": "software engineer"}),
    d("talk", ["I live in Zürich 🇨🇭"], {"location": "Zürich"}),
    d("talk", ["to be honest I'm vegetarian"], {"diet": "vegetarian"}),
    d("talk", ["I live in Lisbon 😊"], {"location": "Lisbon"}),
    d("talk", ["basically I work at Airbus"], {"employer": "Airbus"}),
    d("talk", ["I'm allergic to mornings lol"], {}),
    d("talk", ["I'm a nurse haha"], {"job": "nurse"}),
    d("talk", ["my name is Jo :)"], {"name": "Jo"}),
    d("talk", ["*I live in Leeds*"], {"location": "Leeds"}),
    d("talk", ["tbh I live in Leeds"], {"location": "Leeds"}, held=True),
    d("talk", ["I'm allergic to peanuts 🥜"], {"allergy": "peanuts"}, held=True),

    # ---- several facts in one breath --------------------------------------------------------------
    d("several", ["My name is Alex and I live in Bath"], {"name": "Alex", "location": "Bath"}),
    d("several", ["I'm vegan and I'm allergic to soy"], {"diet": "vegan", "allergy": "soy"}),
    d("several", ["I live in Leeds and work at the NHS"], {"location": "Leeds", "employer": "NHS"}),
    d("several", ["I'm 30, I live in Hull and I'm a nurse"], {"age": "30", "location": "Hull", "job": "nurse"}, held=True),
)
