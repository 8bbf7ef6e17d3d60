package org.electorallog.schemas;

import java.util.regex.Pattern;

/** Board names: {@code [a-z0-9][a-z0-9._-]{0,63}} (at most 64 characters, safe in URLs and origins). */
public final class BoardName {
    private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    private BoardName() {}

    public static boolean isValid(String name) {
        return name != null && VALID.matcher(name).matches();
    }

    /** Throws IllegalArgumentException naming the rule when {@code name} is not a board name. */
    public static String check(String name) {
        if (!isValid(name)) {
            throw new IllegalArgumentException("board name '" + name
                    + "' must match [a-z0-9][a-z0-9._-]{0,63} (lower-case letters, digits, '.', '_', '-'; at most 64)");
        }
        return name;
    }
}
