package dev.nona.placement;

import dev.nona.workload.ServerClass;
import java.util.List;

/**
 * The one rule for an unplaceable model: a model is unplaceable when one of its tasks alone needs more memory than
 * every server that could take it has (a task is the smallest part; no split makes it smaller), the comparison of
 * {@link ServerClass#fits}. The controller asks it of its live servers before placing a request (its requests are
 * then dead letters and a {@code MODEL_UNPLACEABLE} event names the model); the optimiser asks it of the cluster's
 * classes. Stateless, thread-safe.
 */
public final class Placeability {
    private Placeability() {
    }

    /** The index of the largest of {@code taskBytes} (the first among equals), -1 when empty. */
    public static int largestTask(double[] taskBytes) {
        int best = -1;
        for (int t = 0; t < taskBytes.length; t++) {
            if (best < 0 || taskBytes[t] > taskBytes[best]) {
                best = t;
            }
        }
        return best;
    }

    /**
     * The first of {@code taskBytes} that fits no class of {@code classes}, or -1 when every task fits some class (the
     * model is placeable). $O(\text{tasks} \cdot \text{classes})$.
     */
    public static int unplaceableTask(double[] taskBytes, List<ServerClass> classes) {
        for (int t = 0; t < taskBytes.length; t++) {
            boolean fits = false;
            for (ServerClass c : classes) {
                if (c.fits(taskBytes[t])) {
                    fits = true;
                    break;
                }
            }
            if (!fits) {
                return t;
            }
        }
        return -1;
    }

    /**
     * Whether a task of {@code largestTaskBytes} (a model's largest, {@link #largestTask}) fits none of the live
     * servers of {@code servers}: false while no live server gives its memory or none is live (nothing to judge;
     * placement then holds or rejects the request for that reason). $O(1)$ unless a server's memory or liveness
     * changed since the last call ($O(N)$).
     */
    public static boolean unplaceable(LiveServers servers, double largestTaskBytes) {
        if (!servers.describesMemory() || servers.upCount() == 0) {
            return false;
        }
        return !(largestTaskBytes <= servers.largestLiveMemoryBytes());
    }

    /**
     * Whether a model of {@code totalBytes} whose largest task is {@code largestTaskBytes} fits no live server whole
     * though every task fits one: it can run only split into parts. False while no live server gives its memory or
     * none is live, as for {@link #unplaceable}.
     */
    public static boolean onlySplit(LiveServers servers, double totalBytes, double largestTaskBytes) {
        if (!servers.describesMemory() || servers.upCount() == 0) {
            return false;
        }
        double largest = servers.largestLiveMemoryBytes();
        return largestTaskBytes <= largest && !(totalBytes <= largest);
    }

    /** The dead letter's reason for a request of an unplaceable model. */
    public static String reason(String model, String task, double taskBytes, double largestMemoryBytes) {
        return "MODEL_UNPLACEABLE: model '" + model + "': task '" + task + "' needs " + (long) taskBytes
                + " bytes, more than the memory of every up server (largest " + (long) largestMemoryBytes + " bytes)";
    }
}
