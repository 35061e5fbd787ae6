package dev.nona.topics.serde;

/**
 * Before the parse: turns away binary input (Avro, Protobuf, gzip, a UTF-16 or UTF-32 encoding) by its first
 * non-blank byte, which in UTF-8 JSON text is printable ASCII, or the first byte of a UTF-8 byte-order mark.
 * Reads the leading whitespace and one byte; allocates nothing.
 */
final class TextProbe {
    private static final int UTF8_BOM_FIRST = 0xEF;

    private TextProbe() {
    }

    /** @return why the value is not UTF-8 JSON text, or {@code null} when its first byte can start it */
    static String binaryReason(byte[] value) {
        for (int i = 0; i < value.length; i++) {
            int b = value[i] & 0xFF;
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
                continue;
            }
            if ((b > 0x20 && b < 0x7F) || (i == 0 && b == UTF8_BOM_FIRST)) {
                return null;
            }
            // The byte's value in decimal: the dead-letter log groups reasons with their numbers masked.
            return "record is not UTF-8 JSON text (byte at offset " + i + " is " + b + "; binary input)";
        }
        return null;
    }
}
