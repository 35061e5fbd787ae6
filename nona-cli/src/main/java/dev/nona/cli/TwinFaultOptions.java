package dev.nona.cli;

import dev.nona.twin.TwinOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The executor twin's fault options, shared by {@code nona executor} and {@code nona demo} (a picocli mixin). */
final class TwinFaultOptions {
    @Option(names = "--slow-server", paramLabel = "ID:FACTOR",
            description = "the twin's server ID computes FACTOR (>= 1) times slower and does not say so; repeatable")
    List<String> slowServers = new ArrayList<>();

    @Option(names = "--silence-server", paramLabel = "ID:AT_SECONDS",
            description = "the twin's server ID stops executing and reporting AT_SECONDS after the start; repeatable")
    List<String> silencedServers = new ArrayList<>();

    Map<String, Double> slow() {
        return TwinOptions.parseSlow(slowServers);
    }

    Map<String, Double> silence() {
        return TwinOptions.parseSilence(silencedServers);
    }
}
