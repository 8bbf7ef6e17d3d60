package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import org.electorallog.core.TileTree;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.BoardRow;
import org.electorallog.store.Boards;
import org.electorallog.store.Projection;

/**
 * Runs the projector's per-event code before it takes its partitions, so that the first events of a
 * projector just (re)started meet code the JIT has compiled rather than the interpreter (decisions
 * 75 and 81): decoding with the statement rules and the canonical bytes, Ed25519 verification of a
 * sender signature, the leaf hashes and tiles of a tree and a signed checkpoint ({@link #run}, in
 * memory), then the batch's writes to PostgreSQL ({@link #write}, rolled back). A projector started
 * seconds before a peak otherwise takes about four times as long an event for its first tens of
 * thousands (0.55 ms against 0.14, decision 63; the bursts of decision 75).
 *
 * <p>Two kinds of statement are run. Made-up ones, a log-in and a cast vote per voter as in an
 * election, valid and (with a signature policy) signed with a throwaway sender key: {@link #run}
 * fails if one of them is refused, which would mean the warm-up no longer matches the rules (the
 * projector then logs it and starts without the warm-up). And the topic's last events ({@link
 * RecentEvents}), decoded with the stream thread's own codec: what comes after a restart is most like
 * what came before it, and code compiled for the made-up statements alone was thrown away by the JIT
 * at the first real events and compiled again during the burst that followed (decision 81). A recent
 * event that does not decode (it was dead-lettered when it was projected) is left out.
 *
 * <p>Nothing is kept: no Kafka writes, PostgreSQL writes only in transactions rolled back, throwaway
 * keys (never the log's signer key, which signs only the log's own checkpoints).
 */
final class ProjectorWarmUp {
    /** Made-up statements, made once; the statements a warm-up round projects. */
    static final int BATCH = 500;

    /** At most this many batches are written to PostgreSQL and rolled back ({@link #write}). */
    static final int WRITE_ROUNDS = 20;

    private static final String BOARD = "warm-up";
    private static final long EPOCH_MILLIS = ElectionStatements.EPOCH_MILLIS;

    /** A statement to run: its bytes, the codec that decodes them, and whether it must be accepted. */
    @SuppressWarnings("ArrayRecordComponent") // a message to decode, never compared as a value
    private record Message(byte[] bytes, StatementCodec codec, boolean madeUp) {}

    private final boolean verifySignatures;
    private final List<Message> messages = new ArrayList<>();
    private final NoteSigner checkpointKey = NoteSigner.generate("warm-up.invalid");
    private int next;

    /** Made-up statements only (see {@link #ProjectorWarmUp(StatementCodec, boolean, StatementCodec, List)}). */
    ProjectorWarmUp(StatementCodec madeUpCodec, boolean verifySignatures) {
        this(madeUpCodec, verifySignatures, madeUpCodec, List.of());
    }

    /**
     * {@code madeUpCodec} encodes and decodes the made-up statements (the embedded registry's: no
     * schema is registered anywhere for them); {@code eventsCodec}, the stream thread's, decodes
     * {@code recent}, the topic's last events, of which those that do not decode are left out.
     * {@code verifySignatures}: also sign the made-up statements and verify every signed statement in
     * each round, as a projector with a signature policy does.
     */
    ProjectorWarmUp(
            StatementCodec madeUpCodec, boolean verifySignatures, StatementCodec eventsCodec, List<byte[]> recent) {
        this.verifySignatures = verifySignatures;
        SigningKey sender = SigningKey.generate();
        ElectionStatements election = new ElectionStatements(BOARD, BATCH);
        List<Statement> madeUp = new ArrayList<>(BATCH);
        election.interleaved(0, BATCH / 5, madeUp::add);
        for (Statement s : madeUp) {
            s.setSenderPublicKey(ByteBuffer.wrap(sender.publicKey()));
            Envelope.Builder e = Envelope.newBuilder().setStatement(s);
            if (verifySignatures) {
                e.setSenderSignature(ByteBuffer.wrap(sender.sign(CanonicalStatement.encode(s))));
            }
            messages.add(new Message(madeUpCodec.encode(e.build()), madeUpCodec, true));
        }
        for (byte[] m : recent) {
            try {
                eventsCodec.decode(m);
                messages.add(new Message(m, eventsCodec, false));
            } catch (BadEventException | RuntimeException refused) {
                // dead-lettered when it was projected: not a path to compile
            }
        }
    }

    /** The encoded statements, made-up then recent, as the stream thread receives events (for the tests). */
    List<byte[]> messages() {
        return messages.stream().map(Message::bytes).toList();
    }

