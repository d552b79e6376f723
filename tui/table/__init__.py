"""The table screen every game's screen is (:class:`tui.table.screen.TableScreen`),
built from parts it owns, not from mixins.

A game's screen subclasses ``TableScreen``, composes its widgets and
implements ``show_view``; it plays with ``submit``. The screen never knows
whether the table is local or across the network: it only has a
:class:`net.client.TableClient`, and every change arrives as an
:class:`net.client.Update` (posted as a message, so a transport may call
from any thread). Whether a person may play there at all is the client's to
say (``interactive``: False for a replay); a screen asks ``can_act()``.

The parts, plain objects that see the screen through a narrow Protocol
each (:mod:`tui.table.side`) and never each other's attributes:

- ``clocks`` (:class:`tui.table.clocks.Clocks`): move clocks and their countdown;
- ``rounds`` (:class:`tui.table.rounds.Rounds`): the log's round marks, round
  summaries, the score history;
- ``link`` (:class:`tui.table.link.Link`): a table elsewhere (the link, new
  names, who is away, the chat);
- ``ending`` (:class:`tui.table.ending.Ending`): the menu, hints, the result,
  rematch, analysis, leaving; it is given the link and the rounds it asks;
- ``replay_keys`` (:class:`tui.table.replay_keys.ReplayKeys`): a saved game
  played back, held only for a replay's client;
- ``keyboard`` (:class:`tui.table.hot_seat.HotSeat`): who has the keyboard at
  a hot seat.

Helpers: ``keys`` (the keys offered), ``paused`` (a dialog with the clocks
stopped), ``turn_words`` (the status line's default), ``refusals`` (why a
move was refused), ``coach`` (what a screen asks of a lesson's guide).
"""
