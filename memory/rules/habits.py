"""A pastime the user keeps up, told as a habit rather than a liking: "I've been playing guitar for a while now",
"I've been listening to a lot of ambient electronic music lately", "I mostly play action RPGs and open-world games",
"I recently started collecting vinyl", "I've been taking pottery classes".

What makes a habit lasting is said with it: how long or how often ("for two years", "lately", "every week",
"mostly", "usually"), or that it was taken up. Only pastimes count (playing, listening, reading, cooking, crafts,
sports); working, shopping, driving, going, using or taking something is what a day holds, not who the user is, and
one book or show ("The Nightingale") is not a pastime. What is listened to, watched, read or played is the taste
itself ("ambient electronic music", "thrillers", "cello"; persona-chat's labelling rule); a pastime that makes or
gathers something keeps its verb ("building models", "writing music", "collecting vinyl").
"""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import IM, IVE, LANGUAGES, LEAD, gerund
from .registry import rule
from .tastes import CLASS_WORD, _tastes

# Pastimes done to something: "playing guitar", "reading mystery novels", "building model tanks".
WITH_OBJECT = (r"(?:playing|listening to|reading|watching|cooking|baking|painting|drawing|knitting|crocheting|sewing|"
               r"writing|collecting|building|practicing|practising|doing|learning to play|sketching|brewing|growing)")
# Pastimes whole in one word: "I've been gardening for years", "I've been reading a lot lately".
ALONE = (r"(?:gardening|hiking|running|jogging|cycling|biking|swimming|climbing|bouldering|dancing|singing|fishing|"
         r"birding|birdwatching|journaling|skiing|snowboarding|surfing|skating|meditating|golfing|kayaking|camping|"
         r"woodworking|quilting|crafting|gaming|reading|cooking|baking|painting|drawing|knitting|writing)")
# What the taste is: the object of these, the pastime with its object for the rest.
OBJECT_IS_TASTE = ("listening to", "watching", "doing", "reading", "playing", "practicing", "practising")
HOW_MUCH = r"(?:a lot|quite a bit|a ton|so much|more|regularly|consistently|religiously|on and off|nonstop)"
# How long or how often: what makes it a habit.
KEPT_UP = (r"(?:for (?:about |over |almost |nearly |around |roughly |the (?:past|last) )*(?:\d+|a few|several|many|"
           r"a couple(?: of)?|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?:years?|months?|weeks?)"
           r"|for (?:a (?:while|long time|bit)|years|ages|decades|some time)(?: now)?"
           r"|lately|recently|these days|since (?:i was|college|high school|childhood|(?:19|20)\d\d)"
           r"|(?:almost |nearly |pretty much )?(?:every (?:other )?(?:day|week|weekend|morning|evening|night|"
           r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|daily|weekly))")
# When it was taken up: "again", "last year", "five years ago".
TAKEN_WHEN = (r"(?:again|recently|lately|last \w+|this \w+|as a hobby|for fun|as well|too|(?:about |around |over |almost |nearly )?"
              r"(?:\w+|a few|a couple of) (?:years?|months?|weeks?|days?) ago|(?:and|but|so|because)\b.*)")
# What is done, up to the time words: not a preposition or a particle ("working on", "writing down"), nor "a lot".
OPENS = r"(?!(?:for|with|on|in|at|to|as|before|after|while|when|during|down|up|out|off|about|around)\b)"
OBJECT = (rf"{OPENS}(?P<obj>(?!(?:a lot|quite a bit|a ton|so much|more)\b(?!\s+of\b))"
          r"(?:(?!\b(?:for|lately|recently|these|since|every|daily|weekly|and i|but|because)\b)[^,.;:!?])+?)")
# Words for any media at all: "I've been watching a lot of YouTube videos lately" says what a week held.
MEDIA = re.compile(r"(?:(?:youtube|netflix|tiktok|online|new|newer) )?(?:music|videos?|tv|shows?|movies|films|content|"
                   r"stuff|things|releases)", re.I)
# What a day holds, not a pastime: "I usually do some work on the bus".
DAY = re.compile(r"\b(?:work|homework|chores|errands|laundry|dishes|shopping|paperwork|emails?|overtime)\b", re.I)
INSTRUMENTS = r"(?:guitar|piano|violin|cello|drums?|bass|ukulele|saxophone|flute|trumpet|harp)"


# "i've been playing guitar for a while now", "i've been listening to a lot of electronic music lately",
# "i've been gardening for years", "i've been reading a lot lately"
# (read before the time words are taken off the clause: they are what makes it a habit)
@rule(rf"{LEAD}{IVE} been (?:(?:really|also|actually|mostly|regularly|consistently|just) )*"
      rf"(?:(?P<verb>{WITH_OBJECT}) {OBJECT}|(?P<alone>{ALONE}))(?:\s+{HOW_MUCH})*\s+{KEPT_UP}\b", raw=True)
def _habit_kept(m):
    return _pastime(m["verb"], m["obj"], lately=True) if m["verb"] else _tastes("likes", "tells", m["alone"])


# "i mostly play action rpgs", "i usually listen to jazz while i work", "i often bake bread on sundays"
@rule(rf"i (?:(?:also|really) )?(?:usually|mostly|regularly|often|always|typically|generally|normally) "
      r"(?P<verb>play|listen to|read|watch|cook|bake|paint|draw|knit|crochet|sew|write|collect|build|practi[cs]e|do) "
      rf"{OPENS}(?P<obj>.+?)(?:\s+(?:while|when|on|in|at|during|before|after|with|to|for|every|each|almost|daily|"
      r"weekly)\b.*)?\s*$")
