"""Pets and favourites told of in passing: "toys for my dog, Max", "Can I take my dog on the trail?", "a gift
card to my favorite bookstore, Indiebound".

A possessive noun phrase presupposes what it names, whatever the clause around it does: a question, a plan
or a request about "my cat" still says there is a cat. So these are read over every sentence of a message
the user said (not pasted text), where the clause rules read only statements. What is told in passing never
replaces what was told outright: the change is a "mention" (`Memory` stores it only where nothing known
already says it, and a pet's name fills in a bare kind).

A favourite is read only as "my favorite <thing>, <Name>": the name set apart after the thing it is. Only a
companion animal is read otherwise, with the few modifiers that keep its sense ("my old dog"; never "my
lab", "my chicken", "my dog walking business"), and nothing in a sentence that gets, wants, imagines or lost one
("if I got a dog", "adopting a cat", "my late dog"). A partner is not: "my wife is vegan" is about the wife, and
the labelled sets (tests/mining_corpus.py, persona-chat) keep nothing from it; "my husband and I" is left too.
"""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import F, TIMEOUT_S
from ..text import titled
from .tastes import FAV, fav_key, singular

# Animals kept as companions; not those that are also food, tools or places ("my chicken", "my mouse", "my lab").
COMPANIONS = (r"(?:dogs?|pupp(?:y|ies)|cats?|kittens?|kitty|parrots?|budgies?|hamsters?|rabbits?|bunn(?:y|ies)|"
              r"guinea pigs?|ferrets?|gerbils?|chinchillas?|hedgehogs?|tortoises?|geckos?|bearded dragons?|"
              r"cockatiels?|canar(?:y|ies)|retrievers?|labradors?|poodles?|terriers?|spaniels?|beagles?|"
              r"dachshunds?|chihuahuas?|corgis?|huskies|husky|pugs?|greyhounds?)")
ANIMAL_MODIFIERS = r"(?:(?:new|old|little|sweet|senior|rescue|furry|beloved|\d+-year-old) )*"

# A capitalised word after the kind that is its name ("my dog Max", "my cat, Luna,"), or before it ("Max, my dog").
NAME = r"(?-i:\p{Lu}\p{Ll}+)"
NOT_NAMES = frozenset({"I", "The", "And", "But", "So", "Or", "Then", "He", "She", "They", "We", "It", "My", "Our",
                       "Is", "Was", "Has", "Can", "Should", "Would", "Will", "Do", "Does", "Any", "What", "How"})
ANIMAL = re.compile(rf"(?:(?P<before>{NAME}),\s+)?\b(?:my|our) {ANIMAL_MODIFIERS}(?P<kind>{COMPANIONS})\b"
                    rf"(?!\s+(?:\w+ing|feeder|show)\b)(?:,?\s+(?P<after>{NAME})\b)?", F)

# "my favorite jazz pianist, Emma Thompson", "my favorite bookstore, Indiebound"
FAVORITE = re.compile(rf"\bmy (?:absolute |all-time )?{FAV} (?P<thing>[a-z][a-z -]{{1,30}}?),\s+"
                      rf"(?P<name>(?-i:\p{{Lu}}[\w'&.-]*)(?:\s+(?-i:\p{{Lu}}[\w'&.-]*)){{0,3}})", F)

# A sentence that gets, wants or imagines one: what it names is not there yet (or any more).
NOT_YET = re.compile(rf"\b(?:if|wish|imagine|future|someday|ex|late|former|previous|deceased|used to|passed away|died|"
                     rf"lost)\b|\b(?:get|getting|got|adopt|adopting|adopted|buy|buying|bought|want|wants|wanted|find|"
                     rf"finding|looking for|considering)\s+(?:a|an|another|one|my first)\s+(?:[\w-]+\s+){{0,2}}"
                     rf"{COMPANIONS}\b", F)


def mentions(sentences: list[str], said: list[Change]) -> list[Change]:
    """The pets and favourites the message names in passing, each once, unless the message already changes that
    key outright ("my old dog died" retracts; "my dog's name is Rex" asserts)."""
    told = {c.key for c in said}
    found: list[Change] = []
    for sentence in sentences:
        if len(sentence) > 2000 or NOT_YET.search(sentence, timeout=TIMEOUT_S):
            continue
        for m in ANIMAL.finditer(sentence, timeout=TIMEOUT_S):
            name = next((n for n in (m["after"], m["before"]) if n and n not in NOT_NAMES), None)
            kind = m["kind"].lower()          # "my cats" keeps its plural; a named one is one
            found.append(Change("mention", "pet", f"{singular(kind)} named {titled(name)}" if name else kind))
        for m in FAVORITE.finditer(sentence, timeout=TIMEOUT_S):
            key = fav_key(m["thing"])
            if key and m["name"].split()[0] not in NOT_NAMES:
                found.append(Change("mention", key, m["name"].rstrip(".")))
    out: list[Change] = []
    for change in found:
        if change.key in told or change in out:
            continue       # a pet once, by its name where the message gives one
        if not any(o.key == change.key and o.value.startswith(f"{change.value} named ") for o in found):
            out.append(change)
    return out


