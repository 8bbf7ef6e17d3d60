package org.electorallog.publisher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A directory of boards in the C2SP tlog-tiles layout, {@code <root>/<board>/<path>}, that a web
 * server serves as it is. Every file is written under a temporary name, forced to disk and renamed
 * into place, then its directory forced: a reader sees a whole file or none, and after a crash a
 * file that is there is whole.
 */
final class TlogDirectory {
    private final Path root;

    TlogDirectory(Path root) throws IOException {
        this.root = Files.createDirectories(root).toRealPath();
    }

    Path root() {
        return root;
    }

    /** The file of {@code path} of {@code board}; a path that leaves the board's directory is refused. */
    Path file(String board, String path) {
        Path dir = root.resolve(board).normalize();
        Path f = dir.resolve(path).normalize();
        if (!dir.getParent().equals(root) || !f.startsWith(dir)) {
            throw new IllegalArgumentException("'" + board + "/" + path + "' is not a path under " + root);
        }
        return f;
    }

    boolean exists(String board, String path) {
        return Files.isRegularFile(file(board, path));
    }

    /** The file's bytes, or null when there is none. */
    byte[] read(String board, String path) throws IOException {
        Path f = file(board, path);
        return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
    }

    /** Writes the file whole (temporary name, fsync, rename, fsync of its directory). */
    void write(String board, String path, byte[] bytes) throws IOException {
        Path f = file(board, path);
        Path dir = Files.createDirectories(f.getParent());
        Path tmp = Files.createTempFile(dir, ".publishing-", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /**
     * Removes the partial forms {@code <path>.p/<W>} of the full tile or bundle at {@code path}
     * (every width) and their directory.
     */
    void deletePartials(String board, String path) throws IOException {
        Path partials = file(board, path + ".p");
        if (!Files.isDirectory(partials)) {
            return;
        }
        try (var widths = Files.list(partials)) {
            for (Path w : (Iterable<Path>) widths::iterator) {
                Files.deleteIfExists(w);
            }
        }
        Files.deleteIfExists(partials);
    }
}
