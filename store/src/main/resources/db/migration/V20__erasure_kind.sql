-- V20 (issue 46, docs/personal-data.md "Erasure"): the kind PERSONAL_DATA_ERASED (code 19), the
-- account electoral-log erase publishes of each erasure, named for analysts like every other kind.
CREATE OR REPLACE VIEW statement_kinds (kind, name) AS
VALUES (0::smallint, 'UNKNOWN'), (1::smallint, 'CAST_VOTE'), (2::smallint, 'CAST_VOTE_ERROR'),
       (3::smallint, 'IDP_USER_EVENT'), (4::smallint, 'ELECTION_PUBLISHED'), (5::smallint, 'VOTING_PERIOD_OPENED'),
       (6::smallint, 'VOTING_PERIOD_PAUSED'), (7::smallint, 'VOTING_PERIOD_CLOSED'), (8::smallint, 'KEY_GENERATION'),
       (9::smallint, 'KEY_INSERTION_START'), (10::smallint, 'KEY_INSERTION_CEREMONY'), (11::smallint, 'TALLY_OPENED'),
       (12::smallint, 'TALLY_CLOSED'), (13::smallint, 'COMMUNICATIONS_SENT'), (14::smallint, 'VOTER_PUBLIC_KEY'),
       (15::smallint, 'ADMIN_PUBLIC_KEY'), (16::smallint, 'LOG_CHECKPOINT'), (17::smallint, 'LOG_CONTINUATION'),
       (18::smallint, 'BOARD_SEALED'), (19::smallint, 'PERSONAL_DATA_ERASED');
COMMENT ON VIEW statement_kinds IS 'Kind codes of records.kind and counters.kind with their names, for the analyst views (schemas StatementKinds; append-only; V17 added BOARD_SEALED, V20 PERSONAL_DATA_ERASED; AnalystViewsTest compares it with StatementKinds.NAMES).';
