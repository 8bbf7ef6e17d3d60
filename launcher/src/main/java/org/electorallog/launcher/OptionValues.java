package org.electorallog.launcher;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The option values the commands share, checked: a bad one is an IllegalArgumentException naming the option. */
final class OptionValues {
    private OptionValues() {}

    /** An ISO 8601 UTC time ({@code 2026-05-01T08:00:00Z}), or null when the option is absent. */
    static Instant instant(String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " must be an ISO 8601 UTC time like 2026-05-01T08:00:00Z");
        }
    }
}
