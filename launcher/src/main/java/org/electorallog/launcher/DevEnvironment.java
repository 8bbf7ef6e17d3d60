package org.electorallog.launcher;

import java.nio.file.Path;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.Stack;
import org.electorallog.infra.Stacks;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.schemas.Topics;

/**
 * Everything {@code demo} and {@code dev} run: a stack (embedded by default), the topics, the
 * projector and the query API, with a throwaway checkpoint signing key. Closing stops all of it.
 */
public final class DevEnvironment implements AutoCloseable {
    /** Partitions of the events topic in the development setup. */
    public static final int PARTITIONS = 4;

    private final Stack stack;
    private final NoteSigner signer;
    private final Projector projector;
    private final QueryApi api;
    private final boolean ownsStack;
    private final String adminToken;
    private boolean closed;

    private DevEnvironment(
            Stack stack, boolean ownsStack, NoteSigner signer, Projector projector, QueryApi api, String adminToken) {
        this.stack = stack;
        this.ownsStack = ownsStack;
        this.adminToken = adminToken;
        this.signer = signer;
        this.projector = projector;
        this.api = api;
        // closed at JVM exit (SIGTERM, Ctrl-C) before the stack it runs on
        org.electorallog.infra.ExitOrder.register(this);
    }

    /** Starts the stack the environment selects, with data under {@code workDir}. */
    public static DevEnvironment start(Path workDir, int apiPort) {
        return start(Stacks.start(workDir), true, workDir, apiPort, NoteSigner.generate("electoral-log.local"));
    }

    /**
     * Starts the topics, projector and query API on a running stack; {@code ownsStack} says whether
     * {@link #close()} stops the stack too.
     */
    public static DevEnvironment start(Stack stack, boolean ownsStack, Path workDir, int apiPort, NoteSigner signer) {
        Projector projector = null;
        try {
            EventsTopic.ensure(stack.kafkaBootstrap(), Topics.EVENTS, PARTITIONS, (short) 1);
            EventsTopic.ensure(stack.kafkaBootstrap(), Topics.DEAD_LETTERS, 1, (short) 1);
            var db = stack.database();
            projector = Projector.start(ProjectorSettings.defaults(
                    stack.kafkaBootstrap(),
                    db.jdbcUrl(),
                    db.user(),
                    db.password(),
                    workDir.resolve("streams-state"),
                    signer));
            long t0 = System.nanoTime();
            projector.awaitRunning(java.time.Duration.ofSeconds(60));
            org.slf4j.LoggerFactory.getLogger(DevEnvironment.class)
                    .info("projector running after {} ms", (System.nanoTime() - t0) / 1_000_000);
            byte[] token = new byte[24];
            new java.security.SecureRandom().nextBytes(token);
            String adminToken = java.util.HexFormat.of().formatHex(token);
            QueryApi api = QueryApi.start(new org.electorallog.query.QueryApiSettings(
                    db.jdbcUrl(),
                    db.user(),
                    db.password(),
                    apiPort,
                    adminToken,
                    java.util.List.of(org.electorallog.core.NoteVerifier.parse(signer.verifierKey())),
                    java.time.Duration.ofSeconds(5),
                    java.time.Duration.ofMinutes(10),
                    null,
                    org.electorallog.query.HttpSettings.defaults()));
            return new DevEnvironment(stack, ownsStack, signer, projector, api, adminToken);
        } catch (RuntimeException e) {
            if (projector != null) {
                projector.close();
            }
            if (ownsStack) {
                stack.close();
            }
            throw e;
        }
    }

    public Stack stack() {
        return stack;
    }

    public NoteSigner signer() {
        return signer;
    }

    public Projector projector() {
        return projector;
    }

    public QueryApi api() {
        return api;
    }

    /** The throwaway admin token of this development run (printed by {@code dev}). */
    public String adminToken() {
        return adminToken;
    }

    /** Stops the query API, then the projector, then (when it owns it) the stack; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        org.electorallog.infra.ExitOrder.unregister(this);
        try {
            api.close();
        } finally {
            try {
                projector.close();
            } finally {
                if (ownsStack) {
                    stack.close();
                }
            }
        }
    }
}
