"""A human seat at the terminal: ``tajmahal play --agents human,greedy,random``.

The game is played at a :class:`Table`: every step is told as it is played (the account
``tajmahal replay`` prints, step numbers included), and when a human seat is to act it is
shown what its player may see (:func:`tajmahal.notation.position_text` with the seat as
viewer: the table, every seat's public holdings, its own hand and no other) and its
legal actions, numbered. It answers with a number or an action (``play red-02
white-09``, ``withdraw``, ``palace G1``, ``take green-10 red-02``); an action the rules
refuse is explained by the rule the engine names (the clause or ruling, and its
statement) and the seat is asked again. ``?`` lists the actions again, ``board`` shows
the position again. The end of standard input or Ctrl-C abandons the game with one line
(:class:`GameAbandoned`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from tajmahal.engine import apply
from tajmahal.errors import TajMahalError
from tajmahal.model import Action, Event, GameState, parse_action
from tajmahal.notation import describe_action, position_text
from tajmahal.records import ReplayedStep, opening_lines, step_account

HUMAN = "human"
"""The player type of a human seat in ``--agents``."""

HELP = "a number, an action as listed, ? to list the actions again, board to see the position"
"""What a human seat may answer."""


class GameAbandoned(TajMahalError):
    """A human seat stopped answering: standard input ended, or Ctrl-C was pressed."""

    def __init__(self, message: str, *, interrupted: bool) -> None:
        super().__init__(message)
        self.interrupted = interrupted
        """True for Ctrl-C (exit code 130), False for the end of input (exit code 2)."""


class Table:
    """The terminal a game with human seats is played at.

    ``statement`` gives the statement of a clause or ruling by its id (None when it is
    unknown), to explain a refusal; ``account`` says whether every step is told.
    """

    def __init__(
        self,
        names: Sequence[str],
        statement: Callable[[str], str | None],
        read: TextIO,
        write: TextIO,
        *,
        account: bool = True,
    ) -> None:
        self.names = tuple(names)
        self.statement = statement
        self.read = read
        self.write = write
        self.account = account
        self.steps = 0
        """How many steps have been played."""
        self._started = False

    def say(self, *lines: str) -> None:
        """Print ``lines`` at once (a prompt follows them)."""
        for line in lines:
            print(line, file=self.write)
        self.write.flush()

    def _start(self, state: GameState) -> None:
        if not self._started:
            self._started = True
            if self.account:
                self.say(*opening_lines(state, self.names))

    def watch(
        self, before: GameState, action: Action, after: GameState, events: tuple[Event, ...]
    ) -> None:
        """Tell one step as it is played (called by :func:`tajmahal.agents.play_match`)."""
        self._start(before)
        self.steps += 1
        if not self.account:
            return
        step = ReplayedStep(self.steps - 1, before, action, after, events)
        self.say(*step_account(step, self.names))

    def seat(self, seat: int) -> HumanSeat:
        """The player for ``seat``, asking at this table."""
        return HumanSeat(self, seat)


def typed_action(text: str) -> str:
    """An answer as an action string: words separated by single spaces, and the cards
    of a ``take`` in the order the action string lists them."""
    words = text.split()
    if words[:1] == ["take"]:
        words = ["take", *sorted(words[1:])]
    return " ".join(words)


class HumanSeat:
    """A seat whose decisions are typed at the terminal (see the module docstring)."""

    name = HUMAN

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat

    def _ask(self, prompt: str) -> str:
        self.table.write.write(prompt)
        self.table.write.flush()
        step = self.table.steps + 1
        try:
            line = self.table.read.readline()
        except KeyboardInterrupt:
            self.table.write.write("\n")
            raise GameAbandoned(
                f"interrupted while P{self.seat} chose step {step}; the game is abandoned",
                interrupted=True,
            ) from None
        if line and not self.table.read.isatty():
            self.table.write.write(line if line.endswith("\n") else line + "\n")  # echoed
        if not line:
            self.table.write.write("\n")
            raise GameAbandoned(
                f"standard input ended while P{self.seat} chose step {step}; the game is abandoned",
                interrupted=False,
            )
        return line.strip()

    def _listing(self, state: GameState, legal: Sequence[Action]) -> list[str]:
        width = max(len(str(action)) for action in legal)
        lines = [f"Your actions (P{self.seat}), step {self.table.steps + 1}:"]
        for number, action in enumerate(legal, start=1):
            detail = describe_action(state, action)
            lines.append(f"{number:>4})  {action!s:<{width}}  {detail}".rstrip())
        return lines

    def refusal(self, state: GameState, legal: Sequence[Action], answer: str) -> list[str]:
        """Why ``answer`` is not one of the actions: not a number in range, not an
        action, or an action the rules refuse (with the rule and its statement)."""
        if answer.isdigit():
            return [f"no action {answer}: give a number from 1 to {len(legal)}"]
        try:
            action = parse_action(typed_action(answer))
        except TajMahalError as error:
            return [f"not an action: {error}", f"answer with {HELP}"]
        try:
            apply(state, action)
        except TajMahalError as error:
            clause = getattr(error, "clause", None)
            lines = [f"refused: {error}"]
            if clause:
                statement = self.table.statement(clause)
                lines.append(f"the rule, {clause}: {statement or '(not in the registry)'}")
            return lines
        return [f"{action} is not one of the actions listed"]  # legal, yet not offered

    def choose(self, state: GameState, legal: tuple[Action, ...]) -> Action:
        """Show the seat's view and its actions, and read its choice until it is legal."""
        self.table._start(state)
        self.table.say("", position_text(state, self.table.names, viewer=self.seat).rstrip())
        self.table.say("", *self._listing(state, legal))
        by_string = {str(action): action for action in legal}
        while True:
            answer = self._ask(f"P{self.seat}, your choice (1-{len(legal)}, or ? for help): ")
            if not answer:
                continue
            if answer in ("?", "help"):
                self.table.say(*self._listing(state, legal), f"Answer with {HELP}.")
                continue
            if answer in ("board", "position"):
                self.table.say(position_text(state, self.table.names, viewer=self.seat).rstrip())
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            chosen = by_string.get(typed_action(answer))
            if chosen is not None:
                return chosen
            self.table.say(*self.refusal(state, legal, answer))
