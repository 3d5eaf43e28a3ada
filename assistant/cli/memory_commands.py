"""`glados memory ...`: the memory plugin from the command line."""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path

from memory import Fact, Memory, printable

from ..config import Config
from .memory_show import (CLEAR_QUESTION, LEGEND, PINNED_QUESTION, cleared, confirmed, describe, fact_rows,
                          imported, not_confirmed, pin_lines, plural, recall_line, when)
from .out import Out

WRITING = ("observe", "import", "mcp", "page")
PINNING = ("pin", "unpin")    # the memory commands that may create the database file


class UsageError(Exception):
    """Bad command-line input; the message says what to type instead."""


def add_parser(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("memory", help="inspect and edit what GLaDOS remembers", parents=[common])
    msub = p.add_subparsers(dest="memory_command", metavar="COMMAND", required=True)
    o = msub.add_parser("observe", parents=[common], help="store one utterance and mine facts from it")
    o.add_argument("text", nargs="+", help="the words; - reads them from standard input (for long text)")
    o.add_argument("--session", help="session id to log the message under")
    o.add_argument("--json", action="store_true", help="the changes as a JSON array")
    ls = msub.add_parser("list", parents=[common], help="current facts")
    ls.add_argument("--json", action="store_true", help="JSON array of fact objects")
    ls.add_argument("--all", action="store_true", help="include superseded and retracted history")
    ls.add_argument("--at", metavar="ISO_TIME", help="what was believed at that time")
    ls.add_argument("--origin", choices=("user", "model"),
                    help="only facts read by the rules from your words (user) or proposed by the model (model)")
    ctx = msub.add_parser("context", parents=[common], help="the block injected into the system prompt")
    ctx.add_argument("--json", action="store_true", help='{"context": ..., "notice": ...}')
    r = msub.add_parser("recall", parents=[common], help="earlier messages and notes matching TEXT")
    r.add_argument("text", nargs="+")
    r.add_argument("--json", action="store_true")
    r.add_argument("-k", type=positive, default=5, help="how many results (default 5)")
    r.add_argument("--at", metavar="ISO_TIME", help="recall as of that time: later messages do not exist for it, "
                                                   "and \"two weeks ago\" counts back from it")
    msub.add_parser("index", parents=[common], help="give every message its vector for recall by meaning (after an import)")
    f = msub.add_parser("forget", parents=[common],
                        help="delete a fact everywhere: by id prefix, key (location), key=value, or what a note is about "
                             "('locker code')")
    f.add_argument("target", metavar="ID_PREFIX_OR_KEY_OR_TOPIC")
    f.add_argument("--yes", action="store_true", help="do not ask before deleting several pinned facts at once")
    c = msub.add_parser("clear", parents=[common], help="delete everything about the user")
    c.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    sm = msub.add_parser("summaries", parents=[common], help="session summaries, oldest first")
    sm.add_argument("--json", action="store_true", help="JSON array of summary objects")
    e = msub.add_parser("export", parents=[common], help="everything about the user as JSON")
    e.add_argument("--output", "-o", type=Path, help="write to a file instead of standard output")
    i = msub.add_parser("import", parents=[common], help="add the contents of an export file")
    i.add_argument("file", type=Path)
    m = msub.add_parser("mcp", parents=[common], help="serve the memory to another assistant over MCP (stdio, or --http)")
    m.add_argument("--http", action="store_true", help="streamable HTTP at /mcp and SSE at /sse instead of stdio")
    m.add_argument("--host", default="127.0.0.1", help="with --http: address to listen on (default 127.0.0.1)")
    m.add_argument("--port", type=int, default=8765, help="with --http: port (default 8765)")
    add_access_options(m)
    pg = msub.add_parser("page", parents=[common], help="a local web page to see and correct what she remembers")
    pg.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    pg.add_argument("--port", type=int, default=8766, help="port (default 8766)")
    pg.add_argument("--household", action="store_true", help="everyone in this memory, each on a page of their own")
    add_access_options(pg)
    for name, what in (("pin", "keep a fact in her memory block whatever the cap (id prefix or key)"),
                       ("unpin", "undo pin (allergies, diet and medical facts stay pinned)")):
        msub.add_parser(name, parents=[common], help=what).add_argument("target", metavar="ID_PREFIX_OR_KEY")


def print_json(data) -> None:
    """--json: the data on standard output, indented, non-ASCII as itself (json loads only for this)."""
    import json
    print(json.dumps(data, ensure_ascii=False, indent=2))


def positive(text: str) -> int:
    """An argument that counts things: 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} results is nothing to show; give 1 or more")
    return value


def _index(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    if memory.recall_mode != "words+meaning":
        raise UsageError(memory.recall_notice or "recall by meaning is off (recall.meaning: false)")
    done = index_backlog(memory, user, out, note=False)
    from rich.progress import Progress
    with Progress(console=out.rich, transient=True, disable=not out.rich.is_terminal) as bar:  # piped: no blank line
        task = bar.add_task("working out which messages sound like many others", total=None)
        filled, _left = memory.fill_crowding(user, everything=True,
                                             progress=lambda n, total: bar.update(task, completed=n, total=total))
    out.line(f"indexed {done} message(s); {memory.pending(user)} left without a vector"
             + (f"; crowding worked out for {filled} earlier one(s)" if filled else ""))
    return 0


def index_backlog(memory: Memory, user: str, out: Out, note: bool = True) -> int:
    """Give every message without a vector one before recall runs (after `observe` from the command
    line or an import), with a progress bar when it takes a while. Returns how many."""
    pending = memory.pending(user)
    if not pending or memory.read_only:
        return 0
    from rich.progress import Progress
    with Progress(console=out.rich, transient=True, disable=pending < 50) as bar:
        task = bar.add_task("indexing earlier messages for recall by meaning", total=pending)
        done = memory.index_pending(user, progress=lambda n, total: bar.update(task, completed=n, total=total))
    if note and done >= 50:
        out.line(f"[indexed {done} earlier message(s) for recall by meaning; once]", "dim")
    return done


def add_access_options(parser: argparse.ArgumentParser) -> None:
    """--token and --allow-from, for a server listening beyond this machine (serve/access.py)."""
    parser.add_argument("--token", default=os.environ.get("GLADOS_TOKEN"),
                        help="a secret clients send as 'Authorization: Bearer ...' (default: env GLADOS_TOKEN)")
    parser.add_argument("--allow-from", action="append", metavar="ADDR",
                        help="an address or network that may connect without the token (repeatable)")


def access_for(args: argparse.Namespace, what: str):
    """Who may connect to a server on args.host; a non-loopback host with neither option is one line."""
    from ..serve.access import Access, Refused
    try:
        return Access.for_host(args.host, args.token, args.allow_from, what)
    except Refused as exc:
        raise UsageError(str(exc)) from None


def _stdin_text() -> str:
    """Standard input as text; bytes that are not UTF-8 (binary noise) are refused, nothing stored."""
    raw = sys.stdin.buffer.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start:,} of {len(raw):,} cannot be read); "
                         "nothing was stored") from None


def _write_private(path: Path, text: str) -> None:
    """An export holds everything about a person: readable by its owner only (0600), like the database. A
    write that fails is one line, and leaves no half-written file behind."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError as exc:
        raise UsageError(f"cannot write the export to {path}: {_why(exc)}; nothing was exported") from None
    try:
        os.fchmod(fd, 0o600)      # a file that was there keeps its mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise UsageError(f"cannot write the export to {path}: {_why(exc)}; nothing was exported") from None


def _print_export(text: str) -> None:
    """The export on standard output; a stream that cannot take it (a full disk, /dev/full) is one line."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError as exc:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())     # nothing left to flush at exit
        raise UsageError(f"cannot write the export to standard output: {_why(exc)}") from None


def _why(exc: OSError) -> str:
    """"no such file or directory", "is a directory", "read-only file system", "no space left on device"."""
    return (exc.strerror or str(exc)).lower()


PRECISION = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ](?P<h>\d{2})(?::(?P<m>\d{2}))?(?::(?P<s>\d{2}))?(?P<f>\.\d+)?)?")


def parse_time(text: str) -> datetime:
    """ISO time with or without a zone (without: local time), meant to its stated precision: the
    end of that second, minute or day counts, so a time copied from `list` finds its own fact.
    "2023/05/20 (Sat) 02:21" (slashes, a weekday) reads as 2023-05-20 02:21."""
    stamp = re.sub(r"\s*\([A-Za-z]{3}\)", "", text.strip())
    if re.match(r"\d{4}/\d{1,2}/\d{1,2}\b", stamp):
        day, _, rest = stamp.partition(" ")
        stamp = " ".join(filter(None, ["-".join(f"{int(n):02d}" for n in day.split("/")), rest]))
    stamp = stamp[:-1] + "+00:00" if stamp[-1:] in ("Z", "z") else stamp
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        raise UsageError(f"--at {text!r} is not an ISO time; use e.g. 2026-11-30T09:00, 2026-11-30 09:00:00+01:00 "
                         "or 2026-11-30T09:00:00Z") from None
    given = PRECISION.match(stamp)
    if given and not given["f"]:
        step = (timedelta(seconds=1) if given["s"] else timedelta(minutes=1) if given["m"]
                else timedelta(hours=1) if given["h"] else timedelta(days=1))
        moment += step - timedelta(microseconds=1)
    return moment


def run(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    """One `glados memory` command; its exit status."""
    return COMMANDS[args.memory_command](args, memory, user, out, config)


def _observe(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    text = _stdin_text() if args.text == ["-"] else " ".join(args.text)
    if not text.strip():
        raise UsageError("nothing to observe: give the words the user said, e.g. glados memory observe \"I live in Leeds\"")
    obs = memory.observe(user, text, session=args.session)
    if args.json:
        print_json([asdict(c) for c in obs.changes])
        return 0
    for change in obs.changes:
        out.line(describe(change))
    if not obs.changes:
        out.line("stored the message; no facts in it")
    return 0


def _pin(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    for line in pin_lines(memory, user, args.target, args.memory_command == "pin"):
        out.line(line)
    return 0


def _mcp(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    from ..serve.mcp import Http, serve      # the MCP SDK loads only for this command
    http = Http(args.host, args.port, access_for(args, "glados memory mcp --http")) if args.http else None
    serve(memory, config, user, verbose=bool(getattr(args, "verbose", False)), http=http,
          say=lambda line: print(line, file=sys.stderr))
    return 0


def _page(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    from ..serve.page import PageOptions, hosts_for, serve      # Starlette and Jinja2 load only for this command
    options = PageOptions(user, args.household, access_for(args, "glados memory page"), hosts_for(args.host, args.port))
    serve(memory, config, options, args.host, args.port, say=lambda line: print(line, file=sys.stderr))
    return 0


def _context(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    m = config.memory
    block = memory.block(user, m.max_facts, m.max_summaries, min(m.context_tokens, config.budget.memory))
    if args.json:
        print_json({"context": block.text, "notice": block.notice})
        return 0
    if block.text:
        print(block.text)
    else:
        out.line(f"nothing known about {user!r} yet: the block is empty", "dim")
    if block.notice:
        print(f"glados: note: {block.notice}", file=sys.stderr)
    return 0


def _recall(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    index_backlog(memory, user, Out("stderr"))
    found = memory.recall(user, " ".join(args.text), k=args.k, at=parse_time(args.at) if args.at else None)
    if args.json:
        print_json([asdict(r) for r in found])
        return 0
    for r in found:
        out.line(recall_line(r))
    if not found:
        out.line(f"nothing in {user}'s memory relates to {' '.join(args.text)!r}")
    return 0


def _forget(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    if not _confirm_pinned(args, memory.would_forget(user, args.target), out):
        return 1
    for change in memory.forget(user, args.target):
        out.line(describe(change))
    return 0


def _summaries(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    from memory import describe_changes
    rows = memory.summaries(user)
    if args.json:
        print_json([asdict(r) for r in rows])
        return 0
    for row in rows:
        changed = f" {describe_changes(row.since)}" if row.since else ""
        out.line(f"[{when(row.created_at)} session {row.session}] {printable(row.text)}{changed}")
    if not rows:
        out.line(f"no summaries for {user!r} yet: one is written when a chat or voice session that told or asked "
                 "her something ends")
    return 0


def _export(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    import json
    text = json.dumps(memory.export(user), ensure_ascii=False, indent=2)
    if args.output:
        _write_private(args.output, text + "\n")
        out.line(f"exported {user!r} to {args.output}")
    else:
        _print_export(text)
    return 0


def _import(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    import json
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {(exc.strerror or str(exc)).lower()}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{args.file} is not a memory export (not JSON text); pass a file made by "
                         "'glados memory export'") from exc
    owner = data.get("user") if isinstance(data, dict) else None
    if owner and owner != user and not getattr(args, "user", None):
        raise UsageError(f"{args.file} is an export of {owner!r}; import it with --user {owner}, "
                         f"or --user NAME to copy it to someone else")
    counts = memory.import_(user, data)
    out.line(f"imported for {user!r}: {imported(counts)}" if any(counts.values()) else
             f"nothing new for {user!r}: everything in {args.file} is already there")
    return 0


def _confirm_pinned(args: argparse.Namespace, rows: list[Fact], out: Out) -> bool:
    """Several pinned facts (allergies, diet, medical) at once need --yes or a typed YES."""
    pinned = {(f.key, f.value) for f in rows if f.pinned}
    if len(pinned) < 2 or args.yes:
        return True
    what = "; ".join(f"{k}: {v}" for k, v in sorted(pinned))
    if not sys.stdin.isatty():
        raise UsageError(f"this would delete {len(pinned)} pinned facts ({what}); add --yes to confirm")
    answer = input(PINNED_QUESTION.format(n=len(pinned), what=what))
    if not confirmed(answer):
        out.line(not_confirmed(answer))
        return False
    return True


def _list(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    facts = memory.facts(user, at=parse_time(args.at) if args.at else None, history=args.all)
    every = len(facts)
    if args.origin:
        facts = [f for f in facts if f.origin == args.origin]
    if args.json:
        print_json([f.to_json() for f in facts])
        return 0
    if not facts and every:
        source = "the model" if args.origin == "model" else "your own words"
        out.line(f"no fact about {user!r} came from {source} ({plural(every, 'fact')} in all; leave out --origin)")
        return 0
    if not facts:
        out.line(f"nothing remembered about {user!r}")
        return 0
    expired = {f.id for f in facts if memory.is_expired(f)} if args.all else set()
    out.table(*fact_rows(facts, history=args.all, expired=expired))
    if any(f.pinned for f in facts):
        out.line(LEGEND, "dim")
    return 0


def _clear(args: argparse.Namespace, memory: Memory, user: str, out: Out, config: Config) -> int:
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("refusing to clear without confirmation; add --yes")
        answer = input(CLEAR_QUESTION.format(user=user))
        if not confirmed(answer):
            out.line(not_confirmed(answer))
            return 1
    out.line(cleared(memory.clear(user), user))
    return 0


COMMANDS = {"observe": _observe, "list": _list, "pin": _pin, "unpin": _pin, "mcp": _mcp, "context": _context,
            "recall": _recall, "index": _index, "page": _page, "forget": _forget, "clear": _clear, "summaries": _summaries,
            "export": _export, "import": _import}
