"""The schema of Signorie's view messages (`tavola.kit.GameKit.view_schema`): every field its
`wire.view_json` sends, nested parts included (the seats, the dice and cities, the legal
choices, the log's entries, the final scoring), each with its JSON type and no field besides;
the conformance suite validates every message of random games against it. The fields are
`wire.py`'s."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import Field, StrictBool, StrictInt, StrictStr

from tavola.web.site import NoticeLine, SeatFacts, ViewMessage, WireObject

Int: TypeAlias = StrictInt
Str: TypeAlias = StrictStr
Bool: TypeAlias = StrictBool
Pair = Annotated[list[Int], Field(min_length=2, max_length=2)]


# -- the actions (`actions.action_to_json`: the type and the action's fields) ---------------------


class TakeDie(WireObject):
    type: Literal["take_die"]
    seat: Int
    colour: Str
    value: Int


class Pass(WireObject):
    type: Literal["pass"]
    seat: Int


class ChooseAction(WireObject):
    type: Literal["choose"]
    seat: Int
    kind: Literal["signoria", "assignment", "helper"]
    sex: Str
    meeples: Int
    helper: Int


class Advance(WireObject):
    type: Literal["advance"]
    seat: Int
    move: Literal["new", "up", "initiative", "stop"]
    track: Str
    slot: Int


class Mission(WireObject):
    type: Literal["mission"]
    seat: Int
    track: Str
    slot: Int
    city: Str


class Marry(WireObject):
    type: Literal["marry"]
    seat: Int
    city: Str
    dowry: Int


class FaceDown(WireObject):
    type: Literal["face_down"]
    seat: Int
    row: Str


class Hire(WireObject):
    type: Literal["hire"]
    seat: Int
    helper: Int


class Activate(WireObject):
    type: Literal["activate"]
    seat: Int
    helper: Int
    use: Bool


class Reward(WireObject):
    type: Literal["reward"]
    seat: Int
    choice: Literal["bonus", "florins"]


class Wedding(WireObject):
    type: Literal["wedding"]
    seat: Int
    accept: Bool


class BuyVp(WireObject):
    type: Literal["buy_vp"]
    seat: Int
    accept: Bool


Action = Annotated[TakeDie | Pass | ChooseAction | Advance | Mission | Marry | FaceDown | Hire
                   | Activate | Reward | Wedding | BuyVp, Field(discriminator="type")]


# -- the table ------------------------------------------------------------------------------------


class Tile(WireObject):
    id: Int
    house: Str
    vp: Int
    text: Str


class Effect(WireObject):
    kind: Str
    amount: Int
    text: Str


class Slot(WireObject):
    value: Int
    meeple: Pair | None  # [seat, sex] of the meeple on it
    column: Int
    row: Int


class City(WireObject):
    index: Int
    id: Str
    name: Str
    slots: list[Slot]
    marriage: Tile | None
    mission: Tile | None


class Die(WireObject):
    colour: Str
    values: list[Int]
    placed: list[Pair]  # [seat, value] of each die of the colour taken


class Assignment(WireObject):
    slot: Int
    colour: Str
    sex: Str
    tile: Int
    name: Str
    effect: Effect | None
    most: Int


class RewardTile(WireObject):
    round: Int
    kind: Literal["vp", "bonus"]
    text: Str
    current: Bool
    done: Bool


class Meeples(WireObject):
    male: Int
    female: Int


class PlanRow(WireObject):
    row: Str
    tiles: list[Tile]
    down: Int
    count: Int


class SignoriePlayer(SeatFacts):
    seat: Int
    name: Str
    colour: Str
    vp: Int
    florins: Int
    passed: Bool
    place: Int
    supply: Meeples
    stock: Meeples
    career: list[list[Int]]
    initiative: Int
    initiative_stack: Int
    taken: list[Int]
    dice_sum: Int
    threshold: Int
    threshold_meeples: Meeples
    helpers: list[Bool]
    brides: Int
    rows: list[PlanRow]


class RewardStep(WireObject):
    round: Int
    reward: Str
    order: list[Int]
    qualified: list[Int]
    lines: list[Str]
    waiting: list[Int]


class SummaryRow(WireObject):
    seat: Int
    initiative: Int
    sum: Int
    threshold: Int
    qualified: Bool
    reward: Str
    wedding: Str
    points: Int


class RoundSummary(WireObject):
    round: Int
    done: Bool
    order: list[Int]
    rows: list[SummaryRow]


# -- the log --------------------------------------------------------------------------------------


class Line(WireObject):
    """An entry of the game's log with its sentence (`wire.log_json`)."""

    kind: Literal["setup", "round", "take_die", "pass", "signoria", "assignment", "helper",
                  "hire", "advance", "mission", "marriage", "face_down", "offspring",
                  "initiative", "rewards", "reward", "florins", "wedding", "buy_vp",
                  "game_over"]
    seat: Int | None
    round: Int
    text: Str


