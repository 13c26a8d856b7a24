"""The end of a visit and the start of the next; drawing cards (the rulebooks' "Fine di
una visita e inizio di quella successiva", "Terminare una visita ed iniziare la
prossima", "Finalizar una visita y comenzar la próxima visita", "Fin de Manche").

When the last player has withdrawn, pairs of influence tiles are exchanged for special
cards (:mod:`~tajmahal.engine`), an unwon province tile leaves the game, and the
next visit begins: the next start player clockwise, the next province and its tile,
the court's influence tiles refilled, the crown back, a new display. Every draw from the
deck (display, bonus card, extra card) goes through :func:`perform_draw`, which stops at
a chance step when the deck must be reshuffled first.

Notes on this implementation:

- The discard pile is reshuffled the moment a card is needed from an empty deck, as an
  explicit chance outcome (RUL.DECK.RESHUFFLE_TIMING); with deck and discard pile both
  empty the draw is skipped (RUL.DECK.EXHAUSTED).
- A province tile nobody wins leaves the game (RUL.VISIT.UNWON_PROVINCE_TILE); unwon
  influence tiles and the crown stay in the court (RUL.VISIT.UNWON_COURT).
- A display is drawn for the twelfth visit too (RUL.VISIT.LAST_VISIT_DISPLAY).
"""

from __future__ import annotations

from tajmahal.engine._end import end_game
from tajmahal.engine._special import exchange_pairs
from tajmahal.engine._work import Work, cards_into_hand, sorted_with
from tajmahal.errors import IllegalActionError
from tajmahal.model import (
    DISPLAY,
    DISPLAY_SIZES,
    INFLUENCE_SYMBOLS,
    INFLUENCE_TILES_PER_KIND,
    VISITS,
    CardId,
    Event,
    EventKind,
    PendingDraw,
    ProvinceTileId,
    Reshuffle,
    Step,
    Symbol,
)


def end_visit(work: Work) -> None:
    """End the visit; start the next one, or end the game after the twelfth.

    Implements: TM.TURN.VISIT_ENDS, TM.VISIT.END, TM.VISIT.UNWON_PROVINCE,
    TM.VISIT.UNWON_COURT, TM.VISIT.NEXT.START_PLAYER, TM.VISIT.NEXT.PROVINCE,
    TM.VISIT.NEXT.PROVINCE_TILE, TM.VISIT.NEXT.CROWN, TM.VISIT.NEXT.DISPLAY,
    TM.TURN.TWELVE_VISITS, TM.END.AFTER_TWELVE, TM.PLAY.COLOUR_RESET,
    RUL.VISIT.UNWON_PROVINCE_TILE, RUL.VISIT.UNWON_COURT, RUL.VISIT.LAST_VISIT_DISPLAY
    """
    exchange_pairs(work)
    if work.court_province_tile is not None:
        work.record(unwon_event, work.court_province_tile)
        work.court_province_tile = None
    for seat in range(len(work.players)):
        player = work.edit(seat)
        player.played = ()
        player.colour = None
        player.withdrawn = False
        player.withdrawn_counts = None
    if work.visit == VISITS:
        end_game(work)
        return
    work.visit += 1
    work.start_player = (work.start_player + 1) % len(work.players)
    work.to_move = work.start_player
    work.court_province_tile = work.components.province_tile_number(work.visit).id
    work.court_influence = refilled_court(work)
    work.crown_in_court = True
    work.record(visit_event, work.start_player, work.court_province_tile, work.visit)
    work.step = Step.PLAY
    work.draw = PendingDraw(DISPLAY, DISPLAY_SIZES[len(work.players)], "display")


def refilled_court(work: Work) -> tuple[Symbol, ...]:
    """The court's influence tiles for the next visit: each kind it still holds, and each
    kind of which the supply has a tile left (6 of each, less those players hold).

    Implements: TM.VISIT.NEXT.INFLUENCE_REFILL, TM.COMP.INFLUENCE_TILES,
    RUL.COMPONENTS.INFLUENCE_TILES
    """
    held = [symbol for player in work.players for symbol in player.influence]
    return tuple(
        symbol
        for symbol in INFLUENCE_SYMBOLS
        if symbol in work.court_influence or held.count(symbol) < INFLUENCE_TILES_PER_KIND
    )


def unwon_event(tile: ProvinceTileId) -> Event:
    """The ``unwon`` event: a province tile nobody won leaves the game."""
    return Event(
        EventKind.UNWON,
        tiles=(tile,),
        clauses=("TM.VISIT.UNWON_PROVINCE", "RUL.VISIT.UNWON_PROVINCE_TILE"),
    )


