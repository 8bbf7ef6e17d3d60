package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The names a canonical statement spells out in every entry (record names, field names, enum
 * symbols, the committed form's paths), each with a code, so that the projection can store a name as
 * one byte ({@link StoredStatement}, docs/decisions.md 123). Append-only: a code once given names
 * the same name forever, because stored rows hold codes. A name not listed is stored spelled out, so
 * a new schema field costs bytes, never correctness; {@code StatementNamesTest} (schemas) fails
 * when a name of the current schema is missing, so that it gets a code in the same change.
 */
public final class StatementNames {
    /** The kinds StatementKinds had when the names were first coded: their names keep codes 5 to 24. */
    private static final int FIRST_KINDS = 20;

    /** Code i + 1 names NAMES.get(i) (code 0 is "spelled out"); at most 127 names keep codes one byte. */
    static final List<String> NAMES = concat(
            List.of(
                    // the schema registry's Statement, version 5, as walked in declaration order
                    "Statement", "board", "delivery_id", "kind"),
            // the kind symbols, as StatementKinds lists them (codes 5 to 24); a kind added later is
            // appended at the end of this list, since a stored code never changes meaning
            StatementKinds.NAMES.subList(0, FIRST_KINDS),
            List.of(
                    "statement_timestamp",
                    "sender_name",
                    "sender_public_key",
                    "user_id",
                    "username",
                    "election_id",
                    "area_id",
                    "ballot_id",
                    "body",
                    "CastVote",
                    "pseudonym_hash",
                    "cast_vote_hash",
                    "ip",
                    "country",
                    "CastVoteError",
                    "error",
                    "IdentityProviderUserEvent",
                    "event_type",
                    "client_id",
                    "ElectionPublished",
                    "election_ids",
                    "ballot_publication_id",
                    "VotingPeriodChange",
                    "scope",
                    "ELECTION",
                    "ELECTION_EVENT",
                    "election_event_id",
                    "KeyCeremony",
                    "ceremony_id",
                    "trustee_name",
                    "public_key",
                    "Tally",
                    "tally_session_id",
                    "CommunicationsSent",
                    "channel",
                    "template",
                    "recipients",
                    "PublicKeyStatement",
                    "subject",
                    "LogCheckpoint",
                    "size",
                    "root",
                    "reason",
                    "PERIODIC",
                    "VOTING_OPENED",
                    "VOTING_CLOSED",
                    "TALLY_COMPLETED",
                    "origin",
                    "LogContinuation",
                    "previous_board",
                    "previous_size",
                    "previous_root",
                    "artifact",
                    "format_version",
                    "commitments",
                    // the committed form's map keys (PersonalCommitment.PATHS) not named above
                    "body.country",
                    "body.error",
                    "body.ip"));

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        return Stream.of(a, b, c).flatMap(List::stream).toList();
    }

    private static final Map<String, Integer> CODES = new HashMap<>();
    private static final byte[][] UTF8 = new byte[NAMES.size()][];
    /** The codes of the names of each UTF-8 length (the few a length has are compared byte by byte). */
    private static final int[][] BY_LENGTH;

    static {
        if (NAMES.size() > 127) {
            throw new IllegalStateException("more than 127 statement names: codes would take two bytes");
        }
        for (int i = 0; i < NAMES.size(); i++) {
            if (CODES.put(NAMES.get(i), i + 1) != null) {
                throw new IllegalStateException("statement name listed twice: " + NAMES.get(i));
            }
            UTF8[i] = NAMES.get(i).getBytes(StandardCharsets.UTF_8);
        }
        int longest = 0;
        for (byte[] name : UTF8) {
            longest = Math.max(longest, name.length);
        }
        BY_LENGTH = new int[longest + 1][];
        for (int len = 0; len <= longest; len++) {
            int length = len;
            BY_LENGTH[len] = IntStream.range(0, UTF8.length)
                    .filter(i -> UTF8[i].length == length)
                    .map(i -> i + 1)
                    .toArray();
        }
    }

    private StatementNames() {}

    /**
     * The code (1 and up) of the name whose UTF-8 bytes are {@code in[from, from + len)}, or 0 when it
     * has none and is stored spelled out; compared as bytes, without making a String (the projector
     * codes some twenty names a record).
     */
    static int code(byte[] in, int from, int len) {
        if (len >= BY_LENGTH.length) {
            return 0;
        }
        for (int code : BY_LENGTH[len]) {
            if (Arrays.equals(in, from, from + len, UTF8[code - 1], 0, len)) {
                return code;
            }
        }
        return 0;
    }

    /** The UTF-8 bytes of the name with this code (1 and up); IllegalArgumentException for any other code. */
    static byte[] utf8(long code) {
        if (code < 1 || code > UTF8.length) {
            throw new IllegalArgumentException("no statement name has code " + code);
        }
        return UTF8[(int) code - 1];
    }

    /** Whether the name has a code. */
    public static boolean coded(String name) {
        return CODES.containsKey(name);
    }
}
