package dev.nona.chaos;

import dev.nona.bench.ControllerOnCluster;
import dev.nona.local.LocalFlinkCluster;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Kills with SIGKILL the processes of the controller job on a multi-process Flink cluster with ZooKeeper high
 * availability ({@link ControllerOnCluster}), and brings each back after the fault's duration: the TaskManager that runs the job (a new spare TaskManager is started at the end,
 * so that the next kill has one too) and the leading JobManager (started again at the end, to stand by or to lead,
 * as ZooKeeper's election goes). The ends start the process and return (a JVM's start took 30-40 s at load 50-70,
 * which moved the rest of the schedule past the traffic); a kill waits first (at most {@link #RUNNING_TIMEOUT})
 * until the job runs, and a TaskManager kill until the spare has registered: a fault on a job still restoring from
 * the one before would test nothing new, and the schedule moves with the wait. The broker's kill is
 * {@link BrokerFaults}'.
 */
final class ClusterFaults implements FaultInjector {
    static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(300);

    private final ControllerOnCluster controller;
    private final Consumer<String> log;
    private int killedJobManager = -1;

    ClusterFaults(ControllerOnCluster controller, Consumer<String> log) {
        this.controller = controller;
        this.log = log;
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.TASKMANAGER_KILL, FaultKind.JOBMANAGER_KILL);
    }

    @Override
    public void begin(ScheduledFault fault) {
        LocalFlinkCluster cluster = controller.cluster();
        switch (fault.kind()) {
            case TASKMANAGER_KILL -> {
                awaitSpareTaskManager(cluster);
                cluster.awaitRunning(controller.job(), RUNNING_TIMEOUT);
                int tm = cluster.killTaskManagerRunning(controller.job());
                log.accept("killed TaskManager " + tm + ", which ran the controller job");
            }
            case JOBMANAGER_KILL -> {
                cluster.awaitRunning(controller.job(), RUNNING_TIMEOUT);
                LocalFlinkCluster.KilledJobManager killed = cluster.killLeaderJobManager();
                killedJobManager = killed.index();
                log.accept("killed the leading JobManager " + killed.index() + " (pid " + killed.pid() + ")");
            }
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not the cluster's");
        }
    }

    /** Until as many TaskManagers are registered as the cluster started with (the spare among them). */
    private static void awaitSpareTaskManager(LocalFlinkCluster cluster) {
        long deadline = System.nanoTime() + RUNNING_TIMEOUT.toNanos();
        while (cluster.rest().taskManagers() < ControllerOnCluster.TASK_MANAGERS) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("fewer than " + ControllerOnCluster.TASK_MANAGERS + " TaskManagers "
                        + "registered " + RUNNING_TIMEOUT.toSeconds() + " s after a new one was started");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for a spare TaskManager", e);
            }
        }
    }

    @Override
    public void end(ScheduledFault fault) {
        LocalFlinkCluster cluster = controller.cluster();
        switch (fault.kind()) {
            case TASKMANAGER_KILL -> cluster.startTaskManager();
            case JOBMANAGER_KILL -> {
                cluster.startJobManager(killedJobManager);
                killedJobManager = -1;
            }
            default -> throw new IllegalArgumentException("fault kind " + fault.kind().key() + " is not the cluster's");
        }
    }
}
