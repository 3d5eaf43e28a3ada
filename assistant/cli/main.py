"""The `glados` command: wires config, memory and the chosen front end; errors become one line."""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import NoReturn

from memory import Memory, MemoryStoreError, NoMemoryYet, UnknownKey, embedder_missing

from .. import app, logs
from ..config import Config, ConfigError, load_config
from ..errors import AudioError, SpeakerError
from ..serve.listen import Unservable
from . import memory_commands, speakers as speakers_commands
from .out import Out

# The chat and the voice loop import the model client and the audio stack; `glados memory ...`
# needs neither, so they are imported only when their command runs (start-up stays fast).


log = logging.getLogger("glados")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--user", default=argparse.SUPPRESS, help="whose memory (default: config 'user')")
    common.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="the SQLite memory file")
    common.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config file (default: GLADOS_CONFIG, else ~/.config/glados/config.yaml, else the shipped defaults)")
    common.add_argument("--verbose", "-v", action="store_true", default=argparse.SUPPRESS,
                        help=f"log in detail, with what is said, to {logs.log_file()}")
    parser = argparse.ArgumentParser(prog="glados", parents=[common],
                                     description="A local GLaDOS-style voice assistant that remembers you.")
    parser.add_argument("--version", action=_Version, nargs=0, help="print glados's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    voice = sub.add_parser("voice", parents=[common], help="the voice loop: microphone (or --input WAV) and speaker")
    voice.add_argument("--input", type=Path, help="a WAV file to use as the microphone (any rate, mono or stereo)")
    voice.add_argument("--realtime", action="store_true", help="with --input: hear the file at the speed it was spoken")
    voice.add_argument("--output", type=Path, help="write everything spoken to this WAV file")
    voice.add_argument("--barge-in", action="store_true", default=None, help="speaking over her stops her")
    sub.add_parser("chat", parents=[common], help="typed chat with the same brain and memory")
    serve = sub.add_parser("serve", parents=[common],
                           help="an Ollama-compatible proxy that adds this memory to any chat client's requests")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=11435, help="port to listen on (default 11435)")
    serve.add_argument("--upstream", help="the Ollama server to pass requests to (default: config llm.host)")
    memory_commands.add_access_options(serve)
    memory_commands.add_parser(sub, common)
    speakers_commands.add_parser(sub, common)
    described(parser)
    return parser


def described(parser: argparse.ArgumentParser) -> None:
    """Each subcommand's --help opens with what it does (its one-line help), at every level."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, child in action.choices.items():
                child.description = child.description or helps.get(name)
                described(child)


class _Version(argparse.Action):
    """--version, read from the installed package only when asked (importlib.metadata costs 9 ms a start)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            found = version("glados-assistant")
        except PackageNotFoundError:      # run from a checkout that was never installed
            found = "(not installed)"
        print(f"glados {found}")
        parser.exit()


def open_memory(config: Config, db: Path | None, recalls: bool = True, create: bool = True) -> Memory:
    """The memory file, with a one-line warning when others can read it, and (when it will recall)
    a note when recall can match words only. create=False: a missing file raises NoMemoryYet."""
    memory = app.open_memory(config, db, create)
    err = Out("stderr")
    if memory.warning:
        err.line(f"glados: warning: {memory.warning}")
    if recalls and config.recall.meaning:
        reason = embedder_missing()
        if reason:
            err.line(f"glados: note: {reason} (set recall.meaning: false to silence this)")
    return memory


def _memory_command(args: argparse.Namespace, config: Config, user: str, out: Out, err: Out) -> int:
    """`glados memory ...`; a reading command creates no database: it says there is no memory yet."""
    writes = args.memory_command in memory_commands.WRITING
    try:
        memory = open_memory(config, getattr(args, "db", None), recalls=args.memory_command == "recall",
                             create=writes)
    except NoMemoryYet as exc:
        err.line(f"glados: {exc}")
        if getattr(args, "json", False):
            print("[]")
        return 1 if args.memory_command in ("forget", "clear", "index", "pin", "unpin") else 0
    with memory:
        return memory_commands.run(args, memory, user, out, config)


