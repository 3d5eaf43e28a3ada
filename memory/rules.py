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
    COUNT, DIET, DIETS, F, HYPOTHETICAL, IDONT, IF_ANYWHERE, IM, IVE, LANGUAGES, LEAD, LIST_STOP, MONTHS,
    NAME_STOPWORDS, NON_VALUES, NOT_NAMES, NOW, NUMBER, OCCUPATIONS, PETS, QUESTION, SENTENCE_SPLIT, TIMEOUT_FROM_CHARS,
    TIMEOUT_S,
    as_name, as_number, as_occupation, as_org, as_place, clauses, gerund, match_start, search_in, split_items,
    strip_lead, titled, trim, word_count_ok,
)


# --------------------------------------------------------------------------------------------
# Clause rules: (pattern anchored after LEAD, handler(match) -> changes). Order matters:
# negations and retractions come before the positive forms they resemble.
# --------------------------------------------------------------------------------------------
Handler = Callable[[re.Match], list[Change]]
Rule = tuple[re.Pattern, Handler, tuple[str, ...]]
RULES: list[Rule] = []
RAW_RULES: list[Rule] = []   # matched before the lead words are stripped


def rule(pattern: str, raw: bool = False, needs: tuple[str, ...] = ()):
    """Register a handler for a clause pattern; the clause's lead words ("well, actually") are
    already stripped unless raw. `needs`: words one of which the clause must hold, checked before
    the pattern runs (for the patterns that must scan the whole clause)."""
    compiled = re.compile(rf"^(?:{pattern})", F)

    def register(handler: Handler) -> Handler:
        (RAW_RULES if raw else RULES).append((compiled, handler, needs))
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




# "I'm Sam." (typed, capitalised, the whole clause): a name, where "i'm tired" is not
@rule(rf"{IM} (?P<v>(?-i:\p{{Lu}}\p{{Ll}}+(?: \p{{Lu}}\p{{Ll}}+)?))\s*[.!]*$")
def _name_capitalised(m):
    first = m["v"].split()[0].lower()
    if first in NOT_NAMES or first in DIETS or first in OCCUPATIONS:
        return []
    return _each("assert", "name", [as_name(m["v"])])


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
    if as_number(word) is not None or word in NOT_A_NAME_STATE or word in NAME_STOPWORDS or word in NOT_NAMES or word in DIETS \
            or word in OCCUPATIONS or word in LANGUAGES or word in CONDITION_ADJ \
            or (len(word) >= 5 and re.search(r"(?:ed|ing|ful|less|ous|ive|able|ible|ish|ic|al|ent|ant|ly|est|er)$", word)):
        return []
    return [Change("assert", "name", word.title())]


# --- location / hometown ---------------------------------------------------------------------
# "i no longer live in paris", "i don't live in berlin anymore", "i moved out of leeds"
@rule(rf"(?:i (?:no longer|don't|dont|do not) live(?: in| at)?|i moved (?:out of|away from)|"
      rf"{IM} (?:no longer|not) (?:living|based) in) (?P<v>.+)")
def _location_retract(m):
    if re.match(r"(?:there|here)\b", m["v"], flags=F):
        return [Change("retract", "location", None)]
    return _each("retract", "location", [as_place(m["v"])])


# "i live in paris now", "i've moved to new york", "we just moved to lisbon", "i'm based in oslo"
DWELLING = r"(?:house|flat|apartment|condo|place|home|room|cabin|cottage|studio|loft|bungalow|townhouse|farmhouse)"


@rule(rf"(?:(?:i|we) (?:(?:{NOW}|happily) )*(?:live|reside|settled)|{IM} (?:(?:{NOW}) )*(?:living|based|"
      rf"located|residing|settled)|(?:{IVE}|we've) been (?:living|based|staying)|"
      rf"(?:i|we|{IVE}|we've) (?:(?:{NOW}|finally) )*(?:moved|relocated)(?: back)?|"
      r"my (?:home|house|apartment|flat|address) is|"
      rf"(?:i|we) (?:(?:{NOW}) )*(?:rent|share|own|have|bought|found) (?:a|an|my|our) (?:[\w-]+ )?{DWELLING})"
      r"(?: (?:together )?with (?:my |our |a |two |three |some )?[\w' -]{1,30}?)?"
      r" (?:just |right )?(?:in|to|at|near|outside(?: of)?) (?P<v>.+)"
      r"|(?:home (?:for me )?is|i call) (?P<w>.+?)(?: home)?$")
