"""The parts a :class:`~net.table.Table` is built from, each owning one
concept: the move clocks, the computer players, the computer standing in for
an absent person, the record kept behind the moves, and what is in flight."""