def _speakers_command(args: argparse.Namespace, config: Config, out: Out, err: Out) -> int:
    """`glados speakers ...`; listing or forgetting creates no database."""
    writes = args.speakers_command in ("enroll", "identify")
    try:
        memory = open_memory(config, getattr(args, "db", None), recalls=False, create=writes)
    except NoMemoryYet as exc:
        if args.speakers_command == "list" and args.json:
            print("[]")
        err.line(f"glados: {exc}")
        return 0 if args.speakers_command == "list" else 1
    with memory:
        return speakers_commands.run(args, memory, config, out, err)


def memory_main(argv: list[str] | None = None) -> int:
    """`glados-memory ...` is `glados memory ...`: dnhkng/GLaDOS installs a `glados` of its own, first on its
    PATH, so its MCP entry names this one."""
    return main(["memory", *(sys.argv[1:] if argv is None else argv)])


def entry() -> NoReturn:
    """The `glados` command (and `python -m assistant.cli`): main, then the process ends."""
    args = build_parser().parse_args()
    end(run(args), long_running(args))


def memory_entry() -> NoReturn:
    """The `glados-memory` command."""
    args = build_parser().parse_args(["memory", *sys.argv[1:]])
    end(run(args), long_running(args))


def end(code: int, long_running: bool) -> NoReturn:
    """A short command ends without Python's teardown of every module it loaded (as mypy's hard_exit does):
    its output is flushed and its log closed first, and its memory file was closed by the command. That
    teardown is about 9 ms of `glados memory list`'s 75. The voice loop, the chat and the servers end the
    usual way: their audio streams, model sessions and threads close themselves (a server stopped by a signal
    ends as a short command: its sessions are saved, and a reader left waiting on stdin must not hold it)."""
    if long_running and not _signalled():
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):      # the reader left ("| head"), or the stream is closed
            pass
    logging.shutdown()
    os._exit(code)


def _signalled() -> bool:
    """A server stopped by SIGTERM or SIGINT has ended its sessions and closed its memory; it exits at once."""
    stop = sys.modules.get("assistant.serve.stop")      # loaded only by the servers
    return stop is not None and stop.signalled()


def long_running(args: argparse.Namespace) -> bool:
    return args.command in (None, "voice", "chat", "serve") or getattr(args, "memory_command", "") == "mcp"


def main(argv: list[str] | None = None) -> int:
    """`glados ARGS` in this process, returning its exit status (tests, and other programs, call this)."""
    return run(build_parser().parse_args(argv))


def run(args: argparse.Namespace) -> int:
    out, err = Out("stdout"), Out("stderr")
    logs.setup(getattr(args, "verbose", False), long_running(args))
    log.info("glados %s%s", args.command or "voice", f" {args.memory_command}" if args.command == "memory" else "")
    try:
        config = load_config(getattr(args, "config", None))
        if getattr(args, "user", None) is not None and not args.user.strip():
            raise memory_commands.UsageError("--user needs a name (leave it out for the configured user)")
        user = getattr(args, "user", None) or config.user
        if args.command == "memory":
            return _memory_command(args, config, user, out, err)
        if args.command == "speakers":
            return _speakers_command(args, config, out, err)
        db = getattr(args, "db", None)
        if args.command == "chat":
            from . import chat
            return chat.run(args, config, user, out, lambda: open_memory(config, db))
        if args.command == "serve":
            from ..serve import proxy
            access = memory_commands.access_for(args, "glados serve")
            with open_memory(config, db) as memory:
                return proxy.run(memory, config, user, args.upstream or config.llm.host, args.host, args.port,
                                 err.line, access)
        from . import voice
        return voice.run(args, config, user, out, lambda: open_memory(config, db))
    except (ConfigError, MemoryStoreError, UnknownKey, memory_commands.UsageError, AudioError,
            SpeakerError, Unservable) as exc:
        log.warning("%s: %s", type(exc).__name__, exc)
        err.line(f"glados: {exc}")
        return 1
    except KeyboardInterrupt:
        err.line("glados: interrupted")
        return 130
    except BrokenPipeError:
        # "glados memory recall x --json | head": the reader left; that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

