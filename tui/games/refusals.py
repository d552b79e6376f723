"""Line mode's way to the refusal words, which moved to :mod:`tui.table.refusals`
(this module goes once ``tui/lines`` imports them from there)."""

from tui.table.refusals import refusal_text, sentences

__all__ = ["refusal_text", "sentences"]
