package org.electorallog.verifier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.CompactRange;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.Quorum;
import org.electorallog.core.RangeProof;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ExportRow;
import org.electorallog.export.OpenedValue;
import org.electorallog.export.ParquetFiles;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.PersonalCommitment;

/**
 * {@code electoral-log verify-export DIR} (issue 63): an export's Parquet files checked against
 * the checkpoint its manifest carries, with no database. The checkpoint's log signature and its
 * witnesses' cosignatures against a quorum (C2SP signed-note, tlog-cosignature); each file's
 * SHA-256 and row range as the manifest lists them, the files covering the range in order; every
 * row's record ID in leaf order, its typed columns made again from its canonical bytes ({@link
 * ExportRow#of}) and compared, its statement checked as {@code verify-board} checks an entry
 * ({@link EntryChecks}), and its bytes hashed into its leaf (RFC 6962 section 2.1); the leaves
 * folded ({@link CompactRange}) with the manifest's range proof ({@link RangeProof}) into the
 * checkpoint's root. In the personal view, each openings file is checked as a records file is
 * (SHA-256, the same records) and read beside it: every opened value must open its record's
 * commitment at its path (statement {@link PersonalCommitment}), so a value can only be the one the
 * leaf commits to. Then the counts (records by kind, cast votes by election and by hour): counts
 * of a verified range are counts of the log's own records.
 */
public final class ExportVerifier {
    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH':00Z'").withZone(ZoneOffset.UTC);
    private static final String CAST_VOTE = "CAST_VOTE";

    /** The counts a verified export proves. */
    public record Counts(
            Map<String, Long> recordsByKind,
            Map<String, Long> castVotesByElection,
            Map<String, Long> castVotesByHour) {}

    /**
     * What verify-export found: the manifest, the rows read, the problems (none: verified), the
     * counts (over the rows read; proven only when verified), whether the range is the whole tree
     * at the checkpoint, and the opened values that opened their commitments (personal view).
     */
    public record Result(
            ExportManifest manifest,
            long rows,
            List<String> problems,
            Counts counts,
            boolean whole,
            long opened,
            double seconds) {
        public boolean verified() {
            return problems.isEmpty();
        }
    }

    private final List<String> problems = new ArrayList<>();
    private final Map<String, Long> byKind = new TreeMap<>();
    private final Map<String, Long> byElection = new TreeMap<>();
    private final Map<String, Long> byHour = new TreeMap<>();
    private long opened;
    private ParquetFiles.OpeningsReader openings;
    private String openingsName;
    private OpenedValue pending;

    private ExportVerifier() {}

    /**
     * Verifies the export in {@code dir} with the log's keys and, when {@code quorum} is above 0,
     * the witnesses' cosignatures; an unreadable manifest or file is thrown, everything else is a
     * problem.
     */
    public static Result verify(Path dir, List<NoteVerifier> logKeys, List<Cosigner.Verifier> witnesses, int quorum)
            throws IOException {
        return new ExportVerifier().run(dir, logKeys, witnesses, quorum);
    }

    private void problem(String p) {
        if (problems.size() < BoardVerifier.MAX_PROBLEMS) {
            problems.add(p);
        }
    }

