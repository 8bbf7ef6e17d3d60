-- V1: the projection of the event log (shared/BRIEF.md section 5).
-- Every table and index says which query it serves. Kafka is the source of truth: all of this can
-- be rebuilt by projecting the events topic from offset 0.

CREATE TABLE boards (
    board_id   smallint    PRIMARY KEY,          -- small integer used in every other row and index instead of the name
    name       text        NOT NULL UNIQUE,      -- the board name (Kafka key); UNIQUE serves lookups by name from the API
    origin     text        NOT NULL,             -- the C2SP checkpoint origin line of this board
    created    timestamptz NOT NULL              -- Kafka timestamp of the board's first statement
);
COMMENT ON TABLE boards IS 'One row per board (one board per election event). Serves GET /boards and name -> board_id.';

CREATE SEQUENCE board_ids AS smallint START 1;
COMMENT ON SEQUENCE board_ids IS 'Allocates board_id for new boards.';

CREATE TABLE board_state (
    board_id           smallint    PRIMARY KEY REFERENCES boards,
    size               bigint      NOT NULL,     -- number of records = next record ID
    root               bytea       NOT NULL,     -- RFC 6962 root hash at size
    last_created       timestamptz,              -- created of record size-1; the next record is created no earlier
    duplicates_dropped bigint      NOT NULL DEFAULT 0  -- statements dropped because their delivery ID was already on the board
);
COMMENT ON TABLE board_state IS 'The tree head of each board, updated in the same transaction as its records and tiles. Serves the checkpoint and size lookups.';

CREATE TABLE records (
    board_id        smallint    NOT NULL,
    id              bigint      NOT NULL,        -- 0,1,2.. per board: the leaf index in the Merkle tree
    created         timestamptz NOT NULL,        -- from the Kafka record timestamp, never decreasing per board (so a time window is an ID range)
    statement_ts    timestamptz NOT NULL,        -- statement time as the producer stated it
    kind            smallint    NOT NULL,        -- statement kind code (schemas StatementKinds)
    sender_key      bytea       NOT NULL,        -- sender's Ed25519 public key
    user_id         text,
    username        text,
    election_id     text,
    area_id         text,
    ballot_id       text,
    delivery_id     text        NOT NULL,        -- producer-chosen, unique per board
    statement       bytea       NOT NULL,        -- canonical statement bytes: the log entry whose leaf hash is in the tree
    schema_id       integer     NOT NULL,        -- writer schema of the original event (see writer_schemas)
    kafka_partition integer     NOT NULL,        -- where the event lives in the events topic
    kafka_offset    bigint      NOT NULL,
    PRIMARY KEY (board_id, id)                   -- serves record by ID, proofs' entries, keyset pages by ID
);
COMMENT ON TABLE records IS 'One row per projected statement. Canonical bytes are kept so the database can re-derive every leaf.';

CREATE UNIQUE INDEX records_delivery_id ON records (board_id, delivery_id);
COMMENT ON INDEX records_delivery_id IS 'Dedup by delivery ID: the projector looks up a batch''s delivery IDs here; also a backstop against doubles.';

CREATE TABLE tiles (
    board_id smallint NOT NULL,
    level    smallint NOT NULL,                  -- C2SP tlog-tiles level L (hashes of height 8L)
    idx      bigint   NOT NULL,                  -- tile index N at that level
    hashes   bytea    NOT NULL,                  -- up to 256 concatenated 32-byte hashes; a partial tile grows in place
    PRIMARY KEY (board_id, level, idx)           -- serves tile reads for proofs (one query per proof) and the tiles API
);
ALTER TABLE tiles ALTER COLUMN hashes SET STORAGE EXTERNAL;  -- hashes do not compress: skip the attempt
COMMENT ON TABLE tiles IS 'The Merkle tree as C2SP tlog-tiles: about 32 bytes per leaf.';

CREATE TABLE counters (
    board_id    smallint NOT NULL,
    kind        smallint NOT NULL,               -- -1 = all kinds
    election_id text     NOT NULL,               -- '' = all elections
    n           bigint   NOT NULL,
    PRIMARY KEY (board_id, kind, election_id)    -- serves counts: total, by kind, by election and kind, in constant time
);
COMMENT ON TABLE counters IS 'Per-board counts maintained in the same transaction as the records.';

CREATE TABLE partition_offsets (
    topic       text    NOT NULL,
    partition   integer NOT NULL,
    next_offset bigint  NOT NULL,                -- the next Kafka offset to project: the truth about what is projected
    epoch       bigint  NOT NULL,                -- bumped by each task that takes the partition; a batch must carry the current epoch
    PRIMARY KEY (topic, partition)               -- serves the compare-and-set of every batch
);
COMMENT ON TABLE partition_offsets IS 'Exactly-once: each batch moves next_offset by compare-and-set on (epoch, next_offset), in the batch transaction.';

CREATE TABLE writer_schemas (
    schema_id   integer PRIMARY KEY,             -- the wire-format schema ID
    fingerprint bytea   NOT NULL,                -- SHA-256 of the schema's parsing canonical form
    schema_json text    NOT NULL                 -- the writer schema, so the database can decode its own bytes forever
);
COMMENT ON TABLE writer_schemas IS 'Every writer schema seen in projected events.';

CREATE TABLE checkpoints (
    board_id  smallint    NOT NULL,
    size      bigint      NOT NULL,
    root      bytea       NOT NULL,
    note      text        NOT NULL,              -- the C2SP signed note (tlog-checkpoint body + Ed25519 signature)
    PRIMARY KEY (board_id, size)                 -- serves the latest checkpoint (ORDER BY size DESC LIMIT 1) and checkpoint history
);
COMMENT ON TABLE checkpoints IS 'Signed checkpoint history, one per board and size.';
