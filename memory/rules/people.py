"""Fact rules for who the user is: name, where they live and come from, work, age, partner."""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import (
    DIETS, F, IM, IVE, LANGUAGES, MONTHS, NAME_STOPWORDS, NON_VALUES, NOT_NAMES, NOW, NUMBER, OCCUPATIONS,
    as_name, as_number, as_occupation, as_org, as_place, gerund, trim, word_count_ok,
)
from .health import CONDITION_ADJ
from .registry import each, rule


# --- name ------------------------------------------------------------------------------------
# "my name is bob", "my name's Ada Lovelace", "call me Max", "i go by sam"
@rule(r"(?:my (?:first |full )?name(?:'s|s| is)|(?:you (?:can|may|should) |please |just |everyone |"
      r"people |my friends )?call(?:s)? me|i go by|the name's|name's|"
      rf"{IM} (?:called|named|known as)|they call me) (?:(?:actually|now|just|simply) )?(?P<v>.+)")
def _name_rule(m):
    if re.match(r"(?:not|never)\b", m["v"], flags=F):
        return []
    return each("assert", "name", [as_name(m["v"])])


# "hi, i'm bob", "hello there, i am Ada", "hey this is sam"
@rule(rf"(?:hi|hello|hey|greetings|howdy)[\s,!]+(?:there[\s,!]+|glados[\s,!]+)?(?:{IM}|this is|it's) (?P<v>.+)",
      raw=True)
def _name_greeting(m):
    first = m["v"].split()[0] if m["v"].split() else ""
    if first.islower() and not_a_name(first.strip(".,!?")):
        return []       # "hello, this is testing": a word, not someone's name
    return each("assert", "name", [as_name(m["v"])])




# "I'm Sam." (typed, capitalised, the whole clause): a name, where "i'm tired" is not
@rule(rf"{IM} (?P<v>(?-i:\p{{Lu}}\p{{Ll}}+(?: \p{{Lu}}\p{{Ll}}+)?))\s*[.!]*$")
def _name_capitalised(m):
    first = m["v"].split()[0].lower()
    if first in NOT_NAMES or first in DIETS or first in OCCUPATIONS:
        return []
    return each("assert", "name", [as_name(m["v"])])


# Whole-clause "i'm zoe" (lowercase, typed or transcribed): a name unless the word is a state.
NOT_A_NAME_STATE = set("""tired hungry sorry busy angry happy sad ready lazy lucky crazy funny silly dirty thirsty sleepy
sick ill fine good great ok okay alright home here there back done sure late early free full high low new old
young tall short big small rich poor broke single married divorced engaged pregnant retired unemployed bored
lonely scared afraid worried nervous excited upset mad glad cool hot cold warm wet dry drunk sober awake asleep
alive dead safe lost stuck out in off on up down away gone around outside inside left right wrong correct
serious joking kidding curious confused stressed exhausted cranky grumpy moody shy quiet loud calm chill relaxed
fit fat thin skinny strong weak healthy well better worse best worst human normal weird strange odd different
special blessed grateful thankful proud ashamed embarrassed jealous honest humble famous next first last almost
also just still really so very too never always sometimes usually fair nice kind mean rude smart dumb stupid
clever wise bad sure sober hopeful sorted set fed game fun boring annoying annoyed ugly pretty cute hungover
finished starving freezing dying leaving going coming trying working waiting thinking listening here now yes
no maybe afk brb bi gay straight trans ace adopted alone free online offline""".split())


@rule(r"(?-i:(?:i'?m|i am|im) (?P<v>[a-z][a-z'-]{1,20}))\s*[.!]*$")
def _name_lowercase(m):
    word = m["v"]
    return [] if not_a_name(word) else [Change("assert", "name", word.title())]


def not_a_name(word: str) -> bool:
    """A lowercase word that says a state, a kind or a trade, or has the ending of one ("tired", "testing",
    "vegan", "nurse"): what follows "i'm" or "this is" without a capital is a name only otherwise."""
    return as_number(word) is not None or word in NOT_A_NAME_STATE or word in NAME_STOPWORDS or word in NOT_NAMES \
        or word in DIETS or word in OCCUPATIONS or word in LANGUAGES or word in CONDITION_ADJ \
        or (len(word) >= 5 and bool(re.search(r"(?:ed|ing|ful|less|ous|ive|able|ible|ish|ic|al|ent|ant|ly|est|er)$", word)))


