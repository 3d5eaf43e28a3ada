"""Lab 1: facts with history. A new value for a single-valued key supersedes the old one; a
multi-valued key accumulates; nothing is overwritten in place, so the past stays answerable.

    .venv/bin/python labs/01_facts.py
"""
import tempfile
from pathlib import Path

from memory import Memory

with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "lab.db") as mem:
    for said in ["I'm vegetarian, and I'm allergic to peanuts.",
                 "I'm also allergic to cashews.",
                 "Actually I've started eating fish again.",       # diet changes, allergies do not
                 "I'm not allergic to cashews anymore."]:          # one value retracted alone
        print(f"> {said}")
        for change in mem.observe("lab", said).changes:
            print(f"    {change.kind:11} {change.key} = {change.value}")
    print("believed now:")
    for fact in mem.facts("lab"):
        print(f"    {fact.key} = {fact.value}{'  (pinned)' if fact.pinned else ''}")
    print("history (closed rows keep why they ended):")
    for fact in mem.facts("lab", history=True):
        print(f"    {fact.key} = {fact.value}: {fact.ended_by or 'current'}")
