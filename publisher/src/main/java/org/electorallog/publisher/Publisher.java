package org.electorallog.publisher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The static publisher (issue 45 item 1): every interval, each board of the projection copied into
 * a directory in the C2SP tlog-tiles layout ({@link BoardPublication}), one read-only REPEATABLE
 * READ snapshot per board, so that any web server or CDN origin can serve the log without the
 * database. One publisher writes a directory at a time: it holds a PostgreSQL advisory lock, and a
 * second one waits for it. A board that fails is reported and tried again next round; the others
 * go on.
 */
public final class Publisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
    /** The advisory lock key of the publisher ('elpb'). */
    static final long LOCK = 0x656c7062L;

    /**
     * @param login   the projection's login (a read-only one suffices)
     * @param every   how often a round runs
     * @param entries whether every entry bundle (whole statements) and signature bundle is published,
     *                format 1 ones too: only where every statement kind is public (docs/security.md);
     *                those whose entries are all in the committed form are published either way
     * @param policy  the C2SP tlog-policy text written as {@code policy} beside each board's
     *                checkpoint (the rule its checkpoints are witnessed by, as the query API serves
     *                at {@code /boards/{board}/policy}), or null: none
     */
    public record Settings(DatabaseLogin login, Path dir, Duration every, boolean entries, String policy) {
        /** Settings that publish no policy file. */
        public Settings(DatabaseLogin login, Path dir, Duration every, boolean entries) {
            this(login, dir, every, entries, null);
        }
    }

    private final Settings settings;
    private final Projection db;
    private final TlogDirectory dir;
    private final Projection.AdvisoryLock lock;
    private volatile boolean running = true;
    /** Each board's witnessed heads size when its heads link was last looked for. */
    private final Map<String, Long> linkedAt = new ConcurrentHashMap<>();

    private Thread loop;

    private Publisher(Settings settings) throws IOException {
        this.settings = settings;
        this.dir = new TlogDirectory(settings.dir());
        this.db = Projection.open(settings.login(), 2, "publisher");
        this.lock = db.lock(LOCK);
    }

    /** A publisher that has not started its loop: {@link #round} publishes once. */
    public static Publisher open(Settings settings) throws IOException {
        return new Publisher(settings);
    }

    /** Opens a publisher and starts its loop on a thread of its own. */
    public static Publisher start(Settings settings) throws IOException {
        Publisher p = open(settings);
        p.loop = new Thread(p::run, "publisher");
        p.loop.start();
        return p;
    }

    private void run() {
        while (running) {
            try {
                if (holdsLock()) {
                    round();
                }
            } catch (RuntimeException e) {
                LOG.warn("publication round failed (next round in {}): {}", settings.every(), e.toString());
            }
            try {
                Thread.sleep(settings.every().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The projection's boards now. */
    public List<String> boards() {
        return db.boardNames();
    }

    /** Whether this publisher holds the directory's lock (taken on first call, kept while the session lives). */
    public boolean holdsLock() {
        return lock.held();
    }

    /** One round: every board published from a snapshot of its own; board name to what was done. */
    public Map<String, BoardPublication.Outcome> round() {
        Map<String, BoardPublication.Outcome> out = new LinkedHashMap<>();
        long heads = witnessedHeads();
        for (String board : boards()) {
            try {
                out.put(board, publish(board, heads));
            } catch (IOException | RuntimeException e) {
                LOG.warn("board {} not published this round: {}", board, e.toString());
            }
        }
        return out;
    }

    /** Where the voter page goes in the directory: not a board name, so no board can take it. */
    public static final String PAGE_DIR = "_voter";

    /**
     * Writes the voter page's files (name to bytes, from the query API's {@code PublishedVoterPage})
     * into {@value #PAGE_DIR}/, each fsynced and renamed into place, so that the page can be served
     * beside the boards and check a ballot from the published files alone.
     */
    public void writePage(Map<String, byte[]> files) throws IOException {
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            dir.write(PAGE_DIR, f.getKey(), f.getValue());
        }
    }

    /**
     * One board published from a snapshot of its own; its heads link (HEADS witness mode) is looked up
     * again only when the witnessed heads checkpoint changed since this publisher last looked for the
     * board, as nothing else changes a link.
     */
    public BoardPublication.Outcome publish(String board) throws IOException {
        return publish(board, witnessedHeads());
    }

    /** The size of the latest heads checkpoint the witness quorum cosigned (0 without one): read once a round. */
    private long witnessedHeads() {
        return db.statement(r -> r.witnessedTip(HeadsBoard.NAME)
                .map(t -> t.checkpoint() == null ? 0L : t.checkpoint().size())
                .orElse(0L));
    }

    /**
     * {@link #publish(String)} with the witnessed heads size already read: a link is looked for when it
     * changed for this board (the snapshot then sees that heads checkpoint or a later one).
     */
    private BoardPublication.Outcome publish(String board, long heads) throws IOException {
        boolean link = heads > 0 && !Long.valueOf(heads).equals(linkedAt.get(board));
        BoardPublication.Outcome o;
        try {
            // one read-only snapshot (the store's): the tiles written and the checkpoint after them agree
            o = db.read(c -> {
                try {
                    return BoardPublication.publish(c, dir, board, settings.entries(), link, settings.policy());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (link) {
            linkedAt.put(board, heads);
        }
        return o;
    }

    @Override
    public void close() {
        running = false;
        if (loop != null) {
            loop.interrupt();
            try {
                loop.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            lock.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the publisher's lock session: {}", e.toString());
        }
        db.close();
    }
}