# --- location / hometown ---------------------------------------------------------------------
# "i no longer live in paris", "i don't live in berlin anymore", "i moved out of leeds"
@rule(rf"(?:i (?:no longer|don't|dont|do not) live(?: in| at)?|i moved (?:out of|away from)|"
      rf"{IM} (?:no longer|not) (?:living|based) in) (?P<v>.+)")
def _location_retract(m):
    if re.match(r"(?:there|here)\b", m["v"], flags=F):
        return [Change("retract", "location", None)]
    return each("retract", "location", [as_place(m["v"])])


# "i live in paris now", "i've moved to new york", "we just moved to lisbon", "i'm based in oslo"
DWELLING = r"(?:house|flat|apartment|condo|place|home|room|cabin|cottage|studio|loft|bungalow|townhouse|farmhouse)"


@rule(rf"(?:(?:i|we) (?:(?:{NOW}|happily) )*(?:live|reside|settled)|{IM} (?:(?:{NOW}) )*(?:living|based|"
      rf"located|residing|settled)|(?:{IVE}|we've) been (?:living|based|staying)|"
      rf"(?:i|we|{IVE}|we've) (?:(?:{NOW}|finally) )*(?:moved|relocated)(?: back)?|"
      r"my (?:home|house|apartment|flat|address) is|"
      rf"(?:i|we) (?:(?:{NOW}) )*(?:rent|share|own|have|bought|found) (?:a|an|my|our) (?:[\w-]+ )?{DWELLING})"
      r"(?: (?:together )?with (?:my |our |a |two |three |some )?[\w' -]{1,30}?)?"
      r" (?:just |right )?(?:in|to|at|near|outside(?: of)?) (?P<v>.+)"
      r"|(?:home (?:for me )?is|i call) (?P<w>.+?)(?: home)?$"
      # "my city is Seattle" (a name: "my town is tiny" says how it is)
      r"|my (?:current |home )?(?:city|town) is (?P<x>(?-i:\p{Lu}).+)")
def _location(m):
    return each("assert", "location", [as_place(m["v"] or m["w"] or m["x"])])


# "i was born in 1990" -> birthday; "i was born in leeds" -> hometown
@rule(rf"(?:{IM} (?:originally )?from|i (?:originally )?come from|i grew up (?:in|on)|i was (?:(?:actually|originally) )?(?:born|raised)"
      r"(?: and (?:raised|bred))? in|i was raised on|my (?:hometown|home town) is|{IM} a native of) (?P<v>.+)")
def _hometown(m):
    value = trim(m["v"])
    if re.fullmatch(rf"(?:{MONTHS}\s+)?\d{{4}}", value, flags=F):
        return [Change("assert", "birthday", value)]
    if re.match(r"(?:work|school|the future|here|now on|a family|a small family)\b", value, flags=F):
        return []
    return each("assert", "hometown", [as_place(value)])


# --- employer / job --------------------------------------------------------------------------
# "i'm a 56 year old woman", "i am a nineteen year old student" (the age; and a job when the noun is one)
@rule(rf"{IM} (?:(?:{NOW}) )*an? {NUMBER}[\s-]+years?[\s-]+old (?P<rest>[\w -]+?)\s*[.!]*$")
def _age_phrase(m):
    age = as_number(m["num"])
    if not age or not 1 <= age <= 120:
        return []
    return [Change("assert", "age", str(age))] + each("assert", "job", [as_occupation(m["rest"])])

# "i quit my job", "i got laid off", "i lost my job at acme"
@rule(r"i (?:just )?(?:quit|lost|left) my job(?: at (?P<v>.+))?|i (?:just )?got (?:fired|laid off|let go)"
      rf"(?: from (?P<w>.+))?|{IM} (?:now )?unemployed")
def _employer_gone(m):
    org = m["v"] or m["w"]
    return [Change("retract", "employer", as_org(org) if org else None)]


# "i no longer work at google", "i don't work for acme anymore"
@rule(r"i (?:no longer|don't|dont|do not) work (?:at|for) (?P<v>.+)")
def _employer_retract(m):
    return each("retract", "employer", [as_org(m["v"])])


