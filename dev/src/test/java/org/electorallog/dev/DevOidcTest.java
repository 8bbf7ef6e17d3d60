package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.KeycloakRealm;
import org.electorallog.infra.KeycloakServer;
import org.electorallog.infra.OidcLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.Role;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * {@code electoral-log dev --oidc}'s setup: Keycloak with the election realm beside the log, and a
 * query API that takes the realm's tokens: each person's role holds, the voter finds their own
 * ballot and not another's, the reports client's job reads listings.
 */
class DevOidcTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theRealmsPeopleAndJobGetTheirRoles() throws Exception {
        String board = "dev-oidc-" + Long.toString(System.nanoTime(), 36);
        try (DevEnvironment env = DevEnvironment.start(
                SharedStack.get(),
                false,
                Path.of("target/stack/dev-oidc"),
                0,
                NoteSigner.generate("dev-oidc.electoral-log.local"),
                KeycloakServer.distributionFromProperty())) {
            DevIdentityProvider idp = env.identityProvider().orElseThrow();
            try (ElectoralLogProducer producer =
                    ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
                // record 0 is the dev realm's voter's ballot, record 1 someone else's
                for (String user : new String[] {idp.voterId(), "someone-else"}) {
                    producer.publish(Statement.newBuilder()
                                    .setBoard(board)
                                    .setDeliveryId(board + "-" + user)
                                    .setKind(StatementKind.CAST_VOTE)
                                    .setStatementTimestamp(System.currentTimeMillis())
                                    .setSenderName("voting-service")
                                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                                    .setUserId(user)
                                    .setElectionId("e1")
                                    .setBallotId("ballot-" + user)
                                    .build())
                            .get();
                }
            }
            Map<Role, String> tokens = idp.tokens();
            String base = env.api().baseUrl() + "/boards/" + board;
            Poll.until(
                    Duration.ofSeconds(60),
                    "both ballots projected",
                    () -> get(base + "/records/1", tokens.get(Role.OBSERVER)).statusCode() == 200);

            String voter = tokens.get(Role.VOTER);
            assertEquals(200, get(base + "/records/0", voter).statusCode());
            assertEquals(403, get(base + "/records/1", voter).statusCode());
            HttpResponse<String> ballots = get(base + "/ballots?election_id=e1", voter);
            assertEquals(200, ballots.statusCode(), ballots.body());
            JsonNode found = JSON.readTree(ballots.body()).get("ballots");
            assertEquals(1, found.size(), ballots.body());
            assertEquals(0, found.get(0).get("id").asLong());

            String listing = env.api().baseUrl() + "/admin/boards/" + board + "/records?limit=5";
            assertEquals(403, get(listing, tokens.get(Role.OBSERVER)).statusCode());
            assertEquals(200, get(listing, tokens.get(Role.ANALYST)).statusCode());
            String job = OidcLogin.clientCredentials(
                    idp.keycloak(), DevIdentityProvider.REALM, KeycloakRealm.REPORTS_CLIENT, idp.reportsSecret());
            assertEquals(200, get(listing, job).statusCode());
            assertEquals(
                    200,
                    get(
                                    env.api().baseUrl() + "/admin/boards/" + board + "/records/explain?limit=1",
                                    tokens.get(Role.ADMIN))
                            .statusCode());
        }
    }

    static HttpResponse<String> get(String url, String token) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + token)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
