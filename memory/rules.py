"""The fact rules: one clause the user said about themself -> the `Change`s it states.

Facts are about the speaker, stated by the speaker, in the first person. So every pattern is
anchored at the start of a clause ("my brother lives in Oslo" never reaches "i live in"), and
questions, hypotheticals and reported speech are dropped before any pattern runs.

The vocabulary (keys and their examples) is in tests/mining_corpus.py, one labelled line each.
"""
from __future__ import annotations

from typing import Callable, Iterable

import regex as re

from .intent import Change, Op
from .lexicon import (
    COUNT, DIET, DIETS, F, HYPOTHETICAL, IDONT, IF_ANYWHERE, IM, IVE, LANGUAGES, LEAD, MONTHS,
    NON_VALUES, NOW, NUMBER, OCCUPATIONS, PETS, QUESTION, SENTENCE_SPLIT, as_name, as_number,
    as_occupation, as_org, as_place, clauses, gerund, match_start, search_in, split_items,
    strip_lead, titled, trim, word_count_ok,
)


# --------------------------------------------------------------------------------------------
# Clause rules: (pattern anchored after LEAD, handler(match) -> changes). Order matters:
# negations and retractions come before the positive forms they resemble.
# --------------------------------------------------------------------------------------------
Handler = Callable[[re.Match], list[Change]]
RULES: list[tuple[re.Pattern, Handler]] = []


RAW_RULES: list[tuple[re.Pattern, Handler]] = []   # matched before the lead words are stripped


def rule(pattern: str, raw: bool = False):
    """Register a handler for a clause pattern; the clause's lead words ("well, actually") are
    already stripped unless raw."""
    compiled = re.compile(rf"^(?:{pattern})", F)

    def register(handler: Handler) -> Handler:
        (RAW_RULES if raw else RULES).append((compiled, handler))
        return handler
    return register


def _each(op: Op, key: str, values: Iterable[str | None]) -> list[Change]:
    return [Change(op, key, v) for v in values if v]


# --- allergy ---------------------------------------------------------------------------------
# "i'm not allergic to peanuts anymore", "i am no longer allergic to shellfish"
@rule(rf"{IM} (?:not|no longer|not actually) allergic to (?P<v>.+)")
def _allergy_retract(m):
    if re.match(r"(?:anything|any food)\b", m["v"], flags=F):
        return [Change("retract", "allergy", None)]
    return _each("retract", "allergy", split_items(m["v"]))


# "i outgrew my peanut allergy", "i don't have a shellfish allergy anymore"
@rule(rf"(?:i (?:outgrew|grew out of)|{IDONT} have|i no longer have) (?:my|an?|the) (?P<v>.+?) allerg(?:y|ies)")
def _allergy_outgrown(m):
    return _each("retract", "allergy", split_items(m["v"]))


# "i'm allergic to peanuts and cashews", "im severely allergic to bee stings"
@rule(rf"{IM} (?:(?:{NOW}|very|really|severely|deathly|highly|mildly|extremely|super|quite|"
      r"seriously|badly|slightly|a bit|a little) )*allergic to (?P<v>.+)")
def _allergy(m):
    return _each("assert", "allergy", split_items(m["v"]))


# "i have a peanut allergy", "i've got a severe shellfish allergy", "i have allergies to dust and pollen"
@rule(rf"(?:i (?:have|got)|{IVE} got|i suffer from) (?:an? |some )?(?:(?:severe|serious|bad|mild|"
      r"deadly|life-threatening|major|nasty|food) )*(?:allerg(?:y|ies) to (?P<v>.+)|(?P<w>.+?) allerg(?:y|ies)\b)")
def _allergy_have(m):
    return _each("assert", "allergy", split_items(m["v"] or m["w"]))


# "my allergies are peanuts and dust", "my allergy is penicillin"
@rule(r"my (?:only )?allerg(?:y|ies) (?:is|are|include|includes) (?P<v>.+)")
def _allergy_mine(m):
    return _each("assert", "allergy", split_items(m["v"]))