def _location(m):
    return _each("assert", "location", [as_place(m["v"] or m["w"])])


# "i was born in 1990" -> birthday; "i was born in leeds" -> hometown
@rule(rf"(?:{IM} (?:originally )?from|i (?:originally )?come from|i grew up (?:in|on)|i was (?:born|raised)"
      r"(?: and (?:raised|bred))? in|i was raised on|my (?:hometown|home town) is|{IM} a native of) (?P<v>.+)")
def _hometown(m):
    value = trim(m["v"])
    if re.fullmatch(rf"(?:{MONTHS}\s+)?\d{{4}}", value, flags=F):
        return [Change("assert", "birthday", value)]
    if re.match(r"(?:work|school|the future|here|now on|a family|a small family)\b", value, flags=F):
        return []
    return _each("assert", "hometown", [as_place(value)])


# --- employer / job --------------------------------------------------------------------------
# "i'm a 56 year old woman", "i am a nineteen year old student" (the age; and a job when the noun is one)
@rule(rf"{IM} (?:(?:{NOW}) )*an? {NUMBER}[\s-]+years?[\s-]+old (?P<rest>[\w -]+?)\s*[.!]*$")
def _age_phrase(m):
    age = as_number(m["num"])
    if not age or not 1 <= age <= 120:
        return []
    return [Change("assert", "age", str(age))] + _each("assert", "job", [as_occupation(m["rest"])])

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
# "my job is fixing bikes", "my job is cleaning cages": the activity is the job
@rule(r"my (?:(?:day |main |current |new )?job|work) is (?P<v>\w+ing(?: [\w'-]+){0,4})\s*[.!]*$")
def _job_activity(m):
    return [Change("assert", "job", trim(m["v"]).lower())]


@rule(rf"(?:i (?:(?:{NOW}) )*work as|{IM} (?:(?:{NOW}) )*working as|my (?:job|occupation|profession|job title|title|role) is|"
      rf"{IM} (?:(?:{NOW}|a|an|by profession) )*)\s*(?:an? )?(?P<v>.+?)(?:\s+(?P<prep>at|for|with) (?P<org>.+))?$")
def _job(m):
    job = as_occupation(m["v"])
    if not job:
        return []
    org = m["org"]
    if org and m["prep"].lower() == "for" and re.fullmatch(r"(?:\p{Ll}+ )*\p{Ll}+s", org.strip(" .!")):
        org = None   # "a hair stylist for dogs" serves dogs, it is not employed by them
    return [Change("assert", "job", job)] + _each("assert", "employer", [as_org(org) if org else None])


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
      rf"|i (?:(?:{NOW}|also) )*work (?:(?:full[- ]?time|part[- ]time|nights|days) )?(?:in|at) (?P<w>an? [\w -]+)"
      rf"|(?:i|{IVE}) (?:just )?(?:got|landed|started|found) (?:a |my )?(?:new )?job (?:working )?(?:at|in|with) (?P<x>an? [\w -]+)")
def _work_in(m):
    if m["f"]:
        field = m["f"].lower()
        return [Change("assert", "job", "IT" if field in ("it", "i.t.") else field)]
    place = trim(m["w"] or m["x"])
    words = place.split()
    return [Change("assert", "employer", " ".join(words[1:]).lower())] if 2 <= len(words) <= 4 else []


# "i teach chemistry at a high school", "i coach little league baseball", "i teach"
@rule(rf"i (?:(?:{NOW}|also) )*(?P<verb>teach|coach|tutor) (?P<v>(?!(?:my|him|her|them|myself|me|you|every|each|twice|"
      r"once|on|at|in|for|with|from|a lot|sometimes|often|online|part|full)\b)[\w -]+?)"
      r"(?:\s+(?:at|in|for|to) .*)?$")
