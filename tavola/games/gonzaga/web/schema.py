"""The schema of Gonzaga's view messages (`tavola.kit.GameKit.view_schema`): every field its
`wire.view_json` sends, nested parts included (the seats, the legal moves, the log's entries,
the pieces, the final table), each with its JSON type and no field besides; the conformance
suite validates every message of random games against it. The fields are `wire.py`'s."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import Field, StrictBool, StrictInt, StrictStr

from tavola.web.site import NoticeLine, SeatFacts, ViewMessage, WireObject

Int: TypeAlias = StrictInt
Str: TypeAlias = StrictStr
Bool: TypeAlias = StrictBool
#: a hex as [column, row]
Hex = Annotated[list[Int], Field(min_length=2, max_length=2)]


class PlanShown(WireObject):
    """A plan once revealed, or the seat's own: its cards and their sentence."""

    region: Str
    action: Str
    privilege: Bool
    text: Str


class ObjectiveCity(WireObject):
    name: Str
    at: Hex
    covered: Bool


class ObjectiveCard(WireObject):
    symbols: list[Str]
    cities: list[ObjectiveCity]
    text: Str


class GonzagaPlayer(SeatFacts):
    seat: Int
    name: Str
    colour: Str
    score: Int
    rings: Int
    fief: Int | None
    card: Int | None
    resting: list[Str]
    played: list[Str]
    has_planned: Bool
    fiefs_left: Int
    leagues: list[Str]
    objective: Int | None
    plan: PlanShown | None
    objective_card: ObjectiveCard | None


class Scenario(WireObject):
    name: Str
    person: Str
    flourishing: list[Str]
    inactive: list[Str]


class PieceShown(WireObject):
    owner: Int
    kind: Str
    fief: Int | None
    round: Int
    hexes: list[Hex]
    castles: list[Hex]


class ChurchMark(WireObject):
    player: Int
    fief: Int


# -- the actions, as the log shows them (`actions.action_to_json`) --------------------------------


class PlanAction(WireObject):
    type: Literal["plan"]
    player: Int
    region: Str
    action: Str
    privilege: Bool


class FiefAction(WireObject):
    type: Literal["fief"]
    player: Int
    fief: Int
    anchor: Hex
    rotation: Int


class WeddingAction(WireObject):
    type: Literal["wedding"]
    player: Int
    first: Hex
    second: Hex | None


class DonateAction(WireObject):
    type: Literal["donate"]
    player: Int


Action = Annotated[PlanAction | FiefAction | WeddingAction | DonateAction,
                   Field(discriminator="type")]


# -- the log --------------------------------------------------------------------------------------


class Event(WireObject):
    """A scoring event: who, how many points, why, in words."""

    player: Int
    points: Int
    reason: Str
    detail: Str
    text: Str


class PlanRevealed(WireObject):
    player: Int
    region: Str
    action: Str
    privilege: Bool


class RoundLine(WireObject):
    kind: Literal["round"]
    round: Int
    text: Str
    events: list[Event]


class RevealLine(WireObject):
    kind: Literal["reveal"]
    round: Int
    plans: list[PlanRevealed]
    order: list[Int]
    text: Str
    events: list[Event]


class TurnLine(WireObject):
    kind: Literal["turn"]
    round: Int
    player: Int
    action: Action
    hexes: list[Hex]
    points: Int
    text: Str
    events: list[Event]


class LastTurnLine(WireObject):
    kind: Literal["last-turn"]
    round: Int
    text: Str
    uncovered: Int
    last: Bool
    events: list[Event]


class EndLine(WireObject):
    kind: Literal["end"]
    round: Int
    winners: list[Int]
    text: Str
    events: list[Event]


LogEntry = Annotated[RoundLine | RevealLine | TurnLine | LastTurnLine | EndLine | NoticeLine,
                     Field(discriminator="kind")]


# -- what the seat to move may do (`wire.legal_json`) ---------------------------------------------

#: [the move's index, the words of a sea league it would form]
League = tuple[Int, Str]


class PlanLegal(WireObject):
    kind: Literal["plan"]
    regions: list[Str]
    actions: list[Str]
    privilege: Bool
    region_cards: list[Str]
    best: dict[str, dict[str, Int | None]]  # region card -> action card -> most points


class Placements(WireObject):
    """Every legal placement: its hexes (board indices, the fief's size each), rotation and
    points, and the leagues it would form."""

    hexes: list[Int]
    rotations: list[Int]
    points: list[Int]
    leagues: list[League]


class WeddingScores(WireObject):
    points: list[Int]
    leagues: list[League]


class PlaceLegal(WireObject):
    kind: Literal["place"]
    fief: Int
    plan: PlanShown
    placements: Placements
    # each legal Wedding's rings, hex indices two by two (-1: no second ring)
    weddings: list[Annotated[int, Field(ge=-1)]]
    wedding_scores: WeddingScores
    places: dict[str, Str]  # hex index -> the words of the city or harbor it scores
    donate: Bool
    donation_points: Int


Legal = Annotated[PlanLegal | PlaceLegal, Field(discriminator="kind")]


# -- the end --------------------------------------------------------------------------------------


class FinalRow(WireObject):
    seat: Int
    name: Str
    colour: Str
    score: Int
    gonzaga_tile: Int
    largest_group: Int
    objective: Int | None
    objective_symbols: list[Str]
    objective_cities: list[Str]
    objective_points: Int
    before_final: Int
    objective_text: Str
    by_source: dict[str, Int]


class Source(WireObject):
    id: Str
    name: Str


class Final(WireObject):
    winners: list[Int]
    table: list[FinalRow]
    sources: list[Source]
    note: Str


class GonzagaView(ViewMessage):
    """A whole view message of Gonzaga: the platform's keys and the game's, no others."""

    model_config = WireObject.model_config
    round: Int
    phase: Str
    order: list[Int]
    turn: Int
    current: Int | None
    final_round: Int | None
    last_turn_check: Int | None
    last_turn_holder: Int
    scenario: Scenario
    variants: list[Str]
    players: list[GonzagaPlayer]
    pieces: list[PieceShown]
    church: list[ChurchMark]
    log: list[LogEntry]  # type: ignore[assignment]
    legal: Legal | None
    final: Final | None
