"""`glados speakers ...`: the household's voiceprints, from the command line.

    glados speakers enroll ada ada1.wav ada2.wav ada3.wav
    glados speakers identify visitor.wav --json
    glados speakers list
    glados speakers forget ada [--memory]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from memory import Memory

from ..config import Config
from .memory_commands import UsageError
from .out import Out

# numpy, the audio reader and the model are imported when a command needs them: `glados speakers list`
# starts as fast as `glados memory list`.


def add_parser(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("speakers", parents=[common], help="voiceprints: who in the household is talking")
    ssub = p.add_subparsers(dest="speakers_command", metavar="COMMAND", required=True)
    e = ssub.add_parser("enroll", parents=[common], help="learn a person's voice from three or more recordings")
    e.add_argument("name", help="the memory user whose words this voice speaks (as in --user)")
    e.add_argument("wavs", nargs="+", type=Path, help="recordings of them speaking, 2-5 s each is best")
    i = ssub.add_parser("identify", parents=[common], help="whose voice is in each recording")
    i.add_argument("wavs", nargs="+", type=Path)
    i.add_argument("--json", action="store_true", help="one object per file, in order")
    ls = ssub.add_parser("list", parents=[common], help="the enrolled voices")
    ls.add_argument("--json", action="store_true")
    f = ssub.add_parser("forget", parents=[common], help="delete a voiceprint (the memories stay unless --memory)")
    f.add_argument("name")
    f.add_argument("--memory", action="store_true", help="delete everything remembered about them too")


def _audio(path: Path):
    from ..audio.wavfile import read_wav
    from ..speakers import RATE
    return read_wav(path, RATE)[0]


def run(args: argparse.Namespace, memory: Memory, config: Config, out: Out, err: Out) -> int:
    import json
    from ..speakers import RATE, Household, SpeakerModelMissing, TooShort
    household = Household(memory, config.voice.speakers)
    command = args.speakers_command
    if command == "list":
        prints = household.enrolled()
        if args.json:
            print(json.dumps([{"name": p.user, "utterances": p.utterances, "model": p.model,
                               "enrolled_at": p.created_at, "updated_at": p.updated_at} for p in prints]))
        elif not prints:
            out.line("nobody is enrolled: every voice is the configured user's (glados speakers enroll NAME WAV...)")
        else:
            out.table(("name", "utterances", "enrolled", "updated"),
                      [[p.user, str(p.utterances), p.created_at[:16], p.updated_at[:16]] for p in prints])
        return 0
    if command == "forget":
        gone = household.forget(args.name)
        cleared = memory.clear(args.name) if args.memory else None
        if not gone and not cleared:
            err.line(f"glados: no voiceprint for {args.name!r}")
            return 1
        said = [f"voiceprint of {args.name!r} deleted" if gone else f"no voiceprint for {args.name!r}"]
        if cleared is not None:
            said.append(f"memory deleted ({cleared['facts']} facts, {cleared['messages']} messages, "
                        f"{cleared['summaries']} summaries)")
        else:
            said.append("their memories stay (--memory deletes them)")
        out.line("; ".join(said))
        return 0
    if (why := household.missing()) is not None:
        raise SpeakerModelMissing(why)
    if command == "enroll":
        if not args.name.strip():
            raise UsageError("enroll needs a name")
        saved = household.enrol(args.name.strip(), [_audio(p) for p in args.wavs])
        out.line(f"enrolled {saved.user!r}: a voiceprint of {saved.utterances} utterances")
        return 0
    # identify
    if not household.prints() and args.json:     # without --json, each file's line says so
        err.line("glados: nobody is enrolled yet (glados speakers enroll NAME WAV...)")
    results = []
    for path in args.wavs:
        audio = _audio(path)
        try:
            a = household.identify(audio)
        except TooShort as exc:
            results.append({"file": str(path), "speaker": None, "score": None, "scores": {}, "why": str(exc)})
            continue
        results.append({"file": str(path), "speaker": a.speaker, "score": a.score, "scores": dict(a.scores),
                        "seconds": round(len(audio) / RATE, 2), **({"why": a.why} if a.why else {})})
    if args.json:
        print(json.dumps(results))
    else:
        for r in results:
            who = r["speaker"] or f"unknown ({r.get('why', '')})"
            out.line(f"{r['file']}: {who}" + (f" {r['score']:.2f}" if r["score"] is not None and r["speaker"] else ""))
    return 0