# --- medical: conditions, medications, intolerances ------------------------------------------
CONDITIONS = (
    r"(?:type (?:1|2|one|two|i|ii) )?diabetes|pre-?diabetes|asthma|epilepsy|(?:rheumatoid |osteo)?arthritis|adhd|add|"
    r"autism|aspergers?|dyslexia|dyspraxia|(?:clinical |chronic |severe )?depression|(?:an )?anxiety(?: disorder)?|"
    r"bipolar(?: disorder)?|ptsd|ocd|(?:\w+ )?cancer|leukemia|leukaemia|(?:chronic )?migraines?|"
    r"(?:high|low) blood pressure|hypertension|high cholesterol|heart disease|an? (?:heart|thyroid|kidney|skin|"
    r"lung|liver|chronic|medical|autoimmune|genetic|rare) (?:condition|disease|disorder)|(?:celiac|coeliac|"
    r"crohn'?s|kidney|liver|lyme|parkinson'?s|alzheimer'?s|graves'?|addison'?s|hashimoto'?s) disease|ibs|"
    r"colitis|lupus|multiple sclerosis|ms|dementia|copd|sleep apnea|sleep apnoea|insomnia|narcolepsy|"
    r"psoriasis|eczema|hypothyroidism|hyperthyroidism|fibromyalgia|chronic (?:fatigue|pain)|endometriosis|"
    r"pcos|gout|sickle cell(?: anemia| anaemia| disease)?|cystic fibrosis|ha?emophilia|hiv|hepatitis \w|"
    r"glaucoma|cataracts|scoliosis|tinnitus|hearing loss|vertigo|anemia|anaemia|a pacemaker|an? (?:bad|weak) "
    r"(?:back|heart|knee|hip)|(?:a )?broken (?:arm|leg|wrist|ankle|foot|hand|rib|collarbone|nose|toe|finger)|"
    r"an? (?:\w+ )?(?:intolerance|deficiency)|celiac|coeliac|diverticulitis|a heart murmur|an eating disorder")
CONDITION_ADJ = {
    "diabetic": "diabetes", "epileptic": "epilepsy", "asthmatic": "asthma", "coeliac": "coeliac disease",
    "celiac": "coeliac disease", "anemic": "anemia", "anaemic": "anemia", "autistic": "autism",
    "dyslexic": "dyslexia", "deaf": "deaf", "partly deaf": "partly deaf", "partially deaf": "partly deaf",
    "hard of hearing": "hard of hearing", "blind": "blind", "partially sighted": "partially sighted",
    "legally blind": "legally blind", "color blind": "colour blind", "colorblind": "colour blind",
    "colour blind": "colour blind", "hypertensive": "hypertension", "bipolar": "bipolar disorder",
    "pregnant": "pregnant", "immunocompromised": "immunocompromised", "prediabetic": "prediabetes",
    "pre-diabetic": "prediabetes", "insulin dependent": "diabetes", "insulin-dependent": "diabetes",
    "paraplegic": "paraplegic", "quadriplegic": "quadriplegic", "disabled": "disabled",
}
CONDITION_ADJ_RE = "|".join(sorted(map(re.escape, CONDITION_ADJ), key=len, reverse=True))
MEDICATIONS = (
    r"warfarin|insulin|metformin|aspirin|ibuprofen|lithium|levothyroxine|thyroxine|statins?|blood thinners?|"
    r"antidepressants?|anti-?depressants?|beta[- ]blockers?|prednisone|steroids|methotrexate|sertraline|"
    r"fluoxetine|citalopram|prozac|zoloft|lexapro|adderall|ritalin|xanax|valium|epipen|an? epi-?pen|"
    r"an? inhaler|inhalers|chemo(?:therapy)?|dialysis|immunosuppressants?|anticoagulants?|antibiotics|"
    r"(?:many |lots of |several |a lot of |a bunch of |daily |some )?(?:medications?|medicines?|meds|pills)"
    r"(?: for (?:my )?[\w' -]+)?")
FOOD_INTOLERANCE = r"lactose|gluten|fructose|histamine|dairy|wheat|soy|eggs?|caffeine|fodmaps?|sulphites|sulfites"


def _medical_value(raw: str) -> str | None:
    value = trim(raw)
    value = re.sub(r"^(?:a|an|some|the)\s+", "", value, flags=F)
    return value.lower() if value and len(value.split()) <= 6 else None


