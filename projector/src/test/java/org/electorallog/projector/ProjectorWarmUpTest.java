package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.StatementKind;
import org.junit.jupiter.api.Test;

/** The warm-up at start (decision 75) compiles the path of good events: its statements must be ones the projector accepts. */
class ProjectorWarmUpTest {
    private final StatementCodec codec = StatementCodec.embedded();
    private final SignaturePolicy sender = SignaturePolicy.parse("SENDER", ".*", null, "OFF");

    @Test
    void everyMadeUpStatementIsOneTheProjectorAcceptsSignedOrNot() throws BadEventException {
        ProjectorWarmUp signed = new ProjectorWarmUp(codec, true);
        Set<String> kinds = new HashSet<>();
        Set<String> deliveryIds = new HashSet<>();
        for (byte[] m : signed.messages()) {
            DecodedStatement st = codec.decode(m); // the statement rules, as the stream thread applies them
            sender.check(st); // signed by its sender key: verifies
            kinds.add(st.kind());
            deliveryIds.add(st.deliveryId());
            assertNotNull(st.senderSignature());
        }
        // log-ins and cast votes, as in an election, every one a statement of its own
        assertEquals(Set.of(StatementKind.IDP_USER_EVENT.name(), StatementKind.CAST_VOTE.name()), kinds);
        assertEquals(ProjectorWarmUp.BATCH, deliveryIds.size());
        for (byte[] m : new ProjectorWarmUp(codec, false).messages()) {
            DecodedStatement st = codec.decode(m);
            assertNull(st.senderSignature());
            assertEquals(
                    BadEventException.Reason.UNSIGNED,
                    assertThrows(BadEventException.class, () -> sender.check(st))
                            .reason());
        }
    }

    @Test
    void aRunProjectsExactlyTheStatementsAskedForInBatches() {
        ProjectorWarmUp w = new ProjectorWarmUp(codec, true);
        assertEquals(0, w.run(0));
        // one full batch and a partial one
        assertEquals(ProjectorWarmUp.BATCH + 7, w.run(ProjectorWarmUp.BATCH + 7));
        assertEquals(3, new ProjectorWarmUp(codec, false).run(3));
    }
}
