package org.electorallog.producer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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

/** One statement of every kind, with its body. */
final class StatementSamples {
    private StatementSamples() {}

    static ByteBuffer bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return ByteBuffer.wrap(b);
    }

    static Object body(StatementKind kind) {
        return switch (kind) {
            case UNKNOWN -> null;
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

    static List<Statement> everyKind(String board) {
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
}
