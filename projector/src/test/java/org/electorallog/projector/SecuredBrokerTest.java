package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.EmbeddedKafkaBroker;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * Issue 9: the embedded broker with SASL/SCRAM and ACLs (StandardAuthorizer). Producers may only
 * write the events topic; the projector reads it and writes the dead-letter topic; nobody else
 * writes. A producer without credentials, with a wrong password or with read-only rights is refused;
 * an authorized producer's statements are projected by a projector that logs in as itself.
 */
class SecuredBrokerTest {
    static final String EVENTS = "secured.events";
    static final String DEAD_LETTERS = "secured.dead-letters";
    static final String APP = "secured-projector";

    static Map<String, Object> login(String user, String password) {
        // the same properties the shared configuration builds from ELECTORAL_LOG_KAFKA_* settings
        return Configuration.load(Map.of(
                        "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
                        "SASL_PLAINTEXT",
                        "ELECTORAL_LOG_KAFKA_USERNAME",
                        user,
                        "ELECTORAL_LOG_KAFKA_PASSWORD",
                        password))
                .kafkaSecurity();
    }

    static KafkaProducer<String, byte[]> rawProducer(String bootstrap, Map<String, Object> security) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("max.block.ms", "5000");
        p.put("delivery.timeout.ms", "8000");
        p.put("request.timeout.ms", "3000");
        p.putAll(security);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Why a send was refused. Kafka reports the same refusal either as a failed future or, when the
     * idempotent producer already went into an error state on the first metadata or producer-ID
     * request, as a {@code KafkaException} thrown by {@code send()} that wraps it: which one depends
     * on timing, so the refusal is taken as the most specific Kafka API error in the cause chain.
     */
    static Throwable sendFailure(String bootstrap, Map<String, Object> security, String topic) {
        Throwable failure;
        try (KafkaProducer<String, byte[]> p = rawProducer(bootstrap, security)) {
            try {
                p.send(new ProducerRecord<>(topic, "board", new byte[] {1})).get(20, TimeUnit.SECONDS);
                throw new AssertionError("the send to " + topic + " was accepted");
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (org.apache.kafka.common.KafkaException e) {
                failure = e;
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            failure = e;
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer to a send to " + topic, e);
        }
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof org.apache.kafka.common.errors.ApiException) {
                return c;
            }
        }
        return failure;
    }