# "i don't have asthma anymore", "i'm no longer diabetic", "i stopped taking warfarin", "i'm off insulin"
@rule(rf"(?:{IDONT}|i no longer) (?:have|suffer from) (?P<c>{CONDITIONS})"
      rf"|{IM} (?:no longer|not(?: actually)?) (?P<a>{CONDITION_ADJ_RE})\b"
      rf"|i (?:stopped|quit|no longer) (?:taking|need|use|using) (?P<m>{MEDICATIONS})"
      rf"|{IM} (?:no longer|not) (?:on|taking) (?P<n>{MEDICATIONS})|{IM} off (?P<o>{MEDICATIONS})")
def _medical_retract(m):
    if m["a"]:
        return [Change("retract", "medical", CONDITION_ADJ[m["a"].lower()])]
    return _each("retract", "medical", [_medical_value(m["c"] or m["m"] or m["n"] or m["o"])])


# "i have type 1 diabetes", "i suffer from migraines", "i was diagnosed with epilepsy", "i have a broken arm"
@rule(rf"(?:(?:i|{IVE}) (?:(?:{NOW}|also) )*(?:have|got|suffer from|live with|struggle with|"
      rf"was diagnosed with|got diagnosed with|(?:have )?been diagnosed with)) (?P<c>{CONDITIONS})\b")
def _medical_condition(m):
    return _each("assert", "medical", [_medical_value(m["c"])])


# "i'm diabetic", "i am partly deaf", "im coeliac"
@rule(rf"{IM} (?:(?:{NOW}|also|very|severely|slightly|mildly|type (?:1|2|one|two)) )*(?P<a>{CONDITION_ADJ_RE})\b"
      r"(?!\s+(?:to|about|of|on|with|person|people|friends?|family))")
def _medical_adjective(m):
    return [Change("assert", "medical", CONDITION_ADJ[m["a"].lower()])]


# "i take warfarin", "i'm on insulin", "i take many medications", "i use an inhaler"
@rule(rf"(?:i (?:(?:{NOW}|also|have to|need to|must) )*(?:take|use|need)|{IM} (?:(?:{NOW}|also) )*(?:on|taking)) "
      rf"(?P<m>{MEDICATIONS})\b")
def _medical_medication(m):
    return _each("assert", "medical", [_medical_value(m["m"])])


# "i'm lactose intolerant", "i can't eat gluten", "i can't have dairy"
@rule(rf"{IM} (?:(?:{NOW}|very|severely|also|mildly|slightly) )*(?P<v>{FOOD_INTOLERANCE}) intolerant"
      rf"|i (?:can'?t|cannot|can not) (?:eat|have|digest|tolerate|drink) (?:any )?(?P<w>{FOOD_INTOLERANCE})\b")
def _intolerant(m):
    food = (m["v"] or m["w"]).lower()
    return [Change("assert", "medical", f"{'lactose' if food == 'dairy' else food} intolerance")]


# --- diet ------------------------------------------------------------------------------------
# "i'm no longer vegan", "i'm not vegetarian anymore", "i quit being vegan"
@rule(rf"(?:{IM} (?:no longer|not(?: really)?) (?:an? )?|i (?:quit|stopped|gave up) being (?:an? )?){DIET}")
def _diet_retract(m):
    return [Change("retract", "diet", DIETS[m["diet"].lower()])]


# "i don't eat meat but i do eat fish" -> pescatarian; read whole, before clauses are split
PESCATARIAN_BUT = re.compile(
    rf"^(?:{IDONT}|i no longer|i (?:stopped|quit)) eat(?:ing)? (?:any )?meat,? (?:but|though) (?:i )?"
    r"(?:do |still )?eat (?:fish|seafood)", F)


# "i've started eating fish again", "i eat fish now", "i'm eating seafood again"
@rule(rf"(?:{IM}|{IVE}|i)(?: {NOW})?(?: (?:started|begun|began|start|went back to|back to))? (?:eating|to eat) (?:fish|seafood)"
      r"|i (?:eat|have) (?:fish|seafood) (?:again|now)")
def _diet_fish(m):
    return [Change("assert", "diet", "pescatarian")]


# "i eat meat again", "i've started eating meat", "i'm eating chicken again"
@rule(rf"(?:{IM}|{IVE}|i)(?: {NOW})?(?: (?:started|begun|began|start|went back to|back to))? (?:eating|to eat) "
      r"(?:meat|chicken|beef|pork|steak|burgers)|i (?:eat|have) (?:meat|chicken|beef|pork) (?:again|now)"
      r"|i(?:'ll| will)? eat (?:anything|everything)\b")
