"""The catalogue of plausible misreadings: engines that each read one rule otherwise.

The rulebooks disagree in places, leave things out and use words loosely; an engine
written from one of them can read a rule otherwise than the reference does. Each
:class:`Misreading` is such a reading, made into an engine (a small variant of the
reference, :mod:`tajmahal.conformance`): its name, the clause or ruling it misreads,
what the engine then does, why a reader might read it so, and where the rulebooks say
what leads there. ``tajmahal serve --misread NAME`` serves one, so that ``tajmahal
diff`` can be pointed at it; ``diff`` and ``verify`` replay a disagreeing game under
every entry and say which one reproduces the other engine (``docs/misreadings.md``).

Seven entries play as if a rule-set option were set otherwise, whatever the game's
rule set says (an engine written for one table's rules); their ``option`` names it.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from tajmahal.conformance import _variants as variants
from tajmahal.conformance._protocol import Engine
from tajmahal.engine import apply, legal_actions
from tajmahal.model import DEFAULT_RULES, RULE_OPTIONS


@attrs.frozen(slots=True)
class Citation:
    """Where a rulebook says what leads to a misreading (as the clause registry cites)."""

    book: str
    """The rulebook: ``000`` (Italian), ``001`` (Giochi Rari), ``002`` (Spanish) or
    ``003`` (French summary); its file is ``<book>_*.txt`` of the rulebooks' folder."""
    section: str
    """The heading the paragraph stands under."""
    paragraph: int
    """The paragraph: the n-th non-blank line of the text (``specs/README.md``)."""
    words: str
    """A few identifying words found in that paragraph."""


@attrs.frozen(slots=True)
class Misreading:
    """One plausible misreading of the rules, and the engine that plays it."""

    name: str
    """The entry's name (``tajmahal serve --misread NAME``)."""
    rule: str
    """The clause (``TM.…``) or ruling (``RUL.…``) it misreads."""
    does: str
    """What the engine does, in one sentence."""
    reading: str
    """Why a reader might read the rulebooks so."""
    cites: tuple[Citation, ...]
    """Where the rulebooks say what leads there (and what says otherwise)."""
    legal_actions: variants.Legal = legal_actions
    """The engine's ``legal_actions``."""
    apply: variants.Apply = apply
    """The engine's ``apply``."""
    option: tuple[str, str] | None = None
    """``(option, value)`` when the engine plays every game as if that rule-set option
    were set so."""
    rules: Mapping[str, str] = attrs.field(factory=dict)
    """The rule-set options under which it differs from the reference at all (an engine
    that ignores a forbidding option differs only where the option forbids)."""

    @property
    def engine(self) -> Engine:
        """The engine behind the protocol (:class:`tajmahal.conformance.Session`)."""
        return Engine(self.legal_actions, self.apply, name=f"misread: {self.name}")


def _cite(book: str, section: str, paragraph: int, words: str) -> Citation:
    return Citation(book, section, paragraph, words)


def _option(
    name: str, option: str, value: str, rule: str, does: str, reading: str, *cites: Citation
) -> Misreading:
    legal, apply_as_if = variants.as_if_option(option, value)
    default = DEFAULT_RULES.to_json()[option]
    other = next(choice for choice in RULE_OPTIONS[option] if choice != value)
    needs = {option: other} if value == default else {}
    return Misreading(name, rule, does, reading, cites, legal, apply_as_if, (option, value), needs)


