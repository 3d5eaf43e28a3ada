"""The command grammar: memory commands about the user, and nothing else.

"remember that my locker code is 4512", "forget where I live", "why do you think I'm vegan",
"what do you know about me", "what's my name?". A question about the world that happens to hold
"remember", "forget" or "why do you think" is not a command: when unsure, it is for the model.
"""
from __future__ import annotations

import regex as re

from .intent import Change, Command, Target
from .lexicon import (
    F, LEAD, NON_VALUES, PETS, holds_any, match_start, normalise, search_in,
    split_items, trim,
)
from .rules import FAV, PARTNER, fav_key, mine_statements
from .values import specific, uses_case
from .text import clean

# --------------------------------------------------------------------------------------------
# Explicit memory: "remember that ...", and "forget ..."
# --------------------------------------------------------------------------------------------
NOTE_TRIGGERS = [
    r"(?:please )?(?:always|forever) remember(?: that| this)?", r"remember (?:forever|for good|permanently)(?: that)?",
    r"i (?:want|need) you to (?:remember|know|note|keep in mind)(?: that)?",
    # As a question, only with "that": "can you remember the name of that song?" asks, it does not tell.
    r"(?:can|could|would|will) you (?:please )?(?:remember|note|keep in mind|make a note of) that",
    r"make sure (?:you |to )?remember(?: that)?",
    r"(?:please )?(?:don'?t|do not|never) forget(?: that)?",
    r"(?:please )?remember(?: that| this)?(?=[\s:,-])",
    r"(?:please )?keep in mind(?: that)?", r"(?:please )?bear in mind(?: that)?",
    r"for future reference", r"for the record", r"for your information", r"fyi",
    r"(?:please )?note(?: that)?(?=[\s:,-])", r"take (?:a )?note(?: that| of)?",
    r"(?:please )?make a (?:mental )?note(?: that| of)?", r"mental note",
    r"(?:please )?save (?:a |this |that )?note(?: that)?", r"save (?:this|that)(?=[\s:,-])",
    r"(?:please )?jot (?:this|that|it) down(?: that)?", r"(?:please )?write (?:this|that|it) down(?: that)?",
    r"(?:please )?(?:jot|write) down that",     # "write down a checklist for ..." asks her to write one
    r"(?:please )?(?:memorize|memorise)(?: that| this)?", r"commit (?:this |that |it )?to memory(?: that)?",
    r"(?:please )?(?:store|record|log)(?: that| this)(?=[\s:,-])", r"add (?:this |that |it )?to (?:your )?memory(?: that)?",
    r"put (?:this|that|it) in (?:your )?memory(?: that)?", r"keep a note(?: that| of)?",
    r"just so you know", r"just so you're aware", r"just so you are aware", r"heads up",
    r"you should know(?: that)?", r"it'?s (?:important|worth) (?:to remember|remembering|noting)(?: that)?",
    r"remind yourself(?: that)?", r"file (?:this|that) away(?: that)?", r"note to self",
    r"a reminder(?: that)?", r"(?:please )?don'?t let yourself forget(?: that)?",
]
NOTE = re.compile(
    rf"(?:^{LEAD}|[,.;:!]\s*(?:{LEAD})|\b(?:and|also|oh|so|please|ok|okay|hey)\s+)"
    rf"(?:{'|'.join(NOTE_TRIGGERS)})[\s:,-]+(?P<v>.+)$", F)
# Every trigger holds one of these: a cheap test before the search.
NOTE_WORDS = ("remember", "note", "mind", "record", "fyi", "information", "memor", "jot", "write", "store", "log",
              "save", "know", "aware", "heads up", "remind", "file", "forget", "reference")
# A note the user wants kept in mind always: pinned ("always remember that ...", "never forget that ...").
FOR_GOOD = re.compile(r"\b(?:always|forever|for good|permanently|never (?:ever )?forget|don'?t ever forget)\b", F)
PIN = re.compile(rf"^{LEAD}(?:(?:please|can you|could you|would you|will you|just)\s+)*"
                 r"(?:pin (?:that|this|it)(?: down)?|keep (?:that|this|it) pinned|"
                 r"always keep (?:that|this|it) in mind|remember (?:that|this|it) (?:always|forever|for good))"
                 r"(?:,?\s*(?:please|thanks|glados))*[\s.!]*$", F)
