package dev.nona.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * The command-line options of Flink's processes, derived as the distribution's scripts derive them: {@code
 * BashJavaUtils GET_JM_RESOURCE_PARAMS} / {@code GET_TM_RESOURCE_PARAMS} (here the same {@code
 * JobManagerProcessUtils} / {@code TaskExecutorProcessUtils} calls, in process), the Java 17 module flags of
 * the distribution's {@code env.java.opts.all}, and the log settings.
 */
final class FlinkProcessOptions {

    /** The Java 17 module flags of Flink's distribution ({@code env.java.opts.all} in its config.yaml). */
    static final List<String> JAVA17_OPENS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    /** JVM flags and program arguments of one process. */
    record Options(List<String> jvm, List<String> args) {
        Options {
            jvm = List.copyOf(jvm);
            args = List.copyOf(args);
        }
    }

    private FlinkProcessOptions() {}

    /** JobManager: heap, metaspace and direct memory flags (GET_JM_RESOURCE_PARAMS); no dynamic properties. */
    static Options jobManager(Configuration conf, Path confDir, Path logFile) {
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(conf);
        List<String> jvm = new ArrayList<>(split(JobManagerProcessUtils.generateJvmParametersStr(spec, conf)));
        jvm.addAll(common(confDir, logFile));
        return new Options(jvm, List.of("--configDir", confDir.toString(), "--executionMode", "cluster"));
    }

    /** TaskManager: memory flags, then the derived sizes as {@code -D} dynamic properties (GET_TM_RESOURCE_PARAMS). */
    static Options taskManager(Configuration conf, Path confDir, Path logFile) {
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(conf);
        List<String> jvm = new ArrayList<>(split(ProcessMemoryUtils.generateJvmParametersStr(spec)));
        jvm.addAll(common(confDir, logFile));
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(split(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec)));
        return new Options(jvm, args);
    }

    /** Flink's command line ({@code CliFrontend}). */
    static List<String> client(Path confDir) {
        List<String> jvm = new ArrayList<>(JAVA17_OPENS);
        jvm.add("-Dlog4j2.configurationFile=" + confDir.resolve("log4j2.xml").toUri());
        return jvm;
    }

    private static List<String> common(Path confDir, Path logFile) {
        List<String> opts = new ArrayList<>(JAVA17_OPENS);
        opts.add("-XX:+UseG1GC");
        opts.add("-Dlog.file=" + logFile);
        opts.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j2.xml").toUri());
        opts.add("-Dlog4j2.configurationFile=" + confDir.resolve("log4j2.xml").toUri());
        return opts;
    }

    private static List<String> split(String flags) {
        return Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
