"""Fact rules for health: allergies, medical conditions and medications, diet. Pinned keys all."""
from __future__ import annotations

import regex as re

from ..intent import Change
from ..lexicon import DIET, DIETS, F, IDONT, IM, IVE, NOW, split_items, trim
from .registry import each, rule


# --- allergy ---------------------------------------------------------------------------------
# "i'm not allergic to peanuts anymore", "i am no longer allergic to shellfish"
@rule(rf"{IM} (?:not|no longer|not actually) allergic to (?P<v>.+)")
def _allergy_retract(m):
    if re.match(r"(?:anything|any food)\b", m["v"], flags=F):
        return [Change("retract", "allergy", None)]
    return each("retract", "allergy", split_items(m["v"]))


# "i outgrew my peanut allergy", "i don't have a shellfish allergy anymore"
@rule(rf"(?:i (?:outgrew|grew out of)|{IDONT} have|i no longer have) (?:my|an?|the) (?P<v>.+?) allerg(?:y|ies)")
def _allergy_outgrown(m):
    return each("retract", "allergy", split_items(m["v"]))


# "i'm allergic to peanuts and cashews", "im severely allergic to bee stings"
@rule(rf"{IM} (?:(?:{NOW}|very|really|severely|deathly|highly|mildly|extremely|super|quite|"
      r"seriously|badly|slightly|a bit|a little) )*allergic to (?P<v>.+)")
def _allergy(m):
    return each("assert", "allergy", split_items(m["v"]))


# "i have a peanut allergy", "i've got a severe shellfish allergy", "i have allergies to dust and pollen"
@rule(rf"(?:i (?:have|got)|{IVE} got|i suffer from) (?:an? |some )?(?:(?:severe|serious|bad|mild|"
      r"deadly|life-threatening|major|nasty|food) )*(?:allerg(?:y|ies) to (?P<v>.+)|(?P<w>.+?) allerg(?:y|ies)\b)")
def _allergy_have(m):
    return each("assert", "allergy", split_items(m["v"] or m["w"]))


# "my allergies are peanuts and dust", "my allergy is penicillin"
@rule(r"my (?:only )?allerg(?:y|ies) (?:is|are|include|includes) (?P<v>.+)")
def _allergy_mine(m):
    return each("assert", "allergy", split_items(m["v"]))


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
    return each("retract", "medical", [_medical_value(m["c"] or m["m"] or m["n"] or m["o"])])


# "i have type 1 diabetes", "i suffer from migraines", "i was diagnosed with epilepsy", "i have a broken arm"
@rule(rf"(?:(?:i|{IVE}) (?:(?:{NOW}|also) )*(?:have|got|suffer from|live with|struggle with|"
      rf"was diagnosed with|got diagnosed with|(?:have )?been diagnosed with)) (?P<c>{CONDITIONS})\b")
def _medical_condition(m):
    return each("assert", "medical", [_medical_value(m["c"])])


# "i'm diabetic", "i am partly deaf", "im coeliac"
@rule(rf"{IM} (?:(?:{NOW}|also|very|severely|slightly|mildly|type (?:1|2|one|two)) )*(?P<a>{CONDITION_ADJ_RE})\b"
      r"(?!\s+(?:to|about|of|on|with|person|people|friends?|family))")
def _medical_adjective(m):
    return [Change("assert", "medical", CONDITION_ADJ[m["a"].lower()])]


# "i take warfarin", "i'm on insulin", "i take many medications", "i use an inhaler"
@rule(rf"(?:i (?:(?:{NOW}|also|have to|need to|must) )*(?:take|use|need)|{IM} (?:(?:{NOW}|also) )*(?:on|taking)) "
      rf"(?P<m>{MEDICATIONS})\b")
def _medical_medication(m):
    return each("assert", "medical", [_medical_value(m["m"])])


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