def _diet_meat(m):
    return [Change("assert", "diet", "omnivore")]


# "i stopped eating animal products", "i don't eat any animal products"
@rule(rf"(?:{IDONT}|i no longer|i (?:stopped|quit|gave up)) (?:eat(?:ing)? )?(?:any )?"
      r"(?:animal products|meat(?:,)? (?:or|and) dairy|dairy (?:or|and) meat|meat,? fish(?:,)? (?:or|and) dairy)")
def _diet_vegan_change(m):
    return [Change("assert", "diet", "vegan")]


# "i stopped eating meat", "i don't eat meat or fish", "i gave up meat"
@rule(rf"(?:{IDONT}|i no longer|i (?:stopped|quit|gave up)|{IVE} (?:stopped|quit|given up)) "
      r"(?:eat(?:ing)? )?(?:any )?meat\b")
def _diet_vegetarian_change(m):
    return [Change("assert", "diet", "vegetarian")]


# "i'm vegetarian", "im a vegan now", "i went vegan", "i've become pescatarian", "i follow a keto diet"
@rule(rf"(?:(?:{IM}|{IVE} been) (?:(?:{NOW}|strictly|fully|mostly|100%|a|an|full|on an?) )*|"
      rf"(?:i|{IVE}|we) (?:(?:{NOW}) )*(?:went|gone|became|become|turned|switched to|eat|follow|keep|"
      r"am on|'m on|have|stick to) (?:an? )?|my diet is (?:(?:now|mostly|strictly) )?(?:an? )?)"
      rf"{DIET}(?:\s+(?:diet|now|these days|for (?:health|ethical) reasons|anymore|again|last (?:year|month|week)|"
      r"this (?:year|month)|recently|a while ago|since \w+(?: \w+)?))*\s*$")
def _diet(m):
    return [Change("assert", "diet", DIETS[m["diet"].lower()])]


# --- name ------------------------------------------------------------------------------------
# "my name is bob", "my name's Ada Lovelace", "call me Max", "i go by sam"
@rule(r"(?:my (?:first |full )?name(?:'s|s| is)|(?:you (?:can|may|should) |please |just |everyone |"
      r"people |my friends )?call(?:s)? me|i go by|the name's|name's|"
      rf"{IM} (?:called|named|known as)|they call me) (?:(?:actually|now|just|simply) )?(?P<v>.+)")
def _name_rule(m):
    if re.match(r"(?:not|never)\b", m["v"], flags=F):
        return []
    return _each("assert", "name", [as_name(m["v"])])


# "hi, i'm bob", "hello there, i am Ada", "hey this is sam"
@rule(rf"(?:hi|hello|hey|greetings|howdy)[\s,!]+(?:there[\s,!]+|glados[\s,!]+)?(?:{IM}|this is|it's) (?P<v>.+)",
      raw=True)
def _name_greeting(m):
    return _each("assert", "name", [as_name(m["v"])])


NOT_NAMES = LANGUAGES | set("""american canadian british australian mexican indian brazilian
scottish welsh irish christian muslim jewish catholic buddhist hindu atheist agnostic european
african asian latino latina gay straight bi trans queer human""".split())


# "I'm Sam." (typed, capitalised, the whole clause): a name, where "i'm tired" is not
@rule(rf"{IM} (?P<v>(?-i:\p{{Lu}}\p{{Ll}}+(?: \p{{Lu}}\p{{Ll}}+)?))\s*[.!]*$")
def _name_capitalised(m):
    first = m["v"].split()[0].lower()
    if first in NOT_NAMES or first in DIETS or first in OCCUPATIONS:
        return []
    return _each("assert", "name", [as_name(m["v"])])


# --- location / hometown ---------------------------------------------------------------------
# "i no longer live in paris", "i don't live in berlin anymore", "i moved out of leeds"
@rule(rf"(?:i (?:no longer|don't|dont|do not) live(?: in| at)?|i moved (?:out of|away from)|"
      rf"{IM} (?:no longer|not) (?:living|based) in) (?P<v>.+)")
def _location_retract(m):
    if re.match(r"(?:there|here)\b", m["v"], flags=F):
        return [Change("retract", "location", None)]
    return _each("retract", "location", [as_place(m["v"])])


