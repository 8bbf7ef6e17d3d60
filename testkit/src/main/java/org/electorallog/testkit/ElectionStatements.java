package org.electorallog.testkit;

import java.nio.ByteBuffer;
import java.util.Random;
import org.electorallog.core.Hex;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;

/**
 * Realistic election statements for load tests (issue 8), shaped like the reference load test
 * (shared/reference/000): per voter 4 identity-provider events and 1 cast vote of about 702
 * canonical bytes, 5 elections, 1,000 areas, random UUID user and delivery IDs, random usernames,
 * 64-hex-digit ballot IDs, statement times about 1,000 per second; {@link #interleaved} gives them in
 * the reference's order, 20,000 voters interleaved.
 *
 * <p>The reference's Keycloak events were 330-450 bytes. Our canonical bytes name every field
 * (schemas README), so the smallest Keycloak event with the reference's fields is about 400 bytes:
 * ours are 400-450, the top of the reference's range. Sizes are canonical statement bytes, the
 * leaf data that the records table stores.
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
                .setBallotId(Hex.encode(hash))
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
    static final long EPOCH_MILLIS = 1_767_225_600_000L;

    /** Voters whose statements are interleaved, as in the reference load test. */
    public static final int INTERLEAVED_VOTERS = 20_000;

    /**
     * The statements of voters [first, end) in the reference's order: groups of
     * {@value #INTERLEAVED_VOTERS} voters, and within a group the first statement of every voter,
     * then the second of every voter, and so on, so that a voter's five records are about 20,000
     * records apart. Calls {@code sink} with each statement in order.
     */
    public void interleaved(long first, long end, java.util.function.Consumer<Statement> sink) {
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

    private String uuid() {
        return new java.util.UUID(random.nextLong(), random.nextLong()).toString();
    }
}
