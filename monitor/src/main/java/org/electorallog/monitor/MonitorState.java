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
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * What a monitor has verified, one file per board in its state directory ({@code <board>.json}):
 * the latest checkpoint it verified (the signed note as served), which API served it, the size
 * the board was sealed at once the monitor checked the seal against the log, the size up to which
 * it read and checked the board's entries, and the first entry it read in the committed form. A
 * file is replaced by
 * write, fsync and atomic rename, so a crash leaves the old state or the new one; a restarted monitor
 * goes on from it.
 */
public final class MonitorState {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    /**
     * A board's verified state.
     *
     * @param checkpoint    the latest verified checkpoint (signed note)
     * @param source        the API that served it
     * @param sealedSize    the size the board was sealed at, or -1
     * @param entriesRead   the tree size up to which the board's entries were read and checked: never
     *     past an entry the monitor could not read (issue 61), behind the checkpoint while it cannot
     * @param committedFrom the first entry read in the committed form (format 2), or -1: from it on,
     *     every entry bundle is public, and one withheld from anyone is a finding
     */
    public record Board(String checkpoint, String source, long sealedSize, long entriesRead, long committedFrom) {
        /** A board first seen: its checkpoint trusted, none of its entries read yet. */
        static Board firstSight(String checkpoint, String source) {
            return new Board(checkpoint, source, -1, 0, -1);
        }

        public boolean sealed() {
            return sealedSize >= 0;
        }

        Board withCheckpoint(String note, String from) {
            return new Board(note, from, sealedSize, entriesRead, committedFrom);
        }

        Board withSeal(long size) {
            return new Board(checkpoint, source, size, entriesRead, committedFrom);
        }

        Board withEntries(long read, long committed) {
            return new Board(checkpoint, source, sealedSize, read, committed);
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
            String checkpoint = n.get("checkpoint").asText();
            // a state written before entries_read was kept took every entry up to its checkpoint as read
            long entriesRead = n.has("entries_read") ? n.get("entries_read").asLong() : sizeOf(checkpoint);
            return Optional.of(new Board(
                    checkpoint,
                    n.get("source").asText(),
                    n.path("sealed_size").asLong(-1),
                    entriesRead,
                    n.path("committed_from").asLong(-1)));
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
        n.put("entries_read", state.entriesRead());
        n.put("committed_from", state.committedFrom());
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

    /** The boards this state holds, by name, sorted. */
    public List<String> boards() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - ".json".length()))
                    .filter(n -> n.matches("[a-z0-9][a-z0-9._-]{0,63}"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the monitor's state directory " + dir, e);
        }
    }

    private static long sizeOf(String note) throws IOException {
        try {
            return Checkpoint.parse(SignedNote.parse(note).text()).size();
        } catch (ProofException e) {
            throw new IOException("its checkpoint cannot be parsed: " + e.getMessage(), e);
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
