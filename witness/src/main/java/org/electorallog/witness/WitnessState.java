package org.electorallog.witness;

import java.io.IOException;
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
 * origin, holding the checkpoint note as received; replaced by write-to-temporary, fsync, atomic
 * rename and a directory fsync, so a crash leaves the old or the new checkpoint, never a torn one,
 * and a restarted witness never cosigns a smaller tree than it did before.
 */
final class WitnessState {
    private final Path dir;

    WitnessState(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
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
            ch.write(java.nio.ByteBuffer.wrap(note.getBytes(StandardCharsets.UTF_8)));
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

    private Path file(String origin) {
        return dir.resolve(Hex.encode(Hashes.sha256(origin.getBytes(StandardCharsets.UTF_8))) + ".checkpoint");
    }
}
