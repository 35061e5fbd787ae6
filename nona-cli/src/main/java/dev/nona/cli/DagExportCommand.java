package dev.nona.cli;

import dev.nona.dag.DagJson;
import dev.nona.dag.DagValidator;
import dev.nona.dag.ModelDag;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code nona dag export}: reads one model DAG (PipeDream, JSON or zoo) and prints it in the JSON format
 * of docs/dag.md, e.g. to publish it on the {@code model-catalog} topic.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Print a model DAG in the JSON format {name, tasks[{id, ops}], edges[{from, to, bytes}]}.")
final class DagExportCommand extends DagInputCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        ModelDag dag = load();
        DagValidator.validate(dag);
        print(DagJson.write(dag));
        return 0;
    }
}