def _habit_usual(m):
    return _pastime(gerund(m["verb"]), m["obj"])


# "i recently started collecting vinyl", "ever since i started baking bread", "i took up pottery last year": a pastime
# taken up (not "started a new job" or "started at Google": only a pastime is started or got into, "got into
# Harvard" is not one; what is taken up may be named: "pottery"; "picked up" is as often bought: "picked up some
# hickory chips")
@rule(rf"{LEAD}(?:(?:ever )?since )?(?:i (?:(?:recently|just|finally|also|actually|first) )*(?:started|began|"
      r"(?:have|'ve) started|took up|(?:have|'ve) taken up|got into|(?:have|'ve) gotten into)|"
      rf"(?:{IVE} been|{IM}) (?:(?:really|slowly|finally) )?getting (?:back )?into) "
      rf"(?:(?P<verb>{WITH_OBJECT}) {OBJECT}|(?P<alone>{ALONE}(?:(?:,\s*|,?\s+and\s+){ALONE})*)|(?<=took up ){OPENS}"
      rf"(?P<thing>(?!\w+ing\b)[\w-]+(?: [\w-]+)?))(?:\s+{TAKEN_WHEN})*\s*$", raw=True)
def _habit_taken_up(m):
    if m["verb"]:
        return [] if re.match(r"[\"'“‘]", m["obj"]) else _pastime(m["verb"], m["obj"])   # "reading 'Dune'": one book
    if m["alone"]:
        return _tastes("likes", "tells", m["alone"])
    if re.match(r"(?:a|an|the|my|to|it|this|that)\b", m["thing"], flags=re.I) or DAY.search(m["thing"]):
        return []   # "took up a new role", "got into the habit"
    return _tastes("likes", "tells", m["thing"])


# "i've been taking guitar lessons for a year", "i'm taking a pottery class", "since i started attending cooking
# classes": what the lessons are in
@rule(rf"{LEAD}(?:(?:ever )?since )?(?:{IVE} been|i'?m|i am|i (?:(?:recently|just) )?(?:started|began)) "
      r"(?:(?:also|really|now|currently|recently) )*(?:taking|attending|going to) "
      r"(?:an? |some |weekly |online |private )*(?P<what>[\w-]+(?: [\w-]+)?) (?:lessons?|class(?:es)?)\b", raw=True)
def _habit_lessons(m):
    what = m["what"]
    if re.match(r"(?:a|an|the|my|some|few|more|online|private|group|night|evening|weekly|daily|regular|new)\b", what,
                flags=re.I) or what.split()[0].lower() in LANGUAGES or "language" in what.lower():
        return []   # "English classes", "a language exchange": learning what one needs, not a pastime
    return _tastes("likes", "tells", f"playing {what}" if re.fullmatch(INSTRUMENTS, what, flags=re.I) else what)


def _pastime(verb: str, obj: str, lately: bool = False) -> list[Change]:
    """The taste a pastime names: what is listened to or watched ("a lot of jazz" -> jazz), what is done ("doing
    yoga" -> yoga), else the pastime with its object ("building models"). lately: said with "lately" or a
    duration, where "doing a lot of X" may be anything done ("rice and roasted veggies")."""
    quotes = " \"'“”‘’"
    obj = re.sub(r"^(?:(?:a lot of|lots of|a bunch of|more|some|a mix of|different|various)\s+)+", "",
                 obj.strip(quotes), flags=re.I)
    # the pastime, not when, where, with whom or what for: "basketball on Tuesdays", "yoga regularly", "jazz at
    # work", "chess to get better at strategy"
    obj = re.split(rf"\s+(?:on (?:\w+days?|weekends?|the weekends?)\b|(?:in|on) (?:the|my|a|an)\s|"
                   rf"(?:at|with|during|after|before|from|every)\s|to (?!me\b)\w+|{HOW_MUCH}\b)", obj, maxsplit=1,
                   flags=re.I)[0].strip(quotes)
    verb = verb.lower()
    if verb == "playing":
        obj = re.sub(rf"^(?:the (?=[\w-]+$)|my (?={INSTRUMENTS}$))", "", obj, flags=re.I)   # "the cello", "my guitar"
    if not obj or re.match(r"(?:it|that|this|them|those|these|my|your|his|her|their|our|the|a|an|one|of)\b", obj,
                           flags=re.I) or DAY.search(obj) or MEDIA.fullmatch(obj) or CLASS_WORD.fullmatch(obj):
        # "playing it", "reading the book you suggested" or "The Nightingale" (one book), "building my portfolio",
        # "some work", "a lot of music", "different genres" (says nothing of the user)
        return []
    if verb == "doing" and (re.fullmatch(r"\w+ing", obj) and not re.fullmatch(rf"{ALONE}|{WITH_OBJECT}", obj, flags=re.I)
                            or lately and not re.fullmatch(r"[\w-]+", obj)):
        return []   # "doing yoga", "doing a lot of reading"; not "a lot of driving", nor "rice and roasted veggies" lately
    return _tastes("likes", "tells", obj if verb in OBJECT_IS_TASTE else f"{verb} {obj}")