REMEMBER_NOT_A_NOTE = re.compile(r"^(?:when|how|what|where|who|why|me|us|the time|that time|it|him|her|them|those|these)\b", F)
# A subject of its own before the trigger: the clause is about someone remembering, not a request to her.
OWN_SUBJECT = re.compile(r"\b(?:i|i'll|i'm|i'd|i've|we|we'll|he|she|they|you'll|the user|it)\b(?!\s*$)", F)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|my|me|mine|myself)\b", F)
# Without "that", what follows is not something to keep: "remember to roast them", "remember, you can always ...",
# "don't forget to ask" advise the listener; "i remember getting a discount" recalls.
ADVICE = re.compile(r"^(?:to\s+\w+|you\b|your\b|\w+ing\b)", F)
RECALLING = re.compile(r"\bi\s+(?:\w+\s+)?(?:remember|recall)\s*$", F)

FORGET = re.compile(
    rf"^{LEAD}(?:(?:please|can you|could you|would you|will you|i want you to|i need you to|you can|"
    r"go ahead and|just)\s+)*(?:forget|delete|erase|remove|wipe|scrub|stop remembering|unlearn)\s+"
    r"(?:(?:about|that|the fact that|everything about|what you know about|all about)\s+)?(?P<v>.+?)[\s.!?]*$", F)
FORGET_TARGETS = [(re.compile(pattern, F), key) for pattern, key in [
    (r"where i live|where i(?:'m| am) living|my (?:address|location|city|home address|home)|where i stay", "location"),
    (r"my name|what i(?:'m| am) called|what my name is", "name"),
    (r"where i work|my (?:employer|company|workplace)|who i work for", "employer"),
    (r"my (?:job|occupation|profession|career)|what i do(?: for (?:a )?(?:living|work))?", "job"),
    (r"my (?:birthday|bday|date of birth|dob)|when i was born|when my birthday is", "birthday"),
    (r"my age|how old i am", "age"),
    (r"where i(?:'m| am) from|where i grew up|my (?:hometown|home town)|where i was born", "hometown"),
    (r"my diet|what i eat|that i(?:'m| am) (?:a )?\w+tarian|my eating habits", "diet"),
    (rf"my {PARTNER}(?:'s name)?|who i(?:'m| am) (?:married to|dating)", "partner"),
    (r"my allerg(?:y|ies)|what i(?:'m| am) allergic to|that i have allergies", "allergy"),
    (r"my (?:pets?|animals?)", "pet"),
    (r"(?:what |the )?languages? i speak", "language"),
    (r"(?:my|all (?:my|the)|the) notes", "note"),
    (r"(?:my|your|the) wake ?word", "wake_word"),
    (r"what i like|my likes|(?:the )?things i like", "likes"),
    (r"what i (?:dislike|hate)|my dislikes", "dislikes"),
    (r"my (?:medical (?:conditions?|history|notes|info(?:rmation)?)|conditions?|medications?|meds|medicines?|"
     r"health (?:conditions?|problems?|issues?))|what (?:medications?|meds|medicines?) i take", "medical"),
]]

# what a forget names, compiled once (targets runs for every "forget ..." and "what did I say about ...")
TARGET_LEAD = re.compile(r"^(?:that|about|the fact that)\s+", F)
TARGET_FAVORITE = re.compile(rf"my {FAV} (?P<t>[\w ]+)", F)
TARGET_ALLERGY = re.compile(r"my (?P<v>.+?) allergy", F)
TARGET_PET = re.compile(rf"my (?P<v>{PETS})(?:'s name|s name| [\w'-]+)?", F)
TARGET_NOTE = re.compile(r"(?:the|my|that) note (?:about|that says|saying) (?P<v>.+)", F)
TARGET_SAID = re.compile(r"(?:what|everything|anything) i (?:said|told you|mentioned) about (?P<v>.+)", F)
TARGET_MINE = re.compile(r"my\s+(?P<v>.+)", F)
TARGET_THE = re.compile(r"^the\s+", F)