# "i live in paris now", "i've moved to new york", "we just moved to lisbon", "i'm based in oslo"
@rule(rf"(?:(?:i|we) (?:(?:{NOW}|happily) )*(?:live|reside|settled)|{IM} (?:(?:{NOW}) )*(?:living|based|"
      rf"located|residing|settled)|(?:{IVE}|we've) been (?:living|based|staying)|"
      rf"(?:i|we|{IVE}|we've) (?:(?:{NOW}|finally) )*(?:moved|relocated)(?: back)?|"
      r"my (?:home|house|apartment|flat|address) is) (?:in|to|at|near|outside(?: of)?) (?P<v>.+)"
      r"|(?:home (?:for me )?is|i call) (?P<w>.+?)(?: home)?$")
def _location(m):
    return _each("assert", "location", [as_place(m["v"] or m["w"])])


# "i was born in 1990" -> birthday; "i was born in leeds" -> hometown
@rule(rf"(?:{IM} (?:originally )?from|i (?:originally )?come from|i grew up in|i was (?:born|raised)"
      r"(?: and (?:raised|bred))? in|my (?:hometown|home town) is|{IM} a native of) (?P<v>.+)")
def _hometown(m):
    value = trim(m["v"])
    if re.fullmatch(rf"(?:{MONTHS}\s+)?\d{{4}}", value, flags=F):
        return [Change("assert", "birthday", value)]
    if re.match(r"(?:work|school|the future|here|now on|a family|a small family)\b", value, flags=F):
        return []
    return _each("assert", "hometown", [as_place(value)])


# --- employer / job --------------------------------------------------------------------------
# "i quit my job", "i got laid off", "i lost my job at acme"
@rule(r"i (?:just )?(?:quit|lost|left) my job(?: at (?P<v>.+))?|i (?:just )?got (?:fired|laid off|let go)"
      rf"(?: from (?P<w>.+))?|{IM} (?:now )?unemployed")
def _employer_gone(m):
    org = m["v"] or m["w"]
    return [Change("retract", "employer", as_org(org) if org else None)]


# "i no longer work at google", "i don't work for acme anymore"
@rule(r"i (?:no longer|don't|dont|do not) work (?:at|for) (?P<v>.+)")
def _employer_retract(m):
    return _each("retract", "employer", [as_org(m["v"])])


# "i work at google as a software engineer", "i'm employed by the nhs", "i got a job at ikea"
@rule(rf"i (?:(?:{NOW}) )*work (?:at|for) (?P<v>.+)|{IM} (?:(?:{NOW}) )*(?:employed|working) (?:at|for|by) (?P<w>.+)"
      rf"|(?:i|{IVE}) (?:just )?(?:got|landed|started) (?:a |my )?(?:new )?job (?:at|with) (?P<x>.+)"
      r"|my (?:employer|company) is (?P<y>.+)")
def _employer(m):
    raw = m["v"] or m["w"] or m["x"] or m["y"]
    changes = _each("assert", "employer", [as_org(raw)])
    job = re.search(r"\bas\s+(?:an?\s+)?(?P<j>.+)$", raw, flags=F)
    if job:
        changes += _each("assert", "job", [as_occupation(job["j"])])
    return changes


# "i'm not a teacher anymore", "i'm no longer a nurse", "i quit being a chef"
@rule(rf"(?:{IM} (?:no longer|not(?: really)?)|i (?:quit|stopped|gave up) being) (?:an? )?(?P<v>.+?)(?: anymore| any more)?$")
def _job_retract(m):
    job = as_occupation(m["v"])
    return [Change("retract", "job", job)] if job else []


# "i work as a nurse", "my job is teaching"... "i'm a software engineer at google"
@rule(rf"(?:i (?:(?:{NOW}) )*work as|{IM} (?:(?:{NOW}) )*working as|my (?:job|occupation|profession) is|"
      rf"{IM} (?:(?:{NOW}|a|an|by profession) )*)\s*(?:an? )?(?P<v>.+?)(?:\s+(?:at|for|with) (?P<org>.+))?$")
def _job(m):
    job = as_occupation(m["v"])
    if not job:
        return []
    return [Change("assert", "job", job)] + _each("assert", "employer", [as_org(m["org"]) if m["org"] else None])


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
    return _each("assert", "partner", [as_name(value)])


