"""The store's schema, one numbered step at a time (``schema_version`` holds
the steps applied). A step is never changed once released: a change is a new
step. The tables (docs/store.md has each column):

- ``game_tables``: a table's record head (the game, options, seed, seats,
  status, result) and the server's hold on it (``if_gone``, open seats,
  started; NULL ``if_gone``: no server holds it), its lobby row and owner;
- ``moves``: one row per move, keyed by (table, ply): a move is one insert;
- ``seat_tokens``: the SHA-256 of each held seat's token (one token, one seat);
- ``name_claims``: a claimed name's secret (its SHA-256), when it was last
  used and when it expires; ``counters`` keeps how many there are (a trigger),
  so the cap on names costs one row read, not a count;
- ``standings``: the leaderboard rows per game, as the server counted them;
- ``room_servers`` (step 2): the servers of a card room on one PostgreSQL
  (issue 36): each one's address, how many tables it holds, and its
  heartbeat (the database's clock, so that machines' clocks do not matter);
- step 3: a correspondence table's terms and clocks in ``game_tables``
  (``per_move``, ``if_late``, ``deadlines``) and the seats a claimed name
  took (``named_seats``).
"""

from __future__ import annotations

from .engine import Step

_TABLES = [
    """CREATE TABLE game_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        preset TEXT,
        config TEXT NOT NULL,
        seed BIGINT NOT NULL,
        deck_order TEXT,
        seats TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        hints TEXT NOT NULL,
        if_gone TEXT,
        open_seats TEXT NOT NULL DEFAULT '[]',
        started BOOLEAN NOT NULL DEFAULT FALSE,
        lobby TEXT,
        owner TEXT,
        changed DOUBLE PRECISION NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX game_tables_status ON game_tables (status, id)",
    """CREATE TABLE moves (
        table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        played TEXT NOT NULL,
        PRIMARY KEY (table_id, ply)
    )""",
    """CREATE TABLE seat_tokens (
        table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        digest TEXT NOT NULL UNIQUE,
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE name_claims (
        name_key TEXT PRIMARY KEY,
        digest TEXT NOT NULL,
        claimed DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION NOT NULL,
        expires DOUBLE PRECISION
    )""",
    "CREATE INDEX name_claims_expires ON name_claims (expires) WHERE expires IS NOT NULL",
    "CREATE TABLE counters (counter TEXT PRIMARY KEY, amount BIGINT NOT NULL)",
    "INSERT INTO counters VALUES ('names', 0)",
    """CREATE TABLE standings (
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        place INTEGER NOT NULL,
        figures TEXT NOT NULL,
        PRIMARY KEY (game, name)
    )""",
    "CREATE INDEX standings_place ON standings (game, place)",
    "CREATE INDEX standings_name ON standings (name_key)",
]

STEPS = [
    Step(
        1,
        "tables, moves, seat tokens, names, standings",
        sqlite=[
            *_TABLES,
            """CREATE TRIGGER name_claims_in AFTER INSERT ON name_claims BEGIN
                UPDATE counters SET amount = amount + 1 WHERE counter = 'names'; END""",
            """CREATE TRIGGER name_claims_out AFTER DELETE ON name_claims BEGIN
                UPDATE counters SET amount = amount - 1 WHERE counter = 'names'; END""",
        ],
        postgresql=[
            *_TABLES,
            """CREATE FUNCTION name_claims_count() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE counters SET amount = amount + CASE WHEN TG_OP = 'INSERT'
                        THEN 1 ELSE -1 END WHERE counter = 'names';
                    RETURN NULL;
                END $$""",
            """CREATE TRIGGER name_claims_count AFTER INSERT OR DELETE ON name_claims
                FOR EACH ROW EXECUTE FUNCTION name_claims_count()""",
        ],
    ),
]

_SERVERS = """CREATE TABLE room_servers (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    tables INTEGER NOT NULL,
    beat DOUBLE PRECISION NOT NULL
)"""

STEPS.append(
    Step(
        2,
        "the servers of a room and their heartbeats; tables by owner",
        sqlite=[_SERVERS, "CREATE INDEX game_tables_owner ON game_tables (owner)"],
        postgresql=[_SERVERS, "CREATE INDEX game_tables_owner ON game_tables (owner)"],
    )
)


# correspondence tables (issue 39): the time for each move, what a late seat
# gets, the running clocks' deadlines (JSON: seat -> [turn, Unix end]), and
# the seats taken by a claimed name (JSON list: a rejoin by the name)
_TERMS = [
    "ALTER TABLE game_tables ADD COLUMN per_move INTEGER",
    "ALTER TABLE game_tables ADD COLUMN if_late TEXT",
    "ALTER TABLE game_tables ADD COLUMN deadlines TEXT",
    "ALTER TABLE game_tables ADD COLUMN named_seats TEXT",
]

STEPS.append(
    Step(3, "correspondence tables' terms and clocks; seats taken by claimed names", _TERMS, _TERMS)
)

VERSION = STEPS[-1].version
