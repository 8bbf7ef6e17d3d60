package org.electorallog.statement;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.electorallog.statement.PersonalOpenings.Opening;

/**
 * The openings of a record in the committed form as the projection stores them, in the record's
 * own row (docs/personal-data.md "The projection"): every salt, and only the values that no column
 * of the row already holds, each path as its index in {@link PersonalCommitment#PATHS}.
 *
 * <pre>
 * stored = 0x80 uvarint(n) { code salt[16] [str(value)] }     by code, ascending
 * code   = one byte: the path's index in PersonalCommitment.PATHS
 *          (0 body.country, 1 body.error, 2 body.ip, 3 user_id, 4 username)
 * value  = written for the paths not in {@link #IN_COLUMNS} only (body.country, body.ip); the value
 *          of body.error, user_id and username is the row's error, user_id and username column
 * str(s) = uvarint(length of UTF-8 s) UTF-8 s
 * </pre>
 *
 * The leading 0x80 tells it from {@link PersonalOpenings#encode}, whose first byte is the count
 * (at most five): a row moved from store V19's table holds those bytes, values included, and is
 * read as it is.
 */
public final class ProjectedOpenings {
    /** The first byte of this encoding. */
    public static final int TAG = 0x80;

    /** The paths whose value a record's row holds in a column of its own, stored here without it. */
    public static final Set<String> IN_COLUMNS = Set.of("body.error", "user_id", "username");

    /** A record's columns that hold personal values: its user ID, username and error. */
    public record Columns(String userId, String username, String error) {
        /** The column of {@code path}, one of {@link #IN_COLUMNS}. */
        String of(String path) {
            return switch (path) {
                case "user_id" -> userId;
                case "username" -> username;
                case "body.error" -> error;
                default -> throw new IllegalArgumentException(path + " has no column of its own");
            };
        }
    }

    private ProjectedOpenings() {}

    /**
     * The stored form of {@code openings}; the values of {@link #IN_COLUMNS} are left out, so they
     * must be in the row's columns (the projector puts them there from the same openings).
     */
    public static byte[] encode(List<Opening> openings) {
        List<Opening> sorted = new ArrayList<>(openings);
        sorted.sort(Comparator.comparingInt(o -> code(o.path())));
        ByteArrayOutputStream out = new ByteArrayOutputStream(20 * sorted.size() + 2);
        out.write(TAG);
        PersonalCommitment.uvarint(out, sorted.size());
        int previous = -1;
        for (Opening o : sorted) {
            int code = code(o.path());
            if (code == previous) {
                throw new IllegalArgumentException("two openings of " + o.path());
            }
            previous = code;
            out.write(code);
            out.writeBytes(o.salt());
            if (!IN_COLUMNS.contains(o.path())) {
                PersonalCommitment.str(out, o.value());
            }
        }
        return out.toByteArray();
    }

    /**
     * The openings of a row: {@code stored} as {@link #encode} wrote it, with the values of {@link
     * #IN_COLUMNS} from {@code columns} (or V19's encoding, values included). Anything else, or a
     * column empty where a salt is stored, is an {@link IllegalArgumentException} saying where.
     */
    public static List<Opening> decode(byte[] stored, Columns columns) {
        if (stored.length == 0 || (stored[0] & 0xFF) != TAG) {
            return PersonalOpenings.decode(stored);
        }
        ByteBuffer in = ByteBuffer.wrap(stored, 1, stored.length - 1);
        long n = PersonalOpenings.uvarint(in);
        if (n > PersonalCommitment.PATHS.size()) {
            throw new IllegalArgumentException(
                    "stored openings: " + n + " of " + PersonalCommitment.PATHS.size() + " personal fields");
        }
        List<Opening> out = new ArrayList<>((int) n);
        int previous = -1;
        for (long i = 0; i < n; i++) {
            if (!in.hasRemaining()) {
                throw new IllegalArgumentException("stored openings: cut short after " + i + " of " + n);
            }
            int code = in.get() & 0xFF;
            if (code >= PersonalCommitment.PATHS.size() || code <= previous) {
                throw new IllegalArgumentException("stored openings: path code " + code + " out of order or unknown");
            }
            previous = code;
            String path = PersonalCommitment.PATHS.get(code);
            if (in.remaining() < PersonalCommitment.SALT_BYTES) {
                throw new IllegalArgumentException("stored openings: salt of " + path + " cut short");
            }
            byte[] salt = new byte[PersonalCommitment.SALT_BYTES];
            in.get(salt);
            String value;
            if (IN_COLUMNS.contains(path)) {
                value = columns.of(path);
                if (value == null) {
                    throw new IllegalArgumentException(
                            "stored openings: the salt of " + path + " is stored but its column is empty");
                }
            } else {
                value = PersonalOpenings.str(in);
            }
            out.add(new Opening(path, salt, value));
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("stored openings: " + in.remaining() + " bytes after the last one");
        }
        return out;
    }

    private static int code(String path) {
        int code = PersonalCommitment.PATHS.indexOf(path);
        if (code < 0) {
            throw new IllegalArgumentException(path + " is not a personal field " + PersonalCommitment.PATHS);
        }
        return code;
    }
}
