-- V4: the ballot locator (issue 6): a voter's own cast votes in an election, newest first.

CREATE INDEX records_ballot_locator ON records (board_id, user_id, election_id, id) WHERE kind = 1;
COMMENT ON INDEX records_ballot_locator IS 'Ballot locator: GET /boards/{board}/ballots?user_id=&election_id= pages a voter''s cast votes (kind 1 = CAST_VOTE) by ID; partial, so only cast votes pay for it.';
