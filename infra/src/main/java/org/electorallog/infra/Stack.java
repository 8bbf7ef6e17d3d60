package org.electorallog.infra;

import org.electorallog.config.DatabaseLogin;

/**
 * A running Kafka broker and PostgreSQL server for the electoral log: embedded, in containers, or
 * external. Closing it stops whatever it started (and nothing it did not start).
 */
public interface Stack extends AutoCloseable {
    /** Kafka bootstrap servers, {@code host:port[,host:port]}. */
    String kafkaBootstrap();

    /** The PostgreSQL database the projection lives in. */
    DatabaseLogin database();

    /** One line saying what this stack is, for logs and summaries. */
    String describe();

    @Override
    void close();
}