def _teach(m):
    subject = trim(m["v"])
    agent = {"teach": "teacher", "coach": "coach", "tutor": "tutor"}[m["verb"].lower()]
    if not word_count_ok(subject, 3) or subject.lower() in NON_VALUES:
        return []
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
    return [Change("assert", "job", f"{subject.lower()} student")]


# "i became a school principal", "i trained as a nurse", "i decided to become a life coach"
@rule(rf"(?:i|{IVE}) (?:(?:{NOW}|finally|eventually|then|later) )*(?:became|become|decided to become|trained as|"
      r"qualified as|retrained as|got promoted to|was promoted to) (?:an? )?(?P<v>.+)")
def _became(m):
    return _each("assert", "job", [as_occupation(m["v"])])


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
    return _each("assert", "partner", [as_name(value)])


# --- favourites ------------------------------------------------------------------------------
FAV = r"(?:favou?rite|fav|fave|most loved|preferred)"
FAV_WORDS = ("fav", "most loved", "preferred")
THING_ALIASES = {"programming_language": "language", "coding_language": "language",
                 "colour": "color", "programming_languages": "language", "colours": "color",
                 "movie_of_all_time": "movie", "tv_show": "show", "tv_series": "show"}


def fav_key(thing: str) -> str | None:
    thing = re.sub(r"\s+(?:of all time|ever|right now|at the moment|now|these days|currently|lately)$", "",
                   thing.strip().lower())
    # "type of music to sing" -> "music"; "kind of movie" -> "movie"
    thing = re.sub(r"^(?:type|kind|sort|genre|style|brand) of\s+|\s+to \w+$", "", thing)
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
      rf"totally) )?my (?:new |all[- ]time |absolute )?{FAV} (?P<t>[\w ]{{1,30}}?)\s*[.!]*$", needs=FAV_WORDS)
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


# "and" inside one liked thing is not a list: "rock and roll", "getting up bright and early".
FIXED_AND = re.compile(r"\b(?:rock|rhythm|bright|salt|fish|mac|bread|black|pros|arts|drum|hide|cops|bed|"
                       r"peace|rest|rank|hip hop|cheese|surf|cookies|peanut butter|strawberries|fast|"
                       r"dungeons|sword|ice)\s+(?:and|&|n)\s+\w+", F)
# Verbs that start a new clause of their own: "i love hiking but hate running" = "... but i hate running".
OWN_CLAUSE_VERBS = (r"(?:love|like|enjoy|adore|hate|dislike|detest|prefer|have|own|live|work|study|teach|speak|play|"
                    r"am|go|drive|volunteer|spend|read|watch)")
# A liked activity said through who or where: "spending time with my kids" -> "kids".
LIKE_FRAME = re.compile(r"^(?:spending (?:my |some |quality )?time (?:with|at|in|on)|spend(?:ing)? time (?:with|at|in|on)|"
                        r"being (?:around|with|at|in|outside in)|time (?:with|at|in|on)|hanging out with)\s+"
                        r"(?:(?:my|the|our)\s+)?", F)
COMMON_VERBS = (r"(?:read|play|watch|go|spend|hang|cook|bake|swim|run|write|travel|dance|sing|draw|paint|hike|ride|eat|"
                r"drink|listen|explore|visit|learn|garden|knit|sew|fish|hunt|camp|ski|surf|shop|grill|lift|do|make|take|"
                r"meet|see|try|work|relax|sleep|build|fix|collect|sit|walk|jog|bike|cycle|climb|sail|study|teach|help|"
                r"volunteer|chat|talk|code|program|craft|bowl|golf|skate|snowboard|spend|stay|get|have|keep|feed|"
                r"care|look|sleep|binge|browse|scroll|stream|tinker|practice|practise|train|host|throw|attend|join)")
LIKE_STOP = re.compile(LIST_STOP.pattern.replace(r"(?:with|since|", r"(?:since|", 1), F)
ANAPHORA = re.compile(r"(?:^|\s)(?:it|that|this|them|those|these|him|her|you|one|all|both|em|'em)$", F)


