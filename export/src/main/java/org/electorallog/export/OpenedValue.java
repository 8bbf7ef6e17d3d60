package org.electorallog.export;

/**
 * One row of an export's openings file (the personal view, issue 63): a personal value of record
 * {@code recordId} at its field path with the salt that opens the statement's commitment to it
 * (statement {@code PersonalCommitment}; docs/personal-data.md). Rows come in record order, then
 * path order, as the stored openings list them.
 */
@SuppressWarnings("ArrayRecordComponent") // written and read, never compared as a value
public record OpenedValue(long recordId, String path, byte[] salt, String value) {
    @Override
    public String toString() {
        return "OpenedValue[" + recordId + " " + path + "]"; // never the value: logs must not carry it
    }
}
