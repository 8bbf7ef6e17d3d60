-- V6: the partition count each events topic had when the projection started (issue 13).
-- A board lives on one partition (Kafka's default partitioner on the board name modulo the
-- partition count); if the count changed, a board's later statements would land on another
-- partition, be projected by another task and lose their order. The projector records the count
-- on its first start and refuses to start when the topic's count differs while it has projected
-- anything from that topic (docs/architecture.md, "Growing the events topic").

CREATE TABLE topic_layout (
    topic      text    PRIMARY KEY,              -- the events topic; served by the start-up check (one row per topic)
    partitions integer NOT NULL CHECK (partitions > 0)  -- its partition count when the projection first read it
);
COMMENT ON TABLE topic_layout IS 'Partition count of each projected events topic; read once at projector start to refuse a changed count.';