_ENTRIES = (
    # Majorities --------------------------------------------------------------------
    Misreading(
        "tie-wins",
        "TM.WITHDRAW.MAJORITY.STRICT",
        "A withdrawing player wins every force of which they have at least as many symbols "
        "as every compared player: a tie wins.",
        "The French summary (003) gives a force to the player who 'holds the majority' or "
        "'the greatest number' of its symbols and never mentions a tie; a shared greatest "
        "number reads as the greatest number. The margin of the Giochi Rari edition (001) "
        "says a tie wins nothing.",
        (
            _cite("003", "La Manche :", 30, "s'il est majoritaire"),
            _cite("003", "La Manche :", 32, "le plus grand nombre"),
            _cite("001", "Ritirarsi", 111, "In caso di parità"),
        ),
        apply=variants.tie_wins_apply,
    ),
    Misreading(
        "zero-wins",
        "RUL.MAJORITY.ZERO_SYMBOLS",
        "The last player in a visit, having played, also wins every force still in the "
        "court of which they have no symbol.",
        "The Italian (000) and Spanish (002) rulebooks word a win as having more symbols "
        "than every other player; with nobody left in the visit, any count beats everyone, "
        "zero included. Only the player who withdraws without playing is said to win "
        "nothing (001, 002).",
        (
            _cite("000", "Ritirarsi dalla visita", 56, "più simboli di uno"),
            _cite("002", "B. Retirar", 59, "que cualquier otro jugador"),
            _cite("002", "Finalización de un retiro", 98, "no obtendrá puntos"),
        ),
        apply=variants.zero_wins_apply,
    ),
    _option(
        "compare-withdrawn",
        "majority_scope",
        "all",
        "RUL.MAJORITY.REMAINING_PLAYERS",
        "A withdrawing player is compared with every other player of the visit, those who "
        "withdrew earlier with the cards they had played.",
        "The Italian rulebook (000) compares the withdrawing player with 'every other "
        "player'; only the Giochi Rari (001) and Spanish (002) texts add that discarded "
        "cards no longer count.",
        _cite("000", "Ritirarsi dalla visita", 56, "rispetto ad ogni altro giocatore"),
        _cite("002", "Finalización de un retiro", 95, "no tienen más influencia"),
    ),
    # Turns and withdrawals -----------------------------------------------------------
    Misreading(
        "no-empty-withdraw",
        "TM.WITHDRAW.EMPTY_HANDED",
        "A player must play a card before withdrawing (unless no play is left); the "
        "engine refuses an empty-handed withdrawal, naming TM.WITHDRAW.EMPTY_HANDED.",
        "The Italian rulebook (000) offers a turn as playing cards or withdrawing 'to claim "
        "the benefits of the influence gained' and never mentions withdrawing without "
        "playing; the Spanish rulebook (002) says, garbled, that a withdrawing player "
        "'cannot win anything'.",
        (
            _cite("000", "COME SI GIOCA", 45, "reclamare i benefici"),
            _cite("002", "B. Retirar", 73, "no puede ganar nada"),
        ),
        variants.no_empty_withdraw_legal,
        variants.no_empty_withdraw_apply,
    ),
    _option(
        "no-extra-card",
        "withdraw_without_playing",
        "none",
        "RUL.WITHDRAW.WITHOUT_PLAYING",
        "A player who withdraws without having played draws no extra card from the deck.",
        "The Italian rulebook (000) has no extra card for withdrawing without playing (it "
        "has only the last card of the display); the Giochi Rari edition (001) and the "
        "French summary (003) give it.",
        _cite(
            "000", "Fine di una visita e inizio di quella successiva", 79, "l'ultima carta rimasta"
        ),
        _cite("001", "Terminare una ritirata", 198, "pescherà la prima carta"),
        _cite("003", "La Manche :", 36, "en compensation"),
    ),
    Misreading(
        "last-player-must-withdraw",
        "TM.TURN.LAST_PLAYER_CONTINUES",
        "The only player left in a visit must withdraw at once; the engine refuses a play, "
        "naming TM.TURN.LAST_PLAYER_CONTINUES.",
        "The Italian rulebook (000) and the French summary (003) end a visit when every "
        "player has withdrawn and never say that the last one may play on; only the Giochi "
        "Rari (001) and Spanish (002) texts do.",
        (
            _cite("000", "COME SI GIOCA", 46, "Quando tutti i giocatori si sono ritirati"),
            _cite("002", "Finalización de un retiro", 97, "Cuando solo queda un jugador"),
        ),
        variants.last_must_withdraw_legal,
        variants.last_must_withdraw_apply,
    ),
    # Special cards -------------------------------------------------------------------
    Misreading(
        "special-discarded",
        "TM.SPECIAL.RETURN_TO_HAND",
        "Special cards played go to the discard pile with the other cards played.",
        "Where the texts describe withdrawing they discard 'the cards played' with no "
        "exception (the Spanish rulebook (002) among them); that special cards go back to "
        "hand is said only under the special cards.",
        (
            _cite("002", "B. Retirar", 70, "descarta las cartas que ha jugado"),
            _cite("000", "Le carte speciali", 89, "ritornano in mano"),
        ),
        apply=variants.special_discarded_apply,
    ),
    Misreading(
        "special-once-per-visit",
        "RUL.SPECIAL.ONE_PER_TURN",
        "A player may play one special card in a whole visit; the engine refuses a second, "
        "naming RUL.SPECIAL.ONE_PER_TURN.",
        "The texts allow 'one special card per turn', and they use turn and round loosely "
        "for the whole visit: the Italian rulebook (000) splits a visit into 'several "
        "rounds', the French summary (003) calls a visit a 'tour de jeu'.",
        (
            _cite("000", "Le carte speciali", 89, "una sola carta speciale per turno"),
            _cite("003", "(title)", 8, "A chaque tour de jeu"),
            _cite("000", "PANORAMICA DEL GIOCO", 6, "diversi round"),
        ),
        variants.one_special_legal,
        variants.one_special_apply,
    ),
    Misreading(
        "colour-change-lasts",
        "TM.SPECIAL.COLOUR_CHANGE.ONE_TURN",
        "A coloured card of another colour played with the colour-change card becomes the "
        "player's colour for the rest of the visit.",
        "The card's name ('change of colour', 'cambio de color') says the player's colour "
        "changes; the French summary (003) gives no effect for it, and the Italian "
        "rulebook (000) limits it to the turn only in a parenthesis.",
        (
            _cite("002", "Las cartas especiales", 122, "Cambio de color"),
            _cite("000", "Le carte speciali", 94, "solo per il turno"),
        ),
        apply=variants.colour_change_lasts_apply,
    ),
    _option(
        "colour-change-sets-colour",
        "colour_change_first_turn",
        "played-card",
        "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN",
        "The coloured card played with the colour-change card on a player's first turn of "
        "a visit sets the player's colour.",
        "The Italian rulebook (000) fixes the colour by the first coloured card played, "
        "and the card played with the colour-change card is one; only the Spanish (002) "
        "and Giochi Rari (001) texts make the next card set it.",
        _cite("000", "Giocare 1 o 2 carte", 48, "prima carta giocata"),
        _cite("002", "Las cartas especiales", 125, "en su primer turno"),
    ),
    _option(
        "keep-tiles",
        "already_held_special",
        "keep-tiles",
        "RUL.SPECIAL.ALREADY_HELD",
        "A player who pairs influence tiles for a special card they already hold keeps the tiles.",
        "Only the Giochi Rari edition (001) says what happens to such a pair (the tiles "
        "are discarded); the others exchange a pair for the card, and with the card "
        "already in hand there is nothing to exchange.",
        _cite("001", "Le carte speciali", 221, "che già possiede"),
        _cite(
            "002",
            "Finalizar una visita y comenzar la próxima visita",
            102,
            "las devuelve al suministro",
        ),
    ),
    # Palaces and the crown palace ------------------------------------------------------
    Misreading(
        "forfeit-tile",
        "RUL.REWARD.NO_LEGAL_CITY",
        "An influence tile whose palace finds no empty city is not won: it goes back to the court.",
        "The texts give the tile and the palace in an empty city as one reward (the "
        "Italian rulebook (000): take the tile, then place a palace in an empty city; the "
        "French summary (003): on an unoccupied city); without a city, the whole reward "
        "seems lost.",
        (
            _cite("000", "Ritirarsi dalla visita", 56, "in una città vuota"),
            _cite("003", "La Manche :", 30, "non occupées"),
        ),
        apply=variants.forfeit_apply,
    ),
    _option(
        "crown-beside-own",
        "crown_beside_own_palace",
        "allowed",
        "RUL.CROWN.BESIDE_OWN_PALACE",
        "The crown palace may join a city holding the player's own palace even when the "
        "rule set forbids it.",
        "Every text lets the crown palace go into any city of the province, an occupied "
        "one included (the Italian rulebook (000), the French summary (003)); an engine "
        "written so ignores a table's choice to forbid it in the same city as one's own palace.",
        _cite("000", "Ritirarsi dalla visita", 60, "in una qualsiasi città"),
        _cite("003", "La Manche :", 32, "déjà occupées"),
    ),
    _option(
        "crown-never-beside-own",
        "crown_beside_own_palace",
        "forbidden",
        "RUL.CROWN.BESIDE_OWN_PALACE",
        "The crown palace never joins a city holding the player's own palace.",
        "The Spanish rulebook (002) places the crown palace 'beside the other palace', "
        "which reads as another player's; the Italian rulebook (000) speaks of a city "
        "already occupied by a palace, anyone's.",
        _cite("002", "B. Retirar", 65, "junto al otro palacio"),
        _cite("000", "Ritirarsi dalla visita", 60, "già occupata da un palazzo"),
    ),
    _option(
        "own-palace-beside-crown",
        "own_palace_beside_own_crown",
        "allowed",
        "RUL.CROWN.OWN_PALACE_BESIDE_CROWN",
        "A player's normal palace may join the city of their own crown palace.",
        "The margin of the Giochi Rari edition (001) lets 'a second palace' join the "
        "crown palace, anyone's; the Spanish rulebook (002) says another player.",
        _cite("001", "Ritirarsi", 121, "Un secondo palazzo"),
        _cite("002", "B. Retirar", 65, "otro jugador puede colocar"),
    ),
    Misreading(
        "crown-takes-bonus",
        "TM.REWARD.CROWN.NO_BONUS",
        "The crown palace placed on a fortress takes and scores its bonus tile, like a "
        "normal palace.",
        "A palace placed on a fortress takes its bonus tile, and the crown is set on 'one "
        "of the player's palaces' (the Italian rulebook (000)); the exception for the "
        "crown palace is a separate note.",
        (
            _cite("000", "Ritirarsi dalla visita", 57, "città fortezza"),
            _cite("000", "Ritirarsi dalla visita", 60, "uno dei propri palazzi"),
            _cite("000", "Ritirarsi dalla visita", 61, "non prende la tessera bonus"),
        ),
        apply=variants.crown_takes_bonus_apply,
    ),
    # Scoring -------------------------------------------------------------------------
    Misreading(
        "palace-point-per-palace",
        "TM.SCORE.PALACE.CURRENT",
        "The current province scores one point per palace placed in it in the withdrawal, "
        "not one point in all.",
        "The Giochi Rari edition (001) begins 'a player who places a palace in a province "
        "scores one point', read per palace; the correction (one point however many) "
        "follows, and the French summary (003) stresses it.",
        (
            _cite("001", "Punti influenza", 163, "riceve un punto influenza"),
            _cite("003", "Les Palais :", 41, "1 (et 1 seul) point"),
        ),
        apply=variants.point_per_palace_apply,
    ),
    Misreading(
        "chain-counts-cities",
        "TM.SCORE.PALACE.PROVINCES",
        "A palace chain scores one point per city it reaches outside the current province, "
        "not one per province.",
        "Palaces stand in cities and a chain runs from city to city, so a reader counts "
        "cities; the Italian (000) and Spanish (002) rulebooks warn against exactly that "
        "('not cities!').",
        (
            _cite("000", "I punti influenza", 77, "non città"),
            _cite("002", "Puntos de Influencia", 92, "no ciudad"),
        ),
        apply=variants.chain_cities_apply,
    ),
    Misreading(
        "province-before-bonus",
        "TM.SCORE.ORDER",
        "A province tile won is scored when the player withdraws, before the palaces are "
        "placed and their bonus tiles scored.",
        "The French summary (003) scores 'a bonus tile or a province tile' alike with no "
        "order, and the province tile is won at the withdrawal, before any palace is "
        "placed; the Italian rulebook (000) gives the order: bonus tiles, province tile, "
        "palaces.",
        (
            _cite(
                "003", "Calcul des Points d'influence :", 38, "un jeton bonus ou un jeton province"
            ),
            _cite("000", "I punti influenza", 66, "secondo l'ordine"),
        ),
        apply=variants.province_first_apply,
    ),
    # The deck ------------------------------------------------------------------------
    Misreading(
        "reshuffle-between-visits",
        "RUL.DECK.RESHUFFLE_TIMING",
        "A card owed during a withdrawal (a card bonus, the extra card) from an empty deck "
        "is not drawn; the discard pile is reshuffled only for the next display.",
        "The only reshuffle the texts describe is in drawing the next visit's display (the "
        "Italian rulebook (000): when the deck runs out, shuffle the discard pile); the "
        "card bonus and the extra card just take 'the top card of the deck'.",
        (
            _cite(
                "000",
                "Fine di una visita e inizio di quella successiva",
                86,
                "quando il mazzo finisce",
            ),
            _cite("000", "I punti influenza", 71, "la prima carta dal mazzo"),
        ),
        apply=variants.between_visits_apply,
    ),
    # The next visit and the end --------------------------------------------------------
    Misreading(
        "anticlockwise",
        "TM.VISIT.NEXT.START_PLAYER",
        "The next visit's start player is the player on the right of the last start "
        "player (anticlockwise).",
        "The Spanish rulebook (002) passes the start player 'to the next player on the "
        "left'; read facing the table from the other side, left is the other way round. "
        "The Italian rulebook (000) says clockwise.",
        (
            _cite(
                "002", "Finalizar una visita y comenzar la próxima visita", 104, "a la izquierda"
            ),
            _cite("000", "Fine di una visita e inizio di quella successiva", 81, "in senso orario"),
        ),
        apply=variants.anticlockwise_apply,
    ),
    Misreading(
        "white-is-a-colour",
        "RUL.END.WHITE_NOT_A_COLOUR",
        "At the end, white cards compete for the largest colour too, so they may score twice.",
        "The French summary (003) scores 'each card of the colour held in the greatest "
        "number' without saying which colours; white cards are cards of a colour too. The "
        "other texts score white cards on a line of their own.",
        (
            _cite("003", "Fin de Partie :", 53, "en plus grand nombre"),
            _cite("000", "FINE DEL GIOCO", 98, "per ogni carta bianca"),
        ),
        apply=variants.white_colour_apply,
    ),
    Misreading(
        "tied-colours-all-count",
        "RUL.END.LARGEST_COLOUR",
        "At the end, every colour tied for the largest scores, not one of them.",
        "The French summary (003) scores the colour held in the greatest number and says "
        "nothing of a tie between colours; the other texts count one colour only.",
        (
            _cite("003", "Fin de Partie :", 53, "en plus grand nombre"),
            _cite("000", "FINE DEL GIOCO", 99, "per un colore solo"),
        ),
        apply=variants.tied_colours_apply,
    ),
    Misreading(
        "no-last-exchange",
        "RUL.END.LAST_VISIT_EXCHANGE",
        "The game ends with the twelfth visit's last withdrawal, before pairs of influence "
        "tiles are exchanged for special cards (which would score in hand).",
        "The texts end the game when the twelfth province has been visited and go straight "
        "to the cards in hand (the Italian rulebook (000), the French summary (003)); the "
        "exchange belongs to the end of a visit, which reads as the start of the next.",
        (
            _cite("000", "FINE DEL GIOCO", 96, "dodicesima visita"),
            _cite("003", "Fin de Partie :", 49, "12ème province"),
            _cite(
                "001",
                "Terminare una visita ed iniziare la prossima",
                200,
                "Ogni giocatore che ha due identici",
            ),
        ),
        apply=variants.no_last_exchange_apply,
    ),
)

MISREADINGS: dict[str, Misreading] = {entry.name: entry for entry in _ENTRIES}
"""Every misreading by name, in the order of the rules."""


def misread_engine(name: str) -> Engine:
    """The engine of the misreading ``name``; raises KeyError naming the known ones."""
    entry = MISREADINGS.get(name)
    if entry is None:
        raise KeyError(f"no misreading {name!r} (known: {', '.join(MISREADINGS)})")
    return entry.engine


__all__ = ["MISREADINGS", "Citation", "Misreading", "misread_engine"]