# --- favourites ------------------------------------------------------------------------------
FAV = r"(?:favou?rite|fav|fave|most loved)"
THING_ALIASES = {"programming_language": "language", "coding_language": "language",
                 "colour": "color", "programming_languages": "language", "colours": "color",
                 "movie_of_all_time": "movie", "tv_show": "show", "tv_series": "show"}


def fav_key(thing: str) -> str | None:
    thing = re.sub(r"\s+(?:of all time|ever|right now|at the moment|now|these days|currently|lately)$", "",
                   thing.strip().lower())
    thing = re.sub(r"[^a-z0-9 ]", "", thing).strip().replace(" ", "_")
    thing = THING_ALIASES.get(thing, thing)
    if thing.endswith("s") and not thing.endswith("ss") and len(thing) > 3:
        thing = thing[:-1]
    thing = THING_ALIASES.get(thing, thing)
    if not thing or len(thing) > 30 or thing.count("_") > 2:
        return None
    return "favorite_" + thing


def _fav_value(value: str) -> str | None:
    value = trim(value)
    if not value or value.lower() in NON_VALUES or len(value.split()) > 6:
        return None
    return value


# "my favorite color isn't blue anymore"
@rule(rf"my {FAV} (?P<t>[\w ]{{1,30}}?) (?:isn't|isnt|is not|aren't|is no longer) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _fav_retract(m):
    key = fav_key(m["t"])
    return [Change("retract", key, _fav_value(m["v"]))] if key and _fav_value(m["v"]) else []


# "my favorite color is blue", "my favourite programming language is rust", "my fav food's sushi"
@rule(rf"my (?:(?:all[- ]time|new|current|absolute) )?{FAV} (?P<t>[\w ]{{1,30}}?)(?:'s| is| are| would be| has to be|"
      r" must be| is probably| is definitely| these days is| right now is| at the moment is) (?P<v>.+)")
def _fav(m):
    key, value = fav_key(m["t"]), _fav_value(m["v"])
    return [Change("assert", key, value)] if key and value else []


# "blue is my favorite color", "rust is my favourite programming language"
@rule(rf"(?!(?:i|it|that|this|what|which|who|there)\b)(?P<v>[\w' -]{{1,40}}?) (?:is|are) (?:(?:now|still|definitely|probably|"
      rf"totally) )?my (?:new |all[- ]time |absolute )?{FAV} (?P<t>[\w ]{{1,30}}?)\s*[.!]*$")
def _fav_inverted(m):
    key, value = fav_key(m["t"]), _fav_value(m["v"])
    return [Change("assert", key, value)] if key and value else []


# --- wake word -------------------------------------------------------------------------------
# "change your wake word to hey jarvis", "set the wake word to computer"
@rule(r"(?:please |can you |could you )?(?:change|set|switch|make|update) (?:your|the) (?:wake ?word|"
      r"wake phrase|trigger word|activation phrase) (?:to|as|into|be) (?P<v>.+)|(?:your|the) "
      r"(?:wake ?word|wake phrase) is (?:now )?(?P<w>.+)|use (?P<x>.+?) as (?:your|the) wake ?(?:word|phrase)")
def _wake_word(m):
    value = trim(m["v"] or m["w"] or m["x"]).strip("\"'“” ").lower()
    return [Change("assert", "wake_word", value)] if word_count_ok(value, 4) else []


# --- likes / dislikes ------------------------------------------------------------------------
LIKE_VERBS = r"(?:like|love|enjoy|adore|dig|really like|am into|'m into|m into)"
HATE_VERBS = r"(?:hate|dislike|detest|despise|loathe|can'?t stand|cannot stand|can'?t bear|abhor)"
NOT_LIKE = r"(?:don'?t|do not|no longer|never) (?:really |much |particularly |actually )?(?:like|love|enjoy|care for)"
INTENSIFIER = r"(?:(?:really|absolutely|totally|truly|also|just|do|still|actually|honestly|genuinely|now|so|very much|simply|quite|secretly|definitely|deeply|seriously) )*"


def _like_values(raw: str) -> list[str]:
    raw = trim(raw)
    if re.match(r"to\s+\w", raw, flags=F):
        raw = gerund(raw[3:].strip())
    if re.match(r"(?:it|that|this|you|how|when|where|what|being|the way|the idea|my job when)\b", raw, flags=F):
        return []
    return split_items(raw)


# "i don't like olives anymore", "i no longer enjoy running", "i'm not into jazz anymore"
@rule(rf"i {NOT_LIKE} (?P<v>.+?) (?:anymore|any more|these days|now)\b"
      rf"|i no longer (?:like|love|enjoy) (?P<w>.+)|i (?:stopped|quit) (?:liking|enjoying|loving) (?P<x>.+)"
      rf"|{IM} (?:no longer|not) (?:into|a fan of) (?P<y>.+?) (?:anymore|any more)\b|{IM} over (?P<z>.+)")
def _likes_retract(m):
    return _each("retract", "likes", _like_values(m["v"] or m["w"] or m["x"] or m["y"] or m["z"]))


# "i don't hate mushrooms anymore", "i no longer dislike jazz"
@rule(r"i (?:don'?t|do not|no longer) (?:hate|dislike|mind) (?P<v>.+?)(?: anymore| any more)?\s*$")
def _dislikes_retract(m):
    return _each("retract", "dislikes", _like_values(m["v"]))


# "i hate mushrooms", "i can't stand jazz", "i don't like cilantro", "i'm not a fan of horror movies"
@rule(rf"i {INTENSIFIER}{HATE_VERBS} (?P<v>.+)|i {NOT_LIKE} (?P<w>.+)|"
      rf"{IM} (?:really )?not (?:a (?:big |huge )?fan of|into|keen on) (?P<x>.+)")
def _dislikes(m):
    return _each("assert", "dislikes", _like_values(m["v"] or m["w"] or m["x"]))


# "i like jazz and hiking", "i really love spicy food", "i'm a big fan of chess", "i'm into climbing"
@rule(rf"i {INTENSIFIER}{LIKE_VERBS} (?P<v>.+)|{IM} {INTENSIFIER}(?:a (?:(?:big|huge|massive|great) )?fan of|"
      r"(?:really )?into|keen on|passionate about|obsessed with|crazy about|addicted to) (?P<w>.+)")
def _likes(m):
    return _each("assert", "likes", _like_values(m["v"] or m["w"]))


# --- pets ------------------------------------------------------------------------------------
def _pet_values(raw: str) -> list[str]:
    out = []
    for item in re.split(r"\s*(?:,\s*and|,|\band\b|\bplus\b)\s*", trim(raw), flags=F):
        pm = re.fullmatch(rf"(?:{COUNT}\s+)?(?:(?:little|old|young|new|pet|rescue|big|small|\w+-year-old)\s+)*"
                          rf"(?P<kind>(?:[\w-]+\s+)?{PETS})(?:\s+(?:named|called)\s+(?P<name>[\w'-]+))?",
                          item.strip(), flags=F)
        if not pm:
            continue
        count = re.match(rf"(?P<c>{COUNT})\s", item.strip(), flags=F)
        kind = pm["kind"].lower()
        if count and count["c"].lower() not in ("a", "an", "one"):
            kind = f"{count['c'].lower()} {kind}"
        out.append(f"{kind} named {titled(pm['name'])}" if pm["name"] else kind)
    return out


# "my dog died", "my cat rex passed away", "i don't have a hamster anymore"
@rule(rf"my (?:(?:old|little|pet) )?(?P<v>{PETS})(?: [\w'-]+)? (?:died|passed away|passed|ran away|is gone)"
      rf"|i (?:don'?t|do not|no longer) (?:have|own) (?:a |an |my |any )?(?P<w>{PETS})")
def _pet_gone(m):
    kind = (m["v"] or m["w"]).lower()
    return [Change("retract", "pet", kind)]


# "i have no pets", "i don't have any pets anymore"
@rule(r"i (?:have|own) no (?:pets?|animals?)|i (?:don'?t|do not) (?:have|own) (?:any )?(?:pets?|animals?)")
def _no_pets(m):
    return [Change("retract", "pet", None)]


# "my dog's name is rex", "my cat is called luna"
@rule(rf"my (?P<kind>{PETS})(?:'s name is|s name is| is called| is named| name is) (?P<name>[\w'-]+)")
def _pet_named(m):
    kind = m["kind"].lower()
    if kind.endswith("s") and not kind.endswith("ss"):
        kind = kind[:-1]          # "my cats name is luna" (speech-to-text drops the apostrophe)
    return [Change("retract", "pet", kind), Change("assert", "pet", f"{kind} named {titled(m['name'])}")]


# "i have a dog named rex", "i've got two cats", "we have a parrot", "i own a horse"
@rule(rf"(?:(?:i|we) (?:(?:{NOW}) )*(?:have|own|got|adopted)(?: got)?|{IVE} got|we've got|we have got"
      r")\s+(?P<v>.+)")
def _pet(m):
    return _each("assert", "pet", _pet_values(m["v"]))


# --- languages -------------------------------------------------------------------------------
def _languages(raw: str) -> list[str]:
    raw = re.sub(r"\s+(?:at home|at work|fluently|well|badly|poorly|every day|daily|with (?:my|the|our) .*)$",
                 "", trim(raw), flags=F)
    raw = re.sub(r"\b(?:a (?:little|bit of)|a little bit of|some|basic|fluent|conversational|"
                 r"decent|good|bad|broken|native|perfect|a lot of|mostly)\s+", "", trim(raw), flags=F)
    items = [w for item in split_items(raw) for w in
             (item.split() if all(x.lower() in LANGUAGES for x in item.split()) else [item])]
    if not items or any(i.lower() not in LANGUAGES for i in items):
        return []
    return [i.title() for i in items]


# "i don't speak german anymore"
@rule(r"i (?:can'?t|cannot|don'?t|do not|no longer) speak (?P<v>.+)")
def _language_retract(m):
    return _each("retract", "language", _languages(m["v"]))


# "i speak english and french", "i'm fluent in spanish", "my native language is polish"
@rule(rf"i (?:(?:{NOW}|can|can also) )*speak (?P<v>.+)|{IM} (?:(?:{NOW}) )*fluent in (?P<w>.+)|"
      rf"my (?:native|first|mother|home) (?:language|tongue) is (?P<x>.+)|{IM} a native (?P<y>\w+) speaker")
def _language(m):
    return _each("assert", "language", _languages(m["v"] or m["w"] or m["x"] or m["y"]))



def _first(rules: list[tuple[re.Pattern, Handler]], text: str) -> list[Change]:
    for pattern, handler in rules:
        m = match_start(pattern, text)
        if m:
            changes = handler(m)
            if changes:
                return changes
    return []


# A hedge or a joke is not a fact: "i'm kind of allergic to mornings haha", "oh great, i just love mondays".
HEDGE = re.compile(r"\b(?:kind of|kinda|sort of|sorta)\b", F)
JOKE = re.compile(r"\b(?:ha(?:ha)+h?|he(?:he)+|lol|lmao|rofl|jk|j/k|just kidding|just joking|kidding)\b|/s$|;\)|:p\b", F)
SARCASM = re.compile(r"^(?:oh|ah)[\s,]+(?:great|joy|wonderful|fantastic|brilliant|perfect|goody|sure|yay)\b|"
                     r"^(?:yeah|ya) right\b|^great,? just great\b|^(?:wow|gee),? thanks\b", F)


def _mine_clause(clause: str) -> list[Change]:
    body = strip_lead(clause)
    if match_start(QUESTION, body) or match_start(HYPOTHETICAL, body) or search_in(IF_ANYWHERE, body):
        return []
    if search_in(HEDGE, body):
        return []
    return _first(RAW_RULES, clause) or _first(RULES, body)


def mine_statements(text: str) -> list[Change]:
    changes: list[Change] = []
    for sentence in SENTENCE_SPLIT.split(text):
        sentence = sentence.strip()
        body = strip_lead(sentence)
        if not sentence or sentence.endswith("?") or match_start(HYPOTHETICAL, body) or match_start(QUESTION, body):
            continue
        if search_in(JOKE, sentence) or match_start(SARCASM, sentence):
            continue
        # A rule that reads the whole sentence ("i don't eat meat but i eat fish") wins over its parts.
        if match_start(PESCATARIAN_BUT, body.rstrip(".!")):
            changes.append(Change("assert", "diet", "pescatarian"))
            continue
        for clause in clauses(sentence):
            changes += _mine_clause(clause.rstrip(".!"))
    return changes
