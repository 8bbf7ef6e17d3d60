package org.electorallog.launcher;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;

/**
 * A small, realistic election for the demo and tests: per voter, 4 identity-provider events
 * (logins) and 1 cast vote, voters interleaved, statement times about 1 ms apart. Deterministic for
 * a given seed.
 */
public final class ElectionGenerator {
    private ElectionGenerator() {}

    /** The statements of {@code voters} voters on {@code board}, in publish order. */
    public static List<Statement> election(String board, int voters, long seed) {
        Random random = new Random(seed);
        byte[] senderKey = Hashes.sha256(("sender of " + board).getBytes(StandardCharsets.UTF_8));
        List<Statement> out = new ArrayList<>(voters * 5);
        long t = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
        for (int v = 0; v < voters; v++) {
            String user = String.format("user-%06d", v);
            String election = "election-" + (v % 5);
            String area = "area-" + random.nextInt(1000);
            for (int i = 0; i < 4; i++) {
                out.add(Statement.newBuilder()
                        .setBoard(board)
                        .setDeliveryId(board + "/" + user + "/login-" + i)
                        .setKind(StatementKind.IDP_USER_EVENT)
                        .setStatementTimestamp(t++)
                        .setSenderName("identity-provider")
                        .setSenderPublicKey(ByteBuffer.wrap(senderKey))
                        .setUserId(user)
                        .setUsername("voter" + v + "@example.org")
                        .setAreaId(area)
                        .setBody(IdentityProviderUserEvent.newBuilder()
                                .setEventType("LOGIN")
                                .setIp("10.0." + random.nextInt(256) + "." + random.nextInt(256))
                                .setClientId("voting-portal")
                                .build())
                        .build());
            }
            byte[] ballot = new byte[32];
            random.nextBytes(ballot);
            String ballotId = org.electorallog.core.Hex.encode(ballot);
            out.add(Statement.newBuilder()
                    .setBoard(board)
                    .setDeliveryId(board + "/" + user + "/vote")
                    .setKind(StatementKind.CAST_VOTE)
                    .setStatementTimestamp(t++)
                    .setSenderName("voting-service")
                    .setSenderPublicKey(ByteBuffer.wrap(senderKey))
                    .setUserId(user)
                    .setUsername("voter" + v + "@example.org")
                    .setElectionId(election)
                    .setAreaId(area)
                    .setBallotId(ballotId)
                    .setBody(CastVote.newBuilder()
                            .setElectionId(election)
                            .setPseudonymHash(ByteBuffer.wrap(Hashes.sha256(user.getBytes(StandardCharsets.UTF_8))))
                            .setCastVoteHash(ByteBuffer.wrap(Hashes.sha256(ballot)))
                            .setCountry("ES")
                            .build())
                    .build());
        }
        return out;
    }
}
