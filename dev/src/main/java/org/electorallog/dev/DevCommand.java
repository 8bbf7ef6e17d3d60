package org.electorallog.dev;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.electorallog.infra.KeycloakRealm;
import org.electorallog.infra.KeycloakServer;
import org.electorallog.query.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code electoral-log dev}: the same setup as the demo, left running until Ctrl-C. */
@Command(
        name = "dev",
        mixinStandardHelpOptions = true,
        description = "Start the embedded stack, projector and query API and keep them up until Ctrl-C.")
public final class DevCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8080", description = "query API port; default ${DEFAULT-VALUE}")
    int port;

    @Option(
            names = "--work-dir",
            defaultValue = "target/run",
            description = "where embedded data goes; default ${DEFAULT-VALUE}")
    Path workDir;

    @Option(
            names = "--oidc",
            description = "also start Keycloak with the election realm (docs/security.md) and accept its tokens")
    boolean oidc;

    @Option(
            names = "--keycloak-home",
            defaultValue = "target/keycloak",
            description = "the unpacked Keycloak distribution (the build puts it here); default ${DEFAULT-VALUE}")
    Path keycloakHome;

    @Override
    public Integer call() throws InterruptedException {
        DevEnvironment env;
        try {
            env = DevEnvironment.start(workDir, port, oidc ? keycloakHome : null);
        } catch (RuntimeException e) {
            System.err.println("dev: cannot start: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("stopping ...");
                            env.close();
                            System.out.println("stopped");
                            stopped.countDown();
                        },
                        "dev-stop"));
        System.out.println("electoral-log dev is up (a development key signs checkpoints: not for real elections)");
        System.out.println("  stack:          " + env.stack().describe());
        System.out.println("  Kafka:          " + env.stack().kafkaBootstrap());
        System.out.println("  PostgreSQL:     " + env.stack().database().jdbcUrl() + " (user "
                + env.stack().database().user() + ")");
        System.out.println("  query API:      " + env.api().baseUrl() + "/boards");
        System.out.println("  verifier key:   " + env.signer().verifierKey());
        System.out.println("  witness:        http://127.0.0.1:" + env.witness().port() + " (cosigner key "
                + env.witness().verifierKey() + ")");
        System.out.println("  voter page:     " + env.api().baseUrl() + "/voter");
        env.tokens()
                .forEach((role, token) -> System.out.println(String.format(
                        "  %-15s %s%s",
                        role.name().toLowerCase(Locale.ROOT) + " token:",
                        token,
                        role == Role.VOTER ? " (user " + DevEnvironment.DEV_VOTER + ")" : "")));
        System.out.println("  (throwaway tokens: 'Authorization: Bearer <token>', e.g. GET "
                + env.api().baseUrl() + "/admin/verifier with the admin token; docs/security.md)");
        env.identityProvider().ifPresent(DevCommand::printIdentityProvider);
        System.out.println("press Ctrl-C to stop");
        stopped.await();
        return 0;
    }

    /** The Keycloak part of the banner: where it is, who can sign in, and a token of each person. */
    private static void printIdentityProvider(DevIdentityProvider idp) {
        var kc = idp.keycloak();
        System.out.println("  Keycloak:       " + kc.baseUrl() + "/admin (user " + KeycloakServer.ADMIN_USER
                + ", password " + kc.adminPassword() + "); realm " + DevIdentityProvider.REALM + ", issuer "
                + kc.issuer(DevIdentityProvider.REALM));
        System.out.println("  people:         voter-1 (user ID " + idp.voterId() + "), observer-1, analyst-1, admin-1;"
                + " password " + idp.password() + " (client " + KeycloakRealm.PORTAL_CLIENT
                + ", authorization code with PKCE)");
        System.out.println("  reports job:    client " + KeycloakRealm.REPORTS_CLIENT
                + ", secret "
                + idp.reportsSecret() + ": curl -d grant_type=client_credentials -d client_id="
                + KeycloakRealm.REPORTS_CLIENT + " -d client_secret=" + idp.reportsSecret()
                + " " + kc.tokenEndpoint(DevIdentityProvider.REALM));
        idp.tokens()
                .forEach((role, token) -> System.out.println(
                        String.format("  %-15s %s", DevIdentityProvider.username(role) + ":", token)));
        System.out.println("  (Keycloak access tokens live 5 minutes; the static tokens above stay valid too)");
    }
}
