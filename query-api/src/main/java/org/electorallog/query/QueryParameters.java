package org.electorallog.query;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Validation of query-parameter values: each bad value is a 400 that names the parameter and says
 * what it takes. Text is matched by equality only, never as a pattern, so {@code %}, {@code _} and
 * quotes are ordinary characters.
 */
final class QueryParameters {
    /** Text filters are at most this long. */
    static final int MAX_TEXT = 256;
    /** Lists (visible_elections, visible_areas) have at most this many values. */
    static final int MAX_LIST = 100;
    /** IDs and sizes are below this (no board holds 2^62 records). */
    static final long MAX_NUMBER = Long.MAX_VALUE / 2;

    private QueryParameters() {}

    /** A text value, null when absent or empty; at most 256 characters, no control characters. */
    static String text(String name, String v) {
        if (v == null || v.isEmpty()) {
            return null;
        }
        if (v.length() > MAX_TEXT) {
            throw ApiException.badRequest(name + " is longer than " + MAX_TEXT + " characters");
        }
        if (v.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw ApiException.badRequest(name + " contains control characters");
        }
        return v;
    }

    /** A comma-separated list of text values, null when absent. */
    static String[] list(String name, String v) {
        if (v == null) {
            return null;
        }
        String[] parts = v.split(",", -1);
        if (parts.length > MAX_LIST) {
            throw ApiException.badRequest(name + " lists " + parts.length + " values; at most " + MAX_LIST);
        }
        for (String part : parts) {
            if (text(name, part) == null) {
                throw ApiException.badRequest(name + " has an empty value; give comma-separated values");
            }
        }
        return parts;
    }

    /** A non-negative whole number below 2^62. */
    static long number(String name, String text) {
        if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw ApiException.badRequest(name + " must be a non-negative whole number, got '" + shown(text) + "'");
        }
        if (text.length() == 19 || Long.parseLong(text) > MAX_NUMBER) {
            throw ApiException.badRequest(name + " " + shown(text) + " is too large");
        }
        return Long.parseLong(text);
    }

    /** A whole number in [min, max]. */
    static long bounded(String name, String text, long min, long max) {
        long n = number(name, text);
        if (n < min || n > max) {
            throw ApiException.badRequest(name + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    /** An ISO-8601 instant, null when absent. */
    static Instant instant(String name, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    name + " must be an ISO-8601 instant such as 2026-11-30T10:00:00Z, got '" + shown(text) + "'");
        }
    }

    /** A value as echoed in an error: at most 64 characters. */
    static String shown(String v) {
        return v.length() <= 64 ? v : v.substring(0, 64) + "...";
    }
}