    private Result run(Path dir, List<NoteVerifier> logKeys, List<Cosigner.Verifier> witnesses, int quorum)
            throws IOException {
        long t0 = System.nanoTime();
        ExportManifest m = ExportManifest.read(dir);
        Checkpoint cp = null;
        try {
            cp = Checkpoint.open(m.checkpoint(), logKeys);
        } catch (ProofException e) {
            problem("the manifest's checkpoint does not verify with the log key: " + e.getMessage());
        }
        if (cp != null && cp.size() != m.size()) {
            problem("the manifest says size " + m.size() + " but its checkpoint is of size " + cp.size());
        }
        if (quorum > 0) {
            NoteChecks.cosignatures(m.checkpoint(), witnesses, Quorum.atLeast(quorum), this::problem);
        }
        if (m.start() < 0 || m.end() <= m.start() || m.end() > m.size()) {
            problem("the manifest's range [" + m.start() + ", " + m.end() + ") is not inside a tree of " + m.size());
            return result(m, 0, false, t0);
        }
        boolean personal = ExportManifest.PERSONAL.equals(m.view());
        if (!personal && !ExportManifest.PUBLIC.equals(m.view())) {
            problem("the manifest's view '" + m.view() + "' is neither " + ExportManifest.PUBLIC + " nor "
                    + ExportManifest.PERSONAL);
        } else if (!personal && !m.openings().isEmpty()) {
            problem("the manifest's view is " + ExportManifest.PUBLIC + " but it lists openings files");
        } else if (personal && m.openings().size() != m.files().size()) {
            problem("the manifest lists " + m.openings().size() + " openings files for "
                    + m.files().size() + " records files: the personal view has one beside each");
            personal = false;
        }
        EntryChecks entries = new EntryChecks(m.board(), List.of(), null, logKeys, p -> problem(p.message()));
        CompactRange leaves = new CompactRange(m.start());
        long[] next = {m.start()};
        for (int i = 0; i < m.files().size(); i++) {
            ExportManifest.File f = m.files().get(i);
            if (f.first() != next[0] || f.end() <= f.first()) {
                problem("file " + f.name() + " holds records [" + f.first() + ", " + f.end() + "), where record "
                        + next[0] + " was due next: the files do not cover the range in order");
                return result(m, next[0] - m.start(), false, t0);
            }
            Path file = dir.resolve(f.name()).normalize();
            if (!file.startsWith(dir.normalize()) || !Files.isRegularFile(file)) {
                problem("file " + f.name() + " is missing");
                return result(m, next[0] - m.start(), false, t0);
            }
            if (!MessageDigest.isEqual(ParquetFiles.sha256(file), f.sha256())) {
                problem("file " + f.name() + " is not the file the manifest names: its SHA-256 differs");
            }
            if (personal && !openOpenings(dir, f, m.openings().get(i))) {
                personal = false;
            }
            long fileEnd = f.end();
            try {
                ParquetFiles.read(file, row -> {
                    long id = next[0];
                    if (row.recordId() != id || id >= fileEnd) {
                        problem("file " + f.name() + " holds record " + row.recordId() + " where record " + id
                                + (id >= fileEnd ? " (past its range)" : "")
                                + " was due: rows dropped, added or moved");
                    }
                    check(id, row, entries);
                    leaves.append(Hashes.leafHash(row.statement()));
                    next[0]++;
                });
                closeOpenings();
            } finally {
                if (openings != null) {
                    openings.close();
                    openings = null;
                }
            }
            if (next[0] != fileEnd) {
                problem("file " + f.name() + " ends at record " + next[0] + ", not " + fileEnd
                        + ": rows dropped or added");
                return result(m, next[0] - m.start(), false, t0);
            }
        }
        if (next[0] != m.end()) {
            problem("the files end at record " + next[0] + ", not at the range's end " + m.end());
        } else if (cp != null) {
            try {
                byte[] root = RangeProof.root(m.start(), m.end(), m.size(), leaves, m.proof());
                if (!MessageDigest.isEqual(root, cp.root())) {
                    problem("the rows and the range proof give root "
                            + Base64.getEncoder().encodeToString(root)
                            + ", not the checkpoint's " + Base64.getEncoder().encodeToString(cp.root())
                            + ": the rows are not the log's records [" + m.start() + ", " + m.end() + ")");
                }
            } catch (ProofException e) {
                problem("the range proof does not fit the range: " + e.getMessage());
            }
        }
        return result(m, next[0] - m.start(), m.start() == 0 && m.end() == m.size(), t0);
    }

    /** Row {@code id}: its typed columns against its bytes, its statement's checks, and the counts. */
    private void check(long id, ExportRow row, EntryChecks entries) throws IOException {
        Map<String, Object> fields;
        ExportRow again;
        try {
            again = ExportRow.of(row.recordId(), row.statement());
            fields = openings != null || EntryChecks.CONTINUATION.equals(again.kind())
                    ? CanonicalStatementReader.fields(row.statement())
                    : checked(again);
        } catch (IllegalArgumentException | NullPointerException | ClassCastException e) {
            problem("record " + id + "'s statement is not a canonical statement: " + e.getMessage());
            return;
        }
        String differ = again.differences(row);
        if (!differ.isEmpty()) {
            problem("record " + id + "'s columns " + differ + " differ from its canonical statement bytes");
        }
        entries.entry(id, row.statement(), fields, null, null);
        if (openings != null) {
            opened(id, again, fields);
        }
        byKind.merge(again.kind(), 1L, Long::sum);
        if (CAST_VOTE.equals(again.kind())) {
            byElection.merge(String.valueOf(again.electionId()), 1L, Long::sum);
            byHour.merge(HOUR.format(Instant.ofEpochMilli(again.statementMillis())), 1L, Long::sum);
        }
    }

