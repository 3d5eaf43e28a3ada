"""Pets, favourites and what one follows, told of in passing: "toys for my dog, Max", "Can I take my dog on the
trail?", "a gift card to my favorite bookstore, Indiebound", "as a Sabres fan", "some of my favorite songs, like
"Wonderwall"".

A possessive noun phrase presupposes what it names, whatever the clause around it does: a question, a plan
or a request about "my cat" still says there is a cat. So these are read over every sentence of a message
the user said (not pasted text), where the clause rules read only statements. What is told in passing never
replaces what was told outright: the change is a "mention" (`Memory` stores it only where nothing known
already says it, and a pet's name fills in a bare kind).

A favourite is read only as "my favorite <thing>, <Name>" (the name set apart after the thing it is) or as the
quoted or capitalised examples after "my favorite <things> like"; a taste as "a <Name> fan". Only a companion
animal is read otherwise, with the few modifiers that keep its sense ("my old dog"; never "my
lab", "my chicken", "my dog walking business"), and nothing in a sentence that gets, wants, imagines or lost one
("if I got a dog", "adopting a cat", "my late dog"). A partner only as the user's companion in a shared subject: "my
husband and I are planning a trip", "me and my girlfriend", "my wife Ana and I" (the user speaks of the two of
them); "my wife is vegan" is about the wife, and the labelled sets (tests/mining_corpus.py, persona-chat) keep
nothing from it, nor from "I live with my husband" or "my business partner and I".
"""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import F, MAX_CHARS, TIMEOUT_S, as_place
from ..text import titled
from .people import PARTNER
from .pets import singular
from .tastes import FAV, fav_key

# Animals kept as companions; not those that are also food, tools or places ("my chicken", "my mouse", "my lab").
COMPANIONS = (r"(?:dogs?|pupp(?:y|ies)|cats?|kittens?|kitty|parrots?|budgies?|hamsters?|rabbits?|bunn(?:y|ies)|"
              r"guinea pigs?|ferrets?|gerbils?|chinchillas?|hedgehogs?|tortoises?|geckos?|bearded dragons?|"
              r"cockatiels?|canar(?:y|ies)|retrievers?|labradors?|poodles?|terriers?|spaniels?|beagles?|"
              r"dachshunds?|chihuahuas?|corgis?|huskies|husky|pugs?|greyhounds?|snakes?|lizards?|iguanas?|"
              r"turtles?|axolotls?)")
ANIMAL_MODIFIERS = r"(?:(?:new|old|little|sweet|senior|rescue|furry|beloved|\d+-year-old) )*"

# A capitalised word after the kind that is its name ("my dog Max", "my cat, Luna,"), or before it ("Max, my dog").
NAME = r"(?-i:\p{Lu}\p{Ll}+)"
NOT_NAMES = frozenset({"I", "The", "And", "But", "So", "Or", "Then", "He", "She", "They", "We", "It", "My", "Our",
                       "Is", "Was", "Has", "Can", "Should", "Would", "Will", "Do", "Does", "Any", "What", "How",
                       # a word that opens a sentence before a comma: "Yeah, my dogs make me happy"
                       "Yeah", "Yes", "Yep", "No", "Nope", "Oh", "Ah", "Well", "Wow", "Hey", "Hi", "Hello", "Okay",
                       "Ok", "Sure", "Thanks", "Haha", "Aww", "Awww", "Lol", "Also", "Now", "Honestly", "Actually",
                       "Luckily", "Sadly", "Anyway", "Plus", "Today", "Yesterday", "Recently", "Unfortunately",
                       "Fortunately", "Besides", "Still", "Yup", "Totally", "Absolutely", "Definitely", "Right"})
ANIMAL = re.compile(rf"(?:(?P<before>{NAME}),\s+)?\b(?:my|our) {ANIMAL_MODIFIERS}(?P<kind>{COMPANIONS})\b"
                    rf"(?!\s+(?:\w+ing|feeder|show|plants?|trees?)\b)(?:,?\s+(?P<after>{NAME})\b)?", F)

# A capitalised word of a name ("Emma", "LeBron", "O'Neil"), and a name of up to four of them ("The Office").
CAPITALISED = r"(?-i:\p{Lu}[\w'&.-]*)"
NAMED = rf"{CAPITALISED}(?:\s+{CAPITALISED}){{0,3}}"

# "my favorite jazz pianist, Emma Thompson", "my favorite bookstore, Indiebound"
FAVORITE = re.compile(rf"\bmy (?:absolute |all-time )?{FAV} (?P<thing>[a-z][a-z -]{{1,30}}?),\s+(?:the\s+)?(?P<name>{NAMED})",
                      F)      # "my favorite team, the New York Yankees"