def note(sentence: str) -> tuple[Command, list[Change]] | None:
    """"remember that my sister's birthday is may 3" -> a note; inner facts win over a note."""
    if not holds_any(sentence, NOTE_WORDS):
        return None
    m = search_in(NOTE, sentence)
    if not m:
        return None
    said_that = re.search(r"\bthat[\s:,-]*$", sentence[m.start():m.start("v")], flags=F)
    if sentence.rstrip().endswith("?") and not said_that:
        return None   # "remember the name of the song at the end of Portal?" is a question
    # Notes are kept as said: only trailing politeness and punctuation go.
    body = re.sub(r"(?:[\s,]+(?:please|thanks|thank you|ok|okay|alright|glados))*[\s.!?,;]*$", "",
                  m["v"].strip(" \t\"'“”"), flags=F)
    body = re.sub(r"^(?:that|this|:)\s+", "", body, flags=F)
    if REMEMBER_NOT_A_NOTE.match(body) or len(body) < 3 or body.lower() in NON_VALUES:
        return None
    if not said_that and (ADVICE.match(body) or RECALLING.search(sentence[:m.start("v")].rstrip(" ,:-"))):
        return None
    before = re.split(r"[,.;:!]", sentence[:m.start()])[-1]
    if OWN_SUBJECT.search(before) or re.search(r"\b(?:i|we|he|she|they)\s*$", before, flags=F):
        return None   # "i'll keep in mind that ...", "and I also remember that ...": not said to her
    inner = mine_statements(body)
    pinned = bool(FOR_GOOD.search(sentence[:m.start("v")]))
    return Command("remember", body, pin=pinned), inner if inner else [Change("assert", "note", body[:500])]


def pin(sentence: str) -> Command | None:
    """"pin that", "keep that pinned": what the user said just before is kept in mind always."""
    return Command("pin", sentence) if PIN.search(sentence) else None


# "can you forget things?", "could you delete the file?": a question about her, not a command,
# unless what follows plainly points at the user ("could you forget where i live?").
POLITE_QUESTION = re.compile(r"^(?:.*\b)?(?:can|could|would|will) you\b", F)


def forget(sentence: str) -> tuple[Command, list[Change]] | None:
    m = match_start(FORGET, sentence)
    if not m:
        return None
    about = trim(m["v"])
    if re.fullmatch(r"(?:it|that|this|about it|everything|all|all of it|everything about me|me)", about, flags=F):
        return None  # "forget it" is not a memory command; "forget everything" needs confirmation
    found = targets(about, strict=sentence.rstrip().endswith("?") or bool(POLITE_QUESTION.match(sentence)))
    if not found:
        return None
    return Command("forget", about, tuple(found)), [Change("forget", t.key, t.value) for t in found]


def targets(phrase: str, strict: bool = True) -> list[Target]:
    """What a phrase points at: "where i live" -> location; "that i'm allergic to x" -> allergy x.
    strict: only phrases about the user; otherwise a bare value ("peanuts") points at itself."""
    target = trim(normalise(clean(phrase)))
    target = TARGET_LEAD.sub("", target)
    for pattern, key in FORGET_TARGETS:
        if pattern.fullmatch(target):
            return [Target(key)]
    fav = TARGET_FAVORITE.fullmatch(target)
    if fav and fav_key(fav["t"]):
        return [Target(fav_key(fav["t"]))]
    allergy = TARGET_ALLERGY.fullmatch(target)
    if allergy:
        return [Target("allergy", v) for v in split_items(allergy["v"])]
    pet = TARGET_PET.fullmatch(target)
    if pet:
        return [Target("pet", pet["v"].lower())]
    note_ = TARGET_NOTE.fullmatch(target)
    if note_:
        return [Target("note", trim(note_["v"]))]
    said = TARGET_SAID.fullmatch(target)
    if said:
        return [Target(None, trim(said["v"]))]
    inner = mine_statements(target)
    if inner:
        return [Target(c.key, c.value) for c in inner if c.key]
    mine_ = TARGET_MINE.match(target)
    if strict and not mine_:
        return []
    target = mine_["v"] if mine_ else TARGET_THE.sub("", target)
    return [Target(None, target)] if target and target.lower() not in NON_VALUES else []


# --------------------------------------------------------------------------------------------
# Questions about the user: "what do you know about me", "why do you think i'm vegan",
# "what's my name?". Answered from memory (the list, why) or, for plain questions, by the model
# when it is up and from facts when it is down.
# --------------------------------------------------------------------------------------------
LEAD_IN = r"^(?:(?:hey|hi|ok|okay|so|well|and|but|please|glados|um|uh)[\s,]+)*"
LIST = re.compile(
    LEAD_IN + r"(?:(?:what (?:do|did) you (?:remember|know|recall|have) (?:about|on|of) me|"
    r"what have you (?:got|remembered|stored|learned) (?:on|about) me|(?:tell|show) me what you (?:know|remember) about me|"
    r"what else do you know about me|(?:list|show(?: me)?) (?:my|your|the) (?:memories|facts|memory)|"
    r"what do you know about me|tell me about myself)\b|(?:what do you remember|who am i)\s*[?.!]*$)", F)
WHY = re.compile(LEAD_IN + r"(?:why|how) do you (?:think|know|believe|remember|say)(?: that)? "
                 r"(?P<rest>(?:(?:where|what|who|when|how old) )?(?:i|i'm|im|i've|ive|i am|i have|my)\b.+?)[?.!]*$", F)
