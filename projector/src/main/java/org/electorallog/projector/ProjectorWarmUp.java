package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import org.electorallog.core.TileTree;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.CastVote;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.IdentityProviderUserEvent;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;

/**
 * Runs the projector's per-event code on made-up statements before it takes its partitions, so that
 * the first events of a projector just (re)started meet code the JIT has compiled rather than the
 * interpreter (decision 75): decoding with the statement rules and the canonical bytes, Ed25519
 * verification of a sender signature, the leaf hashes and tiles of a tree, and a signed checkpoint.
 * A projector started seconds before a peak otherwise takes about four times as long an event for
 * its first tens of thousands (0.55 ms against 0.14, decision 63; the bursts of decision 75).
 *
 * <p>Nothing leaves this class: no Kafka, no PostgreSQL, throwaway keys (never the log's signer key,
 * which signs only the log's own checkpoints). The statements are valid ones, a log-in and a cast
 * vote per voter as in an election, so the code compiled is the path of a good event, not of a
 * refusal; {@link #run} fails if one of them is refused, which would mean the warm-up no longer
 * matches the rules (the projector then logs it and starts without the warm-up).
 */
final class ProjectorWarmUp {
    /** Statements made once and decoded round after round (the batch a warm-up round projects). */
    static final int BATCH = 500;

    private static final String BOARD = "warm-up";
    private static final long EPOCH_MILLIS = 1_767_225_600_000L;

    private final StatementCodec codec;
    private final boolean verifySignatures;
    private final List<byte[]> messages = new ArrayList<>(BATCH);
    private final NoteSigner checkpointKey = NoteSigner.generate("warm-up.invalid");

    /**
     * {@code verifySignatures}: also sign the statements (with a throwaway sender key) and verify them
     * in each round, as a projector with a signature policy does.
     */
    ProjectorWarmUp(StatementCodec codec, boolean verifySignatures) {
        this.codec = codec;
        this.verifySignatures = verifySignatures;
        SigningKey sender = SigningKey.generate();
        Random random = new Random(BATCH);
        for (int i = 0; i < BATCH; i++) {
            Statement s = statement(random, i, sender.publicKey());
            Envelope.Builder e = Envelope.newBuilder().setStatement(s);
            if (verifySignatures) {
                e.setSenderSignature(ByteBuffer.wrap(sender.sign(CanonicalStatement.encode(s))));
            }
            messages.add(codec.encode(e.build()));
        }
    }

    /** The encoded made-up statements, as the stream thread receives events (for the tests). */
    List<byte[]> messages() {
        return List.copyOf(messages);
    }

    /**
     * Projects {@code statements} made-up statements in memory, in batches of {@link #BATCH}: each
     * decoded (with the statement rules and the canonical bytes), its signature verified (when
     * asked), its leaf appended to a tree; after each batch the changed tiles are drained and a
     * checkpoint of the tree signed. Returns the statements projected.
     *
     * @throws IllegalStateException when a made-up statement is refused (a bug of this class)
     */
    long run(long statements) {
        TileTree tree = TileTree.empty();
        Map<ByteBuffer, SigningKey.PublicKey> senderKeys = new HashMap<>();
        long done = 0;
        while (done < statements) {
            int n = (int) Math.min(BATCH, statements - done);
            for (int i = 0; i < n; i++) {
                DecodedStatement st = decoded(messages.get(i));
                if (verifySignatures) {
                    SigningKey.PublicKey key = senderKeys.computeIfAbsent(
                            ByteBuffer.wrap(st.senderPublicKey()), k -> SigningKey.PublicKey.decode(k.array()));
                    if (!key.verify(st.canonicalBytes(), st.senderSignature())) {
                        throw new IllegalStateException("warm-up statement " + i + ": its signature does not verify");
                    }
                }
                tree.appendLeafHash(Hashes.leafHash(st.canonicalBytes()));
            }
            tree.drainChangedTiles();
            new Checkpoint(BOARD, tree.size(), tree.root()).sign(checkpointKey);
            done += n;
        }
        return done;
    }

    private DecodedStatement decoded(byte[] message) {
        try {
            return codec.decode(message);
        } catch (BadEventException e) {
            throw new IllegalStateException("a warm-up statement was refused: " + e.getMessage(), e);
        }
    }

    /** Voter {@code i / 2}'s log-in (even {@code i}) or cast vote (odd), of the sizes of an election's. */
    private static Statement statement(Random random, int i, byte[] senderKey) {
        String user = new UUID(random.nextLong(), random.nextLong()).toString();
        String username = "voter" + Long.toString(random.nextLong() & 0xffffffffL, 36) + "@example.org";
        Statement.Builder s = Statement.newBuilder()
                .setBoard(BOARD)
                .setDeliveryId(new UUID(random.nextLong(), random.nextLong()).toString())
                .setStatementTimestamp(EPOCH_MILLIS + i)
                .setSenderPublicKey(ByteBuffer.wrap(senderKey))
                .setUserId(user)
                .setUsername(username)
                .setAreaId("area-" + random.nextInt(1000));
        if (i % 2 == 0) {
            return s.setKind(StatementKind.IDP_USER_EVENT)
                    .setSenderName("identity-provider")
                    .setBody(IdentityProviderUserEvent.newBuilder()
                            .setEventType("LOGIN")
                            .setIp("10.0." + random.nextInt(256) + "." + random.nextInt(256))
                            .setClientId("voting-portal")
                            .build())
                    .build();
        }
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        String election = "election-" + random.nextInt(5);
        return s.setKind(StatementKind.CAST_VOTE)
                .setSenderName("voting-service")
                .setElectionId(election)
                .setBallotId(org.electorallog.core.Hex.encode(hash))
                .setBody(CastVote.newBuilder()
                        .setElectionId(election)
                        .setPseudonymHash(ByteBuffer.wrap(hash))
                        .setCastVoteHash(ByteBuffer.wrap(hash))
                        .build())
                .build();
    }
}