# "i work at google as a software engineer", "i'm employed by the nhs", "i got a job at ikea"
@rule(rf"i (?:(?:{NOW}) )*work (?:at|for) (?P<v>.+)|{IM} (?:(?:{NOW}) )*(?:employed|working) (?:at|for|by) (?P<w>.+)"
      rf"|(?:i|{IVE}) (?:just )?(?:got|landed|started) (?:a |my )?(?:new )?job (?:at|with) (?P<x>.+)"
      rf"|(?:i|{IVE}) (?:just )?started (?:work(?:ing)? |my (?:new )?job )?(?:at|with) (?P<z>(?-i:\p{{Lu}}).+)"
      r"|my (?:employer|company) is (?P<y>.+)")
def _employer(m):
    raw = m["v"] or m["w"] or m["x"] or m["y"] or m["z"]
    changes = each("assert", "employer", [as_org(raw)])
    job = re.search(r"\bas\s+(?:an?\s+)?(?P<j>.+)$", raw, flags=F)
    if job:
        changes += each("assert", "job", [as_occupation(job["j"])])
    return changes


# "i'm not a teacher anymore", "i'm no longer a nurse", "i quit being a chef"
@rule(rf"(?:{IM} (?:no longer|not(?: really)?)|i (?:quit|stopped|gave up) being) (?:an? )?(?P<v>.+?)(?: anymore| any more)?$")
def _job_retract(m):
    job = as_occupation(m["v"])
    return [Change("retract", "job", job)] if job else []


# "i work as a nurse", "my job is teaching"... "i'm a software engineer at google"
# "my job is fixing bikes", "my job is cleaning cages": the activity is the job
@rule(r"my (?:(?:day |main |current |new )?job|work) is (?P<v>\w+ing(?: [\w'-]+){0,4})\s*[.!]*$")
def _job_activity(m):
    return [Change("assert", "job", trim(m["v"]).lower())]


@rule(rf"(?:i (?:(?:{NOW}) )*work as|{IM} (?:(?:{NOW}) )*working as|my (?:job|occupation|profession|job title|title|role) is|"
      rf"{IM} (?:(?:{NOW}|a|an|by profession) )*)\s*(?:an? )?(?P<v>.+?)(?:\s+(?P<prep>at|for|with) (?P<org>.+))?$")
def _job(m):
    if re.match(r"\w+ing\b", m["v"], flags=F) and not re.search(r"\ban?\s+$", m.string[:m.start("v")], flags=F):
        return []   # "i'm building models", "i'm trying to get better": what one is doing, not what one is
    # "a real estate agent in Des Moines": where it is done; "a career coach and an influencer": the first trade
    # "a nurse living in Leeds": where the user lives (memory.rules.passing reads it)
    job = as_occupation(re.sub(r"\s+(?:in|from|near|based in) (?-i:\p{Lu}).*$|,?\s+and an?\s.*$|"
                               r"\s+(?:living|based|residing) in\s.*$", "", m["v"], flags=F))
    if not job:
        return []
    org = m["org"]
    if org and m["prep"].lower() == "with" and not re.match(r"(?:the\s+)?\p{Lu}", org.strip()):
        org = None   # "a designer with experience in X": what comes with the job, not who employs it
    if org and m["prep"].lower() == "for" and re.fullmatch(r"(?:\p{Ll}+ )*\p{Ll}+s", org.strip(" .!")):
        org = None   # "a hair stylist for dogs" serves dogs, it is not employed by them
    return [Change("assert", "job", job)] + each("assert", "employer", [as_org(org) if org else None])


FIELDS = (r"it|i\.t\.|tech|technology|finance|banking|marketing|sales|retail|construction|health ?care|fast food|"
          r"hospitality|education|insurance|real estate|advertising|accounting|hr|human resources|law|medicine|"
          r"nursing|publishing|media|film|tv|television|fashion|logistics|manufacturing|engineering|research|"
          r"software|cyber ?security|security|design|government|politics|the arts|journalism|pharma|biotech|"
          r"customer service|admin|administration|recruitment|recruiting|catering|agriculture|farming|mining|"
          r"energy|telecoms|consulting|management|science|academia|social work|childcare|aviation|shipping|"
          r"transport|the (?:\w+ )?industry|(?:the )?(?:food|restaurant|hotel|music|film|tech|oil|car|auto) "
          r"(?:business|industry|sector)|the (?:public|private|charity|nonprofit) sector|it support|a lab|a hospital")
