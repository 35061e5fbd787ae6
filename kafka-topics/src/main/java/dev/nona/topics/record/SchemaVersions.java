package dev.nona.topics.record;

/**
 * Schema versions of the topic records. Every value on every topic carries {@code schemaVersion};
 * a reader accepts only the versions listed here and sends anything else to {@code dead-letters}.
 */
public final class SchemaVersions {
    /** The version every record in this module writes and the only one it reads. */
    public static final int CURRENT = 1;

    private SchemaVersions() {
    }
}