def visit_event(start_player: int, tile: ProvinceTileId, visit: int) -> Event:
    """The ``visit`` event: a new visit, its start player and its province tile."""
    return Event(
        EventKind.VISIT,
        start_player,
        tiles=(tile,),
        counts=(visit,),
        clauses=(
            "TM.VISIT.NEXT.START_PLAYER",
            "TM.VISIT.NEXT.PROVINCE",
            "TM.VISIT.NEXT.PROVINCE_TILE",
            "TM.VISIT.NEXT.INFLUENCE_REFILL",
            "TM.VISIT.NEXT.CROWN",
        ),
    )


def perform_draw(work: Work) -> bool:
    """Draw what is pending, from the top of the deck; False when a reshuffle must come
    first (a chance step). With deck and discard pile both empty, nothing more is drawn.

    Implements: TM.VISIT.NEXT.RESHUFFLE, TM.VISIT.DISPLAY_SHORT, RUL.DECK.RESHUFFLE_TIMING,
    RUL.DECK.EXHAUSTED
    """
    pending = work.draw
    assert pending is not None
    remaining = pending.count
    drawn: list[CardId] = []
    while remaining:
        if not work.deck:
            if work.discard:
                _drawn(work, pending, drawn)
                work.draw = PendingDraw(pending.destination, remaining, pending.reason)
                work.step = Step.SHUFFLE
                work.to_move = None
                return False
            work.record(exhausted_event, pending, remaining)
            break
        cards = work.deck[:remaining]
        work.deck = work.deck[remaining:]
        if pending.destination == DISPLAY:
            work.display = sorted_with(work.display, cards)
        else:
            cards_into_hand(work, pending.destination, cards)
        drawn += cards
        remaining -= len(cards)
    _drawn(work, pending, drawn)
    work.draw = None
    return True


def _drawn(work: Work, pending: PendingDraw, cards: list[CardId]) -> None:
    """Record the cards drawn, if any."""
    if cards:
        work.record(drawn_event, pending, tuple(cards))


DRAW_CLAUSES: dict[str, tuple[str, ...]] = {
    "display": ("TM.VISIT.NEXT.DISPLAY",),
    "bonus-card": ("TM.SCORE.BONUS.CARD",),
    "extra-card": ("TM.WITHDRAW.WITHOUT_PLAYING", "RUL.WITHDRAW.WITHOUT_PLAYING"),
}
"""The clauses behind each reason for a draw (:attr:`tajmahal.model.PendingDraw.reason`)."""


def drawn_event(pending: PendingDraw, cards: tuple[CardId, ...]) -> Event:
    """The ``draw`` event: cards drawn into a hand (private, in the order drawn) or onto
    the display (sorted)."""
    if pending.destination == DISPLAY:
        return Event(
            EventKind.DRAW, cards=tuple(sorted(cards)), clauses=DRAW_CLAUSES[pending.reason]
        )
    return Event(
        EventKind.DRAW,
        pending.destination,
        cards=cards,
        private=True,
        clauses=DRAW_CLAUSES[pending.reason],
    )


def exhausted_event(pending: PendingDraw, missing: int) -> Event:
    """The ``draw`` event of cards that could not be drawn: deck and discard pile empty."""
    return Event(
        EventKind.DRAW,
        None if pending.destination == DISPLAY else pending.destination,
        counts=(missing,),
        clauses=(*DRAW_CLAUSES[pending.reason], "RUL.DECK.EXHAUSTED"),
    )


def reshuffle(work: Work, action: Reshuffle) -> None:
    """Put the discard pile, in the order the chance outcome names, on the deck.

    Implements: TM.VISIT.NEXT.RESHUFFLE, RUL.DECK.RESHUFFLE_TIMING
    """
    if sorted(action.order) != sorted(work.discard):
        unknown = sorted(set(action.order) - set(work.discard))
        missing = sorted(set(work.discard) - set(action.order))
        raise IllegalActionError(
            "a reshuffle orders exactly the discarded cards"
            + (f"; not in the discard pile: {unknown[:5]}" if unknown else "")
            + (f"; missing: {missing[:5]}" if missing else "")
            + ("; a card is listed twice" if not unknown and not missing else ""),
            clause="TM.VISIT.NEXT.RESHUFFLE",
        )
    work.deck = action.order + work.deck
    work.discard = ()
    work.record(reshuffled_event, len(action.order))


def reshuffled_event(cards: int) -> Event:
    """The ``reshuffle`` event: how many cards became the new deck."""
    return Event(
        EventKind.RESHUFFLE,
        counts=(cards,),
        clauses=("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING"),
    )