# Verbs that are a job: "i waitress during the day", "i bartend on weekends"
VERB_JOBS = {"waitress": "waitress", "bartend": "bartender", "babysit": "babysitter", "freelance": "freelancer",
             "lifeguard": "lifeguard"}


# "i work in construction", "i work in it", "i work fulltime in a shipyard" (a workplace, unnamed)
@rule(rf"i (?:(?:{NOW}|also) )*work (?:(?:full[- ]?time|part[- ]time|nights|days) )?in (?P<f>{FIELDS})\b"
      r"(?:\s+as\s+(?:an?\s+|the\s+)?(?P<job>.+?)(?:\s+(?:at|for|with) (?P<org>(?-i:\p{Lu}).+))?$)?"
      rf"|i (?:(?:{NOW}|also) )*work (?:(?:full[- ]?time|part[- ]time|nights|days) )?(?:in|at) (?P<w>an? [\w -]+)"
      rf"|(?:i|{IVE}) (?:just )?(?:got|landed|started|found) (?:a |my )?(?:new )?job (?:working )?(?:at|in|with) (?P<x>an? [\w -]+)")
def _work_in(m):
    job = as_occupation(m["job"]) if m["job"] else None
    if job:
        # "i work in the IT industry as a software engineer": the field says where, the job is what comes after "as"
        return [Change("assert", "job", job)] + each("assert", "employer", [as_org(m["org"]) if m["org"] else None])
    if m["f"]:
        field = m["f"].lower()
        return [Change("assert", "job", "IT" if field in ("it", "i.t.") else field)]
    place = trim(m["w"] or m["x"])
    words = place.split()
    if m["x"] and re.search(r"\bwith\s+$", m.string[:m.start("x")], flags=F):
        return []     # "a new job with a 45-minute commute": what comes with the job, not who gives it
    return [Change("assert", "employer", " ".join(words[1:]).lower())] if 2 <= len(words) <= 4 else []


# "i teach chemistry at a high school", "i coach little league baseball", "i teach"
@rule(rf"i (?:(?:{NOW}|also) )*(?P<verb>teach|coach|tutor) (?P<v>(?!(?:my|him|her|them|myself|me|you|every|each|twice|"
      r"once|on|at|in|for|with|from|a lot|sometimes|often|online|part|full)\b)[\w -]+?)"
      r"(?:\s+(?:at|in|for|to) .*)?$")
def _teach(m):
    subject = trim(m["v"])
    agent = {"teach": "teacher", "coach": "coach", "tutor": "tutor"}[m["verb"].lower()]
    if not word_count_ok(subject, 3) or subject.lower() in NON_VALUES or re.fullmatch(
            r"(?:some |a few |the )?(?:classes|lessons|courses|people|others|kids|students|sessions)", subject, flags=F):
        return []       # "i teach classes": what is taught names no subject, and perhaps no job
    return [Change("assert", "job", f"{subject.lower()} {agent}")]


# "i study law", "i'm studying architecture at university", "i'm in college", "i major in history"
@rule(rf"(?:i (?:(?:{NOW}|also) )*(?:study|major in)|{IM} (?:(?:{NOW}|also) )*(?:studying|majoring in|doing a (?:degree|phd|"
      r"masters|master's) in|an? (?:student|phd student|grad student) (?:of|in))) (?P<v>[\w -]+?)(?:\s+(?:at|in) .*)?$"
      rf"|{IM} (?:(?:{NOW}|also) )*(?:in|at) (?P<s>college|university|uni|grad school|high school|med school|law school|"
      r"nursing school|school)\b")
def _student(m):
    if m["s"]:
        return [Change("assert", "job", f"{m['s'].lower()} student")]
    subject = trim(m["v"])
    if not word_count_ok(subject, 3) or subject.lower() in NON_VALUES or re.match(r"(?:for|hard|late|abroad)\b", subject, flags=F):
        return []
    if subject.lower() in LANGUAGES and not re.search(r"\s(?:at|in)\s", m.group(0)[m.end("v") - m.start():], flags=F):
        return []       # "i've been studying japanese": a learner, not a student by trade (at a school, one is)
    return [Change("assert", "job", f"{subject.lower()} student")]


