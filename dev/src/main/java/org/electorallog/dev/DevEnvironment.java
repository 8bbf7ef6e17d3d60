package org.electorallog.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.infra.ExitOrder;
import org.electorallog.infra.Stack;
import org.electorallog.infra.Stacks;
import org.electorallog.node.LogNode;
import org.electorallog.projector.Projector;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.Role;
import org.electorallog.schemas.Topics;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.witness.WitnessServer;
import org.slf4j.LoggerFactory;

/**
 * Everything {@code demo} and {@code dev} run: a stack (embedded by default), the topics, the
 * projector, one local witness that cosigns every board's checkpoints (docs/witnesses.md) and the
 * query API with the voter page, with throwaway signing and cosigning keys. Closing stops all of it.
 */
public final class DevEnvironment implements AutoCloseable {
    /** Partitions of the events topic in the development setup. */
    public static final int PARTITIONS = 4;

    private final Stack stack;
    private final NoteSigner signer;
    /** The log: topics, projector, local witness and its rounds, query API (one wiring, {@link LogNode}). */
    private final LogNode node;
    /**
     * The committed form's key-encryption key: kept with a stack this environment does not own (its
     * database outlives it), removed with one it owns (docs/personal-data.md "Keys at rest").
     */
    private final Path keyEncryptionKey;

    private final boolean ownsStack;
    /** The user ID the dev voter token stands for. */
    public static final String DEV_VOTER = "dev-voter-1";

    private final Map<Role, String> tokens;
    /** Keycloak, when dev runs with {@code --oidc}; null otherwise. */
    private final DevIdentityProvider identityProvider;

    private boolean closed;

    private DevEnvironment(
            Stack stack,
            boolean ownsStack,
            NoteSigner signer,
            LogNode node,
            Path keyEncryptionKey,
            Map<Role, String> tokens,
            DevIdentityProvider identityProvider) {
        this.stack = stack;
        this.keyEncryptionKey = keyEncryptionKey;
        this.identityProvider = identityProvider;
        this.ownsStack = ownsStack;
        this.tokens = Map.copyOf(tokens);
        this.signer = signer;
        this.node = node;
        // closed at JVM exit (SIGTERM, Ctrl-C) before the stack it runs on
        ExitOrder.register(this);
    }

    /**
     * Starts the stack the environment selects, with data under {@code workDir}; with Keycloak from
     * the distribution under {@code keycloakHome} as the identity provider unless that is null.
     */
    public static DevEnvironment start(Path workDir, int apiPort, Path keycloakHome) {
        return start(
                Stacks.start(workDir),
                true,
                workDir,
                apiPort,
                // both kinds of checkpoint signature, as a deployment made with `keygen log` has (decision 146)
                NoteSigner.generate("electoral-log.local")
                        .withPostQuantum(Cosigner.Key.generateMlDsa44("electoral-log.local")),
                keycloakHome);
    }

    /** {@link #start(Stack, boolean, Path, int, NoteSigner, Path)} without an identity provider. */
    public static DevEnvironment start(Stack stack, boolean ownsStack, Path workDir, int apiPort, NoteSigner signer) {
        return start(stack, ownsStack, workDir, apiPort, signer, null);
    }

    /**
     * Starts the topics, projector and query API on a running stack; {@code ownsStack} says whether
     * {@link #close()} stops the stack too; {@code keycloakHome} (or null) as in {@link #start(Path, int, Path)}.
     */
    public static DevEnvironment start(
            Stack stack, boolean ownsStack, Path workDir, int apiPort, NoteSigner signer, Path keycloakHome) {
        return start(stack, ownsStack, workDir, apiPort, signer, keycloakHome, false);
    }

    /**
     * As {@link #start(Stack, boolean, Path, int, NoteSigner, Path)}, with {@code heads}: the witness
     * cosigns only the heads board, on which the projector enters every board's checkpoints (HEADS
     * witness mode, docs/witnesses.md).
     */
    public static DevEnvironment start(
            Stack stack,
            boolean ownsStack,
            Path workDir,
            int apiPort,
            NoteSigner signer,
            Path keycloakHome,
            boolean heads) {
        return start(stack, ownsStack, workDir, apiPort, signer, keycloakHome, heads, UnaryOperator.identity());
    }

