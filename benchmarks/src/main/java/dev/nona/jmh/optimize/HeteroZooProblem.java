package dev.nona.jmh.optimize;

import dev.nona.bench.TableSizeBenchmark;
import dev.nona.dag.ContractedNode;
import dev.nona.dag.DagAnalysis;
import dev.nona.optimize.CostModel;
import dev.nona.optimize.JobClass;
import dev.nona.optimize.NonaProblem;
import dev.nona.optimize.Problems;
import dev.nona.workload.Background;
import dev.nona.workload.Cluster;
import dev.nona.workload.ColdStartCost;
import dev.nona.workload.ServerClass;
import dev.nona.zoo.ModelZoo;
import java.util.ArrayList;
import java.util.List;

/**
 * The heterogeneous benchmark workload: {@link ZooProblem}'s five zoo models with their fp32 weights
 * ({@link TableSizeBenchmark#ZOO_SIZE_BYTES}: AlexNet 244 MB,
 * VGG16 553 MB, ResNet18 47 MB, DenseNet121 32 MB, GPT-2 548 MB) on 80 servers in three classes 4&times; apart in
 * speed: 16 {@code big} of 4e11 ops/s and 16 GB, 32 {@code mid} of 1e11 ops/s and 2 GB, 32 {@code small} of 2.5e10
 * ops/s and 512 MB (below VGG16 and GPT-2 whole, below the models' sum); cold starts of 0.5 s + bytes at 2 GB/s;
 * each model an equal share of a 70% compute load of the cluster's capacity; background as {@link ZooProblem}.
 */
public final class HeteroZooProblem {
    static final List<ServerClass> CLASSES = List.of(new ServerClass("big", 16, 4e11, 16e9),
            new ServerClass("mid", 32, 1e11, 2e9), new ServerClass("small", 32, 2.5e10, 512e6));

    private HeteroZooProblem() {}

    public static NonaProblem build(CostModel costModel) {
        Cluster cluster = Cluster.ofClasses(CLASSES, ZooProblem.LINK_BITS_PER_SECOND, new ColdStartCost(0.5, 2e9));
        double capacity = cluster.servers() * cluster.opsPerSecond();
        List<JobClass> jobs = new ArrayList<>();
        List<String> names = ModelZoo.names();
        double total = 0;
        for (String name : names) {
            JobClass j = Problems.jobClass(name, 1, DagAnalysis.analyse(ModelZoo.load(name)), TableSizeBenchmark.ZOO_SIZE_BYTES.get(name));
            double ops = j.nodes().values().stream().filter(n -> !n.virtual()).mapToDouble(ContractedNode::ops).sum();
            double rate = ZooProblem.LOAD * capacity / (names.size() * ops);
            jobs.add(j.withRate(rate));
            total += rate;
        }
        Background bg = new Background(new Background.Comm(total / 100, 4e7), new Background.Compute(total / 100, 1e9));
        return new NonaProblem(jobs, cluster, bg, costModel);
    }
}
