package org.electorallog.perf;

import java.nio.ByteBuffer;
import java.util.Random;
import org.electorallog.core.Hex;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;

/**
 * Realistic election statements for load tests (issue 8): per voter 4 identity-provider events of
 * about 330-450 canonical bytes and 1 cast vote of about 700, 5 elections, 1,000 areas, random user
 * IDs and usernames, 64-hex-digit ballot IDs, statement times about 1,000 per second.
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
        String user = String.format("%08x-%04x-4%03x-a%03x-%012x", random.nextInt(), random.nextInt(0xffff),
                random.nextInt(0xfff), random.nextInt(0xfff), random.nextLong() & 0xffffffffffffL);
        String username = "voter" + Long.toString(random.nextLong() & 0xffffffffL, 36) + "@example.org";
        long t = 1_767_225_600_000L + v * 5;
        for (int i = 0; i < 4; i++) {
            StringBuilder agent = new StringBuilder("voting-portal; Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36");
            agent.append(" ".repeat(random.nextInt(120)));
            out[i] = Statement.newBuilder().setBoard(board).setDeliveryId(board + "/" + v + "/" + i)
                    .setKind(StatementKind.IDP_USER_EVENT).setStatementTimestamp(t + i)
                    .setSenderName("keycloak-event-listener").setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                    .setUserId(user).setUsername(username).setAreaId("area-" + random.nextInt(1000))
                    .setBody(IdentityProviderUserEvent.newBuilder().setEventType(i == 3 ? "LOGOUT" : "LOGIN")
                            .setIp("10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256))
                            .setClientId(agent.toString()).build())
                    .build();
        }
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        byte[] receipt = new byte[240];
        random.nextBytes(receipt);
        String election = "election-" + (v % 5);
        out[4] = Statement.newBuilder().setBoard(board).setDeliveryId(board + "/" + v + "/vote")
                .setKind(StatementKind.CAST_VOTE).setStatementTimestamp(t + 4)
                .setSenderName("voting-service").setSenderPublicKey(ByteBuffer.wrap(new byte[32])).setUserId(user)
                .setUsername(username).setElectionId(election).setAreaId("area-" + random.nextInt(1000))
                .setBallotId(Hex.encode(hash))
                .setBody(CastVote.newBuilder().setElectionId(election).setPseudonymHash(ByteBuffer.wrap(hash))
                        .setCastVoteHash(ByteBuffer.wrap(hash)).setIp("10.0.0.1").setCountry("ES").build())
                .setArtifact(ByteBuffer.wrap(receipt))
                .build();
        return out;
    }
}
