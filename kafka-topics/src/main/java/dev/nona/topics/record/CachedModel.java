package dev.nona.topics.record;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A model a server holds bytes of in its cache: all of it, or only some of its parts ({@link #holdsWhole}).
 *
 * @param model the model's name, not blank
 * @param bytes the memory it takes, {@code >= 0}
 */
public record CachedModel(
        @JsonProperty(required = true) String model,
        @JsonProperty(required = true) long bytes) {

    public CachedModel {
        Fields.requireText("model", model);
        Fields.requireNonNegative("bytes", bytes);
    }

    /**
     * Whether the server holds this model whole, the model being {@code modelBytes} by the catalog (0, or not a
     * positive number: not known, then whole as reported): the reported bytes cover the model's, within a byte (a
     * report rounds them). A server holding only some of a model's parts (an executor evicts idle parts one by one,
     * and a split request leaves only its part there) is cold for it: a pick of the whole model there loads the
     * rest. The one rule of what "warm" means, for the controller's placement ({@code ServerReports}) and for what
     * {@code nona status} and the dashboard show.
     */
    public boolean holdsWhole(double modelBytes) {
        return !(modelBytes > 0) || bytes >= modelBytes - 1;
    }

    /**
     * The names of the models of {@code held} that the server holds whole ({@link #holdsWhole}), in their order,
     * each model's bytes by the catalog from {@code modelBytes} (0 for a model it does not know).
     */
    public static List<String> whole(List<CachedModel> held, ToDoubleFunction<String> modelBytes) {
        return select(held, modelBytes, true);
    }

    /** The names of the models of {@code held} that the server holds only some of: the others of {@link #whole}. */
    public static List<String> partly(List<CachedModel> held, ToDoubleFunction<String> modelBytes) {
        return select(held, modelBytes, false);
    }

    private static List<String> select(List<CachedModel> held, ToDoubleFunction<String> modelBytes, boolean whole) {
        List<String> out = new ArrayList<>(held.size());
        for (CachedModel m : held) {
            if (m.holdsWhole(modelBytes.applyAsDouble(m.model())) == whole) {
                out.add(m.model());
            }
        }
        return out;
    }
}