WH = r"(?:what|where|who|when|how old|how)"
# How every memory question opens (or it ends with "?"): a cheap test before the patterns.
ASKING = re.compile(LEAD_IN + r"(?:what|what's|whats|where|who|who's|when|when's|why|how|do|does|did|am|is|are|can|"
                    r"could|tell|remind|list|show)\b", F)
EMBEDDED = re.compile(LEAD_IN + r"(?:do you (?:know|remember|recall)|can you (?:tell|remind) me|could you (?:tell|remind) "
                      rf"me|tell me|remind me)\s+(?P<t>(?:{WH}\b|my\b).+?)[?.!]*$", F)
ASK_KEYS: list[tuple[str, tuple[str, ...]]] = [
    (r"what(?:'s| is) my name|what am i called|what (?:do|should) you call me|do you know who i am", ("name",)),
    (r"where do i (?:live|stay|reside)|where(?:'s| is) my (?:home|house|place|flat|apartment)|"
     r"what(?:'s| is) my (?:address|city|location)|where am i (?:living|based)", ("location",)),
    (r"where (?:am i|do i come) from|where did i grow up|where was i born|what(?:'s| is) my home ?town", ("hometown",)),
    (r"what do i do(?: for (?:a )?(?:living|work|my job))?|what(?:'s| is) my (?:job|occupation|profession|line of work)"
     r"|what is it i do|what do i work as", ("job", "employer")),
    (r"where do i work|who do i work for|who(?:'s| is) my employer|what company do i work for", ("employer", "job")),
    (r"am i allergic to|what am i allergic to|do i have (?:any )?(?:allergies|food allergies|an allergy)|"
     r"what are my allergies|what(?:'s| is) my allergy|what can(?:'t| ?not) i eat", ("allergy", "medical", "diet")),
    (r"what(?:'s| is) my diet|what do i (?:eat|not eat)|am i (?:an? )?(?:vegetarian|vegan|pescatarian|omnivore)|"
     r"do i eat (?:meat|fish)", ("diet",)),
    (rf"what(?:'s| is) the name of my (?:{PETS}|pets?)", ("pet",)),
    (rf"what(?:'s| is) the name of my {PARTNER}", ("partner",)),
    (rf"do i have (?:a |an |any )?(?:pets?|{PETS})|what (?:pets?|animals?) do i have|what(?:'s| is| are) my "
     rf"(?:{PETS}|pets?)(?:'s?)? names?|how many (?:pets|{PETS}) do i have", ("pet",)),
    (r"what do i (?:like|love|enjoy)|what are my (?:hobbies|interests|likes)|what(?:'s| is) my hobby|"
     r"what am i (?:into|interested in)", ("likes",)),
    (r"what do i (?:hate|dislike|not like)|what don'?t i like", ("dislikes",)),
    (r"how old am i|what(?:'s| is) my age|how old do you think i am", ("age",)),
    (r"when(?:'s| is) my (?:birthday|bday)|when was i born|what(?:'s| is) my (?:birthday|date of birth)", ("birthday",)),
    (rf"who(?:'s| is) my {PARTNER}|who am i (?:married to|dating|engaged to|with)|what(?:'s| is) my "
     rf"{PARTNER}(?:'s)? name|am i married", ("partner",)),
    (r"what languages? do i speak|do i speak", ("language",)),
    (r"do i have any (?:medical |health )?(?:conditions|problems|issues)|what (?:medications?|meds|medicines?) "
     r"(?:do i take|am i on)|what are my (?:medical conditions|medications|meds)|what(?:'s| is) my (?:medical|health)", ("medical",)),
]
ASK = [(re.compile(LEAD_IN + rf"(?:{pattern})\b", F), keys) for pattern, keys in ASK_KEYS]
FAV_ASK = re.compile(LEAD_IN + rf"what(?:'s| is| are) my {FAV} (?P<t>[\w ]{{1,30}}?)\s*[?.!]*$", F)


def question(sentence: str) -> Command | None:
    """A memory question about the user: list, why, or a plain question (ask) with its keys."""
    if not sentence.endswith("?") and not match_start(ASKING, sentence):
        return None
    if search_in(LIST, sentence):
        return Command("list")
    why = search_in(WHY, sentence)
    if why:
        found = targets(why["rest"])
        return Command("why", why["rest"], tuple(found)) if found else None
    for pattern, keys in ASK:
        m = match_start(pattern, sentence)
        if m:
            return Command("ask", m.group(0), tuple(Target(k) for k in keys))
    fav = match_start(FAV_ASK, sentence)
    if fav and fav_key(fav["t"]):
        return Command("ask", fav.group(0), (Target(fav_key(fav["t"])),))
    embedded = match_start(EMBEDDED, sentence)
    if embedded:
        found = [t for t in targets(embedded["t"]) if t.key]
        return Command("ask", embedded["t"], tuple(found)) if found else None
    return None