def _like_values(raw: str) -> list[str]:
    raw = trim(raw, LIKE_STOP)
    if re.match(r"(?:it|that|this|those|these|them|you|how|when|where|what|the way|the idea|my job when|a lot of)\b",
                raw, flags=F):
        return []
    if re.match(r"to (?:be|have|get|make|keep|feel|know|think)\b", raw, flags=F):
        return []       # "i prefer to be more free spirited": a wish about oneself, not a liked thing
    verbs = bool(re.match(r"to\s+\w", raw, flags=F))
    raw = raw[3:].strip() if verbs else raw
    # a letter that no list splits on holds a fixed phrase together: "rockǀandǀroll"
    protected = FIXED_AND.sub(lambda m: m.group(0).replace(" ", "\u01c0"), raw)
    parts = [p.replace("\u01c0", " ") for p in split_items(protected, stop=LIKE_STOP)]
    out = []
    for part in parts:
        # "to watch movies and tv shows": after the first, only a verb starts a new activity
        value = gerund(part) if verbs and (part is parts[0] or re.match(rf"{COMMON_VERBS}\b", part, flags=F)) else part
        value = re.sub(r"^(?:(?:all|different|many|lots of|various) )?(?:kinds|types|sorts) of\s+", "", value, flags=F)
        value = LIKE_FRAME.sub("", value).strip()
        words = value.split()
        if re.match(r"\w+ing (?:it|them|that|this|those)\b", value, flags=F):
            return out      # "to drink it with milk and sugar": what follows belongs to "it"
        if not words or ANAPHORA.search(value) or re.search(r"\bthings$", value, flags=F) or (not verbs and part is not parts[0] and
                                                   re.match(rf"{OWN_CLAUSE_VERBS}\b", part, flags=F)):
            continue
        out.append(value)
    # "exploring the ice and snow": a lone noun after a gerund with an object belongs to it
    if len(out) == 2 and len(out[0].split()) >= 3 and out[0].split()[0].endswith("ing") and \
            len(out[1].split()) == 1 and not out[1].endswith("ing"):
        out = [f"{out[0]} and {out[1]}"]
    return out


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
      r"(?:really )?into|keen on|passionate about|obsessed with|crazy about|addicted to|(?:very |really )?interested in|"
      r"a (?:(?:big|huge) )?(?:sucker|lover) (?:for|of)) (?P<w>.+)"
      r"|i (?:also )?(?:prefer|have a (?:soft spot|weakness|passion|thing) for) (?P<x>.+)"
      r"|my (?:(?:favou?rite|main|only|biggest) )?(?:hobby is|hobbies are|hobbies include|passion is|passions are) (?P<y>.+)")
def _likes(m):
    preferred = re.sub(r"\s+(?:to|over|rather than|more than|instead of|than)\s+.*$", "", m["x"] or "", flags=F)
    return _each("assert", "likes", _like_values(m["v"] or m["w"] or preferred or m["y"]))


AGENT_HOBBY = {"reader": "reading", "cyclist": "cycling", "hiker": "hiking", "biker": "biking",
               "dancer": "dancing", "skater": "skating", "baker": "baking", "gamer": "gaming", "diver": "diving",
               "traveler": "travelling", "traveller": "travelling", "collector": "collecting"}


def _hobby(noun: str) -> str:
    """'kayaker' -> 'kayaking', 'runner' -> 'running', 'reader' -> 'reading'."""
    noun = noun.lower()
    if noun in AGENT_HOBBY:
        return AGENT_HOBBY[noun]
    stem = noun[:-2] if noun.endswith(("er", "or")) else noun[:-3] if noun.endswith("ist") else noun
    return stem + "ing"


def _loved(thing: str) -> str:
    """'animal' (of "animal lover") -> 'animals'; 'music' stays."""
    thing = thing.lower()
    countable = re.fullmatch(rf"{PETS}|animal|book|plant|horse|car|bird", thing, flags=F)
    return thing + "s" if countable and not thing.endswith("s") else thing