# "i became a school principal", "i trained as a nurse", "i decided to become a life coach"
@rule(rf"(?:i|{IVE}) (?:(?:{NOW}|finally|eventually|then|later) )*(?:became|become|decided to become|trained as|"
      r"qualified as|retrained as|got promoted to|was promoted to) (?:an? )?(?P<v>.+)")
def _became(m):
    return each("assert", "job", [as_occupation(m["v"])])


# "i walk dogs for a living", "i waitress during the day"
@rule(rf"i (?P<v>[\w -]+?) for a living\b|i (?:(?:{NOW}|also) )*(?P<verb>{'|'.join(VERB_JOBS)})\b(?!\s+(?:my|him|her|me))",
      needs=("for a living", *VERB_JOBS))
def _verb_job(m):
    if m["verb"]:
        return [Change("assert", "job", VERB_JOBS[m["verb"].lower()])]
    return [Change("assert", "job", gerund(m["v"]).lower())] if word_count_ok(m["v"], 4) else []


# "i own a dog walking business", "i run my own studio", "i have a small bakery"
@rule(rf"i (?:(?:{NOW}|also) )*(?:own|run|have|started|opened|manage) (?:my own|an?|our|the family) (?P<v>(?:[\w-]+ ){{0,3}}?"
      r"(?:business|company|shop|store|studio|restaurant|bakery|cafe|café|bar|pub|firm|salon|practice|agency|"
      r"startup|clinic|garage|gym|farm|ranch|consultancy))(?=\s*$|\s*[,.!;]|\s+(?:and|with|in|on|that|which|where|called|named)\b)")
def _own_business(m):
    value = re.sub(r"^(?:small|little|own|new) ", "", trim(m["v"]).lower())
    return [Change("assert", "employer", value)]


# "i'm retired", "i'm a student"
@rule(rf"{IM} (?:(?:{NOW}|happily|finally) )*(?P<v>retired)\b")
def _retired(m):
    return [Change("assert", "job", "retired"), Change("retract", "employer", None)]


# --- birthday / age --------------------------------------------------------------------------
# "my birthday is march 3rd", "i was born on 4 july 1990"
@rule(r"(?:my (?:birthday|bday|b-day|date of birth|dob)(?:'s| is)(?: on)?|i was born on) (?P<v>.+)")
def _birthday(m):
    value = trim(m["v"])
    if not re.search(rf"\d|{MONTHS}\b", value, flags=F) or re.search(r"\b(?:today|tomorrow|yesterday|next|last)\b", value, flags=F):
        return []
    return [Change("assert", "birthday", value)] if word_count_ok(value, 5) else []


# "i'm 34", "i am thirty four years old", "i just turned 40", "my age is 29"
@rule(rf"(?:{IM} (?:(?:{NOW}|only|almost|nearly|about) )*|i (?:just )?turned |my age is ){NUMBER}"
      r"(?:\s*(?:years?|yrs?)(?: old)?| y/?o)?(?:\s+(?:now|today|this year|already|yesterday|recently|"
      r"last (?:week|month|year)|this (?:week|month)))?\s*[.!]*$")
def _age(m):
    age = as_number(m["num"])
    return [Change("assert", "age", str(age))] if age and 1 <= age <= 120 else []


# --- partner ---------------------------------------------------------------------------------
PARTNER = r"(?:wife|husband|partner|girlfriend|boyfriend|spouse|fianc[eé]e?|missus|hubby|gf|bf)"


# "i'm single now", "i'm divorced", "we broke up"
@rule(rf"{IM} (?:(?:{NOW}) )*(?:single|divorced|no longer married|not married anymore)|"
      r"(?:we|i) (?:just )?(?:broke up|split up|got divorced|separated)")
def _partner_gone(m):
    return [Change("retract", "partner", None)]


# "my wife's name is anna", "i'm married to Tom", "my girlfriend is called mia"
@rule(rf"(?:my {PARTNER}(?:'s name is|s name is| is called| is named| name is| goes by)|"
      rf"{IM} (?:(?:{NOW}|happily) )*(?:married to|engaged to|dating|going out with)) (?P<v>.+)")
def _partner(m):
    value = re.sub(r"^(?:someone|somebody|a (?:guy|girl|man|woman|lady|person)) (?:named|called) ", "", m["v"], flags=F)
    return each("assert", "partner", [as_name(value)])
