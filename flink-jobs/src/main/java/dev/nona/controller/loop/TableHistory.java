package dev.nona.controller.loop;

import dev.nona.calibration.JctTally;
import dev.nona.calibration.RollbackRule;
import dev.nona.controller.command.CommandRecord;
import dev.nona.controller.optimize.ControllerTable;
import dev.nona.controller.optimize.SolveInput;
import dev.nona.controller.optimize.SolveResult;
import dev.nona.controller.optimize.TableGate;
import dev.nona.topics.record.ControllerEventType;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of the control loop (checkpointed): the current one, the one it replaced with the outcomes of both
 * (for the {@link RollbackRule}), and the tables rolled back, which are not published again until what the
 * controller learned changes. Every table is published here: a solved one that passes the safe hot-swap
 * ({@link TableGate}), an operator's rollback ({@link OperatorControl}) and the automatic rollback.
 *
 * <p>The automatic rollback is the gate on measurement: the current table against the one it replaced, once both
 * have enough outcomes. A table observed worse is replaced by the previous table again, published as a new version
 * ({@code TABLE_ROLLED_BACK} with both figures). Logs as the control loop. Not thread safe: used by the task thread,
 * except the gauges, which a metric reporter may read.
 */
final class TableHistory {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoopFunction.class);
    private static final String ROLLED_BACK = "this table was rolled back after it was observed to do worse than the "
            + "one it replaced; it is not published again until what the controller learned changes";

    private final ControlLoopSettings settings;
    private final ValueState<ControllerTable> current;
    private final ValueState<ControllerTable> previous;
    private final MapState<Long, JctTally> versionJct;
    private final ValueState<RolledBack> rolledBack;
    private final OperatorControl operator;
    private final Runnable rollbackCounted;
    /** The version the next table follows at least: the newest on the topic when the operator opened. */
    private final long versionFloor;
    private volatile long version; // volatile: metric gauges read these two
    private volatile double linkLoad;

    /** @param rollbackCounted counts each automatic rollback (a metric) */
    TableHistory(ControlLoopSettings settings, ValueState<ControllerTable> current, ValueState<ControllerTable> previous,
            MapState<Long, JctTally> versionJct, ValueState<RolledBack> rolledBack, OperatorControl operator,
            Runnable rollbackCounted) {
        this(settings, current, previous, versionJct, rolledBack, operator, rollbackCounted, 0);
    }

    /**
     * @param versionFloor the version the next table follows at least: the newest version of this controller on
     *                     {@code placement-tables} when the operator opened ({@link #floorAtOpen}), so that versions
     *                     never go back across a start or a restore (0: the first table is version 1)
     */
    TableHistory(ControlLoopSettings settings, ValueState<ControllerTable> current, ValueState<ControllerTable> previous,
            MapState<Long, JctTally> versionJct, ValueState<RolledBack> rolledBack, OperatorControl operator,
            Runnable rollbackCounted, long versionFloor) {
        if (versionFloor < 0) {
            throw new IllegalArgumentException("versionFloor (" + versionFloor + ") must be >= 0");
        }
        this.versionFloor = versionFloor;
        this.settings = Objects.requireNonNull(settings, "control loop settings");
        this.current = Objects.requireNonNull(current, "current table state");
        this.previous = Objects.requireNonNull(previous, "previous table state");
        this.versionJct = Objects.requireNonNull(versionJct, "table outcomes state");
        this.rolledBack = Objects.requireNonNull(rolledBack, "rolled-back tables state");
        this.operator = Objects.requireNonNull(operator, "operator control");
        this.rollbackCounted = Objects.requireNonNull(rollbackCounted, "rollback counter");
    }

    /**
     * The version floor of a control loop opening (a first start, or a restart inside the running job): the newest
     * version {@code published} on {@code placement-tables} now, or the version {@code built} into the job when it
     * cannot be read (logged). The version read when the job was built alone is stale after a restart inside the
     * job: tables published after the checkpoint restored from have newer versions.
     */
    static long floorAtOpen(long built, PublishedTableVersions published) {
        try {
            long newest = published.newest();
            if (newest < 0) {
                throw new IllegalStateException("BUG: newest published table version " + newest + " < 0");
            }
            if (newest > built) {
                LOG.info("Tables follow v{}, the newest on placement-tables (v{} when the job was built)", newest,
                        built);
            }
            return Math.max(built, newest);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the newest table version", e);
        } catch (Exception e) {
            LOG.warn("Cannot read the newest table version on placement-tables ({}); tables follow v{} (when the job "
                    + "was built) or the restored table's, whichever is newer", e.toString(), built);
            return built;
        }
    }

    /** The table in force, or {@code null} before the first. */
    ControllerTable current() throws Exception {
        return current.value();
    }

    /** The version of the last table published since the operator started (0 before), for a gauge. */
    long version() {
        return version;
    }

    /** The link load of the last table published since the operator started, for a gauge. */
    double linkLoad() {
        return linkLoad;
    }

    /**
     * The version the next table follows: the current table's, but never below the floor. After a restore from a
     * checkpoint older than the last tables published, the restored table is older than those: numbering on from it
     * would publish their versions again for other tables (a chaos run saw version 2 after 3); the floor, the newest
     * version on {@code placement-tables} when the operator opened ({@link #floorAtOpen}), keeps them going forward.
     */
    private long lastVersion(ControllerTable cur) {
        return cur == null ? versionFloor : Math.max(versionFloor, cur.version());
    }

    /** The safe hot-swap's verdict on a solve, refusing a table rolled back before. */
    TableGate.Verdict verdict(SolveInput input, SolveResult result, long now) throws Exception {
        ControllerTable cur = current.value();
        TableGate.Verdict verdict = TableGate.decide(cur, lastVersion(cur), input, result,
                now, settings.drift().threshold());
        RolledBack bad = rolledBack.value();
        if (verdict.publish() != null && bad != null && bad.contains(verdict.publish().tableJson())) {
            verdict = TableGate.refuse(verdict, now, ROLLED_BACK);
        }
        return verdict;
    }

    /**
     * Publishes a solved table; the table it replaces becomes the previous one (with its outcomes so far) unless
     * either is a fallback table.
     */
    void publishSolved(ControllerTable table, LoopIo io) throws Exception {
        ControllerTable replaced = current.value();
        if (replaced != null && !replaced.fallback() && !table.fallback()) {
            previous.update(replaced);
            JctTally kept = versionJct.get(replaced.version());
            versionJct.clear();
            if (kept != null) {
                versionJct.put(replaced.version(), kept);
            }
        } else {
            previous.clear();
            versionJct.clear();
        }
        install(table, io);
    }

    /** An operator's rollback: the kept table of the asked version, published again as a new version. */
    void operatorRollback(CommandRecord record, LoopIo io) throws Exception {
        ControllerTable cur = current.value();
        OperatorControl.Rollback r = operator.rollback(record, cur, lastVersion(cur), io.now());
        if (r.rejected() != null) {
            LOG.warn("Rollback rejected: {}", r.rejected().reason());
            io.deadLetter(r.rejected());
            return;
        }
        if (r.publish() == null) {
            return;
        }
        previous.clear(); // the automatic rule judges the next table against this one, not against older ones
        versionJct.clear();
        install(r.publish(), io);
        LOG.warn("Operator rollback: {} (now v{})", r.publish().cause(), r.publish().version());
        r.events().forEach(io::event);
    }

    /** Adds a calibration window's outcomes of the current and the previous table, then judges the current one. */
    void tally(Map<Long, JctTally> versions, LoopIo io) throws Exception {
        ControllerTable cur = current.value();
        ControllerTable prev = previous.value();
        for (Map.Entry<Long, JctTally> e : versions.entrySet()) {
            long v = e.getKey();
            if ((cur != null && v == cur.version()) || (prev != null && v == prev.version())) {
                JctTally before = versionJct.get(v);
                versionJct.put(v, before == null ? e.getValue() : before.plus(e.getValue()));
            }
        }
        if (cur != null && prev != null) {
            judge(cur, prev, io);
        }
    }

    /** What the controller learned changed: a table rolled back before may be judged anew. */
    void forgetRolledBack() throws Exception {
        rolledBack.clear();
    }

    private void judge(ControllerTable cur, ControllerTable prev, LoopIo io) throws Exception {
        JctTally now = versionJct.get(cur.version());
        JctTally before = versionJct.get(prev.version());
        if (now == null || before == null) {
            return;
        }
        var verdict = settings.rollback().judge(now, before, cur.replacedPredictedMeanJctSeconds());
        if (verdict.isEmpty()) {
            return;
        }
        RollbackRule.Rollback r = verdict.get();
        long next = lastVersion(cur) + 1;
        String cause = String.format(Locale.ROOT, "rollback: table v%d observed %.4g s mean JCT, v%d would give %.4g s",
                cur.version(), r.observedMeanJctSeconds(), prev.version(), r.previousExpectedMeanJctSeconds());
        ControllerTable restored = prev.republished(next, io.now(), cause);
        RolledBack list = rolledBack.value();
        rolledBack.update((list == null ? RolledBack.NONE : list).with(cur.tableJson()));
        previous.clear();
        versionJct.clear();
        rollbackCounted.run();
        install(restored, io);
        LOG.warn("Rolled back table v{} to the table of v{} (now v{}): {}", cur.version(), prev.version(), next, cause);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cause", cause);
        details.put("fromVersion", cur.version());
        details.put("restoredVersion", prev.version());
        details.put("tableVersion", next);
        details.put("observedMeanJctSeconds", r.observedMeanJctSeconds());
        details.put("previousExpectedMeanJctSeconds", r.previousExpectedMeanJctSeconds());
        details.put("previousObservedMeanJctSeconds", r.previousObservedMeanJctSeconds());
        if (Double.isFinite(r.previousCalibrationRatio())) {
            details.put("previousCalibrationRatio", r.previousCalibrationRatio());
        }
        details.put("samples", now.samples());
        details.put("previousSamples", before.samples());
        details.put("margin", settings.rollback().margin());
        io.event(ControllerEventType.TABLE_ROLLED_BACK, details);
    }

    /** The table in force from now on: published, counted in the gauges, kept for an operator's rollback. */
    private void install(ControllerTable table, LoopIo io) throws Exception {
        current.update(table);
        version = table.version();
        linkLoad = table.linkLoad();
        io.publish(table);
        operator.keep(table);
    }
}
