package org.electorallog.witness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * The latest cosigned checkpoint of each origin, on disk (C2SP tlog-witness: "The witness MUST
 * persist the new checkpoint before responding"). One file per origin, named by the SHA-256 of the
 * origin, holding the checkpoint note with the log's signatures the witness verified and its own
 * cosignature (what the monitoring prefix serves; a file written before that holds the note as received); replaced by write-to-temporary, fsync, atomic
 * rename and a directory fsync, so a crash leaves the old or the new checkpoint, never a torn one,
 * and a restarted witness never cosigns a smaller tree than it did before.
 */
final class WitnessState {
    /**
     * The file {@link #initialise} writes, so that a state directory that has not cosigned anything
     * yet is still told apart from one that is missing or was emptied.
     */
    static final String MARKER = "WITNESS-STATE";

    private final Path dir;

    private WitnessState(Path dir) {
        this.dir = dir;
    }

    /**
     * Opens an initialised state directory. A missing or empty one is refused (issue 41): a witness
     * that lost its state would cosign any size again, which is the rollback it exists to refuse, so
     * only {@link #initialise} (`electoral-log witness init`, or {@code --init} on the first start)
     * makes one.
     */
    static WitnessState open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("the witness state directory " + dir + " does not exist; a witness that lost its "
                    + "state would cosign a rollback. On the first start only: `electoral-log witness init --state "
                    + dir + "` (or --init)");
        }
        boolean marked = Files.exists(dir.resolve(MARKER));
        boolean checkpoints;
        try (var files = Files.list(dir)) {
            checkpoints = files.anyMatch(f -> f.getFileName().toString().endsWith(".checkpoint"));
        }
        if (!marked && !checkpoints) {
            throw new IOException("the witness state directory " + dir + " holds no witness state (no " + MARKER
                    + " file, no checkpoint); a witness that lost its state would cosign a rollback. On the first "
                    + "start only: `electoral-log witness init --state " + dir + "` (or --init)");
        }
        return new WitnessState(dir);
    }

    /**
     * Makes a new state directory (with its {@link #MARKER}) and opens it; an existing state
     * directory is opened as it is, never emptied.
     */
    static WitnessState initialise(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path marker = dir.resolve(MARKER);
        if (!Files.exists(marker)) {
            Path tmp = dir.resolve(MARKER + ".tmp");
            Files.writeString(
                    tmp,
                    "C2SP tlog-witness state: the latest cosigned checkpoint per origin, one file each. "
                            + "Keep this directory; a witness started without it would cosign rollbacks.\n",
                    StandardCharsets.UTF_8);
            Files.move(tmp, marker, StandardCopyOption.ATOMIC_MOVE);
        }
        return open(dir);
    }

    /** The latest cosigned checkpoint of {@code origin}, if any. */
    Optional<Checkpoint> latest(String origin) throws IOException {
        Path f = file(origin);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        String note = Files.readString(f, StandardCharsets.UTF_8);
        try {
            Checkpoint cp = Checkpoint.parse(SignedNote.parse(note).text());
            if (!cp.origin().equals(origin)) {
                throw new IOException("state file " + f + " holds origin '" + cp.origin() + "', not '" + origin + "'");
            }
            return Optional.of(cp);
        } catch (ProofException e) {
            throw new IOException("state file " + f + " is not a checkpoint note: " + e.getMessage(), e);
        }
    }

    /** Durably replaces the latest checkpoint of {@code origin}. */
    void store(String origin, String note) throws IOException {
        Path target = file(origin);
        Path tmp = dir.resolve(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(note.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the state directory " + dir + " does not support atomic renames", e);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory for fsync; the rename is still atomic
        }
    }

    /**
     * The stored note of the origin whose SHA-256 is {@code originHash} (64 lowercase hex digits,
     * the state file's name), if any; anything else names no file.
     */
    Optional<String> byOriginHash(String originHash) throws IOException {
        if (!originHash.matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        Path f = dir.resolve(originHash + ".checkpoint");
        return Files.exists(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8)) : Optional.empty();
    }

    private Path file(String origin) {
        return dir.resolve(Hex.encode(Hashes.sha256(origin.getBytes(StandardCharsets.UTF_8))) + ".checkpoint");
    }
}
