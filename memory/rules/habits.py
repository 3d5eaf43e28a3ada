"""A pastime the user keeps up, told as a habit rather than a liking: "I've been playing guitar for a while now",
"I've been listening to a lot of ambient electronic music lately", "I mostly play action RPGs and open-world games".

What makes a habit lasting is said with it: how long or how often ("for two years", "lately", "every week",
"mostly", "usually"). Only pastimes count (playing, listening, reading, cooking, crafts, sports); working, shopping,
going, using or taking something is what a day holds, not who the user is. What is listened to, watched, read or
played is the taste itself ("ambient electronic music", "thrillers", "cello"; persona-chat's labelling rule); a
pastime that makes or gathers something keeps its verb ("building models", "writing music", "collecting vinyl").
"""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import IVE, LEAD, gerund
from .registry import rule
from .tastes import _tastes

# Pastimes done to something: "playing guitar", "reading mystery novels", "building model tanks".
WITH_OBJECT = (r"(?:playing|listening to|reading|watching|cooking|baking|painting|drawing|knitting|crocheting|sewing|"
               r"writing|collecting|building|practicing|practising|doing|learning to play|sketching|brewing|growing)")
# Pastimes whole in one word: "I've been gardening for years".
ALONE = (r"(?:gardening|hiking|running|jogging|cycling|biking|swimming|climbing|bouldering|dancing|singing|fishing|"
         r"birding|birdwatching|journaling|skiing|snowboarding|surfing|skating|meditating|golfing|kayaking|camping|"
         r"woodworking|quilting|crafting|gaming)")
HOW_MUCH = r"(?:a lot|quite a bit|a ton|so much|more|regularly|consistently|religiously|on and off|nonstop)"
# How long or how often: what makes it a habit.
KEPT_UP = (r"(?:for (?:about |over |almost |nearly |around |roughly |the (?:past|last) )*(?:\d+|a few|several|many|a couple"
           r"(?: of)?|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+(?:years?|months?|weeks?)"
           r"|for (?:a (?:while|long time|bit)|years|ages|decades|some time)(?: now)?"
           r"|lately|recently|these days|since (?:i was|college|high school|childhood|(?:19|20)\d\d)"
           r"|(?:almost |nearly |pretty much )?(?:every (?:day|week|weekend|morning|evening|night)|daily|weekly))")
# What is done, up to the time words: not a preposition or a particle ("working on", "writing down"), nor "a lot".
OPENS = r"(?!(?:for|with|on|in|at|to|as|before|after|while|when|during|down|up|out|off|about|around)\b)"
OBJECT = (rf"{OPENS}(?P<obj>(?!(?:a lot|quite a bit|a ton|so much|more)\b(?!\s+of\b))"
          r"(?:(?!\b(?:for|lately|recently|these|since|every|daily|weekly|and i|but|because)\b)[^,.;:!?])+?)")


# "i've been playing guitar for a while now", "i've been listening to a lot of electronic music lately",
# "i've been gardening for years", "i've been reading a lot lately"
# (read before the time words are taken off the clause: they are what makes it a habit)
@rule(rf"{LEAD}{IVE} been (?:(?:really|also|actually|mostly|regularly|consistently|just) )*"
      rf"(?:(?P<verb>{WITH_OBJECT}) {OBJECT}|(?P<alone>{ALONE}|reading|cooking|baking|painting|drawing|knitting|"
      rf"writing))(?:\s+{HOW_MUCH})*\s+{KEPT_UP}\b", raw=True)
def _habit_kept(m):
    return _pastime(m["verb"], m["obj"], lately=True) if m["verb"] else _tastes("likes", "tells", m["alone"])


# "i mostly play action rpgs", "i usually listen to jazz while i work", "i often bake bread on sundays"
@rule(rf"i (?:(?:also|really) )?(?:usually|mostly|regularly|often|always|typically|generally|normally) "
      r"(?P<verb>play|listen to|read|watch|cook|bake|paint|draw|knit|crochet|sew|write|collect|build|practi[cs]e|do)"
      rf" {OPENS}(?P<obj>.+?)(?:\s+(?:while|when|on|in|at|during|before|after|with|to|for|every|each|almost|daily|weekly)"
      r"\b.*)?\s*$")
def _habit_usual(m):
    return _pastime(gerund(m["verb"]), m["obj"])


def _pastime(verb: str, obj: str, lately: bool = False) -> list[Change]:
    """The taste a pastime names: what is listened to or watched ("a lot of jazz" -> jazz), what is done ("doing
    yoga" -> yoga), else the pastime with its object ("playing guitar")."""
    obj = re.sub(r"^(?:a lot of|lots of|a bunch of|more|some|a mix of|different|various)\s+", "", obj.strip(),
                 flags=re.I)
    verb = verb.lower()
    if verb == "playing":
        obj = re.sub(r"^the (?=[\w-]+$)", "", obj, flags=re.I)      # "playing the cello"
    if not obj or re.match(r"(?:it|that|this|them|those|these|my|your|his|her|their|our|the|a|an|one)\b", obj,
                           flags=re.I) or DAY.search(obj):
        return []   # "playing it", "reading the book you suggested", "building my portfolio", "some work"
    if verb == "doing" and (re.fullmatch(r"\w+ing", obj) and not re.fullmatch(rf"{ALONE}|{WITH_OBJECT}", obj, flags=re.I)
                            or lately and not re.fullmatch(r"[\w-]+", obj)):
        return []   # "doing yoga", "doing a lot of reading"; not "a lot of driving", nor "rice and roasted veggies" lately
    if verb in ("listening to", "watching", "doing", "reading", "playing"):
        return _tastes("likes", "tells", obj)     # what is listened to, watched, read or played is the taste
    return _tastes("likes", "tells", f"{verb} {obj}")


# What a day holds, not a pastime: "I usually do some work on the bus".
DAY = re.compile(r"\b(?:work|homework|chores|errands|laundry|dishes|shopping|paperwork|emails?|overtime)\b", re.I)
