"""The labelled "nothing to recall" set behind `bench/recall_noise.py` and tests/test_recall_noise.py,
written for this project (no dataset sentences).

A small store (one person's everyday statements and four bare questions of theirs), questions about
those statements in other words (each names the message that answers it), and questions about the
world, which nothing in any store answers.
"""
from __future__ import annotations

SMALL_STORE: tuple[str, ...] = (
    "my name is Marta and I live in Porto",
    "I'm allergic to shellfish",
    "my brother Tomas is a pilot in Lisbon",
    "we have a cat called Biscuit",
    "I work as a pharmacist at the hospital",
    "I have a dentist appointment next Thursday at 9",
    "we're going to Iceland in March",
    "I play the cello and I go bouldering on weekends",
    "how old am I?",
    "what's my brother's name?",
    "when is my appointment?",
    "what should I cook tonight?",
    "my favourite film is Spirited Away",
    "I'm learning Japanese",
    "I bought a used Honda last month",
    "my daughter starts school in September",
)

# (question, the index in SMALL_STORE of the message that answers it)
RELATED: tuple[tuple[str, int], ...] = (
    ("what city am I based in?", 0), ("do I have any food allergies?", 1),
    ("what does my sibling do for a living?", 2), ("tell me about my pet", 3), ("where is my job?", 4),
    ("when do I see the dentist?", 5), ("where are we travelling this spring?", 6),
    ("what instrument do I play?", 7), ("which language am I studying?", 13), ("what car do I drive?", 14),
)

WORLD: tuple[str, ...] = (
    "how far away is the moon?", "who wrote Hamlet?", "why is the sky blue?", "what is the capital of Australia?",
    "how do vaccines work?", "what's the boiling point of water?", "who painted the Mona Lisa?",
    "how many legs does a spider have?", "what is photosynthesis?", "tell me a joke", "what time is it in Tokyo?",
    "how tall is Mount Everest?", "what's a black hole?", "who invented the telephone?",
    "what's the square root of 144?", "how do I convert Celsius to Fahrenheit?", "what causes earthquakes?",
    "who was the first person on the moon?", "what's the largest ocean?", "how does a refrigerator work?",
    "what is the speed of light?", "can you explain inflation?", "what's the difference between a virus and a bacterium?",
    "how many players are on a football team?", "when did World War II end?", "what language do they speak in Brazil?",
    "how do airplanes stay in the air?", "what is the population of Canada?", "who composed the Four Seasons?",
    "what does DNA stand for?", "how long should I boil an egg?", "what is the tallest building in the world?",
    "how many bones are in the human body?", "what's the chemical symbol for gold?", "why do cats purr?",
    "how do I fix a flat bicycle tire?", "what's the weather usually like in Scotland?",
    "recommend a good science fiction novel", "what is machine learning?", "how many days are in a leap year?",
)
