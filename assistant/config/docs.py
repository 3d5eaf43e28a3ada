"""The config's documentation, made from one source: each key's default and one-line `doc(...)` in sections.py.

`python -m assistant.config.docs --write` writes the shipped config.yaml and the README's table of the
keys that matter; `--check` exits 1 when either is out of date (tests/test_config_file.py runs it).
"""
from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import sections as C
from .load import SHIPPED_CONFIG

README = Path(__file__).resolve().parents[2] / "README.md"
TABLE_START, TABLE_END = "<!-- config table: made by python -m assistant.config.docs --write -->", "<!-- end of config table -->"
COMMENT_AT = 28          # the column comments start at in config.yaml

# The keys that matter to most users: the README's table. Every key is in config.yaml.
HEADLINE = (
    "user", "database", "llm.host", "llm.model", "llm.first_token_timeout_s", "persona.system_prompt",
    "memory.max_facts", "memory.recent_window", "memory.recall_k", "recall.meaning", "budget.history",
    "session.idle_timeout_min", "session.consolidate", "voice.wake.phrase", "voice.wake.engine", "voice.follow_up_s",
    "voice.barge_in", "voice.end_silence_s", "voice.stt.model", "voice.tts.engine", "voice.input_device",
)

HEADER = """\
# GLaDOS assistant configuration: every key, its default and what it does.
# Made from assistant/config/sections.py by `python -m assistant.config.docs --write`; copy it to
# ~/.config/glados/config.yaml (Linux) and change what you like there.
# Environment overrides: GLADOS_CONFIG (this file's path), GLADOS_DB, GLADOS_USER, OLLAMA_HOST,
# OLLAMA_MODEL, MEMORY_WINDOW. Command-line flags (--user, --db) win over both.
"""


@dataclass(frozen=True)
class Key:
    path: str            # "voice.wake.phrase"
    default: Any
    doc: str


def _hints(cls: type) -> dict[str, Any]:
    from pydantic import Field
    C.Field = Field          # the annotations call doc(), which builds a pydantic Field
    return typing.get_type_hints(cls, vars(C), include_extras=True)


def _doc_of(hint: Any) -> str:
    for extra in getattr(hint, "__metadata__", ()):
        if getattr(extra, "description", None):
            return extra.description
    return ""


def keys(cls: type = C.Config, prefix: str = "") -> list[Key]:
    """Every leaf key with its default and doc, in the order sections.py declares them."""
    out: list[Key] = []
    hints, defaults = _hints(cls), cls()
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        value = getattr(defaults, f.name)
        path = f"{prefix}{f.name}"
        if dataclasses.is_dataclass(value):
            out += keys(type(value), f"{path}.")
        else:
            out.append(Key(path, value, _doc_of(hints[f.name])))
    return out


def undocumented() -> list[str]:
    return [k.path for k in keys() if not k.doc]


# --- config.yaml

def _scalar(value: Any) -> str:
    import yaml
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True).strip().removesuffix("\n...").removesuffix("...").strip()


def _line(text: str, comment: str) -> str:
    return f"{text.ljust(COMMENT_AT - 1)} # {comment}" if comment else text


def _render(cls: type, value: Any, indent: str) -> list[str]:
    hints, out = _hints(cls), []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        v, comment = getattr(value, f.name), _doc_of(hints[f.name])
        head = f"{indent}{f.name}:"
        if dataclasses.is_dataclass(v):
            section = (type(v).__doc__ or "").split("\n")[0]
            out += [""] * (not indent) + [_line(head, comment or section), *_render(type(v), v, indent + "  ")]
        elif isinstance(v, str) and "\n" in v:
            out += [_line(f"{head} |", comment), *(f"{indent}  {row}" for row in v.rstrip("\n").split("\n"))]
        elif isinstance(v, list) and v and dataclasses.is_dataclass(v[0]):
            out.append(_line(head, comment))
            for item in v:
                pairs = [f"{k}: {_scalar(x)}" for k, x in dataclasses.asdict(item).items()]
                out += [f"{indent}  - {pairs[0]}", *(f"{indent}    {p}" for p in pairs[1:])]
        elif isinstance(v, list) and v:
            out += [_line(head, comment), *(f"{indent}  - {_scalar(x)}" for x in v)]
        elif isinstance(v, dict) and v:
            out += [_line(head, comment), *(f"{indent}  {k}: {_scalar(x)}" for k, x in v.items())]
        else:
            out.append(_line(f"{head} {_scalar(v)}", comment))
    return out


def config_yaml(config: C.Config | None = None) -> str:
    """The shipped config.yaml: `config`'s values (the built-in defaults unless given), each key's doc beside it."""
    return HEADER + "\n".join(_render(C.Config, config or C.Config(), "")) + "\n"


# --- the README's table

def _cell(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str) and "\n" in value:
        return "GLaDOS"
    return f"`{_scalar(value)}`"


def readme_table() -> str:
    by_path = {k.path: k for k in keys()}
    rows = ["| key | default | what it does |", "|---|---|---|"]
    rows += [f"| `{p}` | {_cell(by_path[p].default)} | {by_path[p].doc.replace('|', '/')} |" for p in HEADLINE]
    return "\n".join(rows)


def readme_with_table(readme: str) -> str:
    pattern = re.compile(re.escape(TABLE_START) + r".*?" + re.escape(TABLE_END), re.S)
    if not pattern.search(readme):
        raise SystemExit(f"README.md has no {TABLE_START!r} ... {TABLE_END!r} section")
    return pattern.sub(lambda _: f"{TABLE_START}\n{readme_table()}\n{TABLE_END}", readme)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help="write config.yaml and the README's table")
    what.add_argument("--check", action="store_true", help="exit 1 when either is out of date")
    args = parser.parse_args(argv)
    missing = undocumented()
    if missing:
        print(f"config keys without doc(...) in sections.py: {', '.join(missing)}", file=sys.stderr)
        return 1
    readme = README.read_text()
    wanted = {SHIPPED_CONFIG: config_yaml(), README: readme_with_table(readme)}
    stale = [path for path, text in wanted.items() if path.read_text() != text]
    if args.write:
        for path in stale:
            path.write_text(wanted[path])
            print(f"wrote {path}")
        return 0
    for path in stale:
        print(f"{path} is out of date: run python -m assistant.config.docs --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
