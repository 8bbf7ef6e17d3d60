package org.electorallog.perf;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.store.StorageReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "storage", description = "Bytes per record per relation and per index")
final class StorageCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            StorageReport s = env.db.server().storageReport();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("storage", PerfCommand.JSON.readTree(s.toJson()));
            r.put(
                    "note",
                    "the projection's tables; the space left by the fill's rolled-back COPY ceiling windows "
                            + "(--ceiling-rows every --ceiling-every records) is in them until VACUUM lets inserts reuse it");
            r.putAll(env.describe());
            System.err.printf("storage: %,d records, %.0f bytes per record%n", s.records(), s.bytesPerRecord());
            dirs.write("storage-" + PerfCommand.label(PerfCommand.roundDown(s.records())), r);
        }
        return 0;
    }
}
