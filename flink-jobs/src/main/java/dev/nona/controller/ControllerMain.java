package dev.nona.controller;

import java.nio.file.Path;
import java.util.Map;

/**
 * Entry point of the controller job on a Flink cluster: {@code ControllerMain --bootstrap HOST:PORT [--config FILE]}
 * (the same flags as {@code bin/nona run}).
 */
public final class ControllerMain {
    private ControllerMain() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = null;
        String file = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = value(args, ++i, "--bootstrap");
                case "--config" -> file = value(args, ++i, "--config");
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "' (expected --bootstrap, --config)");
            }
        }
        run(file == null ? ControllerConfig.fromMap(bootstrap == null ? Map.of() : Map.of("bootstrap.servers", bootstrap))
                : ControllerConfig.load(Path.of(file), bootstrap));
    }

    /** Builds and runs the controller until it is cancelled. */
    public static void run(ControllerConfig config) throws Exception {
        var env = ControllerEnvironment.create(config);
        ControllerJob.build(env, config);
        env.execute("nona-controller " + config.controllerId());
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }
}
