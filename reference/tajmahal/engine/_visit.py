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

from bisect import insort

from tajmahal.engine._end import end_game
from tajmahal.engine._special import exchange_pairs
from tajmahal.engine._work import Work
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
    Reshuffle,
    Step,
)


def end_visit(work: Work) -> None:
    """End the visit; start the next one, or end the game after the twelfth.

    Implements: TM.TURN.VISIT_ENDS, TM.VISIT.END, TM.VISIT.UNWON_PROVINCE,
    TM.VISIT.UNWON_COURT, TM.VISIT.NEXT.START_PLAYER, TM.VISIT.NEXT.PROVINCE,
    TM.VISIT.NEXT.PROVINCE_TILE, TM.VISIT.NEXT.INFLUENCE_REFILL, TM.VISIT.NEXT.CROWN,
    TM.VISIT.NEXT.DISPLAY, TM.TURN.TWELVE_VISITS, TM.END.AFTER_TWELVE, TM.PLAY.COLOUR_RESET,
    TM.COMP.INFLUENCE_TILES, RUL.VISIT.UNWON_PROVINCE_TILE, RUL.VISIT.UNWON_COURT,
    RUL.VISIT.LAST_VISIT_DISPLAY, RUL.COMPONENTS.INFLUENCE_TILES
    """
    components = work.components
    exchange_pairs(work)
    if work.court_province_tile is not None:
        if work.recording:
            work.record(
                Event(
                    EventKind.UNWON,
                    tiles=(work.court_province_tile,),
                    clauses=("TM.VISIT.UNWON_PROVINCE", "RUL.VISIT.UNWON_PROVINCE_TILE"),
                )
            )
        work.court_province_tile = None
    players = work.players
    for player in players:
        player.played = []
        player.colour = None
        player.withdrawn = False
        player.withdrawn_counts = None
    if work.visit == VISITS:
        end_game(work)
        return
    work.visit += 1
    work.start_player = (work.start_player + 1) % work.count
    work.to_move = work.start_player
    tile = components.province_tile_number(work.visit)
    work.court_province_tile = tile.id
    for symbol in INFLUENCE_SYMBOLS:
        if symbol in work.read("court_influence"):
            continue
        held = sum(player.influence.count(symbol) for player in players)
        if held < INFLUENCE_TILES_PER_KIND:
            work.court_influence.append(symbol)
    work.crown_in_court = True
    if work.recording:
        work.record(
            Event(
                EventKind.VISIT,
                work.start_player,
                tiles=(tile.id,),
                counts=(work.visit,),
                clauses=(
                    "TM.VISIT.NEXT.START_PLAYER",
                    "TM.VISIT.NEXT.PROVINCE",
                    "TM.VISIT.NEXT.PROVINCE_TILE",
                    "TM.VISIT.NEXT.INFLUENCE_REFILL",
                    "TM.VISIT.NEXT.CROWN",
                ),
            )
        )
    work.step = Step.PLAY
    work.draw = PendingDraw(DISPLAY, DISPLAY_SIZES[work.count], "display")


def perform_draw(work: Work) -> bool:
    """Draw what is pending; False when a reshuffle must come first (a chance step).

    Implements: TM.VISIT.NEXT.RESHUFFLE, TM.VISIT.DISPLAY_SHORT, RUL.DECK.RESHUFFLE_TIMING,
    RUL.DECK.EXHAUSTED
    """
    pending = work.draw
    assert pending is not None
    remaining = pending.count
    drawn: list[CardId] = []
    while remaining:
        if not work.read("deck"):
            if work.read("discard"):
                work.draw = PendingDraw(pending.destination, remaining, pending.reason)
                _note_drawn(work, pending, drawn)
                work.step = Step.SHUFFLE
                work.to_move = None
                return False
            if work.recording:
                work.record(
                    Event(
                        EventKind.DRAW,
                        None if pending.destination == DISPLAY else pending.destination,
                        counts=(remaining,),
                        clauses=(*DRAW_CLAUSES[pending.reason], "RUL.DECK.EXHAUSTED"),
                    )
                )
            break
        deck = work.deck
        cards = deck[:remaining]  # from the top, as many as are owed and left
        del deck[:remaining]
        drawn += cards
        if pending.destination == DISPLAY:
            work.display.extend(cards)
        else:
            hand = work.player(pending.destination).hand
            for card in cards:
                insort(hand, card)
        remaining -= len(cards)
    _note_drawn(work, pending, drawn)
    work.draw = None
    return True


DRAW_CLAUSES: dict[str, tuple[str, ...]] = {
    "display": ("TM.VISIT.NEXT.DISPLAY",),
    "bonus-card": ("TM.SCORE.BONUS.CARD",),
    "extra-card": ("TM.WITHDRAW.WITHOUT_PLAYING", "RUL.WITHDRAW.WITHOUT_PLAYING"),
}
"""The clauses behind each reason for a draw (:attr:`tajmahal.model.PendingDraw.reason`)."""


def _note_drawn(work: Work, pending: PendingDraw, drawn: list[CardId]) -> None:
    if not drawn or not work.recording:
        return
    seat = None if pending.destination == DISPLAY else pending.destination
    work.record(
        Event(
            EventKind.DRAW,
            seat,
            cards=tuple(sorted(drawn)) if seat is None else tuple(drawn),
            private=seat is not None,
            clauses=DRAW_CLAUSES[pending.reason],
        )
    )


def apply_reshuffle(work: Work, action: Reshuffle) -> None:
    """Put the discard pile, in the order the chance outcome names, under the deck.

    Implements: TM.VISIT.NEXT.RESHUFFLE, RUL.DECK.RESHUFFLE_TIMING
    """
    if sorted(action.order) != sorted(work.read("discard")):
        unknown = sorted(set(action.order) - set(work.read("discard")))
        missing = sorted(set(work.read("discard")) - set(action.order))
        raise IllegalActionError(
            "a reshuffle orders exactly the discarded cards"
            + (f"; not in the discard pile: {unknown[:5]}" if unknown else "")
            + (f"; missing: {missing[:5]}" if missing else "")
            + ("; a card is listed twice" if not unknown and not missing else ""),
            clause="TM.VISIT.NEXT.RESHUFFLE",
        )
    work.deck[:0] = action.order
    work.discard.clear()
    if work.recording:
        work.record(
            Event(
                EventKind.RESHUFFLE,
                counts=(len(action.order),),
                clauses=("TM.VISIT.NEXT.RESHUFFLE", "RUL.DECK.RESHUFFLE_TIMING"),
            )
        )
