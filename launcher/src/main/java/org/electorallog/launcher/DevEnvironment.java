package org.electorallog.launcher;

import java.nio.file.Path;
import java.util.List;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.Stack;
import org.electorallog.infra.Stacks;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.Role;
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
    /** The user ID the dev voter token stands for. */
    public static final String DEV_VOTER = "dev-voter-1";

    private final java.util.Map<Role, String> tokens;
    private boolean closed;

    private DevEnvironment(
            Stack stack,
            boolean ownsStack,
            NoteSigner signer,
            Projector projector,
            QueryApi api,
            java.util.Map<Role, String> tokens) {
        this.stack = stack;
        this.ownsStack = ownsStack;
        this.tokens = java.util.Map.copyOf(tokens);
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
            // one throwaway token per role (docs/security.md); the voter token stands for user DEV_VOTER
            java.util.Map<Role, String> tokens = new java.util.EnumMap<>(Role.class);
            for (Role role : List.of(Role.VOTER, Role.OBSERVER, Role.ANALYST, Role.ADMIN)) {
                byte[] token = new byte[24];
                new java.security.SecureRandom().nextBytes(token);
                tokens.put(role, java.util.HexFormat.of().formatHex(token));
            }
            String adminToken = tokens.get(Role.ADMIN);
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
                            org.electorallog.query.HttpSettings.defaults(),
                            new AccessSettings(
                                    tokens, DEV_VOTER, null, java.util.Set.of(), java.util.Set.of(), List.of()),
                            workDir.resolve("verifier-memory.json"))
                    // the embedded login owns the database; a deployment uses electoral_log_registrar (store V9)
                    .withRegistrar(new org.electorallog.query.QueryApiSettings.RegistrarLogin(
                            db.jdbcUrl(), db.user(), db.password())));
            return new DevEnvironment(stack, ownsStack, signer, projector, api, tokens);
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
        return tokens.get(Role.ADMIN);
    }

    /** The throwaway bearer token of each role. */
    public java.util.Map<Role, String> tokens() {
        return tokens;
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
