"""Editions: one game's component data (a Gonzaga map, a Signorie component file) as a named,
versioned set that a person transcribes from their own printed copy and plays games on.

The printed components of both games are not public; each game ships a labelled reconstruction,
its default edition. An owner of the box can enter the printed values in an editor, check them
with every rule the command line checks, and play on them, without anything being published.

A game that has editions declares an `EditionKind` (`GameKit.editions`): its data's format and
JSON Schema, its default data, every check as `Finding`s a person can act on, and the game
options that play a game on the data. The platform stores, versions, shares and lists editions
and never reads inside the data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .text import say


@dataclass(frozen=True)
class Finding:
    """One problem with an edition's data, in words a person can act on (in the language of
    the moment: each request's, see docs/editions.md), located where the editor can show it."""

    message: str
    #: a JSON Pointer (RFC 6901) into the data, e.g. "/cities/3/name"; "" for the whole file
    where: str = ""
    #: the game's places the problem is on, for the editor to mark (Gonzaga: "hex:Q,R")
    marks: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"message": self.message, "where": self.where, "marks": list(self.marks)}


class EditionKind(Protocol):
    """What a game declares so that its component data can be edited, stored and played on."""

    #: the data files' format with its version, e.g. "gonzaga-board/1"
    @property
    def format(self) -> str: ...

    #: the largest data file accepted, in bytes of UTF-8 JSON
    @property
    def max_bytes(self) -> int: ...

    def default(self) -> dict[str, Any]:
        """The shipped reconstruction's data: the default edition."""
        ...

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the data (exported from the game's schema model)."""
        ...

    def check(self, data: Any) -> list[Finding]:
        """Every rule the game's command-line check applies; [] means a game can be played on
        it. Never raises on hostile data: a malformed file is findings too. Worded in the
        language of the moment (`tavola.i18n`), which the server sets to the request's."""
        ...

    def options(self, data: dict[str, Any]) -> dict[str, Any]:
        """The options of `Game.new_game` that play a game on `data` (checked already)."""
        ...

    def describe(self, data: dict[str, Any]) -> str:
        """One line on the data for lists (e.g. "122 hexes, 18 cities, 9 fiefs")."""
        ...


def canonical(data: Any) -> bytes:
    """The data as one byte string whatever its keys' order or spacing, for hashing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def content_hash(data: Any) -> str:
    """An edition's content hash: equal data, equal hash, on any machine."""
    return hashlib.sha256(canonical(data)).hexdigest()


#: pydantic's error types, each with the platform's sentence (`text.MESSAGES`, "schema.*");
#: any other type is "schema.invalid": pydantic's own English never reaches a player.
SCHEMA_SENTENCES: dict[str, str] = {
    "missing": "schema.missing", "extra_forbidden": "schema.extra",
    "string_type": "schema.text", "string_unicode": "schema.text",
    "int_type": "schema.whole-number", "int_parsing": "schema.whole-number",
    "int_from_float": "schema.whole-number", "float_type": "schema.number",
    "float_parsing": "schema.number", "finite_number": "schema.finite",
    "bool_type": "schema.true-false", "bool_parsing": "schema.true-false",
    "list_type": "schema.list", "tuple_type": "schema.list", "set_type": "schema.list",
    "dict_type": "schema.object", "model_type": "schema.object",
    "model_attributes_type": "schema.object",
    "string_too_short": "schema.text-short", "string_too_long": "schema.text-long",
    "too_short": "schema.few", "too_long": "schema.many",
    "greater_than": "schema.above", "greater_than_equal": "schema.at-least",
    "less_than": "schema.below", "less_than_equal": "schema.at-most",
    "literal_error": "schema.one-of", "enum": "schema.one-of",
}


def schema_sentence(error: Mapping[str, Any], field: str) -> str:
    """A schema error (one of pydantic's `errors()`) as the text layer's sentence in the
    language of the moment, its `field` named in the game's words; where it is stays apart
    (`Finding.where`)."""
    key = SCHEMA_SENTENCES.get(str(error.get("type")), "schema.invalid")
    ctx = {k: v for k, v in (error.get("ctx") or {}).items() if isinstance(v, int | float | str)}
    if key in ("schema.text-short", "schema.few") and ctx.get("min_length") == 1:
        key = "schema.empty"
    if "expected" in ctx:  # "'a', 'b' or 'c'": the values as written, without English words
        ctx["expected"] = ", ".join(str(ctx["expected"]).replace(" or ", ", ").split(", "))
    try:
        return say(key, field=field, **ctx)
    except (KeyError, IndexError):  # a context pydantic did not give: the plainer sentence
        return say("schema.invalid", field=field)


def field_name(loc: Sequence[str | int], word: Callable[[str], str]) -> str:
    """A place of the data as a person names it: each key in the game's words (`word`; ""
    leaves a key out), each list item by its number from 1 ("action slots 2, cost")."""
    names: list[str] = []
    for part in loc:
        if isinstance(part, int):
            if names:
                names[-1] += f" {part + 1}"
        elif name := word(part):
            names.append(name)
    return ", ".join(names) or say("schema.whole-file")


#: What a stored game's setup holds where its edition's data was: `{STORED_AS: content hash}`.
#: A game's setup carries the data it is played on (a bot worker, a record need nothing else);
#: the store keeps the data once, in the edition's version, not again in each game on it.
STORED_AS = "edition_data"


def setup_stored(setup: Any, digest: str) -> Any:
    """`setup` with each part that is the data of content hash `digest` named by that hash
    (`setup_filled` puts the data back); lossless, since only that very data is named."""
    if not isinstance(setup, dict):
        return setup
    if content_hash(setup) == digest:
        return {STORED_AS: digest}
    return {key: setup_stored(value, digest) for key, value in setup.items()}


def setup_filled(setup: Any, digest: str, data: Any) -> Any:
    """A stored setup (`setup_stored`) with the data of content hash `digest` back where it
    was named; a setup stored whole comes back as it is."""
    if not isinstance(setup, dict):
        return setup
    if setup == {STORED_AS: digest}:
        return data
    return {key: setup_filled(value, digest, data) for key, value in setup.items()}
