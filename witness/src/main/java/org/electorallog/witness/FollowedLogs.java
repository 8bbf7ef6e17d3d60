package org.electorallog.witness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.electorallog.core.NoteVerifier;

/**
 * The logs a witness follows (C2SP tlog-witness: "Each witness is configured with a list of
 * supported log public keys", a log being identified by its origin line). An entry is
 * {@code <origin> <verifier key>}; an origin ending in {@code *} follows every origin with that
 * prefix, because the electoral log opens one log per board ({@code ELECTORAL_LOG_ORIGIN_PREFIX} +
 * board name) under one key. Each matching origin still has its own state.
 */
public final class FollowedLogs {
    /** One configured entry. */
    public record Entry(String origin, NoteVerifier key) {
        boolean matches(String candidate) {
            return origin.endsWith("*")
                    ? candidate.startsWith(origin.substring(0, origin.length() - 1))
                    : candidate.equals(origin);
        }
    }

    private final List<Entry> entries;

    private FollowedLogs(List<Entry> entries) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a witness must follow at least one log (--log '<origin> <vkey>')");
        }
        this.entries = List.copyOf(entries);
    }

    /** Parses entries {@code "<origin> <vkey>"}; blank lines and lines starting with # are skipped. */
    public static FollowedLogs parse(List<String> lines) {
        List<Entry> entries = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            // the key is the last word (a vkey holds no whitespace); the origin is all before it, and may
            // hold spaces (C2SP tlog-checkpoint allows any origin line: "go.sum database tree")
            int split = lastWhitespace(line);
            if (split < 0) {
                throw new IllegalArgumentException(
                        "a followed log is '<origin> <verifier key>' (origin may end in *), got '" + line + "'");
            }
            String origin = line.substring(0, split).strip();
            if (origin.equals("*")) {
                throw new IllegalArgumentException("the origin pattern '*' would follow any origin; give a prefix");
            }
            entries.add(new Entry(origin, NoteVerifier.parse(line.substring(split + 1))));
        }
        return new FollowedLogs(entries);
    }

    private static int lastWhitespace(String line) {
        for (int i = line.length() - 1; i >= 0; i--) {
            if (Character.isWhitespace(line.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The verifier keys trusted for {@code origin}, empty when the witness does not follow it. */
    public Optional<List<NoteVerifier>> keysFor(String origin) {
        List<NoteVerifier> keys = new ArrayList<>();
        for (Entry e : entries) {
            if (e.matches(origin)) {
                keys.add(e.key());
            }
        }
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys);
    }

    /** Each entry as configured, {@code <origin> <vkey>}, indented one a line: what {@code GET /} shows. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            sb.append("  ")
                    .append(e.origin())
                    .append(' ')
                    .append(e.key().verifierKey())
                    .append('\n');
        }
        return sb.toString();
    }

    public List<Entry> entries() {
        return entries;
    }
}
