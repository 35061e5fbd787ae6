package dev.nona.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Nona's online scheduler: turns a {@link PlacementTable} into a target server for every original task of a
 * request. Per request: the source goes to {@link ServerPolicy#sourceServer}; then, subgraph by subgraph, a triplet
 * is drawn from $\theta_t$ in $O(1)$ ({@link AliasTable}), the root's part runs on the root's server, every other
 * part on a distinct server from {@link ServerPolicy#partServer}, and the sink on its part's server (it is the next
 * subgraph's root).
 *
 * <p>Based on: Nona (CloudNet 2024), Sections III-A and III-C (roots uniform, triplets sampled from $\theta_t$).
 *
 * <p>{@link #place} does not allocate. Not thread-safe (scratch arrays): use one sampler per thread; building one
 * is cheap.
 */
public final class PlacementSampler {
    private final PlacementTable table;
    private final Map<String, Integer> modelIndex = new HashMap<>();
    private final CompiledModel[] models;
    private final int[] taken;
    private final int[] partServer;
    /** Scratch of {@link #placeSized}: per slot (a server of the request) its operations and bytes; each part's slot. */
    private double[] slotOps = new double[0];
    private double[] slotBytes = new double[0];
    private int[] partSlot = new int[0];
    /** Per subgraph of the latest request, the slot of its sink ({@link #assignSlots}). */
    private int[] sinkSlot = new int[0];

    public PlacementSampler(PlacementTable table) {
        this.table = table;
        this.models = new CompiledModel[table.models().size()];
        int maxParts = 1;
        for (int m = 0; m < models.length; m++) {
            PlacementTable.ModelPlacement mp = table.models().get(m);
            modelIndex.put(mp.name(), m);
            models[m] = new CompiledModel(mp);
            maxParts = Math.max(maxParts, models[m].maxParts);
        }
        taken = new int[maxParts + 1];
        partServer = new int[maxParts + 1];
    }

    /** The table this sampler draws from. */
    public PlacementTable table() {
        return table;
    }

    /** The index of a model in the table, or -1 when the table does not know it. */
    public int modelIndex(String name) {
        Integer i = modelIndex.get(name);
        return i == null ? -1 : i;
    }

    /** The original task ids of a model, in the order {@link #place} writes servers. */
    public List<String> tasks(int model) {
        return table.models().get(model).tasks();
    }

    /**
     * Places one request.
     *
     * @param model   index from {@link #modelIndex}
     * @param servers chooses concrete servers
     * @param rnd     the randomness (the caller's, so runs are reproducible)
     * @param out     receives a server per original task, in the order of {@link #tasks}; length at least that
     */
    public void place(int model, ServerPolicy servers, RandomGenerator rnd, int[] out) {
        place(model, servers, rnd, out, null);
    }

    /** The subgraphs of a model (its chain of roots has one more entry: the last sink). */
    public int subgraphs(int model) {
        return models[model].subgraphs.length;
    }

    /**
     * As {@link #place(int, ServerPolicy, RandomGenerator, int[])}, also giving the server of every root of the
     * chain: {@code roots[g]} the root of subgraph {@code g}, {@code roots[subgraphs]} the last sink (a virtual
     * source or sink has no original task, so only this tells where it stands).
     *
     * @param roots receives {@link #subgraphs}{@code + 1} servers, or null
     */
    public void place(int model, ServerPolicy servers, RandomGenerator rnd, int[] out, int[] roots) {
        place(model, servers, rnd, out, roots, null);
    }

    /**
     * As {@link #place(int, ServerPolicy, RandomGenerator, int[], int[])}, also giving the triplet drawn for every
     * subgraph: {@code choices[g]} indexes subgraph {@code g}'s choices in the table (see {@link #choiceProbability}).
     *
     * @param choices receives {@link #subgraphs} choice indices, or null
     */
    public void place(int model, ServerPolicy servers, RandomGenerator rnd, int[] out, int[] roots, int[] choices) {
        CompiledModel cm = models[model];
        int root = servers.sourceServer(model, rnd);
        write(cm.sourceTasks, root, out);
        if (roots != null) {
            roots[0] = root;
        }
        for (int s = 0; s < cm.subgraphs.length; s++) {
            CompiledSubgraph sg = cm.subgraphs[s];
            int drawn = sg.alias.sample(rnd);
            if (choices != null) {
                choices[s] = drawn;
            }
            CompiledChoice c = sg.choices[drawn];
            taken[0] = root;
            int count = 1;
            for (int p = 0; p < c.parts.length; p++) {
                if (p == c.rootPart) {
                    partServer[p] = root;
                } else {
                    int server = servers.partServer(model, taken, count, rnd);
                    taken[count++] = server;
                    partServer[p] = server;
                }
                write(c.parts[p], partServer[p], out);
            }
            root = c.parts.length == 0 ? root : partServer[c.sinkPart];
            write(sg.sinkTasks, root, out);
            if (roots != null) {
                roots[s + 1] = root;
            }
        }
    }

    /**
     * As {@link #place(int, ServerPolicy, RandomGenerator, int[], int[], int[])}, but every subgraph's triplet is
     * drawn first, so that each server is asked for knowing what it will run: the operations and bytes of the whole
     * part (over the request: the chain's root part holds the source, the root's part of the next subgraph, and so
     * on) from {@code taskOps} and {@code taskBytes} (per task, in {@link #tasks}' order). The servers are asked in
     * the same order as by {@code place} ({@link ServerPolicy#sourceServer(int, double, double, RandomGenerator)},
     * then per subgraph {@link ServerPolicy#partServer(int, int[], int, double, double, RandomGenerator)}); the draws
     * come first, so the random stream is consumed in another order than by {@code place}. Does not allocate once its
     * scratch has grown to the model's size.
     *
     * @param choices receives {@link #subgraphs} choice indices (required)
     */
    public void placeSized(int model, ServerPolicy servers, RandomGenerator rnd, int[] out, int[] roots, int[] choices,
            double[] taskOps, double[] taskBytes) {
        CompiledModel cm = models[model];
        for (int g = 0; g < cm.subgraphs.length; g++) {
            choices[g] = cm.subgraphs[g].alias.sample(rnd);
        }
        slots(cm, choices, taskOps, taskBytes);
        int next = 0; // the slot of each part, in the order slots() met them
        int root = servers.sourceServer(model, slotOps[0], slotBytes[0], rnd);
        write(cm.sourceTasks, root, out);
        if (roots != null) {
            roots[0] = root;
        }
        for (int g = 0; g < cm.subgraphs.length; g++) {
            CompiledSubgraph sg = cm.subgraphs[g];
            CompiledChoice c = sg.choices[choices[g]];
            taken[0] = root;
            int count = 1;
            for (int p = 0; p < c.parts.length; p++) {
                int slot = partSlot[next++];
                if (p == c.rootPart) {
                    partServer[p] = root;
                } else {
                    int server = servers.partServer(model, taken, count, slotOps[slot], slotBytes[slot], rnd);
                    taken[count++] = server;
                    partServer[p] = server;
                }
                write(c.parts[p], partServer[p], out);
            }
            root = c.parts.length == 0 ? root : partServer[c.sinkPart];
            write(sg.sinkTasks, root, out);
            if (roots != null) {
                roots[g + 1] = root;
            }
        }
    }

    /** Per slot: the operations and bytes of a request's part under {@code choices}. */
    private void slots(CompiledModel cm, int[] choices, double[] taskOps, double[] taskBytes) {
        int parts = parts(cm, choices);
        if (slotOps.length < parts + 1) {
            slotOps = new double[parts + 1];
            slotBytes = new double[parts + 1];
            partSlot = new int[parts + 1];
        }
        if (sinkSlot.length < cm.subgraphs.length) {
            sinkSlot = new int[cm.subgraphs.length];
        }
        int slots = assignSlots(cm, choices, partSlot, sinkSlot);
        Arrays.fill(slotOps, 0, slots, 0);
        Arrays.fill(slotBytes, 0, slots, 0);
        slotOps[0] = sum(cm.sourceTasks, taskOps);
        slotBytes[0] = sum(cm.sourceTasks, taskBytes);
        int next = 0;
        for (int g = 0; g < cm.subgraphs.length; g++) {
            CompiledSubgraph sg = cm.subgraphs[g];
            CompiledChoice c = sg.choices[choices[g]];
            for (int p = 0; p < c.parts.length; p++) {
                int slot = partSlot[next++];
                slotOps[slot] += sum(c.parts[p], taskOps);
                slotBytes[slot] += sum(c.parts[p], taskBytes);
            }
            slotOps[sinkSlot[g]] += sum(sg.sinkTasks, taskOps);
            slotBytes[sinkSlot[g]] += sum(sg.sinkTasks, taskBytes);
        }
    }

    /** The parts of a request of {@code cm} under {@code choices}, over its subgraphs. */
    private static int parts(CompiledModel cm, int[] choices) {
        int parts = 0;
        for (int g = 0; g < cm.subgraphs.length; g++) {
            parts += cm.subgraphs[g].choices[choices[g]].parts.length;
        }
        return parts;
    }

    /** The number of choices of subgraph {@code subgraph} of a model in the table. */
    public int choiceCount(int model, int subgraph) {
        return models[model].subgraphs[subgraph].choices.length;
    }

    /**
     * The one rule of which server slot each piece of a request runs in, under {@code choices}: slot 0 holds the
     * source; each subgraph's root part runs in the slot its root is in, each of its other parts in a new slot (in
     * order), and its sink in its sink part's slot (with no parts, in the root's), which holds the next subgraph's
     * root. Fills {@code partSlot} (per part, subgraph by subgraph) and {@code sinkSlot} (per subgraph).
     *
     * @return the number of slots
     */
    private static int assignSlots(CompiledModel cm, int[] choices, int[] partSlot, int[] sinkSlot) {
        int slots = 1;
        int current = 0;
        int next = 0;
        for (int g = 0; g < cm.subgraphs.length; g++) {
            CompiledChoice c = cm.subgraphs[g].choices[choices[g]];
            int sink = current;
            for (int p = 0; p < c.parts.length; p++) {
                int slot = p == c.rootPart ? current : slots++;
                partSlot[next++] = slot;
                if (p == c.sinkPart) {
                    sink = slot;
                }
            }
            current = sink;
            sinkSlot[g] = current;
        }
        return slots;
    }

    /**
     * The original task ids each server slot of a request of {@code model} runs under {@code choices} (one per
     * subgraph), slot by slot in the order {@link #placeSized} asks for their servers, each slot's ids sorted: what a
     * part of the request is, whatever choice and table it came from.
     */
    public List<List<String>> slotTasks(int model, int[] choices) {
        CompiledModel cm = models[model];
        int[] partSlots = new int[parts(cm, choices)];
        int[] sinkSlots = new int[cm.subgraphs.length];
        int slots = assignSlots(cm, choices, partSlots, sinkSlots);
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            out.add(new ArrayList<>());
        }
        List<String> ids = tasks(model);
        for (int t : cm.sourceTasks) {
            out.get(0).add(ids.get(t));
        }
        int next = 0;
        for (int g = 0; g < cm.subgraphs.length; g++) {
            CompiledSubgraph sg = cm.subgraphs[g];
            for (int[] part : sg.choices[choices[g]].parts) {
                for (int t : part) {
                    out.get(partSlots[next]).add(ids.get(t));
                }
                next++;
            }
            for (int t : sg.sinkTasks) {
                out.get(sinkSlots[g]).add(ids.get(t));
            }
        }
        out.replaceAll(slot -> slot.stream().sorted().toList());
        return out;
    }

    private static double sum(int[] tasks, double[] values) {
        double s = 0;
        for (int t : tasks) {
            s += values[t];
        }
        return s;
    }

    /** Draws only a triplet index of one subgraph (into its table choices); for simulators and tests. */
    public int sampleChoice(int model, int subgraph, RandomGenerator rnd) {
        return models[model].subgraphs[subgraph].alias.sample(rnd);
    }

    /** $\theta_t$ of choice {@code choice} of subgraph {@code subgraph} of a model: its probability in the table. */
    public double choiceProbability(int model, int subgraph, int choice) {
        return models[model].subgraphs[subgraph].probabilities[choice];
    }

    private static void write(int[] tasks, int server, int[] out) {
        for (int t : tasks) {
            out[t] = server;
        }
    }

    private static final class CompiledModel {
        final int[] sourceTasks;
        final CompiledSubgraph[] subgraphs;
        int maxParts;

        CompiledModel(PlacementTable.ModelPlacement mp) {
            Map<String, Integer> idx = new HashMap<>();
            for (int i = 0; i < mp.tasks().size(); i++) {
                idx.put(mp.tasks().get(i), i);
            }
            sourceTasks = indices(mp.name(), mp.sourceTasks(), idx);
            subgraphs = new CompiledSubgraph[mp.subgraphs().size()];
            for (int s = 0; s < subgraphs.length; s++) {
                PlacementTable.SubgraphPlacement sp = mp.subgraphs().get(s);
                CompiledChoice[] cs = new CompiledChoice[sp.choices().size()];
                double[] w = new double[cs.length];
                for (int c = 0; c < cs.length; c++) {
                    PlacementTable.Choice ch = sp.choices().get(c);
                    int[][] parts = new int[ch.parts().size()][];
                    for (int p = 0; p < parts.length; p++) {
                        parts[p] = indices(mp.name(), ch.parts().get(p), idx);
                    }
                    cs[c] = new CompiledChoice(parts, ch.rootPart(), ch.sinkPart());
                    w[c] = ch.probability();
                    maxParts = Math.max(maxParts, parts.length);
                }
                subgraphs[s] = new CompiledSubgraph(new AliasTable(w), w, cs, indices(mp.name(), sp.sinkTasks(), idx));
            }
        }

        private static int[] indices(String model, List<String> ids, Map<String, Integer> idx) {
            int[] out = new int[ids.size()];
            for (int i = 0; i < out.length; i++) {
                Integer k = idx.get(ids.get(i));
                if (k == null) {
                    throw new IllegalArgumentException("table model '" + model + "': task '" + ids.get(i) + "' is not in its task list");
                }
                out[i] = k;
            }
            return out;
        }
    }

    private record CompiledSubgraph(AliasTable alias, double[] probabilities, CompiledChoice[] choices, int[] sinkTasks) {}

    private record CompiledChoice(int[][] parts, int rootPart, int sinkPart) {}
}