# "i'm an avid reader", "i am a keen cyclist", "i'm a big animal lover", "i'm a huge music lover"
@rule(rf"{IM} (?:(?:{NOW}|also) )*an? (?:(?:avid|keen|passionate|enthusiastic|big|huge|massive|great|true|total|"
      r"real|die-?hard|lifelong) )+(?P<v>[\w-]+(?: [\w-]+){0,2})\s*[.!]*$"
      rf"|{IM} (?:(?:{NOW}|also) )*an? (?P<w>[\w-]+(?: [\w-]+)?) (?:lover|enthusiast|nut|buff|fanatic|junkie)\s*[.!]*$")
def _likes_agent(m):
    if m["w"]:
        return [Change("assert", "likes", _loved(m["w"]))]
    words = m["v"].split()
    if words[-1].lower() in ("fan", "lover", "enthusiast", "buff", "nut"):
        return [Change("assert", "likes", _loved(" ".join(words[:-1])))] if len(words) > 1 else []
    if not re.search(r"(?:er|or|ist)$", words[-1], flags=F):
        return []
    return [Change("assert", "likes", " ".join([*words[:-1], _hobby(words[-1])]))]


# "horror movies are my favorites", "pizza is my favourite"
@rule(rf"(?!(?:i|it|that|this|what|which|who|there|they|he|she|you|we)\b)(?P<v>[\w' -]{{1,40}}?) (?:is|are) "
      rf"(?:(?:definitely|probably|totally|still|always) )?my (?:absolute |all[- ]time )?{FAV}s?\s*[.!]*$",
      needs=FAV_WORDS)
def _likes_favorite(m):
    return _each("assert", "likes", _like_values(m["v"]))


# --- pets ------------------------------------------------------------------------------------
NAMED_GROUP = re.compile(rf"(?:{COUNT}\s+)?(?:[\w-]+\s+)?(?P<kind>{PETS}) (?:named|called) (?P<names>[\w'-]+"
                         r"(?:(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+)[\w'-]+)+)$", F)


def _pet_values(raw: str) -> list[str]:
    raw = trim(raw, LIST_STOP)
    group = match_start(NAMED_GROUP, raw)
    if group:   # "two cats called mochi and pixel": one pet per name
        kind = _singular(group["kind"])
        return [f"{kind} named {titled(n)}" for n in re.split(r"\s*,\s*and\s+|\s*,\s*|\s+and\s+", group["names"])]
    out = []
    for item in re.split(r"\s*(?:,\s*and|,|\band\b|\bplus\b)\s*", raw, flags=F):
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
@rule(rf"my (?P<kind>{PETS})(?:'s name is|s name is| is called| is named| name is|'s called|s called|'s named) "
      rf"(?P<name>[\w'-]+)|my (?P<kind2>{PETS}) (?P<name2>(?-i:\p{{Lu}}\p{{Ll}}+))\b(?! (?:and i|i)\b)")
def _pet_named(m):
    kind = _singular(m["kind"] or m["kind2"])   # "my cats name is luna": speech-to-text drops the apostrophe
    return [Change("retract", "pet", kind), Change("assert", "pet", f"{kind} named {titled(m['name'] or m['name2'])}")]


def _singular(kind: str) -> str:
    kind = kind.lower()
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    return kind[:-1] if kind.endswith("s") and not kind.endswith("ss") else kind


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



# Rules that can match a clause starting with a given first word, found once per word with the
# regex module's partial matching: most clauses then try a handful of rules instead of ninety.
FIRST_WORD = re.compile(r"\S+\s?")
_CANDIDATES: dict[tuple[int, str], list[Rule]] = {}
MAX_CANDIDATE_KEYS = 20_000


def _candidates(rules: list[Rule], text: str) -> list[Rule]:
    first = FIRST_WORD.match(text)
    if not first or len(first.group(0)) > 40:
        return rules
    key = (id(rules), first.group(0))
    found = _CANDIDATES.get(key)
    if found is None:
        found = [r for r in rules if r[0].match(first.group(0), partial=True)]
        if len(_CANDIDATES) < MAX_CANDIDATE_KEYS:
            _CANDIDATES[key] = found
    return found


