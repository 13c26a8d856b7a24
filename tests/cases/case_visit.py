"""Position cases: the end of a visit and the start of the next.

Positions and expected values follow ``tests/rules/test_visit.py``. Each case stops just
before the action that ends the visit (:func:`casekit.before_visit_end`): its
score change is worked out case by case.
"""

from __future__ import annotations

import attrs
from casekit import Case, actions, before_visit_end, case, ok, refused
from positions import at_visit, game, run, table, with_bonus, with_deck, with_hand, with_player
from scenes import mogul_held_by, stow, vizier_pair

from tajmahal.engine import chance_cards
from tajmahal.model import AlreadyHeldSpecial, GameState, RuleSet, Symbol

ALL_INFLUENCE = ["vizier", "general", "monk", "princess"]


def cases() -> list[Case]:
    found: list[Case] = []

    def add(
        id: str,
        text: str,
        state: GameState,
        what: str,
        change: tuple[int, ...],
        after: dict[str, object],
        clauses: tuple[str, ...] = (),
        rulings: tuple[str, ...] = (),
    ) -> None:
        """A case stopping just before the action that ends the visit."""
        position, action = before_visit_end(state)
        check = ok(action, what, change, after)
        found.append(case(id, text, position, check, clauses=clauses, rulings=rulings))

    add(
        "TM.SPECIAL.EARN/two-viziers",
        "Two identical influence tiles are exchanged for the special card at the end of "
        "the visit; the tiles go back to the supply.",
        run(vizier_pair(), "withdraw", "palace A1"),
        "the visit ends: seat 0 gets the Grand Mogul card for its two viziers",
        (0, 0, 0, 0),
        {
            "visit": 2,
            "court_influence": ALL_INFLUENCE,
            "seats": {"0": {"influence": []}},
            "specials_on_table": ["special-colour-change", "special-elephant", "special-plus-two"],
        },
        clauses=("TM.SPECIAL.EXCHANGE_AT_VISIT_END",),
        rulings=("RUL.COMPONENTS.SPECIAL_EARNERS",),
    )
    two_pairs = with_player(table(), 0, influence=(Symbol.VIZIER, Symbol.VIZIER))
    two_pairs = with_player(two_pairs, 1, influence=(Symbol.MONK, Symbol.MONK))
    add(
        "TM.SPECIAL.EARN/two-pairs-at-one-visit-end",
        "Two players holding pairs of different kinds both exchange them when the visit "
        "ends: seat 0's viziers for the Grand Mogul card, seat 1's monks for the colour "
        "change.",
        two_pairs,
        "nobody played; seat 3 withdraws last and the visit ends",
        (0, 0, 0, 0),
        {
            "visit": 2,
            "specials_on_table": ["special-elephant", "special-plus-two"],
            "seats": {"0": {"influence": []}, "1": {"influence": []}},
        },
        clauses=("TM.SPECIAL.EXCHANGE_AT_VISIT_END",),
        rulings=("RUL.COMPONENTS.SPECIAL_EARNERS",),
    )
    add(
        "TM.SPECIAL.TAKE_FROM_HOLDER/from-seat-two",
        "The special card is taken from the player who holds it.",
        run(mogul_held_by(2), "withdraw", "palace A1"),
        "seat 0 takes the Grand Mogul card from seat 2",
        (0, 0, 0, 0),
        {"visit": 2, "seats": {"0": {"influence": []}}},
        clauses=("TM.SPECIAL.EXCHANGE_AT_VISIT_END",),
        rulings=("RUL.SPECIAL.CHANGES_HANDS", "RUL.COMPONENTS.SPECIAL_EARNERS"),
    )
    add(
        "TM.SPECIAL.ALREADY_HELD/return-tiles",
        "Tiles for a special card the player already holds go back to the supply (default).",
        run(mogul_held_by(0), "withdraw", "palace A1"),
        "seat 0 keeps its card; both vizier tiles return",
        (0, 0, 0, 0),
        {"visit": 2, "court_influence": ALL_INFLUENCE, "seats": {"0": {"influence": []}}},
        rulings=("RUL.SPECIAL.ALREADY_HELD", "RUL.COMPONENTS.SPECIAL_EARNERS"),
    )
    add(
        "RUL.SPECIAL.ALREADY_HELD/option-keep-tiles",
        "Option keep-tiles: the player keeps both tiles and the card.",
        run(
            mogul_held_by(0, RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)),
            "withdraw",
            "palace A1",
        ),
        "seat 0 keeps two vizier tiles",
        (0, 0, 0, 0),
        {"visit": 2, "seats": {"0": {"influence": ["vizier", "vizier"]}}},
        clauses=("TM.SPECIAL.ALREADY_HELD",),
        rulings=("RUL.COMPONENTS.SPECIAL_EARNERS",),
    )
    add(
        "TM.VISIT.NEXT.START_PLAYER/next-clockwise",
        "The next visit: the next start player clockwise, the next province and its tile, "
        "the court refilled, the crown back.",
        run(
            attrs.evolve(table(("red-01", "red-05")), start_player=3),
            "withdraw",
            "palace A1",
            "palace A2",
            "crown A3",
        ),
        "visit 2 in province B, seat 0 starts",
        (0, 0, 0, 0),
        {
            "visit": 2,
            "start_player": 0,
            "to_move": 0,
            "step": "play",
            "court_province_tile": "province-02",
            "court_influence": ALL_INFLUENCE,
            "crown_in_court": True,
            "seats": {"0": {"influence": ["vizier", "general"], "played": [], "withdrawn": False}},
        },
        clauses=(
            "TM.VISIT.NEXT.PROVINCE",
            "TM.VISIT.NEXT.PROVINCE_TILE",
            "TM.VISIT.NEXT.INFLUENCE_REFILL",
            "TM.VISIT.NEXT.CROWN",
            "TM.TURN.VISIT_ENDS",
        ),
    )
    supply = table(
        (),
        (),
        (),
        ("violet-07",),
        rules=RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES),
    )
    supply = with_hand(supply, 0, (*supply.players[0].hand, "special-mogul"))
    supply = with_player(supply, 0, influence=(Symbol.VIZIER,) * 3)
    supply = with_player(supply, 1, influence=(Symbol.VIZIER,))
    supply = with_player(supply, 2, influence=(Symbol.VIZIER,))
    add(
        "TM.VISIT.NEXT.INFLUENCE_REFILL/supply-empty",
        "The court is refilled only while the supply lasts: all six vizier tiles are held.",
        supply,
        "seat 3 (vizier and elephant, alone) places its palace: province tile 1 (1) and "
        "the palace (1); no vizier tile comes back to the court",
        (0, 0, 0, 2),
        {"visit": 2, "court_influence": ["general", "monk", "princess"]},
        clauses=("TM.COMP.INFLUENCE_TILES",),
        rulings=("RUL.SPECIAL.ALREADY_HELD",),
    )
    keep = RuleSet(already_held_special=AlreadyHeldSpecial.KEEP_TILES)
    for holder, influence, text, what in (
        (
            1,
            ["vizier"],
            "Option keep-tiles: three vizier tiles are a pair; two go back for the card, "
            "taken from seat 1, and the third stays.",
            "seat 3 (vizier and elephant, alone) places its palace: province tile 1 (1) and "
            "the palace (1); seat 0 returns two of its three vizier tiles",
        ),
        (
            0,
            ["vizier", "vizier", "vizier"],
            "Option keep-tiles: a player holding the card keeps all three tiles.",
            "seat 3 (vizier and elephant, alone) places its palace: province tile 1 (1) and "
            "the palace (1); seat 0 keeps its three vizier tiles and the card",
        ),
    ):
        three = table((), (), (), ("violet-07",), rules=keep)
        three = with_hand(three, holder, (*three.players[holder].hand, "special-mogul"))
        three = with_player(three, 0, influence=(Symbol.VIZIER,) * 3)
        add(
            f"RUL.SPECIAL.THREE_TILES/card-held-by-seat-{holder}",
            text,
            three,
            what,
            (0, 0, 0, 2),
            {"visit": 2, "seats": {"0": {"influence": influence}, "3": {"influence": ["vizier"]}}},
            clauses=("TM.SPECIAL.EXCHANGE_AT_VISIT_END", "TM.SPECIAL.ALREADY_HELD"),
            rulings=("RUL.SPECIAL.ALREADY_HELD", "RUL.COMPONENTS.SPECIAL_EARNERS"),
        )
    for players, size in ((3, 5), (4, 7), (5, 9)):
        add(
            f"TM.VISIT.NEXT.DISPLAY/{players}-players",
            f"A new display of {size} cards for {players} players.",
            game(players),
            f"{size} new display cards",
            (0,) * players,
            {"visit": 2},
            clauses=("TM.SETUP.DISPLAY.SIZE",),
        )
    add(
        "TM.VISIT.NEXT.DISPLAY/twelfth-visit",
        "The twelfth visit has a display too, in province L with province tile 12.",
        at_visit(game(4), 11),
        "visit 12 starts",
        (0, 0, 0, 0),
        {"visit": 12, "court_province_tile": "province-12"},
        rulings=("RUL.VISIT.LAST_VISIT_DISPLAY",),
    )
    add(
        "TM.VISIT.UNWON_PROVINCE/nobody-shows-an-elephant",
        "A province tile nobody wins leaves the game.",
        table(("red-01",), ("yellow-02",)),
        "province tile 1 is gone, tile 2 in the court",
        (0, 0, 0, 0),
        {"court_province_tile": "province-02"},
        rulings=("RUL.VISIT.UNWON_PROVINCE_TILE",),
    )
    add(
        "TM.VISIT.UNWON_COURT/stay-in-court",
        "Influence tiles and the crown nobody won stay in the court.",
        run(table(("red-07",), ("yellow-19",)), "withdraw", "palace A1"),
        "general, monk, princess and the crown stay; the vizier is refilled",
        (0, 0, 0, 0),
        {"court_influence": ALL_INFLUENCE, "crown_in_court": True},
        rulings=("RUL.VISIT.UNWON_COURT",),
    )
    reshuffle = with_deck(
        table(("red-07",), ("yellow-02",), ("green-02",), ("violet-02",)),
        ["green-21", "violet-21", "yellow-21"],
    )
    add(
        "TM.VISIT.NEXT.RESHUFFLE/deck-runs-out",
        "When the deck runs out while refilling the display, a reshuffle is due.",
        reshuffle,
        "seat 3 (general and monk, alone) places its second palace (1 point); the three "
        "deck cards go to the display; the game waits for a reshuffle",
        (0, 0, 0, 1),
        {
            "step": "shuffle",
            "to_move": None,
            "deck": [],
            "display": ["green-21", "violet-21", "yellow-21"],
            "draw": {"destination": -1, "count": 4, "reason": "display"},
        },
        clauses=("TM.VISIT.NEXT.DISPLAY",),
        rulings=("RUL.DECK.RESHUFFLE_TIMING",),
    )
    short = stow(with_deck(table(), []), keeper=3)
    add(
        "TM.VISIT.DISPLAY_SHORT/no-cards-left",
        "Without deck and discard pile the display stays short (here empty; seat 3 "
        "holds every card not in play).",
        short,
        "visit 2 starts with an empty display",
        (0, 0, 0, 0),
        {"visit": 2, "display": [], "deck": [], "step": "play", "to_move": 1},
        rulings=("RUL.DISPLAY.SHORT", "RUL.DECK.EXHAUSTED"),
    )
    # The reshuffle itself, from the position the deck-runs-out case leads to.
    from tajmahal.engine import apply
    from tajmahal.model import parse_action

    position, last = before_visit_end(reshuffle)
    shuffle = apply(position, parse_action(last))
    discard = chance_cards(shuffle)
    order = tuple(reversed(discard))
    found.append(
        case(
            "TM.VISIT.NEXT.RESHUFFLE/chance-step",
            "At a reshuffle the only actions are orders of the whole discard pile; the "
            "display is then refilled from the new deck.",
            shuffle,
            actions((), "a chance step offers no decision"),
            refused(
                "reshuffle " + " ".join(discard[1:]), "TM.VISIT.NEXT.RESHUFFLE", "a card left out"
            ),
            refused(
                "reshuffle " + " ".join((*discard[1:], "special-mogul")),
                "TM.VISIT.NEXT.RESHUFFLE",
                "a card not in the discard pile",
            ),
            refused("withdraw", "RUL.DECK.RESHUFFLE_TIMING", "a decision at a chance step"),
            ok(
                "reshuffle " + " ".join(order),
                "the discard pile reversed: its first four cards complete the display",
                (0, 0, 0, 0),
                {
                    "step": "play",
                    "to_move": 1,
                    "discard": [],
                    "display": sorted(("green-21", "violet-21", "yellow-21", *order[:4])),
                    "deck": list(order[4:]),
                },
            ),
            rulings=("RUL.DECK.RESHUFFLE_TIMING",),
        )
    )
    found.append(
        case(
            "TM.VISIT.NEXT.RESHUFFLE/not-due",
            "A reshuffle is refused when none is due.",
            table(),
            refused("reshuffle red-01", "RUL.DECK.RESHUFFLE_TIMING", "no reshuffle due"),
        )
    )
    bonus_card = run(
        with_bonus(
            with_deck(table(("red-01",), ("yellow-19",), order="BACDEFGHIJK"), []), "B3", "bonus-04"
        ),
        "withdraw",
        "palace B3",
    )
    order2 = chance_cards(bonus_card)
    found.append(
        case(
            "TM.SCORE.BONUS.CARD/empty-deck-waits",
            "A card bonus drawn from an empty deck waits for the reshuffle, then the "
            "withdrawal resumes with the second palace.",
            bonus_card,
            actions((), "a chance step"),
            ok(
                "reshuffle " + " ".join(order2),
                "seat 0 draws the new top card and places again",
                (0, 0, 0, 0),
                {"step": "place", "to_move": 0, "draw": None},
            ),
            clauses=("TM.VISIT.NEXT.RESHUFFLE",),
            rulings=("RUL.DECK.RESHUFFLE_TIMING", "RUL.COMPONENTS.BONUS_MIX"),
        )
    )
    return found
