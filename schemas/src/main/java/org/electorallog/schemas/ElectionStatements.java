package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Consumer;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.CastVoteError;
import org.electorallog.schemas.avro.CheckpointReason;
import org.electorallog.schemas.avro.CommunicationsSent;
import org.electorallog.schemas.avro.ElectionPublished;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.KeyCeremony;
import org.electorallog.schemas.avro.LogCheckpoint;
import org.electorallog.schemas.avro.LogContinuation;
import org.electorallog.schemas.avro.PeriodScope;
import org.electorallog.schemas.avro.PublicKeyStatement;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.schemas.avro.Tally;
import org.electorallog.schemas.avro.VotingPeriodChange;

/**
 * The one generator of made-up statements, for the demo, load tests, the projector's warm-up and
 * tests, deterministic for a seed. Realistic election statements (issue 8), shaped like the reference load test
 * (shared/reference/000): per voter 4 identity-provider events and 1 cast vote of about 702
 * canonical bytes, 5 elections, 1,000 areas, random UUID user and delivery IDs, random usernames,
 * 64-hex-digit ballot IDs, statement times about 1,000 per second; {@link #interleaved} gives them in
 * the reference's order, 20,000 voters interleaved.
 *
 * <p>The reference's Keycloak events were 330-450 bytes. Our canonical bytes name every field
 * (schemas README), so the smallest Keycloak event with the reference's fields is about 400 bytes:
 * ours are 400-450, the top of the reference's range. Sizes are canonical statement bytes, the
 * leaf data that the records table stores.
 *
 * <p>Also: {@link #election} (voters one after another, for small elections), {@link #vote} (one cast
 * vote) and {@link #everyKind} (one statement of every kind, for codec and producer tests).
 */
public final class ElectionStatements {
    private final Random random;
    private final String board;

    public ElectionStatements(String board, long seed) {
        this.board = board;
        this.random = new Random(seed);
    }

