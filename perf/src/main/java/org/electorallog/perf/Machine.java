package org.electorallog.perf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.electorallog.store.DatabaseServer;

/** What a result was measured on: cores, memory, CPU model, and the versions of everything. */
final class Machine {
    private Machine() {}

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("memory_gib", Math.round(memoryBytes() / (1024.0 * 1024 * 1024)));
        m.put("cpu", cpuModel());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("commit", commit());
        m.put(
                "note",
                "Kafka broker, projector, PostgreSQL, query API and the load generator share these cores; loopback network");
        return m;
    }

    /** The commit the code was built from ({@code git rev-parse --short HEAD}; "+dirty" with local changes outside perf/results). */
    static String commit() {
        try {
            String head = run("git", "rev-parse", "--short", "HEAD");
            // the results files the runs write are data, not the code measured
            String changes =
                    run("git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)perf/results");
            return head == null ? "unknown" : head + (changes == null || changes.isEmpty() ? "" : "+dirty");
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.waitFor() == 0 ? out : null;
    }

    static Map<String, String> versions(DatabaseServer db) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("kafka", AppInfoParser.getVersion());
        try {
            v.put("postgresql", db.serverVersion());
        } catch (Exception e) {
            v.put("postgresql", "unknown: " + e.getMessage());
        }
        v.put("java", System.getProperty("java.version"));
        return v;
    }

    /**
     * Whether PostgreSQL's shared memory is in huge pages ({@code huge_pages_status}, PostgreSQL 17+:
     * "on" or "off"), and the huge pages the kernel has reserved ({@code HugePages_Total} of
     * /proc/meminfo; decision 82: without them each new connection's backend faults in every 4 KB of
     * shared buffers it first touches).
     */
    static Map<String, Object> hugePages(DatabaseServer db) {
        Map<String, Object> h = new LinkedHashMap<>();
        try {
            h.put("postgresql_status", db.hugePagesStatus());
        } catch (Exception e) {
            h.put("postgresql_status", "unknown: " + e.getMessage());
        }
        h.put("kernel_reserved", meminfo("HugePages_Total:"));
        h.put("kernel_page_kb", meminfo("Hugepagesize:"));
        return h;
    }

    /** A /proc/meminfo figure (the number on the line that starts with {@code key}), or -1 when not found. */
    private static long meminfo(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }

    private static long memoryBytes() {
        long kb = meminfo("MemTotal:");
        return kb < 0 ? Runtime.getRuntime().maxMemory() : kb * 1024;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }
}
