package org.electorallog.config;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The settings table of docs/configuration.md, made from {@link Setting}: one row per variable
 * (a secret's {@code _FILE} twin on the row after it). {@code ConfigurationTest} fails when the page's
 * table is not this; {@code java -cp config/target/classes org.electorallog.config.SettingsTable}
 * prints it.
 */
public final class SettingsTable {
    private SettingsTable() {}

    public static void main(String[] args) {
        System.out.print(markdown());
    }

    /** The table, header included, each line ending in a newline. */
    public static String markdown() {
        StringBuilder sb =
                new StringBuilder("| setting | processes | type | default | meaning |\n|---|---|---|---|---|\n");
        for (Setting s : Setting.values()) {
            String processes = processes(s);
            sb.append(row(s.env, processes, s.type.describe(), defaultCell(s), s.meaning));
            if (s.secret()) {
                sb.append(row(
                        s.fileEnv(), processes, "path", "", "a file holding " + s.env + "'s value (instead of it)"));
            }
        }
        return sb.toString();
    }

    private static String processes(Setting s) {
        return s.processes.size() == Setting.Process.values().length
                ? "all"
                : s.processes.stream()
                        .map(p -> p.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .collect(Collectors.joining(", "));
    }

    private static String defaultCell(Setting s) {
        return s.defaultValue == null ? "" : s.defaultValue.isEmpty() ? "(empty)" : "`" + s.defaultValue + "`";
    }

    private static String row(String variable, String processes, String type, String dflt, String meaning) {
        return "| `" + variable + "` | " + processes + " | " + type + " | " + dflt + " | " + meaning.replace("|", "\\|")
                + " |\n";
    }
}