# --------------------------------------------------------------------------------------------
# Corrections of what was just said: "no wait, I meant Bristol", "sorry, Bristol, not Bath"
# --------------------------------------------------------------------------------------------
OOPS = r"(?:no|nope|sorry|oops|whoops|wait|hang on|hold on|my bad|correction|actually|i'm sorry|im sorry|er|um|uh)"
MEANT = r"(?:i meant(?: to say)?|i mean|i said|what i meant (?:was|is)|it'?s|it is|make that|that should be|should be|not)"
OH = rf"(?:(?:oh|ah)[\s,]+(?={OOPS}))?"      # "oh sorry, Bristol": an "oh" only before an oops word
CORRECTION = re.compile(
    rf"^{OH}(?P<oops>(?:{OOPS}[\s,!.:;-]+)*)(?P<meant>{MEANT})\s+(?P<new>.+?)(?:,?\s+not\s+(?P<old>[^,.!?]+))?[\s.!]*$"
    rf"|^{OH}(?:{OOPS}[\s,!.:;-]+)+(?P<new2>[^,.!?]+?),?\s+not\s+(?P<old2>[^,.!?]+?)[\s.!]*$"
    rf"|^(?P<new3>[\w' -]{{2,40}}?),\s*not\s+(?P<old3>[\w' -]{{2,40}}?)[\s.!]*$"
    rf"|^{OH}(?:{OOPS}[\s,!.:;—–-]+)*{OOPS}\s*[,!.:;—–-]\s*(?P<new4>[^,.!?]{{1,40}}?)[\s.!]*$", F)
OOPS_LEAD = re.compile(rf"^{OH}(?:{OOPS}[\s,!.:;—–-]+)*", F)
CORRECTION_WORDS = ("mean", "said", "not ", "it's", "its ", "it is", "should be", "make that", ",", "-", ":", ";",
                    "!", ".", "—", "–")
# Said after "no, I mean ...", these are not a value: "I mean, the weather is nice".
NOT_A_CORRECTION = re.compile(r"^(?:the other|that|this|it|what|how|why|when|who|so|really|sure|fine|ok|okay|"
                              r"nothing|anything|you|yes|no|a joke|kidding|joking|the same|well|like|hi|hello|hey|"
                              r"thanks|thank you|bye|goodbye|sorry|please|to)\b|"
                              r"\b(?:is|are|was|were|be|do|does|did|has|had|will|would|can|could|should)\b", F)
# Without an "oops" word before them or the old value after, these say nothing about a correction:
# "it's raining", "should be fun".
WEAK_MEANT = {"it's", "its", "it is", "should be", "not", "i mean"}


def correction(sentence: str) -> list[Change] | None:
    """The corrected value of what the user said a moment ago, or None when this is not a correction."""
    if not holds_any(sentence, CORRECTION_WORDS):
        return None
    m = match_start(CORRECTION, sentence)
    if not m:
        return None
    if mine_statements(OOPS_LEAD.sub("", sentence)):
        return None     # "actually I'm not allergic to peanuts": a statement after the "oops", read as one
    meant = (m["meant"] or "").lower()
    if meant == "not":
        # "no, not Bath, Bristol" / "not Bath, I meant Bristol"
        old, _, new = m["new"].partition(",")
        new = re.sub(rf"^\s*(?:{MEANT}\s+)?", "", new, flags=F)
    else:
        new = m["new"] or m["new2"] or m["new3"]
        old = m["old"] or m["old2"] or m["old3"]
        if meant in WEAK_MEANT and not m["oops"] and not old:
            return None
    new, old = trim(new or m["new4"] or ""), trim(old) if old else None
    inner = mine_statements(new)
    if inner:
        return [Change("correct", c.key, c.value, old=old) for c in inner if c.op == "assert"] or None
    if not new or len(new.split()) > 4 or search_in(NOT_A_CORRECTION, new) or new.lower() in NON_VALUES:
        return None
    if m["new4"] and not specific(new, uses_case(sentence)):
        return None     # "sorry, Lisbon", "no wait, 43": a value with a kind of its own; "no problem" is not one
    return [Change("correct", None, new, old=old)]
