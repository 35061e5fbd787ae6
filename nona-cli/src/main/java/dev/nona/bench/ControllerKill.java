package dev.nona.bench;

import java.util.Objects;

/**
 * The controller process killed with SIGKILL and started again at once with the same state directory (what a pod
 * restart does); with {@code fresh}, started again with {@code --fresh}. The fault ends when the new process is
 * started; decisions written from then on are the new process's.
 */
public final class ControllerKill implements Fault {
    private final ControllerChildJvm controller;
    private final boolean fresh;

    public ControllerKill(ControllerChildJvm controller, boolean fresh) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.fresh = fresh;
    }

    @Override
    public String name() {
        return "controller-kill";
    }

    @Override
    public Window inject() {
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        controller.kill();
        Window w = Window.endingNow(start, startMillis);
        controller.start(fresh);
        return w;
    }
}