# "as a Sabres fan", "a long-time Arsenal fan": a team, a band or a show one follows, named
# (said of the user: "as a", "I'm a", "being a"; not "a chat with a Harry Potter fan", not "a Harry Potter fan project")
FAN = re.compile(r"\b(?:as|i'?m|i am|being|been|i was)\s+(?:(?:such|also|really|quite|definitely|always|still|"
                 r"obviously|just) )*an? (?:(?:big|huge|long-?time|lifelong|die-?hard|massive|true|loyal) )?"
                 rf"(?P<who>{CAPITALISED}(?:\s+{CAPITALISED}){{0,2}}) fan\b(?!\s+(?:project|club|page|art|fiction|"
                 r"base|mail|account|forum|site|event|convention|theory|film|video|group|community)\b)", F)
# "some of my favorite songs, like "Wonderwall"", "my favorite TV shows, including "The Office"", "my favorite songs by
# The Beatles": the examples, or the artist
EXAMPLES = re.compile(rf"\bmy (?:absolute |all-time )?{FAV} (?:[\w-]+ ){{0,2}}[\w-]+s,? "
                      r"(?:like|including|such as|by|from) (?P<items>.+)", F)
ITEM = re.compile(rf"[\"“](?P<quoted>[^\"”]{{2,60}})[\"”]|(?P<named>{NAMED})")

# "my husband and I", "me and my girlfriend", "my wife Ana and I": the user and their partner as one subject
# (a name between commas may be a third one, "my gf, Toby, and I": only "my wife Ana and I" names her)
TOGETHER = re.compile(rf"\b(?:(?:my|our) (?P<kind>{PARTNER})(?:\s+(?P<name>{NAME})|,\s+{NAME},?)? and (?:i|me)|"
                      rf"(?:me|i) and my (?P<kind2>{PARTNER})(?:\s+(?P<name2>{NAME}))?)\b", F)
SHORT = {"gf": "girlfriend", "bf": "boyfriend", "hubby": "husband", "missus": "wife"}
# "a concert with my boyfriend, Alex", "my wife Sarah's car": the partner named (not "my partner Alex", as often
# one to dance or do business with)
# (set off by commas only as an aside: "my girlfriend, Toby and I" may list a third one)
NAMED_PARTNER = re.compile(rf"\bmy (?P<kind>(?!partner){PARTNER})(?:\s+(?P<name>{NAME})\b(?!\.)|,\s+(?P<aside>{NAME})"
                           r"(?=\s*(?:[,!?]|\.(?:\s|$)|$)))", F)

# Where the user lives, said in passing: "I'm a 47 year old woman living in Connecticut", "a café in the 11th
# arrondissement, where I live", "I've been lonely since moving to Tokyo" (the user's own clause, no one else's)
HOME = re.compile(
    r"\b(?:i'?m|i am) an? (?:[\w-]+ ){0,6}?(?:living|based) in (?P<a>[^,.;!?]+)"
    r"|\bin (?P<b>(?:(?!\bin\b)[^,.;!?]){2,40}?),? where i (?:live|reside|'m based|am based)\b"
    r"|\b(?:i'?ve|i have|i'?m|i am)\b(?:(?!\b(?:he|she|they|my|his|her|their|if|when)\b)[^.?!]){0,80}?"
    r"\b(?:since|after) (?:moving|relocating|i moved|we moved) (?:here )?to (?P<c>[^,.;!?]+)", F)
PARTED = re.compile(r"\b(?:divorc\w*|separat\w*|broke up|break(?:ing)? up|split(?:ting)? up)\b", F)

POLITE_IF = r"(?<!\b(?:wondering|wonder|know|see|check|ask|asking|curious|sure|unsure|tell me)\s)\bif\b"
IMAGINED = re.compile(rf"{POLITE_IF}|\b(?:wish|imagine|someday|planning|thinking (?:of|about)|considering|hoping)\b", F)

# A sentence that gets, wants or imagines one: what it names is not there yet (or any more).
# ("wondering if you could ..." asks politely; it imagines nothing)
NOT_YET = re.compile(rf"{POLITE_IF}|"
                     rf"\b(?:wish|imagine|future|someday|ex|late|former|previous|deceased|used to|passed away|died|"
                     rf"lost)\b|\b(?:get|getting|got|adopt|adopting|adopted|buy|buying|bought|want|wants|wanted|find|"
                     rf"finding|looking for|considering)\s+(?:a|an|another|one|my first)\s+(?:[\w-]+\s+){{0,2}}"
                     rf"{COMPANIONS}\b", F)


