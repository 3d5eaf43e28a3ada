"""The labelled recall set behind `bench/recall_eval.py`, written for this project (no dataset sentences).

Each target is something a user said once (or restated), with two questions asked about it later:
one that shares its words, one that means the same in other words. The store around them is built
by `bench.recall_eval` from a seed: thousands of everyday messages that share the questions'
words, other users saying the same kinds of things (some word for word), superseded and forgotten
facts, passing states, and restatements.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    name: str
    said: tuple[str, ...]          # the first is said first; the rest are restatements, later
    words: str                     # a question sharing words with it
    meaning: str                   # the same question in other words
    months_ago: float              # when it was first said


TARGETS: tuple[Target, ...] = (
    Target("flight", ("Mum's flight lands at 6:15 on Sunday at Gatwick",),
           "when does mum's flight land?", "what time does my mother's plane arrive?", 0.3),
    Target("ladder", ("I lent my ladder to Priya next door",),
           "who did I lend my ladder to?", "which neighbour is holding onto my stepladder?", 7),
    Target("lactose", ("I'm lactose intolerant",),
           "what did I say about being lactose intolerant?", "which dairy products upset my stomach?", 16),
    Target("shed_key", ("the spare key for the shed is under the blue flowerpot",),
           "where did I leave the spare key for the shed?", "where's the backup key to the garden hut?", 17),
    Target("dentist", ("my dentist appointment is on the 14th at half past nine",),
           "what time is my dentist appointment?", "when am I due to get my teeth checked?", 1),
    Target("passport", ("my passport expires next March",),
           "when does my passport expire?", "how long is my travel document still valid?", 11),
    Target("parking", ("I parked the car on level 4 of the station car park",),
           "where did I park the car?", "on which floor did I leave the vehicle?", 0.05),
    Target("wifi", ("the wifi password is on a sticker under the router",),
           "where is the wifi password?", "how do I find the code to get online at home?", 14),
    Target("sister_birthday", ("my sister Hannah's birthday is on the 3rd of May",),
           "when is Hannah's birthday?", "what date should I send my sibling a card?", 9),
    Target("penicillin", ("I'm allergic to penicillin", "remember that I'm allergic to penicillin",
                          "penicillin gives me hives, I'm allergic to it", "don't forget I'm allergic to penicillin"),
           "am I allergic to penicillin?", "which antibiotic should a doctor never give me?", 17.5),
    Target("boiler", ("the boiler service is booked for Thursday morning",),
           "when is the boiler service?", "when is someone coming to look at the heating?", 0.5),
    Target("marathon", ("I'm training for a half marathon in October",),
           "what am I training for?", "which running race am I getting ready for?", 3),
    Target("landlord", ("our landlord is called Mr Okafor and he prefers texts to calls",),
           "what's our landlord called?", "who owns the flat we rent?", 13),
    Target("medication", ("I keep my medication in the top drawer of the bathroom cabinet",
                          "my medication lives in the top drawer of the bathroom cabinet"),
           "where do I keep my medication?", "where are my pills stored?", 15),
    Target("bins", ("the bins go out on Tuesday night", "bins go out on Tuesday night, don't let me forget",
                    "it's Tuesday night so the bins need to go out"),
           "which night do the bins go out?", "when is the rubbish collected?", 12),
    Target("anniversary", ("I booked a table at Rosa's for our anniversary on Friday",),
           "where did I book a table for the anniversary?", "which restaurant are we going to for the celebration?", 0.2),
    Target("insurance", ("my car insurance renews on the 1st of August",),
           "when does my car insurance renew?", "when is the cover for my vehicle due?", 5),
    Target("glasses", ("I left my reading glasses at the office",),
           "where are my reading glasses?", "where did I forget my specs?", 0.1),
    Target("plumber", ("the plumber quoted 240 pounds to fix the leak",),
           "how much did the plumber quote?", "what will it cost to repair the dripping pipe?", 2),
    Target("portuguese", ("I'm learning Portuguese before the trip to Lisbon",),
           "what language am I learning?", "what am I studying ahead of the holiday?", 4),
    Target("flea", ("Biscuit needs her flea treatment on the first of every month",),
           "when does Biscuit need her flea treatment?", "how often does the cat get her parasite medicine?", 8),
    Target("coriander", ("I can't stand coriander, it tastes like soap to me",
                         "no coriander for me please, it tastes like soap"),
           "what do I think of coriander?", "which herb do I hate?", 10),
    Target("gym", ("my gym membership costs 35 pounds a month",),
           "how much is my gym membership?", "what do I pay for the fitness club?", 6),
    Target("mot", ("the MOT on the car is due at the end of June",),
           "when is the MOT due?", "when does the vehicle need its yearly roadworthiness test?", 4.5),
    Target("wedding", ("my best friend Tomasz is getting married in Krakow in September",),
           "when is Tomasz getting married?", "whose wedding am I going to abroad?", 6.5),
    Target("plants", ("I promised to water Jean's plants while she's in Spain",),
           "whose plants am I watering?", "what favour did I agree to do for a friend who's away?", 0.4),
    Target("blood_pressure", ("my blood pressure was 130 over 85 at the last check",),
           "what was my blood pressure?", "how were my readings at the GP?", 2.5),
    Target("school", ("the kids' school breaks up for summer on the 22nd of July",),
           "when does school break up for summer?", "when do the children's holidays start?", 3.5),
    Target("presents", ("I hid the birthday presents in the loft behind the suitcases",),
           "where did I hide the birthday presents?", "where did I stash the gifts?", 0.7),
    Target("electricity", ("our electricity bill went up to 160 a month",),
           "how much is the electricity bill?", "what are we paying for power these days?", 5.5),
)

# Facts said, then changed: only the newer statement may be recalled ("superseded").
SUPERSEDED: tuple[tuple[str, str, str, str], ...] = (
    # (old statement, new statement, words question, meaning question)
    ("I live in Bath", "we moved to Bristol last month, I live in Bristol now",
     "where do I live now?", "which city is home these days?"),
    ("I'm vegetarian", "I've started eating fish again",
     "what do I eat these days?", "do I eat seafood?"),
)

# Said, then forgotten on request (`forget <key>`): never recalled again, in any form.
FORGOTTEN: tuple[tuple[str, str, str], ...] = (
    # (statement, fact key to forget, question)
    ("I work at Globex", "employer", "where do I work?"),
    ("my partner's name is Morgan", "partner", "who am I with these days?"),
)

# Passing states: said recently and long ago; they fade.
STATES = ("I'm so tired today", "I've got a headache this morning", "feeling a bit under the weather today",
          "I'm completely knackered tonight", "I'm in a bad mood today", "I'm running late this morning")

# Vocabulary for the everyday messages around the targets; they share the questions' words.
PEOPLE = ("Dad", "my boss", "Grandma", "my neighbour Steve", "Fiona from work", "the school office", "my brother",
          "the landlord's agent", "Mum", "my cousin Leo", "the vet", "the garage", "our babysitter")
TASKS = ("pay the council tax", "book a flight for the work trip", "check the car tyres", "pick up the dry cleaning",
         "call the bank about my card", "reset the router", "buy a birthday card for Dad", "sort out the school forms",
         "renew the library books", "take the recycling to the tip", "order more printer ink", "fix the garden gate",
         "return the drill to the hardware shop", "clean the oven", "book the car in for a service",
         "change the password on my email", "find the spare charger", "water the tomatoes", "cancel the magazine",
         "buy a new key ring", "send the insurance documents", "update the shopping list", "move the bins",
         "get a quote for the roof", "pay the electricity bill", "ring the dentist about the bill")
THINGS = ("key", "ladder", "car", "router", "passport photo", "glasses case", "bike", "kettle", "washing machine",
          "garden hose", "drill", "tent", "suitcase", "umbrella", "phone charger", "lawnmower", "toaster",
          "boiler manual", "birthday cake tin", "school bag", "gym bag", "drawer handle", "flowerpot")
PLACES = ("kitchen", "garage", "hallway", "office", "loft", "car", "bathroom", "garden", "shed", "living room")
WHEN = ("on Monday", "tomorrow", "next week", "this weekend", "at 9", "at lunchtime", "on Friday", "tonight",
        "in the morning", "after work", "on Sunday", "at half past six", "before the holiday")
TOPICS = ("whales", "the history of the railway", "bread making", "old cars", "the moon landing", "football tactics",
          "volcanoes", "birthday traditions", "airport security", "the school system", "insurance scams",
          "marathon runners", "dental hygiene", "wedding costs", "house plants", "electricity prices")
FOODS = ("milk", "bread", "coffee", "eggs", "cheese", "rice", "pasta", "teabags", "butter", "apples")
EVENTS = ("the meeting", "the school play", "the dentist", "the football", "book club", "the parents' evening",
          "the gym class", "the flight", "the train", "Grandma's birthday lunch", "the quiz night")
TEMPLATES = (
    "I need to {task} {when}", "{person} called about the {thing} {when}", "remind me to {task} {when}",
    "the {thing} in the {place} is broken again", "I was late for {event} because of the traffic",
    "I watched a documentary about {topic} {when}", "{person} wants to borrow the {thing}",
    "we ran out of {food} so I went to the shop", "I think the {thing} needs replacing",
    "had a long chat with {person} about {topic}", "{event} went really well {when}",
    "I found the {thing} in the {place}", "{person} is coming round {when}", "I can't find the {thing} anywhere",
    "what time is {event} {when}", "I moved the {thing} to the {place}", "I paid {person} back for the {thing}",
    "the {place} needs a good clean {when}", "I bought some {food} and a new {thing}",
    "I'm taking the {thing} to {person} {when}", "{person} said {event} has moved to {when}",
)