    /** The 5 statements of voter {@code v}. */
    public Statement[] voter(long v) {
        Statement[] out = new Statement[5];
        String user = String.format(
                "%08x-%04x-4%03x-a%03x-%012x",
                random.nextInt(),
                random.nextInt(0xffff),
                random.nextInt(0xfff),
                random.nextInt(0xfff),
                random.nextLong() & 0xffffffffffffL);
        String username = "voter" + Long.toString(random.nextLong() & 0xffffffffL, 36) + "@example.org";
        long t = EPOCH_MILLIS + v * 5;
        for (int i = 0; i < 4; i++) {
            String agent = "voting-portal/"
                    + Long.toHexString(random.nextLong() | Long.MIN_VALUE).substring(0, random.nextInt(12) + 4);
            out[i] = Statement.newBuilder()
                    .setBoard(board)
                    .setDeliveryId(uuid())
                    .setKind(StatementKind.IDP_USER_EVENT)
                    .setStatementTimestamp(t + i)
                    .setSenderName("keycloak-event-listener")
                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                    .setUserId(user)
                    .setUsername(username)
                    .setAreaId("area-" + random.nextInt(1000))
                    .setBody(IdentityProviderUserEvent.newBuilder()
                            .setEventType(i == 3 ? "LOGOUT" : "LOGIN")
                            .setIp("10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256))
                            .setClientId(agent)
                            .build())
                    .build();
        }
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        byte[] receipt = new byte[124];
        random.nextBytes(receipt);
        String election = "election-" + (v % 5);
        out[4] = Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(uuid())
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(t + 4)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId(user)
                .setUsername(username)
                .setElectionId(election)
                .setAreaId("area-" + random.nextInt(1000))
                .setBallotId(HexFormat.of().formatHex(hash))
                .setBody(CastVote.newBuilder()
                        .setElectionId(election)
                        .setPseudonymHash(ByteBuffer.wrap(hash))
                        .setCastVoteHash(ByteBuffer.wrap(hash))
                        .setIp("10.0.0.1")
                        .setCountry("ES")
                        .build())
                .setArtifact(ByteBuffer.wrap(receipt))
                .build();
        return out;
    }

    /** Statement time of the first statement: 2026-01-01T00:00:00Z. */
    public static final long EPOCH_MILLIS = 1_767_225_600_000L;

    /** Voters whose statements are interleaved, as in the reference load test. */
    public static final int INTERLEAVED_VOTERS = 20_000;

    /**
     * The statements of voters [first, end) in the reference's order: groups of
     * {@value #INTERLEAVED_VOTERS} voters, and within a group the first statement of every voter,
     * then the second of every voter, and so on, so that a voter's five records are about 20,000
     * records apart. Calls {@code sink} with each statement in order.
     */
    public void interleaved(long first, long end, Consumer<Statement> sink) {
        for (long g = first; g < end; g += INTERLEAVED_VOTERS) {
            int n = (int) Math.min(INTERLEAVED_VOTERS, end - g);
            Statement[][] group = new Statement[n][];
            for (int i = 0; i < n; i++) {
                group[i] = voter(g + i);
            }
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < n; i++) {
                    // statement times follow the stream, 1,000 a second, as the reference's did
                    long position = g * 5 + (long) round * n + i;
                    Statement s = group[i][round];
                    s.setStatementTimestamp(EPOCH_MILLIS + position);
                    sink.accept(s);
                }
            }
        }
    }

    /** The statements of voters [0, voters), voter after voter, each voter's four logins then the vote. */
    public List<Statement> election(int voters) {
        List<Statement> out = new ArrayList<>(voters * 5);
        for (int v = 0; v < voters; v++) {
            out.addAll(List.of(voter(v)));
        }
        return out;
    }

    /** One cast vote of {@code user} at {@code timeMillis}, with a fresh random ballot. */
    public Statement vote(String user, long timeMillis) {
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        return Statement.newBuilder()
                .setBoard(board)
                .setDeliveryId(uuid())
                .setKind(StatementKind.CAST_VOTE)
                .setStatementTimestamp(timeMillis)
                .setSenderName("voting-service")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setUserId(user)
                .setUsername(user + "@example.org")
                .setElectionId("election-0")
                .setAreaId("area-1")
                .setBallotId(HexFormat.of().formatHex(hash))
                .setBody(CastVote.newBuilder()
                        .setElectionId("election-0")
                        .setPseudonymHash(ByteBuffer.wrap(hash))
                        .setCastVoteHash(ByteBuffer.wrap(hash))
                        .setIp("10.0.0.1")
                        .setCountry("ES")
                        .build())
                .setArtifact(ByteBuffer.wrap(new byte[124]))
                .build();
    }

    /** One statement of every kind on {@code board}, each with its body (a TALLY_CLOSED with an artifact). */
    public static List<Statement> everyKind(String board) {
        List<Statement> out = new ArrayList<>();
        int i = 0;
        for (StatementKind kind : StatementKind.values()) {
            out.add(Statement.newBuilder()
                    .setBoard(board)
                    .setDeliveryId(board + "-" + kind)
                    .setKind(kind)
                    .setStatementTimestamp(1_767_225_600_000L + i++)
                    .setSenderName("sender")
                    .setSenderPublicKey(bytes(32, 9))
                    .setUserId("u1")
                    .setUsername("voter@example.org")
                    .setElectionId("e1")
                    .setAreaId("a1")
                    .setBallotId("b1")
                    .setBody(body(kind))
                    .setArtifact(kind == StatementKind.TALLY_CLOSED ? bytes(100, 7) : null)
                    .build());
        }
        return out;
    }

    /** A body of {@code kind}, with made-up but well-formed fields; null for UNKNOWN. */
    public static Object body(StatementKind kind) {
        return switch (kind) {
            case UNKNOWN, BOARD_SEALED, PERSONAL_DATA_ERASED -> null;
            case CAST_VOTE ->
                CastVote.newBuilder()
                        .setElectionId("e1")
                        .setPseudonymHash(bytes(32, 1))
                        .setCastVoteHash(bytes(32, 2))
                        .setIp("192.0.2.1")
                        .setCountry("ES")
                        .build();
            case CAST_VOTE_ERROR ->
                CastVoteError.newBuilder()
                        .setElectionId("e1")
                        .setError("ballot rejected")
                        .build();
            case IDP_USER_EVENT ->
                IdentityProviderUserEvent.newBuilder()
                        .setEventType("LOGIN")
                        .setIp("192.0.2.2")
                        .build();
            case ELECTION_PUBLISHED ->
                ElectionPublished.newBuilder()
                        .setElectionIds(List.of("e1", "e2"))
                        .build();
            case VOTING_PERIOD_OPENED, VOTING_PERIOD_PAUSED, VOTING_PERIOD_CLOSED ->
                VotingPeriodChange.newBuilder()
                        .setScope(PeriodScope.ELECTION)
                        .setElectionId("e1")
                        .build();
            case KEY_GENERATION, KEY_INSERTION_START, KEY_INSERTION_CEREMONY ->
                KeyCeremony.newBuilder()
                        .setCeremonyId("c1")
                        .setTrusteeName("trustee-1")
                        .setPublicKey(bytes(32, 3))
                        .build();
            case TALLY_OPENED, TALLY_CLOSED ->
                Tally.newBuilder()
                        .setTallySessionId("t1")
                        .setElectionIds(List.of("e1"))
                        .build();
            case COMMUNICATIONS_SENT ->
                CommunicationsSent.newBuilder()
                        .setChannel("email")
                        .setTemplate("invite")
                        .setRecipients(1200)
                        .build();
            case VOTER_PUBLIC_KEY, ADMIN_PUBLIC_KEY ->
                PublicKeyStatement.newBuilder()
                        .setSubject("subject-1")
                        .setPublicKey(bytes(32, 4))
                        .build();
            case LOG_CHECKPOINT ->
                LogCheckpoint.newBuilder()
                        .setSize(42)
                        .setRoot(bytes(32, 5))
                        .setReason(CheckpointReason.VOTING_CLOSED)
                        .build();
            case LOG_CONTINUATION ->
                LogContinuation.newBuilder()
                        .setPreviousBoard("board-0")
                        .setPreviousSize(9)
                        .setPreviousRoot(bytes(32, 6))
                        .build();
        };
    }

    private static ByteBuffer bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return ByteBuffer.wrap(b);
    }

    private String uuid() {
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }
}
