package org.electorallog.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.electorallog.schemas.Topics;

/**
 * One fault of the rehearsal (issue 43): what it breaks, for how long, and how it is healed. The
 * faults an election's cluster exists to survive, in the order the rehearsal tries them.
 */
abstract class Fault {
    final String name;
    final String what;

    Fault(String name, String what) {
        this.name = name;
        this.what = what;
    }

    /** What must hold before the fault strikes (for a failover: a standby that lags); not timed. */
    void prepare(Cluster c) throws Exception {}

    /** Breaks the part; returns a line saying exactly what was broken (which node, how far behind). */
    abstract String inject(Cluster c) throws Exception;

    /** Heals it: the part restarted, the path restored, or nothing (a failover is not undone). */
    abstract void heal(Cluster c) throws Exception;

    /** The five faults of issue 43 in order; the projectors' database path is cut for {@code cut}. */
    static List<Fault> script(Duration cut) {
        return List.of(brokerLeaderKill(), projectorKill(), apiKill(), databasePathCut(cut), primaryFailover());
    }

    /** The names of {@link #script}'s faults, in its order. */
    static List<String> names() {
        return script(Duration.ZERO).stream().map(f -> f.name).toList();
    }

    /** SIGKILL of the broker leading partition 0 of the events topic; restarted, and caught up again. */
    static Fault brokerLeaderKill() {
        return new Fault("broker-leader-kill", "SIGKILL of the Kafka node leading events partition 0") {
            int killed;

            @Override
            String inject(Cluster c) throws Exception {
                killed = c.kafka().leaderOf(Topics.EVENTS, 0);
                c.kafka().kill(killed);
                return "node " + killed + " killed";
            }

            @Override
            void heal(Cluster c) {
                c.kafka().restart(killed);
                c.kafka().awaitFullyReplicated(List.of(Topics.EVENTS), Duration.ofMinutes(3));
            }
        };
    }

    /** SIGKILL of projector-1 while projector-2 runs; restarted with its instance ID and state directory. */
    static Fault projectorKill() {
        return new Fault("projector-kill", "SIGKILL of one of the two projector instances") {
            @Override
            String inject(Cluster c) throws Exception {
                c.projectors().get(0).kill();
                return c.projectors().get(0).name() + " killed";
            }

            @Override
            void heal(Cluster c) {
                c.projectors().get(0).restart();
                c.projectors().get(0).awaitReady(Duration.ofMinutes(3));
            }
        };
    }

    /** SIGKILL of one API instance behind haproxy; restarted. */
    static Fault apiKill() {
        return new Fault("api-kill", "SIGKILL of one of the two query API instances behind haproxy") {
            @Override
            String inject(Cluster c) throws Exception {
                c.apis().get(0).kill();
                return c.apis().get(0).name() + " killed";
            }

            @Override
            void heal(Cluster c) {
                c.apis().get(0).restart();
                c.apis().get(0).awaitReady(Duration.ofMinutes(3));
            }
        };
    }

    /** The projectors' path to PostgreSQL stops forwarding for {@code cut}, then forwards again. */
    static Fault databasePathCut(Duration cut) {
        return new Fault(
                "database-path-cut",
                "the projectors' TCP path to PostgreSQL stops forwarding for " + cut.toSeconds() + " s") {
            @Override
            String inject(Cluster c) {
                c.databasePaths().forEach(TcpRelay::cut);
                return "both relays cut";
            }

            @Override
            Duration lasts(Duration standard) {
                return cut;
            }

            @Override
            void heal(Cluster c) {
                c.databasePaths().forEach(TcpRelay::restore);
            }
        };
    }

    /**
     * The standby's replication held back until it lags by at least one committed batch, the primary
     * killed (SIGKILL), the standby promoted; the projectors find the new primary through their
     * two-host URL and bring it forward from the topic. Not healed: the old primary stays gone.
     */
    static Fault primaryFailover() {
        return new Fault(
                "primary-failover",
                "PostgreSQL primary killed while the standby lags (replication held back), standby promoted") {
            long missed;

            @Override
            void prepare(Cluster c) throws Exception {
                DatabasePair db = c.databases();
                db.holdReplication();
                // until the primary has committed batches the standby has not received
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while ((missed = db.eventsStandbyMissed()) < 50) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the standby missed only " + missed
                                + " projected events after 60 s of held replication");
                    }
                    JavaProcess.pause(100); // the primary's stored offsets moving on are the condition
                }
            }

            @Override
            Map<String, Object> facts() {
                return Map.of("events_standby_missed", missed);
            }

            @Override
            String inject(Cluster c) {
                c.databases().killPrimary();
                c.databases().promoteStandby();
                return "primary killed with " + missed + " projected events the standby had not received;"
                        + " standby promoted";
            }

            @Override
            Duration lasts(Duration standard) {
                return Duration.ZERO;
            }

            @Override
            void heal(Cluster c) {
                // a failover is not undone: the promoted standby is the primary from now on
            }
        };
    }

    /** Figures of the fault itself, for the results (how far behind a promoted standby was). */
    Map<String, Object> facts() {
        return Map.of();
    }

    /** How long the fault stays before {@link #heal}; most last the standard time. */
    Duration lasts(Duration standard) {
        return standard;
    }
}
