package dev.nona.cli;

import dev.nona.dag.DagJson;
import dev.nona.dag.DagValidationException;
import dev.nona.dag.ModelDag;
import dev.nona.dag.PipeDreamConversion;
import dev.nona.dag.PipeDreamImporter;
import dev.nona.zoo.ModelZoo;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Base of the {@code nona dag} verbs that read one model DAG: {@code --pipedream FILE | --json FILE | --zoo NAME}. */
abstract class DagInputCommand {

    static final class Source {
        @Option(names = "--pipedream", paramLabel = "FILE", description = "a PipeDream profiler graph.txt")
        Path pipedream;

        @Option(names = "--json", paramLabel = "FILE", description = "a DAG in the JSON format of docs/dag.md")
        Path json;

        @Option(names = "--zoo", paramLabel = "NAME", description = "a built-in model (alexnet, vgg16, resnet18, densenet121, gpt2)")
        String zoo;
    }

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--reference-ops-per-second", paramLabel = "OPS",
            defaultValue = "" + PipeDreamConversion.DEFAULT_REFERENCE_OPS_PER_SECOND,
            description = "--pipedream only: speed of the profiled GPU in ops/s (default: ${DEFAULT-VALUE})")
    double referenceOpsPerSecond;

    @Option(names = "--batch-size", paramLabel = "B", defaultValue = "" + PipeDreamConversion.DEFAULT_BATCH_SIZE,
            description = "--pipedream only: batch size of the profile (default: ${DEFAULT-VALUE})")
    int batchSize;

    /** The DAG named by the options; bad input throws with a message naming the option and the problem. */
    ModelDag load() {
        if (source.pipedream != null) {
            PipeDreamConversion conversion = new PipeDreamConversion(referenceOpsPerSecond, batchSize);
            return read("--pipedream", source.pipedream, file -> PipeDreamImporter.read(file, conversion));
        }
        if (source.json != null) {
            return read("--json", source.json, DagJson::read);
        }
        return ModelZoo.load(source.zoo);
    }

    /** Prints {@code text} on the command's standard output. */
    void print(String text) {
        spec.commandLine().getOut().println(text);
        spec.commandLine().getOut().flush();
    }

    private static ModelDag read(String option, Path file, Reader reader) {
        try {
            return reader.read(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option + " file '" + file + "' does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " file '" + file + "' cannot be read: " + e, e);
        } catch (DagValidationException e) {
            throw new DagValidationException(option + " file '" + file + "': " + e.getMessage(), e);
        }
    }

    private interface Reader {
        ModelDag read(Path file) throws IOException;
    }
}