class ScoreLine(WireObject):
    kind: Literal["score"]
    seat: Int | None
    round: Int
    text: Str
    points: Int
    source: Str


LogEntry = Annotated[Line | ScoreLine | NoticeLine, Field(discriminator="kind")]


# -- what the seat to move may do (`wire.legal_json`) ---------------------------------------------


class Option(WireObject):
    """One answer to the question: its action and sentence."""

    action: Action
    text: Str


class CityOption(Option):
    """A Diplomatic Mission or a Marriage: the alliance tile it would take along (or why the
    city's stays), on which plan row; a mission's career VP."""

    tile: Tile | None
    row: Str
    tile_note: Str
    vp: Int | None = None


class Count(WireObject):
    meeples: Int
    ok: Bool
    action: ChooseAction
    effect: Str
    why: Str


class SignoriaChoice(WireObject):
    kind: Literal["signoria"]
    name: Str
    effect: Str
    cost: Int
    ok: Bool
    action: ChooseAction
    why: Str


class AssignmentChoice(WireObject):
    kind: Literal["assignment"]
    sex: Str
    name: Str
    effect: Str
    cost: Int
    ok: Bool
    counts: list[Count]
    why: Str


class HelperChoice(WireObject):
    kind: Literal["helper"]
    helper: Int
    name: Str
    effect: Str
    cost: Int
    ok: Bool
    action: ChooseAction
    why: Str


ActionChoice = Annotated[SignoriaChoice | AssignmentChoice | HelperChoice,
                         Field(discriminator="kind")]


class DieChoice(WireObject):
    """A die left on the board: open or not; an open one with its colour's actions as they
    would stand once it is paid for, a closed one with why."""

    colour: Str
    value: Int
    cost: Int
    action: TakeDie
    ok: Bool
    over: Bool
    choices: list[ActionChoice] | None = None
    why: Str | None = None


class ClosedCity(WireObject):
    city: Str
    why: Str


class TurnLegal(WireObject):
    kind: Literal["turn"]
    question: Str
    options: list[Option]
    dice: list[DieChoice]
    can_pass: Bool


class ChooseLegal(WireObject):
    kind: Literal["choose"]
    question: Str
    options: list[Option]
    colour: Str
    choices: list[ActionChoice]


class HelpersLegal(WireObject):
    kind: Literal["helpers"]
    question: Str
    options: list[Option]
    always: Activate | None


class AdvanceLegal(WireObject):
    kind: Literal["advance"]
    question: Str
    options: list[Option]
    points: Int


class CityLegal(WireObject):
    kind: Literal["mission", "marriage"]
    question: Str
    options: list[CityOption]
    closed: list[ClosedCity]


class WeddingLegal(WireObject):
    kind: Literal["wedding"]
    question: Str
    options: list[Option]
    gain: Str


class OtherLegal(WireObject):
    kind: Literal["face_down", "hire", "reward", "buy"]
    question: Str
    options: list[Option]


Legal = Annotated[TurnLegal | ChooseLegal | HelpersLegal | AdvanceLegal | CityLegal
                  | WeddingLegal | OtherLegal, Field(discriminator="kind")]


# -- the end --------------------------------------------------------------------------------------


class FinalRow(WireObject):
    source: Str
    name: Str
    points: list[Int]


class Final(WireObject):
    rows: list[FinalRow]
    totals: list[Int]
    winners: list[Int]
    places: list[Int]
    end: list[Str]
    lines: list[Str]
    note: Str


class SignorieView(ViewMessage):
    """A whole view message of Signorie: the platform's keys and the game's, no others."""

    model_config = WireObject.model_config
    components: Str  # the component data's content hash ("" for the shipped components)
    round: Int
    rounds: Int
    phase: Str
    phase_name: Str
    order: list[Int]
    mover: Int | None
    question: Str | None
    dice: list[Die]
    cities: list[City]
    assignments: list[Assignment]
    rewards: list[RewardTile]
    deck: Int
    players: list[SignoriePlayer]
    reward_step: RewardStep | None
    round_summary: RoundSummary | None
    log: list[LogEntry]  # type: ignore[assignment]
    legal: Legal | None
    final: Final | None
