package dev.nona.zoo;

/**
 * The shape of a GPT-2 model and of the request it serves.
 *
 * @param layers         number of transformer blocks
 * @param dModel         hidden size $d$
 * @param heads          attention heads (must divide $d$)
 * @param sequenceLength tokens per request $s$ (the whole prompt is processed in one forward pass)
 * @param vocabulary     vocabulary size of the tied embedding and language-model head
 */
record Gpt2Config(int layers, int dModel, int heads, int sequenceLength, int vocabulary) {
    /** GPT-2 small (124M parameters) on a 128-token request. */
    static final Gpt2Config SMALL_128 = new Gpt2Config(12, 768, 12, 128, 50257);

    Gpt2Config {
        if (layers <= 0 || dModel <= 0 || heads <= 0 || sequenceLength <= 0 || vocabulary <= 0) {
            throw new IllegalArgumentException("GPT-2 config (" + layers + " layers, d=" + dModel + ", " + heads
                    + " heads, s=" + sequenceLength + ", V=" + vocabulary + ") must be positive");
        }
        if (dModel % heads != 0) {
            throw new IllegalArgumentException("GPT-2 heads (" + heads + ") must divide d (" + dModel + ")");
        }
    }
}
