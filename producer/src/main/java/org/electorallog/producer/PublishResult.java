package org.electorallog.producer;

/** Kafka's acknowledgement of one published statement: where it now lives in the event log. */
public record PublishResult(String board, String deliveryId, int partition, long offset) {}