    /**
     * The fields {@link EntryChecks#entry} reads of a statement that is no continuation, taken from
     * its row (made from the same bytes) rather than read from the bytes a second time: most rows'
     * check is one pass over their bytes.
     */
    private static Map<String, Object> checked(ExportRow row) {
        Map<String, Object> fields = new HashMap<>(8);
        fields.put("board", row.board());
        fields.put("kind", row.kind());
        fields.put("statement_timestamp", row.statementMillis());
        fields.put("delivery_id", row.deliveryId());
        fields.put("sender_public_key", row.senderPublicKey());
        return fields;
    }

    /** Opens the openings file beside records file {@code f}; false (a problem said) when it cannot be used. */
    private boolean openOpenings(Path dir, ExportManifest.File f, ExportManifest.File o) throws IOException {
        if (o.first() != f.first() || o.end() != f.end()) {
            problem("openings file " + o.name() + " holds records [" + o.first() + ", " + o.end() + "), not those of "
                    + f.name() + " [" + f.first() + ", " + f.end() + ")");
            return false;
        }
        Path file = dir.resolve(o.name()).normalize();
        if (!file.startsWith(dir.normalize()) || !Files.isRegularFile(file)) {
            problem("openings file " + o.name() + " is missing");
            return false;
        }
        if (!MessageDigest.isEqual(ParquetFiles.sha256(file), o.sha256())) {
            problem("openings file " + o.name() + " is not the file the manifest names: its SHA-256 differs");
        }
        openings = new ParquetFiles.OpeningsReader(file);
        openingsName = o.name();
        pending = openings.next();
        return true;
    }

    /** The opened values of record {@code id} (those due now in the openings file), each against its commitment. */
    private void opened(long id, ExportRow row, Map<String, Object> fields) throws IOException {
        Map<String, Object> commitments = Map.of();
        if (fields.get("commitments") instanceof byte[] raw) {
            try {
                commitments = CanonicalStatementReader.map(raw);
            } catch (IllegalArgumentException e) {
                problem("record " + id + "'s commitments do not decode: " + e.getMessage());
            }
        }
        String previous = null;
        while (pending != null && pending.recordId() <= id) {
            OpenedValue o = pending;
            pending = openings.next();
            if (o.recordId() < id) {
                problem("openings file " + openingsName + " opens record " + o.recordId() + " after record " + (id - 1)
                        + "'s row: rows dropped, added or moved");
            } else if (previous != null && previous.compareTo(o.path()) >= 0) {
                problem("openings file " + openingsName + " opens " + o.path() + " of record " + id
                        + " twice or out of path order");
            } else if (!(commitments.get(o.path()) instanceof byte[] c)) {
                problem("openings file " + openingsName + " opens " + o.path() + " of record " + id
                        + ", which its statement does not commit to");
            } else if (!PersonalCommitment.opens(c, row.board(), row.deliveryId(), o.path(), o.salt(), o.value())) {
                problem("openings file " + openingsName + "'s value of " + o.path() + " of record " + id
                        + " does not open the statement's commitment: it is not the value the leaf commits to");
            } else {
                opened++;
            }
            previous = o.path();
        }
    }

    /** After a records file: an opened value left in its openings file is of no row of it. */
    private void closeOpenings() throws IOException {
        if (openings != null && pending != null) {
            problem("openings file " + openingsName + " opens record " + pending.recordId()
                    + ", which is not in its records file: rows dropped, added or moved");
        }
    }

    private Result result(ExportManifest m, long rows, boolean whole, long t0) {
        return new Result(
                m,
                rows,
                List.copyOf(problems),
                new Counts(Map.copyOf(byKind), Map.copyOf(byElection), Map.copyOf(byHour)),
                whole,
                opened,
                (System.nanoTime() - t0) / 1e9);
    }
}