def mentions(sentences: list[str], said: list[Change]) -> list[Change]:
    """The pets, partner, favourites and tastes the message names in passing, each once, unless the message already changes
    it outright: takes that key back ("my old dog died"), or states a value that holds it or that it holds ("my
    dog's name is Rex", "I'm a huge Taylor Swift fan")."""
    def told(change: Change) -> bool:
        said_of = [c for c in said if c.key == change.key]
        return any(c.op != "assert" or _overlap(c.value or "", change.value or "") for c in said_of)

    found: list[Change] = []
    for sentence in sentences:
        if len(sentence) > MAX_CHARS:
            continue
        found += _home(sentence)
        if NOT_YET.search(sentence, timeout=TIMEOUT_S):
            continue
        for m in ANIMAL.finditer(sentence, timeout=TIMEOUT_S):
            name = next((n for n in (m["after"], m["before"]) if n and n not in NOT_NAMES), None)
            kind = m["kind"].lower()          # "my cats" keeps its plural; a named one is one
            found.append(Change("mention", "pet", f"{singular(kind)} named {titled(name)}" if name else kind))
        for m in FAVORITE.finditer(sentence, timeout=TIMEOUT_S):
            key = fav_key(m["thing"])
            if key and m["name"].split()[0].split("'")[0] not in NOT_NAMES:     # "my favorite team, I'm neutral"
                found.append(Change("mention", key, m["name"].rstrip(".")))
        for m in FAN.finditer(sentence, timeout=TIMEOUT_S):
            if m["who"].split()[0] not in NOT_NAMES:
                found.append(Change("mention", "likes", m["who"]))
        for m in EXAMPLES.finditer(sentence, timeout=TIMEOUT_S):
            found += [Change("mention", "likes", item) for item in _examples(m["items"])]
        if not PARTED.search(sentence, timeout=TIMEOUT_S):
            found += [_partner(m) for m in TOGETHER.finditer(sentence, timeout=TIMEOUT_S)]
            named = (m["name"] or m["aside"] for m in NAMED_PARTNER.finditer(sentence, timeout=TIMEOUT_S))
            found += [Change("mention", "partner", name) for name in named if name not in NOT_NAMES | TITLES]
    out: list[Change] = []
    for change in found:
        if told(change) or change in out or change.key in SINGLE and any(o.key == change.key for o in out):
            continue       # a pet once, by its name where the message gives one
        if not any(o.key == change.key and o.value.startswith(f"{change.value} named ") for o in found):
            out.append(change)
    return out


def _home(sentence: str) -> list[Change]:
    """Where the user lives, said in passing, unless the sentence imagines it ("if I moved to Oslo", "thinking of
    moving"). Read before NOT_YET, whose "lost" and "previous" are about pets."""
    if IMAGINED.search(sentence, timeout=TIMEOUT_S):
        return []
    places = (as_place(m["a"] or m["b"] or m["c"]) for m in HOME.finditer(sentence, timeout=TIMEOUT_S))
    return [Change("mention", "location", place) for place in places if place]


SINGLE = ("partner", "location")      # one value each: the first named in the message
TITLES = frozenset({"Dr", "Mr", "Mrs", "Ms", "Miss", "Sir", "Prof"})


def _partner(m: re.Match) -> Change:
    """The partner's name where the message gives one, else who they are to the user ("wife")."""
    name = m["name"] or m["name2"]
    if name and name not in NOT_NAMES:
        return Change("mention", "partner", name)
    kind = (m["kind"] or m["kind2"]).lower()
    return Change("mention", "partner", SHORT.get(kind, kind))


def _examples(items: str) -> list[str]:
    """The titles and names listed after "like": each quoted or capitalised, up to the first thing that is not."""
    out = []
    for part in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", items):
        m = ITEM.match(part.strip())
        named = (m["named"] or "").split() if m else []
        if not m or (named and named[0] in NOT_NAMES and not (named[0] == "The" and len(named) > 1)):
            break
        # "The Weeknd's album": The Weeknd
        out.append(re.sub(r"['’]s$", "", (m["quoted"] or m["named"]).rstrip(".")))
    return out


def _overlap(a: str, b: str) -> bool:
    """Whether one value holds the other's words ("dog" and "dog named Rex", "taylor swift" and "Taylor Swift")."""
    x, y = set(a.casefold().split()), set(b.casefold().split())
    return bool(x) and bool(y) and (x <= y or y <= x)
