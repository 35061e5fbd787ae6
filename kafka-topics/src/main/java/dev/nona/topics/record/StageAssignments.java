package dev.nona.topics.record;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A decision's {@code stages} as its producer holds them: a model's task ids (validated once, shared by every decision
 * of the model) and a server id per task; immutable. {@link #get} builds each {@link StageAssignment} when asked,
 * so a decision does not allocate one object per task (a model has up to thousands): on a large cluster a decision's
 * server is rarely one of the last few used, and building (and validating) its assignments cost more than the rest of
 * its placement. Writers that know this type read {@link #task} and {@link #server} directly. Equal to any list of the
 * same assignments ({@link java.util.List#equals}), and serialised as one.
 */
public final class StageAssignments extends AbstractList<StageAssignment> implements RandomAccess {
    private final Tasks tasks;
    private final String[] servers;

    private StageAssignments(Tasks tasks, String[] servers) {
        this.tasks = tasks;
        this.servers = servers;
    }

    /**
     * Task {@code i} of {@code tasks} on {@code servers[i]}, for every task (the first {@code tasks.size()} entries of
     * {@code servers} are copied; each must be a server id, not blank). $O(\text{tasks})$; a run of the same id
     * instance is checked once.
     *
     * @throws InvalidRecordException naming the first missing or blank server id
     */
    public static StageAssignments of(Tasks tasks, String[] servers) {
        int n = tasks.size();
        if (servers.length < n) {
            throw new IllegalArgumentException("servers (" + servers.length + ") must name one per task (" + n + ")");
        }
        String[] copy = Arrays.copyOf(servers, n);
        String checked = null;
        for (int i = 0; i < n; i++) {
            if (copy[i] != checked) {
                checked = Fields.requireText("stages[" + i + "].server", copy[i]);
            }
        }
        return new StageAssignments(tasks, copy);
    }

    /** The task id of stage {@code i}. */
    public String task(int i) {
        return tasks.ids[i];
    }

    /** The server id of stage {@code i}. */
    public String server(int i) {
        return servers[i];
    }

    @Override
    public StageAssignment get(int i) {
        return new StageAssignment(tasks.ids[i], servers[i]);
    }

    @Override
    public int size() {
        return servers.length;
    }

    /** A model's task ids in stage order: at least one, each not blank (checked once, here). */
    public static final class Tasks {
        private final String[] ids;

        /** @throws InvalidRecordException naming an empty list, or a missing or blank task id */
        public Tasks(List<String> ids) {
            Fields.requirePresent("stages", ids);
            if (ids.isEmpty()) {
                throw new InvalidRecordException("field 'stages' ([]) must hold at least one stage");
            }
            this.ids = new String[ids.size()];
            for (int i = 0; i < this.ids.length; i++) {
                this.ids[i] = Fields.requireText("stages[" + i + "].task", ids.get(i));
            }
        }

        public int size() {
            return ids.length;
        }
    }
}
