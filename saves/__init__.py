"""Game records on disk: :class:`GameRecord` (what a saved game is) and
:class:`SaveStore` (where they live, written atomically). Imports only rules."""

from .errors import SaveError
from .record import FORMAT_VERSION, GameRecord, SeatInfo
from .store import SaveEntry, SaveStore

__all__ = ["FORMAT_VERSION", "GameRecord", "SaveEntry", "SaveError", "SaveStore", "SeatInfo"]
