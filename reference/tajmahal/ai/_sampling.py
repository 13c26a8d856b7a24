"""Sampling a full state consistent with what one seat knows (determinization).

Information-set search (OpenSpiel's ISMCTS, determinized MCTS) needs complete states
that the seat to move cannot tell apart from the real one. Everything public is copied
from the seat's view and knowledge; only what is hidden is drawn:

* cards known to be in a hand (taken from the face-up display, special cards) stay there
  until played (TM.WITHDRAW.PICK_TWO, TM.SPECIAL.TAKE_FROM_HOLDER); played, displayed and
  discarded cards are face up (TM.PLAY.HANDS_SECRET hides only hands and the deck);
* every other card whose place is unknown went last through one shuffle (the setup or
  a reshuffle, :class:`~tajmahal.ai.Knowledge`). The unseen cards of each pool
  are shuffled and dealt to the face-down slots of that pool in the other hands; what is
  left of the latest pool becomes the deck, in random order (a reshuffle happens only on
  an empty deck, so older pools hold no deck cards).

Every arrangement that fits these constraints is equally likely (the opponents' choices
are not modelled), and the sampled state passes
:func:`tajmahal.notation.validate_state`.
"""

from __future__ import annotations

import random

from tajmahal.ai._observation import Knowledge
from tajmahal.model import CardId, GameConfig, GameState, PlayerState, RuleSet, View


def sample_consistent_state(
    seen: View,
    knowledge: Knowledge,
    rng: random.Random,
    *,
    config: GameConfig | None = None,
) -> GameState:
    """A full state that ``seen.viewer`` cannot tell from the real one, drawn with ``rng``.

    ``knowledge`` is the viewer's accumulated :class:`Knowledge` at the same moment as
    ``seen``. ``config`` gives the player count, rule set and components (default: the
    embedded components, the default rules, and the view's player count).
    """
    if knowledge.seat != seen.viewer:
        raise ValueError(f"knowledge of seat {knowledge.seat} used with a view of {seen.viewer}")
    if config is None:
        from tajmahal.model import default_components

        config = GameConfig(len(seen.players), RuleSet(), default_components())
    components = config.components
    players = len(seen.players)
    visible: set[CardId] = set(seen.display) | set(seen.discard)
    for player in seen.players:
        visible.update(player.played)
    for held in knowledge.known:
        visible.update(held)
    unseen: list[list[CardId]] = [[] for _ in range(knowledge.pools)]
    for card in sorted(components.cards):
        if card not in visible:
            unseen[knowledge.pool_of.get(card, 0)].append(card)
    hands: list[list[CardId]] = [list(cards) for cards in knowledge.known]
    deck: list[CardId] = []
    latest = knowledge.pools - 1
    for pool, cards in enumerate(unseen):
        rng.shuffle(cards)
        wanted = sum(
            counts[pool] if pool < len(counts) else 0
            for seat, counts in enumerate(knowledge.hidden)
            if seat != seen.viewer
        )
        expected = wanted + (seen.deck_size if pool == latest else 0)
        if len(cards) != expected:
            raise ValueError(
                f"knowledge does not match the view: pool {pool} has {len(cards)} unseen "
                f"cards for {expected} places"
            )
        for seat, counts in enumerate(knowledge.hidden):
            if seat == seen.viewer or pool >= len(counts):
                continue
            hands[seat].extend(cards[: counts[pool]])
            del cards[: counts[pool]]
        if pool == latest:
            deck = cards
    for seat in range(players):
        if len(hands[seat]) != seen.players[seat].hand_size:
            raise ValueError(
                f"knowledge does not match the view: seat {seat} would hold "
                f"{len(hands[seat])} cards, the view says {seen.players[seat].hand_size}"
            )
    return GameState(
        config=config,
        visit=seen.visit,
        step=seen.step,
        to_move=seen.to_move,
        start_player=seen.start_player,
        players=tuple(
            PlayerState(
                hand=tuple(sorted(hands[seat])),
                played=player.played,
                colour=player.colour,
                withdrawn=player.withdrawn,
                withdrawn_counts=knowledge.withdrawn_counts[seat],
                influence=player.influence,
                province_tiles=player.province_tiles,
                goods_tiles=player.goods_tiles,
                score=player.score,
            )
            for seat, player in enumerate(seen.players)
        ),
        deck=tuple(deck),
        discard=seen.discard,
        display=seen.display,
        specials_on_table=seen.specials_on_table,
        court_influence=seen.court_influence,
        crown_in_court=seen.crown_in_court,
        court_province_tile=seen.court_province_tile,
        province_order=seen.province_order,
        bonus_on_board=seen.bonus_on_board,
        palaces=seen.palaces,
        withdrawal=knowledge.withdrawal,
        draw=knowledge.draw,
    )
