package org.electorallog.schemas;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * The statement rules' part about text: every string anywhere in a statement is well-formed
 * UTF-8 (RFC 3629) or UTF-16 and holds no U+0000, which PostgreSQL text cannot store.
 */
final class TextRules {
    private TextRules() {}

    /**
     * Every string anywhere in a value must be well-formed UTF-8 / UTF-16 without U+0000 (PostgreSQL
     * text cannot hold it): the first string in {@code v} that {@link #string} refuses, its field a path relative to
     * {@code v} ("" for {@code v} itself). The path is built on the way out, only when there is a
     * fault: this runs on every field of every event, in the producer and in the projector.
     */
    static StatementRules.Violation fault(Object v) {
        if (v instanceof IndexedRecord r) {
            for (Schema.Field f : r.getSchema().getFields()) {
                StatementRules.Violation x = fault(r.get(f.pos()));
                if (x != null) {
                    return under(f.name(), x);
                }
            }
        } else if (v instanceof CharSequence s) {
            return string(s);
        } else if (v instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                StatementRules.Violation x = fault(item);
                if (x != null) {
                    return under("[" + i + "]", x);
                }
                i++;
            }
        } else if (v instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                StatementRules.Violation x = fault(e.getKey());
                if (x != null) {
                    return under(" key", x);
                }
                x = fault(e.getValue());
                if (x != null) {
                    return under("[" + StatementRules.printable(String.valueOf(e.getKey())) + "]", x);
                }
            }
        }
        return null;
    }

    /** A fault found inside {@code step} (a field name, "[index]", "[map key]" or " key"), its path prefixed. */
    private static StatementRules.Violation under(String step, StatementRules.Violation inner) {
        String rest = inner.field();
        String path =
                rest.isEmpty() ? step : rest.startsWith("[") || rest.startsWith(" ") ? step + rest : step + "." + rest;
        return new StatementRules.Violation(path, inner.rule(), inner.reason());
    }

    private static StatementRules.Violation string(CharSequence s) {
        if (s instanceof Utf8 u ? !wellFormedUtf8(u.getBytes(), u.getByteLength()) : hasUnpairedSurrogate(s)) {
            return new StatementRules.Violation(
                    "",
                    s instanceof Utf8
                            ? "is not well-formed UTF-8"
                            : "holds an unpaired surrogate (not well-formed Unicode)",
                    BadEventException.Reason.INVALID);
        }
        // a Utf8 is scanned as its bytes (well-formed, so a 0x00 byte is U+0000 and nothing else):
        // its chars would make it a String, which the projector does not need for most fields
        int at = s instanceof Utf8 u ? zeroByte(u.getBytes(), u.getByteLength()) : zeroChar(s);
        if (at >= 0) {
            // the position in chars, as a String's would be
            int i = s instanceof Utf8 u ? new String(u.getBytes(), 0, at, StandardCharsets.UTF_8).length() : at;
            return new StatementRules.Violation(
                    "",
                    "holds the character U+0000 at position " + i + ", which PostgreSQL text cannot store",
                    BadEventException.Reason.INVALID);
        }
        return null;
    }

    /** The index of the first 0x00 byte of {@code b[0..n)}, or -1. */
    private static int zeroByte(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the first U+0000 of {@code s}, or -1. */
    private static int zeroChar(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\u0000') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether {@code b[0..n)} is well-formed UTF-8 (RFC 3629 section 4): no overlong forms, no
     * surrogates (U+D800..U+DFFF), nothing above U+10FFFF. Allocation-free: it runs on every string
     * of every event.
     */
    static boolean wellFormedUtf8(byte[] b, int n) {
        int i = 0;
        while (i < n) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int len;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                len = 2;
            } else if (c >= 0xE0 && c <= 0xEF) {
                len = 3;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                len = 4;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return false;
            }
            if (i + len > n) {
                return false;
            }
            int second = b[i + 1] & 0xFF;
            if (second < lo || second > hi) {
                return false;
            }
            for (int k = 2; k < len; k++) {
                int x = b[i + k] & 0xFF;
                if (x < 0x80 || x > 0xBF) {
                    return false;
                }
            }
            i += len;
        }
        return true;
    }

    private static boolean hasUnpairedSurrogate(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
