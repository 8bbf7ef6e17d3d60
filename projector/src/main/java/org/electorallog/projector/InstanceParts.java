package org.electorallog.projector;

import org.electorallog.schemas.StatementCodec;
import org.electorallog.store.Projection;

/**
 * What one projector instance's tasks share ({@link ProjectorProcessor}, one a partition): its
 * settings, database, codec, metrics, topic layout, dead-letter publisher, signature verifier,
 * Kafka positions and the opening of personal values. Made once by {@link Projector}.
 */
record InstanceParts(
        ProjectorSettings settings,
        Projection transactions,
        StatementCodec codec,
        ProjectorMetrics metrics,
        TopicLayout layout,
        DeadLetterPublisher publisher,
        SignatureVerifier signatures,
        KafkaPositions positions,
        PersonalOpening opening) {}