    /** The topic's last events read for a warm-up of {@code statements}: as many (decision 81). */
    static int recentEvents(long statements) {
        return (int) Math.min(Integer.MAX_VALUE, statements);
    }

    /** The rounds {@link #write} takes for a warm-up of {@code statements}: one a batch, at most {@link #WRITE_ROUNDS}. */
    static int writeRounds(long statements) {
        return (int) Math.min(WRITE_ROUNDS, statements / BATCH);
    }

    /**
     * Projects {@code statements} statements in memory, in batches of {@link #BATCH}, taking the
     * made-up and recent ones in turn: each decoded (with the statement rules and the canonical
     * bytes), its signature verified (when asked and it has one), its leaf appended to a tree; after
     * each batch the changed tiles are drained and a checkpoint of the tree signed. Returns the
     * statements projected.
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
                Message m = nextMessage();
                DecodedStatement st = decoded(m);
                if (verifySignatures && st.senderSignature() != null) {
                    SigningKey.PublicKey key = senderKeys.computeIfAbsent(
                            ByteBuffer.wrap(st.senderPublicKey()), k -> SigningKey.PublicKey.decode(k.array()));
                    if (!key.verify(st.entry().canonical(), st.senderSignature()) && m.madeUp()) {
                        throw new IllegalStateException("a made-up warm-up statement's signature does not verify");
                    }
                }
                tree.appendLeafHash(st.entry().leafHash());
            }
            tree.drainChangedTiles();
            new Checkpoint(BOARD, tree.size(), tree.root()).sign(checkpointKey);
            done += n;
        }
        return done;
    }

    private Message nextMessage() {
        Message m = messages.get(next);
        next = (next + 1) % messages.size();
        return m;
    }

    /**
     * Writes {@code rounds} batches of {@link #BATCH} statements (made-up and recent in turn) to
     * PostgreSQL with the projector's own board code ({@code boards}: the delivery-key lookup, the
     * records by binary COPY, the tiles, counters, hourly counts and board state) and signs the
     * board's checkpoint, each round in a transaction that is ROLLED BACK (decision 81): nothing is
     * kept. The board is a scratch board under a negative ID ({@link Boards#createScratch}) and a
     * name no election uses, so the recent events' delivery IDs meet none of theirs. So the write
     * path is compiled, and the pool's connection has its statements and relations open, before the
     * first batch. A round's rows are dead tuples once it rolls back, {@code rounds} times {@link
     * #BATCH} of them at most, left to autovacuum; each round takes at most one value of the
     * senders identity, for the throwaway sender key (rolled back values are not given back).
     * Returns the statements written (repeated delivery IDs are dropped, as in a batch).
     */
    long write(Projection transactions, BoardWriter boards, int rounds) {
        short id = (short) -(1 + ThreadLocalRandom.current().nextInt(Short.MAX_VALUE));
        UUID run = UUID.randomUUID();
        String name = "projector-warm-up-" + run;
        CheckpointScheduler checkpoints = new CheckpointScheduler(checkpointKey, Duration.ZERO, Duration.ZERO);
        long written = 0;
        for (int round = 0; round < rounds; round++) {
            List<PendingEvent> events = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                Message m = nextMessage();
                events.add(new PendingEvent(decoded(m), 0, i, EPOCH_MILLIS + i, name, m.bytes(), new RecordHeaders()));
            }
            checkpoints.began();
            try {
                // never kept: the scratch board and everything written to it go with the rollback
                written += transactions.rollBack(c -> {
                    BoardRow b = c.createScratch(id, name, "warm-up.invalid/" + run, EPOCH_MILLIS, Hashes.emptyRoot());
                    BoardProjection board =
                            new BoardProjection(b.id(), name, b.origin(), TileTree.empty(), Long.MIN_VALUE);
                    int n = boards.write(c, name, board, events).written();
                    long now = System.currentTimeMillis();
                    checkpoints.written(name, now);
                    checkpoints.signDue(c, now);
                    return n;
                });
            } finally {
                checkpoints.rolledBack();
            }
        }
        return written;
    }

    private static DecodedStatement decoded(Message m) {
        try {
            // made-up events name the envelope they were written with, as the producer's do (decision 140)
            return m.codec().decode(m.bytes(), m.madeUp() ? StatementCodec.envelopeFingerprint() : null);
        } catch (BadEventException e) {
            throw new IllegalStateException("a warm-up statement was refused: " + e.getMessage(), e);
        }
    }

    /** Voter {@code i / 2}'s log-in (even {@code i}) or cast vote (odd), of the sizes of an election's. */
}