    /**
     * As {@link #start(Stack, boolean, Path, int, NoteSigner, Path, boolean)}, the witness rule the
     * projector and the API use changed by {@code witnesses} (the local witness still runs).
     */
    public static DevEnvironment start(
            Stack stack,
            boolean ownsStack,
            Path workDir,
            int apiPort,
            NoteSigner signer,
            Path keycloakHome,
            boolean heads,
            UnaryOperator<WitnessPolicy> witnesses) {
        DevIdentityProvider identityProvider = null;
        Path keyEncryptionKey = workDir.resolve("key-encryption-key");
        try {
            if (keycloakHome != null) {
                identityProvider = DevIdentityProvider.start(keycloakHome, workDir);
            }
            // one throwaway token per role (docs/security.md); the voter token stands for user DEV_VOTER
            Map<Role, String> tokens = new EnumMap<>(Role.class);
            for (Role role : List.of(Role.VOTER, Role.OBSERVER, Role.ANALYST, Role.ADMIN)) {
                byte[] token = new byte[24];
                new SecureRandom().nextBytes(token);
                tokens.put(role, HexFormat.of().formatHex(token));
            }
            // the committed form's key-encryption key: a file of the work directory, never in PostgreSQL
            KeyEncryptionKeys keys = KeyEncryptionKeys.loadOrCreate(keyEncryptionKey);
            DatabaseLogin db = stack.database();
            // what an earlier run's verifier remembered is another log (a fresh stack, a throwaway key):
            // kept, it would read as a fork of this one ("the records give another tree")
            Path verifierMemory = workDir.resolve("verifier-memory.json");
            Files.deleteIfExists(verifierMemory);
            AccessSettings.Oidc oidc = identityProvider == null ? null : identityProvider.oidc();
            LogNode node = LogNode.on(stack.kafkaBootstrap(), db, signer, workDir.resolve("streams-state"))
                    .topics(Topics.EVENTS, Topics.DEAD_LETTERS, PARTITIONS)
                    .projector(s -> s.withKeyEncryption(keys))
                    .awaitRunning(Duration.ofSeconds(60))
                    // one local witness following every board of this log, with a throwaway key (docs/witnesses.md)
                    .localWitness(workDir.resolve("witness-state-" + System.nanoTime()), heads)
                    .witnessPolicy(witnesses)
                    .api(
                            apiPort,
                            a -> a.withAdminToken(tokens.get(Role.ADMIN))
                                    .withLogKeys(signer.verifierKeys().stream()
                                            .map(NoteVerifier::parse)
                                            .toList())
                                    .withVerifier(Duration.ofSeconds(5), Duration.ofMinutes(10))
                                    .withAccess(
                                            new AccessSettings(tokens, DEV_VOTER, oidc, Set.of(), Set.of(), List.of()))
                                    .withVerifierMemory(verifierMemory)
                                    // the embedded login owns the database; a deployment uses electoral_log_registrar
                                    // (store V9)
                                    .withRegistrar(db))
                    .start();
            return new DevEnvironment(stack, ownsStack, signer, node, keyEncryptionKey, tokens, identityProvider);
        } catch (RuntimeException | IOException e) {
            if (identityProvider != null) {
                identityProvider.close();
            }
            if (ownsStack) {
                stack.close();
                deleteKey(keyEncryptionKey);
            }
            throw e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
        }
    }

    public Stack stack() {
        return stack;
    }

    public NoteSigner signer() {
        return signer;
    }

    public Projector projector() {
        return node.projector();
    }

    public QueryApi api() {
        return node.api();
    }

    /** The local witness that cosigns this run's checkpoints. */
    public WitnessServer witness() {
        return node.witness();
    }

    /** The throwaway admin token of this development run (printed by {@code dev}). */
    public String adminToken() {
        return tokens.get(Role.ADMIN);
    }

    /** The throwaway bearer token of each role. */
    public Map<Role, String> tokens() {
        return tokens;
    }

    /** Keycloak and its realm, when started with one; empty otherwise. */
    public Optional<DevIdentityProvider> identityProvider() {
        return Optional.ofNullable(identityProvider);
    }

    /**
     * Stops the log (the query API, the witness, the projector), then Keycloak (if any), then (when
     * it owns it) the stack; a second call does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ExitOrder.unregister(this);
        try {
            node.close();
        } finally {
            if (identityProvider != null) {
                identityProvider.close();
            }
            if (ownsStack) {
                stack.close();
                deleteKey(keyEncryptionKey);
            }
        }
    }

    /** Removes the key-encryption key of a stack that is gone: nothing it wrapped is left to open. */
    private static void deleteKey(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LoggerFactory.getLogger(DevEnvironment.class).warn("could not remove {}: {}", file, e.getMessage());
        }
    }
}
