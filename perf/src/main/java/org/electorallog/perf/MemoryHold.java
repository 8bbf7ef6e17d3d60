package org.electorallog.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Holds memory away from PostgreSQL for {@code perf fill --hold-memory-gb} (issue 45 item 4): a child
 * JVM that allocates the given gigabytes and writes into every page of them, so that the kernel can
 * neither hand them to the page cache nor take them back (the machine has no swap; with swap, the
 * pages could be swapped out and the hold would leak). What is left to PostgreSQL's shared buffers
 * and page cache is then what a larger board would have on the same server (docs/perf.md).
 */
final class MemoryHold implements AutoCloseable {
    private static final int CHUNK = 256 << 20;
    private final Process process;

    private MemoryHold(Process process) {
        this.process = process;
    }

    /** Starts the holder with this JVM's class path and waits until all of it is touched. */
    static MemoryHold start(int gigabytes, Path work) throws IOException, InterruptedException {
        Path ready = Files.createDirectories(work).resolve("memory-hold.ready");
        Files.deleteIfExists(ready);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xms" + (gigabytes + 1) + "g",
                        "-Xmx" + (gigabytes + 1) + "g",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MemoryHold.class.getName(),
                        Integer.toString(gigabytes),
                        ready.toString())
                .inheritIO()
                .start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!Files.exists(ready)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the memory holder did not take " + gigabytes + " GB");
            }
            Thread.sleep(100); // poll interval; the holder's ready file is the condition
        }
        return new MemoryHold(p);
    }

    /** {@code MemAvailable} and {@code Cached} of /proc/meminfo, in GB (what is left, and the page cache). */
    static Map<String, Double> meminfo() throws IOException {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            String[] f = line.split("\\s+");
            if (f[0].equals("MemTotal:") || f[0].equals("MemAvailable:") || f[0].equals("Cached:")) {
                out.put(f[0].substring(0, f[0].length() - 1), Latencies.round(Long.parseLong(f[1]) / 1048576.0));
            }
        }
        return out;
    }

    /** The holder's process: allocates, touches every page, says it is ready, then waits to be killed. */
    public static void main(String[] args) throws Exception {
        long bytes = Long.parseLong(args[0]) << 30;
        List<byte[]> held = new ArrayList<>();
        for (long got = 0; got < bytes; got += CHUNK) {
            byte[] chunk = new byte[CHUNK];
            for (int i = 0; i < CHUNK; i += 4096) {
                chunk[i] = 1;
            }
            held.add(chunk);
        }
        Files.writeString(Path.of(args[1]), Integer.toString(held.size()));
        Thread.sleep(Long.MAX_VALUE); // held until the fill kills this process
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
