"""Each ruling's question in a player's words: the title of its page and its links.

A ruling's ``question`` in ``rulings/`` is written for the record (what the texts say,
then the question); a player looks for the short question asked at the table. A ruling
missing here falls back to the last question of its ``question`` text, and the tests of
the documentation tools require one here for every ruling.
"""

from __future__ import annotations

import re
from typing import Any

from docpages.common import plain

RULING_QUESTIONS = {
    "RUL.COMPONENTS.BOARD": "Which board does the reference use?",
    "RUL.COMPONENTS.BONUS_MIX": "How many bonus tiles of each kind are there?",
    "RUL.COMPONENTS.FORTRESSES": "Which cities are fortresses?",
    "RUL.COMPONENTS.INFLUENCE_TILES": "How many influence tiles of each kind are there?",
    "RUL.COMPONENTS.PALACES_UNLIMITED": "Can a player run out of palaces?",
    "RUL.COMPONENTS.PROVINCE_TILES": "Which goods does each province tile show?",
    "RUL.COMPONENTS.SPECIAL_EARNERS": "Which influence tiles earn which special card?",
    "RUL.COMPONENTS.TWENTY_FIRST_CARD": "What is on the 21st card of each colour?",
    "RUL.COMPONENTS.TWO_CHARACTER_CARDS": "Which two symbols do the two-character cards show?",
    "RUL.COMPONENTS.WHITE_CARDS": "Which symbols do the white cards show?",
    "RUL.CROWN.BESIDE_OWN_PALACE": "Can my crown palace go into a city with my own palace?",
    "RUL.CROWN.COUNTS_AS_PALACE": "Does the crown palace count as a palace for scoring?",
    "RUL.CROWN.OWN_PALACE_BESIDE_CROWN": "Can I put a normal palace into the city of my own "
    "crown palace?",
    "RUL.CROWN.PLACEMENT_ORDER": "In which order do I place several palaces won at once?",
    "RUL.DECK.EXHAUSTED": "What if the deck and the discard pile are both empty?",
    "RUL.DECK.RESHUFFLE_TIMING": "When is the discard pile shuffled into a new deck?",
    "RUL.DISPLAY.SHORT": "What do players take from a display that is short of cards?",
    "RUL.END.LARGEST_COLOUR": "Which colour counts at the end with no coloured card, or two tied?",
    "RUL.END.LAST_VISIT_EXCHANGE": "Are special cards still exchanged after the last visit?",
    "RUL.END.TIED_WINNERS": "Who wins when the top scores are tied?",
    "RUL.END.WHITE_NOT_A_COLOUR": "Can white be the colour I hold most of at the end?",
    "RUL.HAND.NO_LIMIT": "Is there a hand limit?",
    "RUL.MAJORITY.REMAINING_PLAYERS": "Do the cards of players who already withdrew count?",
    "RUL.MAJORITY.TIE_BREAKS_ON_WITHDRAWAL": "Two players tie for a symbol: who wins it, and when?",
    "RUL.MAJORITY.ZERO_SYMBOLS": "Can I win a force with none of its symbols?",
    "RUL.PLAY.PUBLIC_INFORMATION": "What may every player know about the others?",
    "RUL.PLAY.WHITE_AND_SPECIAL": "Can I play a white card and a special card together?",
    "RUL.REWARD.NO_LEGAL_CITY": "What if no city is left for a palace I won?",
    "RUL.REWARD.TWO_PALACES_PER_CITY": "How many palaces can one city hold?",
    "RUL.REWARD.UNCLAIMED_BONUS": "What becomes of a bonus tile no normal palace reaches?",
    "RUL.SCORE.BONUS_ORDER": "In which order is a withdrawal scored?",
    "RUL.SCORE.GOODS_COUNT": "How are goods counted when a tile is scored?",
    "RUL.SETUP.START_PLAYER": "How is the start player chosen?",
    "RUL.SPECIAL.ALREADY_HELD": "What if I pair tiles for a special card I already hold?",
    "RUL.SPECIAL.CHANGES_HANDS": "When does a special card change hands?",
    "RUL.SPECIAL.COLOUR_CHANGE_FIRST_TURN": "Which colour do I follow after a colour change "
    "on my first turn?",
    "RUL.SPECIAL.ONE_PER_TURN": "One special card per turn, or per visit?",
    "RUL.SPECIAL.PAIR_TILES_TO_SUPPLY": "Where do tiles go when they are returned for a "
    "special card?",
    "RUL.TEXT.BONUS_EXAMPLE_SUM": "Is the sum in the goods example of the Giochi Rari "
    "edition right?",
    "RUL.TEXT.FORTRESS_COLOUR": "Does the colour of a fortress matter?",
    "RUL.TEXT.NEXT_PLAYER_BONUS": "Who takes a bonus tile under a crown palace?",
    "RUL.TEXT.OMISSIONS": "Does a rule count if only one rulebook states it?",
    "RUL.TEXT.ROUND_AND_TURN": 'Do the rulebooks mean a turn or a visit when they say "round"?',
    "RUL.TEXT.SPECIAL_CARD_NAME": 'Is an "influence card" a special card?',
    "RUL.TEXT.WITHDRAWAL_EXAMPLE_ORDER": "Who withdrew first in the withdrawal example, "
    "Chris or Doris?",
    "RUL.TEXT.WITHDRAW_WIN_NOTHING": "May I withdraw although I would win nothing?",
    "RUL.TURN.NO_LEGAL_PLAY": "What if I cannot play any card?",
    "RUL.VISIT.LAST_VISIT_DISPLAY": "Is there a display for the last visit?",
    "RUL.VISIT.UNWON_COURT": "What happens to an influence tile or the crown nobody won?",
    "RUL.VISIT.UNWON_PROVINCE_TILE": "What happens to a province tile nobody won?",
    "RUL.WITHDRAW.DISPLAY_PICKS": "What do I take from the display when I withdraw?",
    "RUL.WITHDRAW.FIRST_ROUND": 'What does "withdrawing in the first round" mean?',
    "RUL.WITHDRAW.WITHOUT_PLAYING": "Do I get anything for withdrawing without playing?",
}
"""The question a player asks, per ruling id."""


def ruling_question(ruling: dict[str, Any]) -> str:
    """The ruling's question in a player's words (see the module docstring)."""
    if ruling["id"] in RULING_QUESTIONS:
        return RULING_QUESTIONS[ruling["id"]]
    questions = re.findall(r"[^.?!]*\?", plain(ruling["question"]))
    return questions[-1].strip() if questions else plain(ruling["title"])


def ruling_phrase(ruling: dict[str, Any]) -> str:
    """A link to the ruling, its question as the text."""
    text = ruling_question(ruling).replace("<", "\\<").replace("`", "'")
    return f"{{ruling}}`{text} <{ruling['id']}>`"


def question_link(ruling_id: str, text: str | None = None) -> str:
    """A link to a ruling by its id alone: its question, or ``text``, as the words."""
    words = text or RULING_QUESTIONS.get(ruling_id, ruling_id)
    return f"{{ruling}}`{words} <{ruling_id}>`"
