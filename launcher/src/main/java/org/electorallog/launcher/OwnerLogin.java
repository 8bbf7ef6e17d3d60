package org.electorallog.launcher;

import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.store.Projection;

/**
 * The projection's owner login as the operator's commands use it ({@code erase}, {@code senders},
 * {@code keys}): the shared configuration's {@code ELECTORAL_LOG_JDBC_URL} (required),
 * {@code _DB_USER} and {@code _DB_PASSWORD} (or its file), the projector's own.
 */
final class OwnerLogin {
    private OwnerLogin() {}

    /** The projection over a pool of {@code size} connections named {@code name} (in PostgreSQL's application name). */
    static Projection open(Configuration conf, int size, String name) {
        return Projection.open(DatabaseLogin.of(conf), size, name);
    }
}