    static void grant(
            Admin admin, String user, ResourceType type, String name, PatternType pattern, AclOperation... ops)
            throws Exception {
        List<AclBinding> acls = new java.util.ArrayList<>();
        for (AclOperation op : ops) {
            acls.add(new AclBinding(
                    new ResourcePattern(type, name, pattern),
                    new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW)));
        }
        admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
    }

    @Test
    void onlyAuthorizedProducersWriteAndTheProjectorProjectsTheirStatements() throws Exception {
        Path dir = Path.of("target/secured-broker-" + System.nanoTime());
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startSecured(dir, "admin-secret-0123")) {
            String bootstrap = broker.bootstrapServers();
            Properties adminProps = new Properties();
            adminProps.put("bootstrap.servers", bootstrap);
            adminProps.putAll(broker.adminClientSecurity());
            try (Admin admin = Admin.create(adminProps)) {
                admin.createTopics(
                                List.of(new NewTopic(EVENTS, 1, (short) 1), new NewTopic(DEAD_LETTERS, 1, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                ScramCredentialInfo scram = new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096);
                admin.alterUserScramCredentials(List.of(
                                new UserScramCredentialUpsertion("voting-service", scram, "voting-secret"),
                                new UserScramCredentialUpsertion("observer", scram, "observer-secret"),
                                new UserScramCredentialUpsertion("projector", scram, "projector-secret")))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                // producers: write (and describe) the events topic, nothing else
                grant(
                        admin,
                        "voting-service",
                        ResourceType.TOPIC,
                        EVENTS,
                        PatternType.LITERAL,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE);
                // an observer: read-only
                grant(
                        admin,
                        "observer",
                        ResourceType.TOPIC,
                        EVENTS,
                        PatternType.LITERAL,
                        AclOperation.READ,
                        AclOperation.DESCRIBE);
                // the projector: read the events, write the dead letters, its group and transactional IDs
                grant(
                        admin,
                        "projector",
                        ResourceType.TOPIC,
                        EVENTS,
                        PatternType.LITERAL,
                        AclOperation.READ,
                        AclOperation.DESCRIBE);
                grant(
                        admin,
                        "projector",
                        ResourceType.TOPIC,
                        DEAD_LETTERS,
                        PatternType.LITERAL,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE);
                grant(
                        admin,
                        "projector",
                        ResourceType.GROUP,
                        APP,
                        PatternType.PREFIXED,
                        AclOperation.READ,
                        AclOperation.DESCRIBE);
                grant(
                        admin,
                        "projector",
                        ResourceType.TRANSACTIONAL_ID,
                        APP,
                        PatternType.PREFIXED,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE);
            }

            // no credentials: the SASL listener never lets a plaintext client in
            Throwable anonymous = sendFailure(bootstrap, Map.of(), EVENTS);
            assertTrue(
                    anonymous instanceof TimeoutException || anonymous.getCause() instanceof TimeoutException,
                    "a client without credentials gets nowhere: " + anonymous);
            // a wrong password is an authentication error
            assertInstanceOf(
                    SaslAuthenticationException.class,
                    sendFailure(bootstrap, login("voting-service", "guess"), EVENTS));
            // read-only rights: refused on write (an idempotent producer with no WRITE anywhere is refused at the
            // cluster)
            assertInstanceOf(
                    org.apache.kafka.common.errors.AuthorizationException.class,
                    sendFailure(bootstrap, login("observer", "observer-secret"), EVENTS));
            // nobody but the projector writes the dead letters
            assertInstanceOf(
                    TopicAuthorizationException.class,
                    sendFailure(bootstrap, login("voting-service", "voting-secret"), DEAD_LETTERS));

            DatabaseLogin db = SharedStack.get().database();
            String url = new ProjectorHarness("secured", 1).createDatabase("secured_" + System.nanoTime());
            ProjectorSettings settings = ProjectorSettings.defaults(
                            bootstrap,
                            db.atUrl(url),
                            dir.resolve("streams"),
                            NoteSigner.generate("secured.electoral-log.local"))
                    .withTopics(EVENTS, DEAD_LETTERS)
                    .withApplicationId(APP)
                    .withBatch(100, Duration.ofMillis(50))
                    .withOriginPrefix("secured.electoral-log.local/")
                    .withKafkaSecurity(login("projector", "projector-secret"));
            Properties producerProps = ElectoralLogProducer.defaults(bootstrap);
            producerProps.putAll(login("voting-service", "voting-secret"));
            int n = 50;
            try (Projector projector = Projector.start(settings);
                    ElectoralLogProducer producer = ElectoralLogProducer.create(producerProps, EVENTS)) {
                for (int i = 0; i < n; i++) {
                    producer.publish(Statement.newBuilder()
                                    .setBoard("secured-board")
                                    .setDeliveryId("s-" + i)
                                    .setKind(StatementKind.CAST_VOTE)
                                    .setStatementTimestamp(1_000 + i)
                                    .setSenderName("voting-service")
                                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                                    .setUserId("u" + i)
                                    .build())
                            .get(30, TimeUnit.SECONDS);
                }
                long size = Poll.until(
                        Duration.ofSeconds(60),
                        "the authorized producer's statements projected",
                        () -> {
                            try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                                    ResultSet rs = c.createStatement()
                                            .executeQuery("SELECT coalesce(max(size), 0) FROM board_state")) {
                                if (!rs.next()) {
                                    throw new AssertionError("the query returned no row");
                                }
                                return rs.getLong(1);
                            } catch (java.sql.SQLException e) {
                                return 0L; // the schema is not migrated yet
                            }
                        },
                        s -> s >= n);
                assertEquals(n, size, "the authorized producer's statements are projected");
            }
        }
    }
}
