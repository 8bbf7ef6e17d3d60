package org.electorallog.projector;

import java.time.Duration;
import org.electorallog.config.Setting;

/**
 * How a projector instance belongs to the projectors' consumer group (decisions 104 and 116).
 *
 * @param instanceId     static membership ID ({@code group.instance.id}), unique per instance, or null:
 *                       a restarted instance with the same ID gets its partitions back at once
 * @param sessionTimeout how long the group waits for a silent instance before its partitions go to a
 *                       live one: at least the brokers' {@code group.min.session.timeout.ms} (6 s by
 *                       Kafka's default, which is this default); the handover of a dead instance's
 *                       boards waits this long
 */
public record GroupMembership(String instanceId, Duration sessionTimeout) {
    /** The shortest session accepted: three heartbeats of {@link StreamsProperties#HEARTBEAT_INTERVAL_MS} and some. */
    public static final Duration LEAST_SESSION_TIMEOUT = Duration.ofSeconds(2);

    /**
     * No static ID, the default session ({@code ELECTORAL_LOG_GROUP_SESSION_TIMEOUT_MS}'s default:
     * Kafka's least session timeout unless the brokers allow less, {@code group.min.session.timeout.ms}).
     */
    public static final GroupMembership DYNAMIC =
            new GroupMembership(null, Duration.ofMillis(Setting.GROUP_SESSION_TIMEOUT_MS.defaultNumber()));

    public GroupMembership {
        if (sessionTimeout.compareTo(LEAST_SESSION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("the group session timeout must be at least "
                    + LEAST_SESSION_TIMEOUT.toMillis() + " ms, got " + sessionTimeout.toMillis());
        }
    }

    public GroupMembership withInstanceId(String id) {
        return new GroupMembership(id, sessionTimeout);
    }

    public GroupMembership withSessionTimeout(Duration timeout) {
        return new GroupMembership(instanceId, timeout);
    }
}
