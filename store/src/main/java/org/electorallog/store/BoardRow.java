package org.electorallog.store;

/**
 * A board as table {@code boards} (V1) holds it.
 *
 * @param id     the board's ID in this database (IDs are local: compare boards across databases by name)
 * @param name   the board's name, the Kafka key of its statements
 * @param origin the checkpoint origin line (C2SP tlog-checkpoint) of its tree
 */
public record BoardRow(short id, String name, String origin) {}
