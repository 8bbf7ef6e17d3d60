package org.electorallog.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * What a monitor has verified, one file per board in its state directory ({@code <board>.json}):
 * the latest checkpoint it verified (the signed note as served), which API served it, and the size
 * the board was sealed at once the monitor checked the seal against the log. A file is replaced by
 * write, fsync and atomic rename, so a crash leaves the old state or the new one; a restarted monitor
 * goes on from it.
 */
public final class MonitorState {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    /** A board's verified state. */
    public record Board(String checkpoint, String source, long sealedSize) {
        public boolean sealed() {
            return sealedSize >= 0;
        }
    }

    public MonitorState(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the monitor's state directory " + dir, e);
        }
    }

    public Path dir() {
        return dir;
    }

    public Optional<Board> read(String board) {
        Path f = file(board);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        try {
            JsonNode n = JSON.readTree(Files.readString(f));
            return Optional.of(new Board(
                    n.get("checkpoint").asText(),
                    n.get("source").asText(),
                    n.path("sealed_size").asLong(-1)));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "the monitor's state of board " + board + " (" + f + ") cannot be read: " + e.getMessage()
                            + "; restore it from a backup rather than delete it",
                    e);
        }
    }

    public void write(String board, Board state) {
        ObjectNode n = JSON.createObjectNode();
        n.put("checkpoint", state.checkpoint());
        n.put("source", state.source());
        n.put("sealed_size", state.sealedSize());
        Path f = file(board);
        Path tmp = dir.resolve(board + ".json.tmp");
        try {
            Files.writeString(tmp, n.toString(), StandardCharsets.UTF_8);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the monitor's state of board " + board, e);
        }
    }

    /** Appends a finding to {@code findings.jsonl}, the record that outlives the process. */
    public void append(Finding f) {
        try {
            Files.writeString(
                    dir.resolve("findings.jsonl"),
                    f.toJson() + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record a finding in " + dir, e);
        }
    }

    private Path file(String board) {
        // board names are [a-z0-9][a-z0-9._-]{0,63}: safe as file names
        if (!board.matches("[a-z0-9][a-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException("'" + board + "' is not a board name");
        }
        return dir.resolve(board + ".json");
    }
}
