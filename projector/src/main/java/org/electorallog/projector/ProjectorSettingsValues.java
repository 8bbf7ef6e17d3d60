package org.electorallog.projector;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.electorallog.core.NoteSigner;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * The values of {@link ProjectorSettings}, to change some and build new settings from: every
 * {@code with...} method of the settings goes through one.
 */
final class ProjectorSettingsValues {
    String bootstrap;
    String topic;
    String deadLetterTopic;
    String applicationId;
    Path stateDir;
    String jdbcUrl;
    String dbUser;
    String dbPassword;
    int batchMaxRecords;
    Duration batchMaxWait;
    NoteSigner signer;
    String originPrefix;
    int streamThreads;
    GroupMembership group;
    SignaturePolicy signatures;
    Duration checkpointEvery;
    Map<String, Object> kafkaSecurity;
    String schemaRegistryUrl;
    long warmUpStatements;
    KeyEncryptionKeys keyEncryption;

    ProjectorSettingsValues(ProjectorSettings s) {
        bootstrap = s.bootstrap();
        topic = s.topic();
        deadLetterTopic = s.deadLetterTopic();
        applicationId = s.applicationId();
        stateDir = s.stateDir();
        jdbcUrl = s.jdbcUrl();
        dbUser = s.dbUser();
        dbPassword = s.dbPassword();
        batchMaxRecords = s.batchMaxRecords();
        batchMaxWait = s.batchMaxWait();
        signer = s.signer();
        originPrefix = s.originPrefix();
        streamThreads = s.streamThreads();
        group = s.group();
        signatures = s.signatures();
        checkpointEvery = s.checkpointEvery();
        kafkaSecurity = s.kafkaSecurity();
        schemaRegistryUrl = s.schemaRegistryUrl();
        warmUpStatements = s.warmUpStatements();
        keyEncryption = s.keyEncryption();
    }

    ProjectorSettings build() {
        return new ProjectorSettings(
                bootstrap,
                topic,
                deadLetterTopic,
                applicationId,
                stateDir,
                jdbcUrl,
                dbUser,
                dbPassword,
                batchMaxRecords,
                batchMaxWait,
                signer,
                originPrefix,
                streamThreads,
                group,
                signatures,
                checkpointEvery,
                kafkaSecurity,
                schemaRegistryUrl,
                warmUpStatements,
                keyEncryption);
    }
}