def _first(rules: list[Rule], text: str) -> list[Change]:
    """The changes of the first rule that matches and finds something. The hot loop of mining."""
    timeout = TIMEOUT_S if len(text) > TIMEOUT_FROM_CHARS else None
    folded = text.casefold()
    for pattern, handler, needs in _candidates(rules, text):
        if needs and not any(word in folded for word in needs):
            continue
        try:
            m = pattern.match(text, timeout=timeout)
        except TimeoutError:
            continue
        if m:
            changes = handler(m)
            if changes:
                return changes
    return []


# A hedge or a joke is not a fact: "i'm kind of allergic to mornings haha", "oh great, i just love mondays".
HEDGE = re.compile(r"(?<!\b(?:favou?rite|a|the|this|that|what|any|every|some|one|other|same|which|no|all|"
                   r"different|new|my|your|his|her|our|their)\s)\b(?:kind of|sort of)\b|\b(?:kinda|sorta)\b", F)
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


# "i love cats! i have one myself": a count with no noun takes the animal just mentioned.
FOLLOW_UP_PET = re.compile(r"^(?:and |actually |in fact )?(?:i (?:have|own|got)|i've got|ive got) (?P<c>one|two|three|four|five|"
                           r"a couple|a few|\d{1,2})(?: of (?:them|those|my own))?(?: myself| too| as well| at home| of my own)?"
                           r"\s*[.!]*$", F)


def _follow_up(sentence: str, mentioned: str | None) -> list[Change]:
    m = match_start(FOLLOW_UP_PET, strip_lead(sentence))
    if not m or not mentioned:
        return []
    kind = _singular(mentioned)
    count = m["c"].lower()
    return [Change("assert", "pet", kind if count == "one" else f"{count} {kind}s" if not kind.endswith("s") else f"{count} {kind}")]


ANIMAL = re.compile(rf"\b(?P<a>{PETS})\b", F)


def last_animal(text: str) -> str | None:
    """The last animal named in text, for a follow-up like "i have one too"."""
    found = [m["a"] for m in ANIMAL.finditer(text, timeout=TIMEOUT_S)] if len(text) < 2000 else []
    return found[-1] if found else None


def mine_statements(text: str, mentioned: str | None = None) -> list[Change]:
    """The facts in statements (not commands); `mentioned`: an animal named earlier in the turn."""
    changes: list[Change] = []
    sentences = SENTENCE_SPLIT.split(text)
    for i, sentence in enumerate(sentences):
        follow = _follow_up(sentence.strip(), mentioned) if mentioned else []
        if follow:
            changes += follow
            continue
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
            for part in _coordinated(clause):
                changes += _mine_clause(part.rstrip(".!"))
        if i + 1 < len(sentences):
            mentioned = last_animal(sentence) or mentioned
    return changes


I_SUBJECT = re.compile(r"^(?:i|i'm|im|i am|i've|ive|i have)\b", F)
COORDINATED = re.compile(rf"(?:,\s*|\s+)(?:and|but|and also|but also|and i also|yet)\s+(?=(?:(?:really|also|absolutely|"
                         rf"totally|just|still|do) )*{OWN_CLAUSE_VERBS}\b)", F)
VERB_LIST = re.compile(r"\b(?:like|love|enjoy|prefer|hate)s? to\b", F)


def _coordinated(clause: str) -> list[str]:
    """"i love hiking but hate running" -> ["i love hiking", "i hate running"]: a verb joined without
    its own "i" still has the speaker as subject. Not inside a verb list ("i like to read and swim")."""
    body = strip_lead(clause)
    if not match_start(I_SUBJECT, body):
        return [clause]
    parts, start = [], 0
    for m in COORDINATED.finditer(clause):
        if search_in(VERB_LIST, clause[start:m.start()]):
            break
        parts.append(clause[start:m.start()])
        start = m.end()
    parts.append(clause[start:])
    return [parts[0]] + [f"i {p}" for p in parts[1:]]
