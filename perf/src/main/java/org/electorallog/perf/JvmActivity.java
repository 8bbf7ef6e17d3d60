package org.electorallog.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM's total JIT compilation time and GC collections at one moment, and the CPU time the
 * hypervisor gave to other guests ("steal", the eighth value of {@code /proc/stat}'s cpu line, in
 * USER_HZ ticks of 10 ms; -1 where there is no such file).
 */
record JvmActivity(long jitMillis, long gcCount, long gcMillis, long stealTicks) {
    /**
     * Taken after every timed run, so it is kept cheap: the beans are looked up once (each
     * {@code getGarbageCollectorMXBeans} builds them anew) and only the first line of
     * {@code /proc/stat} is read (its {@code intr} line runs to kilobytes).
     */
    static JvmActivity now() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : GC) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new JvmActivity(COMPILATION.getTotalCompilationTime(), count, millis, steal());
    }

    private static final List<GarbageCollectorMXBean> GC = ManagementFactory.getGarbageCollectorMXBeans();
    private static final CompilationMXBean COMPILATION = ManagementFactory.getCompilationMXBean();

    private static long steal() {
        try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/stat"), StandardCharsets.US_ASCII)) {
            String line = in.readLine();
            String[] cpu = line == null ? new String[0] : line.trim().split("\\s+");
            return cpu.length > 8 && cpu[0].equals("cpu") ? Long.parseLong(cpu[8]) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Nothing yet: the start of a sum of {@link #since} differences. */
    static final JvmActivity NONE = new JvmActivity(0, 0, 0, 0);

    /** What happened between {@code before} and this moment (steal -1 when either has none). */
    JvmActivity since(JvmActivity before) {
        return new JvmActivity(
                jitMillis - before.jitMillis,
                gcCount - before.gcCount,
                gcMillis - before.gcMillis,
                stealTicks >= 0 && before.stealTicks >= 0 ? stealTicks - before.stealTicks : -1);
    }

    /** The sum of two differences. */
    JvmActivity plus(JvmActivity other) {
        return new JvmActivity(
                jitMillis + other.jitMillis,
                gcCount + other.gcCount,
                gcMillis + other.gcMillis,
                stealTicks >= 0 && other.stealTicks >= 0 ? stealTicks + other.stealTicks : -1);
    }

    /** A difference as a row's "during" fields. */
    Map<String, Object> during() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jit_ms_during", jitMillis);
        m.put("gc_collections_during", gcCount);
        m.put("gc_ms_during", gcMillis);
        if (stealTicks >= 0) {
            m.put("cpu_steal_ms_during", stealTicks * 10);
        }
        return m;
    }
}
