package org.electorallog.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.infra.EmbeddedStack;
import org.electorallog.store.ProjectionException;
import org.electorallog.store.Servers;

/**
 * A PostgreSQL primary and a streaming standby of the same major version (zonky's PostgreSQL 18
 * binaries, which have no {@code pg_basebackup}): the standby is made with the low-level base-backup
 * API (PostgreSQL docs 25.3.4, "Making a Base Backup Using the Low Level API": {@code pg_backup_start},
 * a file copy, {@code pg_backup_stop}'s label) and streams from a physical replication slot through a
 * {@link TcpRelay}, so a fault can hold its replication back and make it lag. Replication is
 * asynchronous, as most deployments run it: a primary lost while the standby lags takes its last
 * commits with it, and the promoted standby must be brought forward from the topic.
 */
public final class DatabasePair implements AutoCloseable {
    private static final String SLOT = "standby";
    private static final Set<String> NOT_COPIED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");
    private static final Set<String> EMPTIED = Set.of("pg_wal", "pg_replslot", "pg_stat_tmp");

    private final EmbeddedPostgresServer primary;
    private final TcpRelay replication;
    private final EmbeddedPostgresServer standby;

    private DatabasePair(EmbeddedPostgresServer primary, TcpRelay replication, EmbeddedPostgresServer standby) {
        this.primary = primary;
        this.replication = replication;
        this.standby = standby;
    }

    /** Settings of both servers: the embedded defaults with a smaller cache, as two share one machine. */
    static Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>(EmbeddedPostgresServer.DEFAULT_SETTINGS);
        m.put("shared_buffers", "128MB");
        m.put("wal_level", "replica");
        m.put("max_wal_senders", "5");
        m.put("hot_standby", "on");
        // queries on the standby hold back the cleanup they would conflict with, instead of being cancelled
        m.put("hot_standby_feedback", "on");
        return m;
    }

    /** Starts the primary under {@code work/pg-primary}, copies it to {@code work/pg-standby} and starts the standby. */
    public static DatabasePair start(Path work) {
        EmbeddedPostgresServer primary = EmbeddedPostgresServer.start(work.resolve("pg-primary"), settings());
        TcpRelay relay = null;
        try {
            relay = TcpRelay.start("replication", primary.port());
            Path standbyBase = work.resolve("pg-standby");
            baseBackup(primary, standbyBase.resolve("data"), relay.port());
            EmbeddedPostgresServer standby = EmbeddedPostgresServer.open(standbyBase, settings());
            return new DatabasePair(primary, relay, standby);
        } catch (RuntimeException e) {
            if (relay != null) {
                relay.close();
            }
            primary.close();
            throw e;
        }
    }

    private static void baseBackup(EmbeddedPostgresServer primary, Path target, int replicationPort) {
        // the slot keeps every WAL segment from the backup's start until the standby has it
        try (Servers.BaseBackup backup = Servers.startBaseBackup(primary.address(), SLOT)) {
            EmbeddedStack.deleteTree(target);
            copy(primary.dataDir(), target);
            Servers.BaseBackup.Labels labels = backup.stop();
            String label = labels.label();
            String spcmap = labels.tablespaceMap();
            Files.writeString(target.resolve("backup_label"), label, StandardCharsets.UTF_8);
            if (spcmap != null && !spcmap.isEmpty()) {
                Files.writeString(target.resolve("tablespace_map"), spcmap, StandardCharsets.UTF_8);
            }
            Files.createFile(target.resolve("standby.signal"));
            Files.writeString(
                    target.resolve("postgresql.auto.conf"),
                    "\nprimary_conninfo = 'host=127.0.0.1 port=" + replicationPort
                            + " user=postgres application_name=standby'\nprimary_slot_name = '" + SLOT + "'\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot take the standby's base backup: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the primary's data for the standby", e);
        }
    }

    /** Copies a running server's data directory, leaving out what the docs say a base backup omits. */
    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path rel = from.relativize(f);
                Path dest = to.resolve(rel.toString());
                if (rel.getNameCount() == 1 && NOT_COPIED.contains(rel.toString())) {
                    continue;
                }
                if (rel.getNameCount() > 1 && EMPTIED.contains(rel.getName(0).toString())) {
                    if (Files.isDirectory(f) && rel.getName(0).toString().equals("pg_wal")) {
                        Files.createDirectories(dest); // archive_status, summaries: empty, but there
                        Files.setPosixFilePermissions(dest, Files.getPosixFilePermissions(f));
                    }
                    continue;
                }
                try {
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(dest);
                        // PostgreSQL refuses a data directory others may read (0700 or 0750)
                        Files.setPosixFilePermissions(dest, Files.getPosixFilePermissions(f));
                    } else {
                        Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                } catch (NoSuchFileException gone) {
                    // a temporary file removed during the copy: the WAL replay recreates what matters
                }
            }
        }
    }

    public EmbeddedPostgresServer primary() {
        return primary;
    }

    public EmbeddedPostgresServer standby() {
        return standby;
    }

    /** The server that is the primary now: the standby once the primary is gone (after a failover). */
    public EmbeddedPostgresServer current() {
        return primary.isRunning() ? primary : standby;
    }

    /** Waits until the standby has replayed everything the primary has written. */
    public void awaitStandbyCaughtUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            String target = Servers.currentWalPosition(primary.address());
            while (true) {
                long behind = Servers.replayLagBytes(standby.address(), target);
                if (behind <= 0) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the standby is " + behind + " bytes of WAL behind after " + timeout.toSeconds() + " s");
                }
                JavaProcess.pause(50); // the standby's replay position is the condition
            }
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot compare the standby with the primary: " + e.getMessage(), e);
        }
    }

    /** Bytes of WAL the primary has written that the standby has not replayed (the primary must be up). */
    public long standbyLagBytes() {
        return Servers.replayLagBytes(standby.address(), Servers.currentWalPosition(primary.address()));
    }

    /**
     * Events the primary has projected that the standby has not: the difference of their stored
     * next offsets (partition_offsets) summed over partitions; 0 when neither has projected any.
     */
    public long eventsStandbyMissed() {
        return Servers.projectedEvents(primary.address()) - Servers.projectedEvents(standby.address());
    }

    /** Holds the standby's replication back (its WAL stream stops at the relay): it starts to lag. */
    public void holdReplication() {
        replication.cut();
    }

    /** SIGKILL of the primary's postmaster. */
    public void killPrimary() {
        primary.kill();
        replication.close();
    }

    /** Promotes the standby to a primary ({@code pg_promote}, waiting up to 60 s for it to finish). */
    public void promoteStandby() {
        try {
            if (!Servers.promote(standby.address())) {
                throw new IllegalStateException("pg_promote did not finish within 60 s");
            }
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot promote the standby: " + e.getMessage(), e);
        }
    }

    /** Ports of the primary and then the standby, for a JDBC URL naming both. */
    public List<Integer> ports() {
        return List.of(primary.port(), standby.port());
    }

    @Override
    public void close() {
        replication.close();
        standby.close();
        if (primary.isRunning()) {
            primary.close();
        }
    }
}
