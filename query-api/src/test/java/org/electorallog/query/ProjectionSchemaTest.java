package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/**
 * A query API started before the projector has migrated its database (a first deployment, or the
 * API's pod up first) is not ready and answers 503 saying what to do, not a 500 from a missing
 * table; once the projector's migrations are in, it serves without a restart.
 */
class ProjectionSchemaTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void beforeTheMigrationsTheApiIsNotReadyAndSaysWhyThenServesWithoutARestart() throws Exception {
        DatabaseLogin server = SharedStack.get().database();
        String name = "schema_gate_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        DatabaseLogin db = server.onDatabase(name);
        try (QueryApi api = QueryApi.start(QueryApiSettings.publicOnly(db, 0))) {
            HttpResponse<String> ready = get(api, "/health/ready");
            assertEquals(503, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("\"database\":\"UP\""), ready.body());
            assertTrue(
                    ready.body()
                            .contains("schema is at version 0 and this query API reads version "
                                    + Migrations.latestVersion()),
                    ready.body());
            assertEquals(200, get(api, "/health/live").statusCode(), "alive: a restart would not help");
            for (String path : new String[] {"/boards", "/boards/b/checkpoint", "/boards/b/records/0/proof"}) {
                HttpResponse<String> r = get(api, path);
                assertEquals(503, r.statusCode(), path + ": " + r.body());
                assertTrue(r.body().contains("urn:electoral-log:problem:unavailable"), r.body());
                assertTrue(r.body().contains("the projector applies the migrations when it starts"), r.body());
            }
            assertEquals(200, get(api, "/openapi.json").statusCode(), "what does not read the projection is served");

            try (HikariDataSource ds =
                    ProjectionDatabase.pool(db.jdbcUrl(), db.user(), db.password(), 2, "schema-test")) {
                Migrations.apply(ds); // what the projector does when it starts
            }
            HttpResponse<String> after = get(api, "/health/ready");
            assertEquals(200, after.statusCode(), after.body());
            assertEquals(200, get(api, "/boards").statusCode());
            HttpResponse<String> none = get(api, "/boards/b/checkpoint");
            assertEquals(404, none.statusCode(), "a board that does not exist, now that the tables do: " + none.body());
        }
    }

    private static HttpResponse<String> get(QueryApi api, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
