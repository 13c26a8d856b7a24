"""Writing a position down: state documents, the canonical text, digests and pictures.

- :func:`state_to_json` and :func:`state_from_json`: the ``tajmahal-state`` document of any
  position and back (``state_from_json(state_to_json(s), components) == s``);
- :func:`validate_state`: whether a state could arise in play;
- :func:`canonical_json` and :func:`state_digest`: the one exact text of a position and its
  digest; :func:`legal_digest`: the digest of a list of legal actions
  (:func:`legal_strings`: those of a position);
- :func:`position`: build a position by naming only what matters;
- :func:`position_text` and :func:`position_svg`: pictures of the public position;
  :func:`describe_action`: what an action does, in words; :func:`card_label`,
  :func:`bonus_label`, :func:`province_tile_label`, :func:`symbol_name` and
  :func:`count_of`: the words both pictures and the account use for each thing.
"""

from tajmahal.notation._digest import (
    action_strings,
    canonical_json,
    legal_digest,
    legal_strings,
    sha256_text,
    state_digest,
)
from tajmahal.notation._labels import (
    bonus_label,
    card_label,
    count_of,
    describe_action,
    province_tile_label,
    symbol_name,
)
from tajmahal.notation._positions import (
    DEFAULT_ORDER,
    all_cards_once,
    at_visit,
    card_places,
    check_position,
    first_colour,
    position,
    readable_setup,
    start_position,
    to_move,
    with_bonus,
    with_deck,
    with_deck_top,
    with_display,
    with_hand,
    with_hands,
    with_palaces,
    with_played,
    with_player,
)
from tajmahal.notation._reading import (
    position_from_json,
    read_position,
    state_from_json,
)
from tajmahal.notation._render import position_svg
from tajmahal.notation._text import position_text
from tajmahal.notation._validation import validate_state
from tajmahal.notation._writing import DRAW_REASONS, STATE_FORMAT, STATE_VERSION, state_to_json

__all__ = [
    "DEFAULT_ORDER",
    "DRAW_REASONS",
    "STATE_FORMAT",
    "STATE_VERSION",
    "action_strings",
    "all_cards_once",
    "at_visit",
    "bonus_label",
    "canonical_json",
    "card_label",
    "card_places",
    "check_position",
    "count_of",
    "describe_action",
    "first_colour",
    "legal_digest",
    "legal_strings",
    "position",
    "position_from_json",
    "position_svg",
    "position_text",
    "province_tile_label",
    "read_position",
    "readable_setup",
    "sha256_text",
    "start_position",
    "state_digest",
    "state_from_json",
    "state_to_json",
    "symbol_name",
    "to_move",
    "validate_state",
    "with_bonus",
    "with_deck",
    "with_deck_top",
    "with_display",
    "with_hand",
    "with_hands",
    "with_palaces",
    "with_played",
    "with_player",
]
