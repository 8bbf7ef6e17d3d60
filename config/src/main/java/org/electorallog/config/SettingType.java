package org.electorallog.config;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * What a {@link Setting}'s value may be and how it is read: free text, a path, a comma-separated
 * list, a whole number within bounds, a TCP port, one of a few words, or a secret (read from the
 * variable or from the file its {@code _FILE} twin names). {@link Configuration} checks every value
 * it is given against its setting's type when it loads, so a bad value fails the start, naming the
 * setting, even in a process that would not read it.
 */
public final class SettingType {
    /** The kinds of value. */
    public enum Kind {
        TEXT,
        PATH,
        LIST,
        WHOLE,
        WORDS,
        SECRET
    }

    public static final SettingType TEXT = new SettingType(Kind.TEXT, 0, 0, List.of(), 0);
    public static final SettingType PATH = new SettingType(Kind.PATH, 0, 0, List.of(), 0);
    public static final SettingType LIST = new SettingType(Kind.LIST, 0, 0, List.of(), 0);
    public static final SettingType PORT = whole(0, 65_535);
    public static final SettingType SECRET = new SettingType(Kind.SECRET, 0, 0, List.of(), 0);

    public final Kind kind;
    public final long min;
    public final long max;
    public final List<String> words;
    /** For a base64 secret, the fewest bytes it may decode to; 0 for any other secret. */
    public final int minBytes;

    private SettingType(Kind kind, long min, long max, List<String> words, int minBytes) {
        this.kind = kind;
        this.min = min;
        this.max = max;
        this.words = words;
        this.minBytes = minBytes;
    }

    /** A whole number in [min, max]. */
    public static SettingType whole(long min, long max) {
        return new SettingType(Kind.WHOLE, min, max, List.of(), 0);
    }

    /** One of {@code words}, matched without regard to case and read as listed here. */
    public static SettingType words(String... words) {
        return new SettingType(Kind.WORDS, 0, 0, List.of(words), 0);
    }

    /** A secret holding base64 of at least {@code minBytes} bytes. */
    public static SettingType base64Secret(int minBytes) {
        return new SettingType(Kind.SECRET, 0, 0, List.of(), minBytes);
    }

    /** The value a person wrote, checked: the whole number, the word as listed, or the stripped text. */
    Object parse(String env, String value) {
        String v = value.strip();
        switch (kind) {
            case WHOLE -> {
                long n;
                try {
                    n = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(env + " must be a whole number, got '" + v + "'");
                }
                if (n < min || n > max) {
                    throw new IllegalArgumentException(env + " must be between " + min + " and " + max + ", got " + n);
                }
                return n;
            }
            case WORDS -> {
                return words.stream()
                        .filter(w -> w.equalsIgnoreCase(v))
                        .findFirst()
                        .orElseThrow(() ->
                                new IllegalArgumentException(env + " must be one of " + words + ", got '" + v + "'"));
            }
            case LIST -> {
                return Arrays.stream(v.split(","))
                        .map(String::strip)
                        .filter(x -> !x.isEmpty())
                        .toList();
            }
            case SECRET -> {
                if (minBytes > 0) {
                    byte[] b;
                    try {
                        b = Base64.getDecoder().decode(v);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(env + " must be base64");
                    }
                    if (b.length < minBytes) {
                        throw new IllegalArgumentException(
                                env + " must hold at least " + minBytes + " bytes, it holds " + b.length);
                    }
                    return b;
                }
                return v;
            }
            default -> {
                return v;
            }
        }
    }

    /** How docs/configuration.md names this type. */
    public String describe() {
        return switch (kind) {
            case TEXT -> "text";
            case PATH -> "path";
            case LIST -> "comma-separated list";
            case WHOLE -> min == 0 && max == 65_535 ? "port" : "whole number " + min + " to " + max;
            case WORDS -> "one of " + String.join(", ", words);
            case SECRET -> minBytes > 0 ? "secret, base64 of at least " + minBytes + " bytes" : "secret";
        };
    }
}
