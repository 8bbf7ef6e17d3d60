package org.electorallog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Another database on the same server: the URL's path replaced, parameters and credentials kept. */
class DatabaseLoginTest {
    @Test
    void anotherDatabaseKeepsTheServerTheParametersAndTheCredentials() {
        DatabaseLogin a = new DatabaseLogin("jdbc:postgresql://h:5432/postgres?sslmode=require&x=/y", "u", "p");
        assertEquals(
                new DatabaseLogin("jdbc:postgresql://h:5432/other?sslmode=require&x=/y", "u", "p"),
                a.onDatabase("other"));
        assertEquals(
                "jdbc:postgresql://localhost/other",
                new DatabaseLogin("jdbc:postgresql://localhost/postgres", "u", "p")
                        .onDatabase("other")
                        .jdbcUrl());
    }
}
