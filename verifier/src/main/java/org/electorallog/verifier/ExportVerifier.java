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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.CompactRange;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.RangeProof;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ExportRow;
import org.electorallog.export.ParquetFiles;
import org.electorallog.statement.CanonicalStatementReader;

/**
 * {@code electoral-log verify-export DIR} (issue 63): an export's Parquet files checked against
 * the checkpoint its manifest carries, with no database. The checkpoint's log signature and its
 * witnesses' cosignatures against a quorum (C2SP signed-note, tlog-cosignature); each file's
 * SHA-256 and row range as the manifest lists them, the files covering the range in order; every
 * row's record ID in leaf order, its typed columns made again from its canonical bytes ({@link
 * ExportRow#of}) and compared, its statement checked as {@code verify-board} checks an entry
 * ({@link EntryChecks}), and its bytes hashed into its leaf (RFC 6962 section 2.1); the leaves
 * folded ({@link CompactRange}) with the manifest's range proof ({@link RangeProof}) into the
 * checkpoint's root. Then the counts (records by kind, cast votes by election and by hour): counts
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
     * counts (over the rows read; proven only when verified), and whether the range is the whole
     * tree at the checkpoint.
     */
    public record Result(
            ExportManifest manifest, long rows, List<String> problems, Counts counts, boolean whole, double seconds) {
        public boolean verified() {
            return problems.isEmpty();
        }
    }

    private final List<String> problems = new ArrayList<>();
    private final Map<String, Long> byKind = new TreeMap<>();
    private final Map<String, Long> byElection = new TreeMap<>();
    private final Map<String, Long> byHour = new TreeMap<>();

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
            NoteChecks.cosignatures(m.checkpoint(), witnesses, quorum, this::problem);
        }
        if (m.start() < 0 || m.end() <= m.start() || m.end() > m.size()) {
            problem("the manifest's range [" + m.start() + ", " + m.end() + ") is not inside a tree of " + m.size());
            return result(m, 0, false, t0);
        }
        EntryChecks entries = new EntryChecks(m.board(), List.of(), null, logKeys, p -> problem(p.message()));
        CompactRange leaves = new CompactRange(m.start());
        long[] next = {m.start()};
        for (ExportManifest.File f : m.files()) {
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
            long fileEnd = f.end();
            ParquetFiles.read(file, row -> {
                long id = next[0];
                if (row.recordId() != id || id >= fileEnd) {
                    problem("file " + f.name() + " holds record " + row.recordId() + " where record " + id
                            + (id >= fileEnd ? " (past its range)" : "") + " was due: rows dropped, added or moved");
                }
                check(id, row, entries);
                leaves.append(Hashes.leafHash(row.statement()));
                next[0]++;
            });
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
    private void check(long id, ExportRow row, EntryChecks entries) {
        Map<String, Object> fields;
        ExportRow again;
        try {
            fields = CanonicalStatementReader.fields(row.statement());
            again = ExportRow.of(row.recordId(), row.statement(), fields);
        } catch (IllegalArgumentException | NullPointerException | ClassCastException e) {
            problem("record " + id + "'s statement is not a canonical statement: " + e.getMessage());
            return;
        }
        String differ = again.differences(row);
        if (!differ.isEmpty()) {
            problem("record " + id + "'s columns " + differ + " differ from its canonical statement bytes");
        }
        entries.entry(id, row.statement(), fields, null, null);
        byKind.merge(again.kind(), 1L, Long::sum);
        if (CAST_VOTE.equals(again.kind())) {
            byElection.merge(String.valueOf(again.electionId()), 1L, Long::sum);
            byHour.merge(HOUR.format(Instant.ofEpochMilli(again.statementMillis())), 1L, Long::sum);
        }
    }

    private Result result(ExportManifest m, long rows, boolean whole, long t0) {
        return new Result(
                m,
                rows,
                List.copyOf(problems),
                new Counts(Map.copyOf(byKind), Map.copyOf(byElection), Map.copyOf(byHour)),
                whole,
                (System.nanoTime() - t0) / 1e9);
    }
}
